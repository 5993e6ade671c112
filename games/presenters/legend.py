"""The legend of the sheet's short codes, per game, in the reader's language.

The codes are written in the reader's language, as that language's score sheets write them
("E8", "PM", "GMT" in French; "V8", "KM", "OM" in Dutch: ``games.labels.CONTRACT_CODES``),
each meaning one contract within its language; each code's name is given here, and only the
contracts of the night's point table are listed. The codes are taken from where the
sheet makes them (``games.dealforms``), so the legend cannot drift from the grid; a test checks
that every code the sheet model can write is explained.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from scoring.engine.games.belgian_whist import PASS

from ..dealforms import BID_IN_NAME, CONTRACT_SHORT, contract_short
from ..labels import CONTRACT_LABELS


def played_contracts(point_table: Any) -> frozenset[str] | None:
    """The contracts a night's point table (the engine's, or its model) has rows for (None:
    every contract of the game, a table without contracts)."""
    if point_table is None:
        return None
    if hasattr(point_table, "engine_table"):
        point_table = point_table.engine_table()
    rows = getattr(point_table, "rows", None)
    if not rows:
        return None
    return frozenset(row.contract for row in rows.values() if getattr(row, "contract", None))


def code_legend(game: str, contracts: frozenset[str] | None = None) -> list[tuple[str, str]]:
    """Each code the sheet can show for ``game`` with what it means: the game's own codes (in
    Belgian whist only the ``contracts`` of the night's point table, when given), then the
    marks every grid shares (penalty, dealer, mort)."""
    if game == "belgian_whist":
        entries = _belgian_whist(contracts)
    else:
        entries = list(GAME_CODES.get(game, lambda: [])())
    entries += [
        ("!", gettext("une pénalité dans la donne (son détail la nomme)")),
        ("•", gettext("le donneur de la donne")),
        ("–", gettext("le mort (à cinq), ou une donne sans numéro")),
    ]
    return entries


def _belgian_whist(contracts: frozenset[str] | None = None) -> list[tuple[str, str]]:
    played = [
        contract
        for contract in CONTRACT_SHORT
        if contract != PASS and (contracts is None or contract in contracts)
    ]
    entries = [(contract_short(c, None), str(CONTRACT_LABELS[c])) for c in played]
    with_bid = [c for c in ("emballage", *sorted(BID_IN_NAME)) if c in BID_IN_NAME and c in played]
    if with_bid:
        example = with_bid[0]
        entries.append(
            (
                contract_short(example, 8),
                gettext("le nombre collé au code : les plis demandés (ici %(contract)s à 8)")
                % {"contract": str(CONTRACT_LABELS[example]).lower()},
            )
        )
    entries += [
        ("✓9", gettext("contrat réussi, 9 plis faits par les déclarants")),
        ("✗5", gettext("contrat chuté, 5 plis faits par les déclarants")),
    ]
    if "petite_misere" in played:
        entries.append(
            (
                f"{contract_short('petite_misere', None)} 1/2",
                gettext("misère à plusieurs : 1 des 2 déclarants l'a réussie"),
            )
        )
    entries.append(
        (str(CONTRACT_SHORT[PASS]), gettext("tous passent : la donne ne prend pas de numéro"))
    )
    return entries


def _whist() -> list[tuple[str, str]]:
    return [
        ("9", gettext("les plis de l'équipe comptée (ses cases en gras)")),
        (gettext("H%(count)s") % {"count": 4}, gettext("4 honneurs annoncés")),
        (gettext("R%(count)s") % {"count": 2}, gettext("2 renonces")),
        ("♪", gettext("donne non jouée (je chante) : sans numéro")),
    ]


def _hearts() -> list[tuple[str, str]]:
    return [
        ("♥", gettext("une donne de cœurs")),
        ("Q♠", gettext("la dame de pique, prise par le joueur de la case marquée")),
        (gettext("Ren."), gettext("une renonce, le fautif marqué")),
        (gettext("Mél."), gettext("des plis mélangés, le fautif marqué")),
    ]


def _besigue() -> list[tuple[str, str]]:
    return [
        (gettext("Coup"), gettext("un coup ; en gras, qui a fait le dernier pli")),
    ]


GAME_CODES = {
    "belgian_whist": _belgian_whist,
    "whist": _whist,
    "hearts": _hearts,
    "besigue": _besigue,
}
