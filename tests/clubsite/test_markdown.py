"""A club's Markdown is stored as HTML that runs nothing in a visitor's browser."""

from clubsite.markdown import rendered_html


def test_headings_lists_bold_links_and_tables_are_kept():
    html = rendered_html("## Le club\n\n- **mardi**\n- [site](https://a.be)\n\n|a|b|\n|-|-|\n|1|2|")
    assert "<h2>Le club</h2>" in html and "<strong>mardi</strong>" in html
    assert '<a href="https://a.be" rel="noopener nofollow">site</a>' in html
    assert "<table>" in html and "<td>1</td>" in html


def test_scripts_event_attributes_and_javascript_or_data_links_never_survive():
    html = rendered_html(
        "<script>alert(1)</script> <img src=x onerror=alert(1)> "
        "[a](javascript:alert(1)) ![b](data:image/png;base64,AAAA) <iframe src=x></iframe>"
    )
    assert "<script" not in html and "<img src=x" not in html and "<iframe" not in html
    assert "javascript:" not in html.replace("[a](javascript:alert(1))", "")
    assert 'src="data:' not in html and 'href="javascript:' not in html


def test_ten_thousand_nested_lists_render_without_an_error():
    assert rendered_html("- " * 10_000 + "x")
