"""What a scorer's phone posts for a deal, built from the deal form itself (so the tests do
not depend on the form's field names)."""

from __future__ import annotations

from typing import Any

from games.dealforms import deal_form_class
from games.models import Poule


def deal_post(poule: Poule, deal: dict[str, Any]) -> dict[str, Any]:
    """The POST data of the poule's deal form filled with ``deal``."""
    seats = [(s.number, s.player.display_name) for s in poule.seats.select_related("player")]
    form = deal_form_class(poule.tournament.game)(
        seats=seats, table=poule.tournament.point_table.engine_table(), initial_deal=deal
    )
    data: dict[str, Any] = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if value is None or value == "" or value is False or value == []:
            continue
        if value is True:
            value = "on"
        data[form.add_prefix(name)] = value
    return data
