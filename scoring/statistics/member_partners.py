"""His best partners on "Mes résultats", named as each chooses to be named today: his pair
contracts' lines (``PartnerLine``, counted with his season) and the few best read with their
names and whether the reader knows them (``club.names``), in one query compiled once
(``infra.compiled``): the name rule's Exists cost more to build and compile than to run."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import QuerySet

from club.models import Player
from club.name_order import name_sorted
from club.names import NameReader, name_shown
from infra.compiled import STAND_INS, Compiled

# What a player's shown name is made of (``club.names.name_shown``).
PUBLIC_NAME = (
    "player__display_name",
    "player__first_name",
    "player__last_name",
    "player__public_name",
)
TOP_PARTNERS = 5
# The best partners read in the compiled query at most (the best five and those tied with
# the last of them; the ids repeated up to this many); more (a tie of many) go by the ORM.
NAMED_AT_ONCE = len(STAND_INS) - 1


@dataclass
class PartnerLine:
    # His partner by id: a player's row is built only for the few named on the page (a
    # season holds dozens of partners, and a model instance costs more than its line).
    player_id: int
    deals: int = 0
    made: int = 0
    points: int = 0
    named: Player | None = None

    @property
    def player(self) -> Player:
        """His partner as ``partners_named_today`` read him (an unnamed one: his id alone)."""
        return self.named if self.named is not None else Player(pk=self.player_id)

    @property
    def made_rate(self) -> Fraction:
        return Fraction(self.made, self.deals) if self.deals else Fraction(0)


def partner_order(line: PartnerLine) -> tuple[int, Fraction, int]:
    return (-line.points, -line.made_rate, -line.deals)


def partners_named_today(partners: list[PartnerLine], reader: NameReader) -> list[PartnerLine]:
    """His ``TOP_PARTNERS`` best partners among ``partners`` (computed earlier), named as each
    chooses to be named now (a member may have changed his public name since), each marked
    whether ``reader`` knows him; ties on the figures go by name. One query, for the best
    ones only (and those tied with the last of them)."""
    if not partners:
        return []
    # Each line's order made once (a season holds dozens of partners, their rates fractions);
    # its place among them breaks no tie of the figures, only keeps the sort off the lines.
    ordered = sorted([(partner_order(line), n, line) for n, line in enumerate(partners)])
    last = ordered[min(TOP_PARTNERS, len(ordered)) - 1][0]
    best = [line for order, _n, line in ordered if order <= last]
    ids = [line.player_id for line in best]
    named = {player.pk: player for player in _named(reader, ids)}
    for line in best:
        line.named = named.get(line.player_id) or line.player
    best.sort(key=lambda p: (*partner_order(p), name_sorted(name_shown(p.player, reader))))
    return best[:TOP_PARTNERS]


def _players(reader: NameReader, ids: list[int]) -> QuerySet[Player]:
    fields = [name.removeprefix("player__") for name in PUBLIC_NAME]
    return reader.annotate(Player.objects.filter(pk__in=ids).only(*fields))


class _Account:
    """An account by its id alone: what ``NameReader`` reads of a member's account."""

    is_authenticated = True
    is_superuser = False

    def __init__(self, pk: int) -> None:
        self.pk = pk


def _as_account(account: int, *ids: int) -> QuerySet[Player]:
    return _players(NameReader(user=_Account(account)), list(ids))


_NAMED = Compiled(_as_account)


def _named(reader: NameReader, ids: list[int]) -> Any:
    """The players ``ids`` with their names, each marked whether ``reader`` knows him: for a
    member's account by the compiled query (the ids repeated up to ``NAMED_AT_ONCE``: the
    same query for any count of them), for anyone else (``NameReader.account_alone``) by
    the ORM."""
    account = reader.account_alone()
    if account is None or len(ids) > NAMED_AT_ONCE:
        return _players(reader, ids)
    return _NAMED(account, *ids, *[ids[-1]] * (NAMED_AT_ONCE - len(ids)))
