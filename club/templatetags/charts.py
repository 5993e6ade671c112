"""``{% line_chart %}``: a line chart drawn by the server as an inline SVG ("Mes résultats": the
member's season against the club's average; a player's « cote » against the club's mean where
everybody starts). Chart.js took about 1.3 s of a slowed phone's CPU to draw the same two lines
(Lighthouse's total blocking time); an SVG needs no script and is there at the first paint.

The chart is an image to a screen reader (``role="img"``): its ``<title>`` names it, its
``<desc>`` says its span and its lines' last figures; the table under it gives every number.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from django import template
from django.template.loader import get_template
from django.utils.formats import number_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

register = template.Library()

# The drawing's own units (the SVG scales to the page's width): a phone's 360 px at 1:1.
WIDTH, HEIGHT = 360, 220
TOP, RIGHT, BOTTOM = 10, 30, 22
# The y axis's numbers; its title, when it has one, turned along it on their left.
LEFT, TITLE_SPACE = 38, 16
X_LABELS = 4  # dates under the axis at most (a short date is about 60 units wide)
DOTS_UP_TO = 60  # a point's dot is drawn up to this many nights; beyond, the line alone


def nice_step(span: float, count: int, whole: bool) -> float:
    """A step of 1, 2 or 5 times a power of ten giving about ``count`` intervals."""
    raw = max(span, 1e-9) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    return max(step, 1) if whole else step


def axis(values: Sequence[float], from_zero: bool, margin: float | None, whole: bool):
    """The y axis's bounds and its ticks. ``margin``: the bounds fitted to the numbers, that
    much either side, to whole units (the cote moves by tenths: from zero it would be flat);
    else from zero (or the lowest number) to the first tick above the highest."""
    low, high = min(values), max(values)
    if margin is not None:
        low, high = math.floor(low - margin), math.ceil(high + margin)
        step = nice_step(high - low, 4, whole)
        first = math.ceil(low / step) * step
    else:
        low = min(low, 0) if from_zero else low
        step = nice_step(high - low or 1, 4, whole)
        low = math.floor(low / step) * step
        high = max(math.ceil(high / step) * step, low + step)
        first = low
    ticks, tick = [], first
    while tick <= high + step / 1000:
        ticks.append(round(tick, 6))
        tick += step
    places = 0 if float(step).is_integer() else max(0, -math.floor(math.log10(step)))
    return low, high, ticks, places


@register.simple_tag
def line_chart(
    chart_id: str,
    labels: Sequence[str],
    line: Sequence[float],
    reference: Sequence[float] | float,
    *,
    title: str,
    line_label: str,
    reference_label: str,
    y_label: str = "",
    from_zero: bool = False,
    margin: float | None = None,
    whole: bool = False,
    line_dot: float = 3,
    reference_dot: float = 3,
) -> SafeString | str:
    """The chart of ``line`` (the accent's full line) against ``reference`` (the muted dashed
    one; a single number: a level line), one point a night named by ``labels``. Drawn by its
    Jinja2 template (``jinja2/club/line_chart.html``), every number written here once: a
    decade's chart is hundreds of points, and Django's template language's filters per point
    were most of its time."""
    if not labels:
        return ""
    count = len(labels)
    level = not isinstance(reference, Sequence)
    if level:
        reference = [reference] * count
    low, high, ticks, places = axis([*line, *reference], from_zero, margin, whole)
    left = LEFT + (TITLE_SPACE if y_label else 0)
    plot_width, plot_height = WIDTH - left - RIGHT, HEIGHT - TOP - BOTTOM

    span = (high - low) or 1

    def y(value: float) -> float:
        return round(TOP + plot_height * (high - value) / span, 1)

    # Each night's x once for both lines, and its text with them (a decade's chart is
    # hundreds of points: writing the numbers was most of its time).
    if count > 1:
        xs = [round(left + plot_width * i / (count - 1), 1) for i in range(count)]
    else:
        xs = [round(left + plot_width / 2, 1)]
    xs_text = [f"{px}," for px in xs]

    def drawn(values: Sequence[float], dot: float, level: bool = False) -> dict[str, Any]:
        # A level line (a single number) is at one height throughout: counted once.
        ys = [y(values[0])] * count if level else [y(v) for v in values]
        return {
            "points": " ".join([f"{px}{py}" for px, py in zip(xs_text, ys, strict=True)]),
            "dots": list(zip(xs, ys, strict=True)) if dot and count <= DOTS_UP_TO else [],
            "dot": dot,
        }

    every = max(1, math.ceil((count - 1) / (X_LABELS - 1)))
    shown = sorted({*range(0, count, every), count - 1}) if count > 1 else [0]
    if len(shown) > 1 and shown[-1] - shown[-2] < every / 2:
        shown.pop(-2)  # the last date always, never crowding the one before it
    number = lambda value, decimals=places: number_format(value, decimals, use_l10n=True)  # noqa: E731
    context = {
        "id": chart_id,
        "width": WIDTH,
        "height": HEIGHT,
        "left": left,
        "left_text": left - 4,  # the y axis's numbers, just left of it
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "bottom_text": HEIGHT - BOTTOM + 15,  # the dates, under the axis
        "middle": round(TOP + plot_height / 2, 1),
        "ticks": [(y(tick), number(tick)) for tick in ticks],
        "dates": [(xs[i], labels[i]) for i in shown],
        "line": drawn(line, line_dot),
        "reference": drawn(reference, reference_dot, level),
        "title": title,
        "line_label": line_label,
        "reference_label": reference_label,
        "y_label": y_label,
        "low": low,
        "high": high,
        "desc": _(
            "Du %(first)s au %(last)s, %(count)d soirées. %(line)s : %(line_last)s "
            "(au départ %(line_first)s). %(reference)s : %(reference_last)s."
        )
        % {
            "first": labels[0],
            "last": labels[-1],
            "count": count,
            "line": line_label,
            "line_first": number(line[0], 2),
            "line_last": number(line[-1], 2),
            "reference": reference_label,
            "reference_last": number(reference[-1], 2),
        },
    }
    return mark_safe(get_template("club/line_chart.html", using="jinja2").render(context))
