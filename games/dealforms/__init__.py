"""The deal-entry forms of the score sheet: what a scorer taps on a phone ↔ the deal JSON.

One form per game turns the fields into the deal as the site stores it (night-format.md, players
named by seat number strings "1" … "5") and opens a stored deal for correction. A form checks
only the shape: what the chosen contract needs, integers. The rules (how many declarers, tricks
in range, the mort declaring, hearts adding up to 13) are the engine's: the view adds the
engine's message to the form when the service refuses the deal, so a rule is never written
twice.

Canonical output, so that a deal typed and re-opened gives back the same JSON: optional keys are
left out when empty; declarers keep the order of the deal being corrected, new ones follow in
seat order; whist teams are in seat order; hearts and brisques name every seat.

The package has one module per game (its form and its line on the score sheet) and ``base`` for
what they share: the form's penalties, the helpers, ``deal_post_data``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import ngettext

from infra.typography import colon

from .base import PENALTY_ROWS, TRICK_CHOICES, TRICKS, DealForm, deal_post_data
from .belgian_whist import (
    BID_IN_NAME,
    CONTRACT_LABELS,
    CONTRACT_SHORT,
    BelgianWhistDealForm,
    _describe_belgian_whist,
    _short_belgian_whist,
    contract_short,
)
from .besigue import COMBINATION_LABELS, BesigueDealForm, _describe_besigue, _short_besigue
from .hearts import HeartsDealForm, _describe_hearts, _short_hearts
from .whist import REVOKE_ROWS, WhistDealForm, _describe_whist, _short_whist, whist_progress

__all__ = [
    "BID_IN_NAME",
    "COMBINATION_LABELS",
    "CONTRACT_LABELS",
    "CONTRACT_SHORT",
    "DESCRIBE",
    "FORMS",
    "PENALTY_ROWS",
    "REVOKE_ROWS",
    "TRICKS",
    "TRICK_CHOICES",
    "BelgianWhistDealForm",
    "BesigueDealForm",
    "DealForm",
    "HeartsDealForm",
    "WhistDealForm",
    "contract_short",
    "deal_form_class",
    "deal_post",
    "deal_post_data",
    "describe_deal",
    "short_deal",
    "whist_progress",
]

FORMS: dict[str, type[DealForm]] = {
    form.game: form
    for form in (BelgianWhistDealForm, WhistDealForm, HeartsDealForm, BesigueDealForm)
}


def deal_form_class(game: str) -> type[DealForm]:
    """The deal form of ``game``; ``KeyError`` for a game the site does not know."""
    return FORMS[game]


def deal_post(poule: Any, deal: dict[str, Any]) -> dict[str, Any]:
    """What a scorer's phone posts to record ``deal`` on the poule's sheet: for tests, the
    benchmarks and the smoke test that drive the score sheet."""
    seats = [(s.number, s.player.display_name) for s in poule.seats.select_related("player")]
    form = deal_form_class(poule.tournament.game)(
        seats=seats, point_table=poule.tournament.point_table.engine_table(), initial_deal=deal
    )
    return deal_post_data(form)


# --------------------------------------------------------------------------------------------
# One line per deal on the score sheet


def describe_deal(game: str, data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One short French line for the sheet: "Emballage 8 — Anne, Chloé : 9 plis"."""

    def name(seat: Any) -> str:
        return names.get(str(seat), str(seat))

    line = DESCRIBE[game](data, name)
    penalties = data.get("penalties") or []
    if penalties:
        listed = ", ".join(f"{name(p.get('player'))} {p.get('points')}" for p in penalties)
        label = ngettext("pénalité", "pénalités", len(penalties))
        line = f"{line} · {label}{colon()} {listed}"
    return line


DESCRIBE: dict[str, Callable[[Mapping[str, Any], Callable[[Any], str]], str]] = {
    "belgian_whist": _describe_belgian_whist,
    "whist": _describe_whist,
    "hearts": _describe_hearts,
    "besigue": _describe_besigue,
}


# --------------------------------------------------------------------------------------------
# One compact row per deal on the phone's grid


SHORT: dict[str, Callable[[Mapping[str, Any], Any], tuple[str, dict[str, str]]]] = {
    "belgian_whist": _short_belgian_whist,
    "whist": _short_whist,
    "hearts": _short_hearts,
    "besigue": _short_besigue,
}


def short_deal(game: str, data: Mapping[str, Any], point_table: Any) -> tuple[str, dict[str, str]]:
    """The deal as one grid row: its code ("E8 ✓9", "S6 ✗5", "PM 2/2", "♥ Q♠", "Coup") and the
    seats to mark in their cells (seat number → "decl" or "queen")."""
    code, marks = SHORT[game](data, point_table)
    if data.get("penalties"):
        code = f"{code} !"
    return code, marks
