"""``{% line_chart %}``: the season's and the « cote »'s charts drawn by the server as an SVG, an
image named and told in the reader's language, its axis fitted to its numbers."""

from __future__ import annotations

import re

from django.template import Context, Template
from django.utils import translation

from club.templatetags.charts import axis, line_chart


def drawn(**given) -> str:
    arguments = {
        "title": "Mes points",
        "line_label": "Mes points (cumul)",
        "reference_label": "Moyenne du club",
    }
    return line_chart(**{**arguments, **given})


def polyline(svg: str, name: str) -> list[tuple[float, float]]:
    points = re.search(rf'<polyline class="{name}" points="([^"]*)"', svg).group(1)
    return [tuple(float(n) for n in point.split(",")) for point in points.split()]


def test_no_night_no_chart():
    assert drawn(chart_id="c", labels=[], line=[], reference=[]) == ""


def test_a_season_from_zero_in_whole_numbers_each_night_a_point():
    svg = drawn(
        chart_id="season-chart",
        labels=["10/01", "10/02", "10/03"],
        line=[5, 5, 9],
        reference=[2, 2.6, 3.5],
        y_label="Points de tournoi",
        from_zero=True,
        whole=True,
    )

    assert 'role="img" aria-labelledby="season-chart-title season-chart-desc"' in svg
    assert '<title id="season-chart-title">Mes points</title>' in svg
    assert ">Points de tournoi</text>" in svg
    ticks = re.findall(r'dy="4">([^<]*)</text>', svg)
    assert ticks[0] == "0" and all(tick.isdigit() for tick in ticks)
    mine, average = polyline(svg, "line"), polyline(svg, "reference")
    assert len(mine) == len(average) == 3
    # Up the page is more: the third night (9) is above the first (5), the nights in order.
    assert mine[2][1] < mine[0][1] and mine[0][0] < mine[1][0] < mine[2][0]
    assert svg.count("<circle") == 6


def test_a_level_reference_and_an_axis_fitted_to_the_cote():
    svg = drawn(chart_id="rating", labels=["a", "b"], line=[25.4, 27.2], reference=25, margin=1)

    assert 'data-low="24" data-high="29"' in svg
    assert {y for _x, y in polyline(svg, "reference")} == {polyline(svg, "reference")[0][1]}


def test_its_words_and_figures_in_the_readers_language():
    with translation.override("en"):
        svg = drawn(chart_id="c", labels=["a", "b"], line=[1.5, 2.25], reference=[1, 1])
    assert "From a to b, 2 nights. Mes points (cumul): 2.25 (at the start 1.50)." in svg
    with translation.override("fr"):
        svg = drawn(chart_id="c", labels=["a", "b"], line=[1.5, 2.25], reference=[1, 1])
    assert "Mes points (cumul) : 2,25 (au départ 1,50)" in svg
    # The drawing's own numbers are never localised: "12,5" would break the SVG.
    assert re.search(r'points="[0-9., ]+"', svg)


def test_a_decade_draws_its_lines_without_a_dot_a_night_and_four_dates():
    labels = [f"n{index}" for index in range(300)]
    svg = drawn(chart_id="c", labels=labels, line=list(range(300)), reference=[0] * 300)

    assert "<circle" not in svg
    assert re.findall(r'<text x="[0-9.]+" y="213">([^<]*)</text>', svg) == [
        "n0",
        "n100",
        "n200",
        "n299",
    ]


def test_the_axis_steps_are_one_two_or_five_times_a_power_of_ten():
    assert axis([0, 37], from_zero=True, margin=None, whole=True)[:3] == (
        0,
        40,
        [0, 10, 20, 30, 40],
    )
    assert axis([0.1, 0.3], from_zero=True, margin=None, whole=True)[2] == [0, 1]


def test_the_tag_in_a_template_is_an_svg_not_escaped():
    html = Template(
        "{% load charts %}{% line_chart 'c' labels line 3 title='T' line_label='L'"
        " reference_label='R' %}"
    ).render(Context({"labels": ["a"], "line": [2]}))
    assert html.lstrip().startswith('<figure class="season-chart">')
    assert "&lt;" not in html
