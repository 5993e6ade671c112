"""``{% code_legend game %}``: the legend of the sheet's short codes for a game, wherever codes
or the grid's marks are shown (the phone's sheet, the results page).

The legend depends only on the game, the language and the point table's contracts: rendered
once per process for each
(the phone's sheet shows it after every deal of the night)."""

from functools import cache
from typing import Any

from django import template
from django.template.loader import get_template
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from ..presenters.legend import code_legend as legend_entries
from ..presenters.legend import played_contracts

register = template.Library()


@register.simple_tag
def code_legend(game: str, opened: bool = False, point_table: Any = None) -> SafeString:
    """``point_table``: the night's, whose contracts alone are listed."""
    return _legend_html(game, bool(opened), get_language(), played_contracts(point_table))


@cache
def _legend_html(
    game: str, opened: bool, language: str | None, contracts: frozenset[str] | None
) -> SafeString:
    # The language is the key only: the active one is the one asked for.
    return get_template("games/_legend.html").render(
        {"entries": legend_entries(game, contracts), "opened": opened}
    )
