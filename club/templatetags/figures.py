"""``{{ value|or_unknown }}``: a figure the site does not know (what an imported ranking's
table did not give: game points, nights won …) is shown "—" with its reason, never as 0.

``{{ value|points }}``: tournament points as every page, e-mail and export writes them.

``{{ value|figure }}``: a whole number shown to a reader (game points), a negative one with the
typographic minus "−" (U+2212) as the cote's figures write it, never a hyphen.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.formats import get_format
from django.utils.html import format_html
from django.utils.translation import gettext as _

from scoring.engine.standings import points_text

register = template.Library()


@register.filter
def or_unknown(value: Any) -> Any:
    if value is None:
        return format_html(
            '<abbr class="unknown" title="{}">—</abbr>',
            _("Inconnu : le classement importé ne le donne pas"),
        )
    return value


@register.filter
def points(value: Any, places: Any = "") -> str:
    """Points in the reader's language: "2,50" in French, "2.50" in English, "5" for a whole
    value (``|points:2``: "5,00", two decimals always), rounded by the engine's one rule
    (``points_text``); nothing for no value. The results page's Jinja2 tables call it too."""
    if value is None or value == "":
        return ""
    places_always = str(places) == "2"
    if not places_always and (isinstance(value, int) or getattr(value, "denominator", 0) == 1):
        # A whole value is written without its separator: the language's is not looked up
        # (most of a night's points: 5, 3, 1, 0).
        return points_text(value)
    return points_text(value, get_format("DECIMAL_SEPARATOR"), places_always=places_always)


# The one minus of the game points shown on the pages (the cote's figures write it too);
# ``points`` keeps the hyphen: the exports and files that share it are parsed by programs.
MINUS = "\u2212"


def with_minus(text: str) -> str:
    """A figure's text with its leading hyphen written as the minus sign."""
    return MINUS + text[1:] if text.startswith("-") else text


@register.filter
def figure(value: Any) -> str:
    """A whole number as shown: "−30", "12", nothing for no value."""
    if value is None or value == "":
        return ""
    return with_minus(str(value))
