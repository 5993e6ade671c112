"""``{% code_legend game %}``: the legend of the sheet's short codes for a game, wherever codes
or the grid's marks are shown (the phone's sheet, the results page)."""

from typing import Any

from django import template

from ..presenters.legend import code_legend as legend_entries

register = template.Library()


@register.inclusion_tag("games/_legend.html")
def code_legend(game: str, opened: bool = False) -> dict[str, Any]:
    return {"entries": legend_entries(game), "opened": opened}
