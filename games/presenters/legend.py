"""The legend of the sheet's short codes, per game, in the reader's language.

The codes are the club's own, as printed on its paper sheets ("E8", "PM", "GMT"): the same in
every language, so a code never means two contracts (docs/running-a-club.md says why). What
changes with the language is each code's name, given here. The codes are taken from where the
sheet makes them (``games.dealforms``), so the legend cannot drift from the grid; a test checks
that every code the sheet model can write is explained.
"""

from __future__ import annotations

from django.utils.translation import gettext

from scoring.engine.games.belgian_whist import PASS

from ..dealforms import BID_IN_NAME, CONTRACT_SHORT, contract_short
from ..labels import CONTRACT_LABELS


def code_legend(game: str) -> list[tuple[str, str]]:
    """Each code the sheet can show for ``game`` with what it means: the game's own codes, then
    the marks every grid shares (penalty, dealer, mort)."""
    entries = list(GAME_CODES.get(game, lambda: [])())
    entries += [
        ("!", gettext("une pénalité dans la donne (son détail la nomme)")),
        ("•", gettext("le donneur de la donne")),
        ("–", gettext("le mort (à cinq), ou une donne sans numéro")),
    ]
    return entries


def _belgian_whist() -> list[tuple[str, str]]:
    entries = [
        (contract_short(contract, None), str(CONTRACT_LABELS[contract]))
        for contract in CONTRACT_SHORT
        if contract != PASS
    ]
    bid_example = "emballage" if "emballage" in BID_IN_NAME else sorted(BID_IN_NAME)[0]
    entries += [
        (
            contract_short(bid_example, 8),
            gettext("le nombre collé au code : les plis demandés (ici %(contract)s à 8)")
            % {"contract": str(CONTRACT_LABELS[bid_example]).lower()},
        ),
        ("✓9", gettext("contrat réussi, 9 plis faits par les déclarants")),
        ("✗5", gettext("contrat chuté, 5 plis faits par les déclarants")),
        (
            f"{contract_short('petite_misere', None)} 1/2",
            gettext("misère à plusieurs : 1 des 2 déclarants l'a réussie"),
        ),
        (str(CONTRACT_SHORT[PASS]), gettext("tous passent : la donne ne prend pas de numéro")),
    ]
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
