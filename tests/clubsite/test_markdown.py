"""A club's Markdown as stored HTML: what it keeps, and every way in for a script refused."""

from __future__ import annotations

import pytest

from clubsite.markdown import TEXT_MAX, TextTooDeep, TextTooLong, rendered_html


def test_headings_lists_links_bold_and_tables_are_kept():
    html = rendered_html(
        "## Où jouer\n\n- **jeudi**\n- *19 h 30*\n\n[Le club](/clubs/x/le-club/)\n\n"
        "| Membre | 25 € |\n|---|---|\n| Invité | 3 € |\n"
    )
    assert '<h2 id="ou-jouer">Où jouer</h2>' in html
    assert "<li><strong>jeudi</strong></li>" in html
    assert '<a href="/clubs/x/le-club/">Le club</a>' in html
    assert "<table>" in html and "<td>3 €</td>" in html


def test_two_headings_of_the_same_words_get_two_anchors():
    html = rendered_html("## Solo\n\n## Solo\n")
    assert 'id="solo"' in html and 'id="solo-2"' in html


@pytest.mark.parametrize(
    "text",
    [
        "<script>alert(1)</script>",
        '<img src="/x.png" onerror="alert(1)">',
        "<iframe src=https://evil.example></iframe>",
        '<a href="#" onclick="alert(1)">x</a>',
        "<div style='background:url(javascript:alert(1))'>x</div>",
    ],
)
def test_raw_html_is_shown_as_text_never_as_markup(text):
    html = rendered_html(text)
    for tag in ("<script", "<img", "<iframe", "<a ", "<div"):
        assert tag not in html
    assert "&lt;" in html


@pytest.mark.parametrize(
    "link",
    [
        "[x](javascript:alert(1))",
        "[x](JaVaScRiPt:alert(1))",
        "[x](data:text/html;base64,PHNjcmlwdD4=)",
        "[x](vbscript:msgbox(1))",
        "![x](data:image/png;base64,iVBORw0KGgo=)",
        "<javascript:alert(1)>",
    ],
)
def test_script_and_data_links_are_dropped(link):
    html = rendered_html(link)
    assert 'href="javascript' not in html.lower()
    assert 'href="data' not in html.lower() and 'src="data' not in html.lower()
    assert 'href="vbscript' not in html.lower()


def test_a_link_out_of_the_site_is_marked_noopener_nofollow_and_the_sites_own_is_not():
    html = rendered_html("[Fédération](https://whist.example/) [Classement](/clubs/x/classement/)")
    assert '<a href="https://whist.example/" rel="noopener nofollow">' in html
    assert '<a href="/clubs/x/classement/">' in html


def test_an_image_from_the_site_is_kept_and_one_from_elsewhere_loses_its_address(settings):
    html = rendered_html(
        "![Salle](/media/clubs/salle.jpg) ![Pisteur](https://tracker.example/p.gif)"
    )
    assert '<img src="/media/clubs/salle.jpg" alt="Salle">' in html
    assert "tracker.example" not in html
    html = rendered_html("![Pisteur](//tracker.example/p.gif)")
    assert "tracker.example" not in html


def test_uploads_served_from_object_storage_are_the_sites_own(settings):
    settings.MEDIA_URL = "https://photos.example/media/"
    html = rendered_html("![Salle](https://photos.example/media/salle.jpg)")
    assert 'src="https://photos.example/media/salle.jpg"' in html


def test_ten_thousand_nested_lists_are_refused_in_words():
    with pytest.raises(TextTooDeep, match="imbrique trop"):
        rendered_html("- " * 10_000 + "fond")


def test_ten_thousand_nested_quotes_and_deep_indented_lists_are_refused_in_words():
    with pytest.raises(TextTooDeep):
        rendered_html("> " * 10_000 + "fond")
    with pytest.raises(TextTooDeep):
        rendered_html("".join("  " * level + "- x\n" for level in range(300)))


def test_lists_nested_as_a_club_nests_them_are_kept_whole():
    text = "".join("  " * level + f"- niveau {level}\n" for level in range(8))
    html = rendered_html(text)
    assert html.count("<ul>") == 8 and "niveau 7" in html


def test_a_text_past_the_cap_is_refused_in_words():
    with pytest.raises(TextTooLong, match="au plus"):
        rendered_html("a" * (2 * 1024 * 1024))
    assert rendered_html("a" * TEXT_MAX).startswith("<p>")


def test_french_punctuation_keeps_its_space_on_the_same_line():
    html = rendered_html("Salle « du Manège » : jeudi ; café ! [Classement](/clubs/x/?a=1)")
    assert "«\u00a0du Manège\u00a0»\u00a0: jeudi\u202f; café\u202f!" in html.replace(
        "&nbsp;", "\u00a0"
    )
    assert 'href="/clubs/x/?a=1"' in html
