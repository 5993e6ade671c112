"""A player's statistics at his club and a season's, added up on read from his seasons summed
when their nights were stored (``seasons``; ``PlayerSeasonStats``, themselves the sum of the
nights' lines, ``nights``): a fixed number of queries and a row a season however many nights,
never a deal read again."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import orjson
from django.db.models import QuerySet, TextField
from django.db.models.functions import Cast

from club.models import Player
from club.name_order import name_sorted
from club.names import NameReader, name_shown
from games.models import COUNTED_STATUSES, Tournament, night_title
from infra.compiled import STAND_INS, Compiled

from ..models import PlayerRating, PlayerSeasonStats
from .nights import ROLES
from .seasons import seasons_added

TOP = 5
REGULAR = 5


@dataclass
class PartnerStat:
    player_id: int
    deals: int
    made: int
    points: int
    name: str = ""

    @property
    def per_deal(self) -> Fraction:
        return Fraction(self.points, self.deals) if self.deals else Fraction(0)


@dataclass
class OpponentStat:
    player_id: int
    deals: int
    mine: int
    theirs: int
    name: str = ""

    @property
    def net(self) -> int:
        return self.mine - self.theirs


@dataclass
class NightLine:
    tournament_id: int
    name: str
    date: datetime.date
    game_points: int
    rank: int | None

    @property
    def title(self) -> str:
        # Named when read: the statistics are cached once for every reader's language.
        return night_title(self.name, self.date)


@dataclass
class PlayerStatistics:
    nights: int = 0
    deals: int = 0
    mort: int = 0
    roles: dict[str, list[int]] = field(default_factory=dict)
    contracts: dict[str, list[int]] = field(default_factory=dict)
    best_partners: list[PartnerStat] = field(default_factory=list)
    worst_partners: list[PartnerStat] = field(default_factory=list)
    opponents: list[OpponentStat] = field(default_factory=list)
    best_night: NightLine | None = None
    longest_streak: int = 0
    current_streak: int = 0
    ratings: list[dict[str, Any]] = field(default_factory=list)

    def role_lines(self) -> list[tuple[str, int, Fraction]]:
        return [
            (role, deals, Fraction(points, deals) if deals else Fraction(0))
            for role, (deals, points) in ((r, self.roles.get(r, [0, 0])) for r in ROLES)
        ]

    def contract_lines(self) -> list[tuple[str, int, int, Fraction]]:
        return [
            (code, played, made, Fraction(100 * made, played) if played else Fraction(0))
            for code, (played, made) in sorted(self.contracts.items())
        ]


def visible_statuses(own: bool) -> tuple[str, ...]:
    """The public reads published nights; the member himself every night that counts."""
    return tuple(COUNTED_STATUSES) if own else (Tournament.Status.PUBLISHED,)


def _seasons_summed(own: bool) -> Compiled:
    def seasons(player: int, club: int) -> QuerySet[PlayerSeasonStats]:
        return (
            PlayerSeasonStats.objects.filter(
                player=player, season__club=club, published_only=not own
            )
            .order_by("season__start", "season_id")
            # As text, decoded by orjson (``player_statistics``): the ORM's json.loads was
            # three times the cost.
            .annotate(text=Cast("data", TextField()))
            .values_list("text", flat=True)
        )

    return Compiled(seasons)


def _ratings_read(own: bool) -> Compiled:
    statuses = visible_statuses(own)

    def ratings(player: int, club: int) -> QuerySet[PlayerRating]:
        # The deals that moved his cote as text: a page tells only his latest nights' (decoded
        # then), not a decade's.
        return (
            PlayerRating.objects.filter(
                player=player, tournament__club=club, tournament__status__in=statuses
            )
            .order_by("tournament__date", "tournament_id")
            .annotate(moves_text=Cast("moves", TextField()))
            .values(
                "tournament_id",
                "tournament__date",
                "game",
                "mu",
                "sigma",
                "conservative",
                "deals",
                "change",
                "moves_text",
            )
        )

    return Compiled(ratings)


def _players_named(*ids: int) -> QuerySet[Player]:
    return Player.objects.filter(pk__in=ids).only(*Player.PUBLIC_NAME_FIELDS)


# The players his statistics name (five partners, five more, five opponents at most).
_NAMED = Compiled(_players_named)
# His seasons' summaries and his ratings, as the member himself reads them (True) and as the
# public does (False): each query compiled once (``infra.compiled``).
_SEASONS = {own: _seasons_summed(own) for own in (False, True)}
_RATINGS = {own: _ratings_read(own) for own in (False, True)}


def player_statistics(
    player: Player, club: Any, *, own: bool = False, reader: NameReader | None = None
) -> PlayerStatistics:
    """The player's statistics at ``club``: three queries (his seasons' summaries, his
    ratings, the names of his partners and opponents), however many nights. Partners and
    opponents are named as ``reader`` may see them (``club.names``; None: the public). The
    three are compiled once: building them cost more than running them."""
    own = bool(own)
    # His seasons as summed when their nights were stored (``seasons``), a row a season.
    total = seasons_added(map(orjson.loads, _SEASONS[own](player.pk, club.pk)))
    result = PlayerStatistics(
        nights=total["nights"],
        deals=total["deals"],
        mort=total["mort"],
        roles=total["roles"],
        contracts=total["contracts"],
    )
    partners, opponents = total["partners"], total["opponents"]
    if total["best_night"] is not None:
        tournament_id, date, name, game_points, rank = total["best_night"]
        result.best_night = NightLine(
            tournament_id, name, datetime.date.fromisoformat(date), game_points, rank
        )
    result.longest_streak, result.current_streak = total["streak"]
    result.ratings = _RATINGS[own](player.pk, club.pk)
    paired = [PartnerStat(int(p), *values) for p, values in partners.items()]
    ordered = sorted(paired, key=lambda s: (-s.per_deal, -s.deals, s.player_id))
    result.best_partners = ordered[:TOP]
    result.worst_partners = [s for s in reversed(ordered) if s not in result.best_partners][:TOP]
    regular = sorted(
        (OpponentStat(int(p), *values) for p, values in opponents.items()),
        key=lambda s: (-s.deals, s.player_id),
    )
    result.opponents = regular[:REGULAR]
    shown = [*result.best_partners, *result.worst_partners, *result.opponents]
    if shown:
        ids = sorted({s.player_id for s in shown})
        if len(ids) > len(STAND_INS):
            named = _players_named(*ids)
        else:
            # The ids repeated to a fixed count: one compiled query for any count of them.
            named = _NAMED(*ids, *[ids[-1]] * (len(STAND_INS) - len(ids)))
        names = {p.pk: name_shown(p, reader) for p in named}
        for line in shown:
            line.name = names.get(line.player_id, "?")
    return result


@dataclass
class SeasonStatistics:
    attendance: list[tuple[str, int]]
    contracts: list[tuple[str, int, int]]
    records: dict[str, tuple[str, int] | None]


def season_statistics(season: Any, reader: NameReader | None = None) -> SeasonStatistics:
    """Per club and season: each player's nights, how often each contract is played and
    made, the season's records. Two queries (the players' summaries of the season's published
    nights, the names), each
    player named as ``reader`` may see him (``club.names``; None: the public)."""
    rows = PlayerSeasonStats.objects.filter(season=season, published_only=True).values_list(
        "player_id", "data"
    )
    nights: dict[int, int] = {}
    contracts: dict[str, list[int]] = {}
    best: dict[str, tuple[int, int] | None] = {"night": None, "deal": None, "made": None}
    for player, data in rows:
        nights[player] = data["nights"]
        for code, (played, made) in data["sides"].items():
            line = contracts.setdefault(code, [0, 0])
            line[0] += played
            line[1] += made
        best_night = data["best_night"]
        for key, value in (
            ("night", best_night[3] if best_night else None),
            ("deal", data["best_deal"]),
            ("made", data["most_made"]),
        ):
            if value is not None and (best[key] is None or value > best[key][1]):
                best[key] = (player, value)
    names = {
        p.pk: name_shown(p, reader)
        for p in Player.objects.filter(pk__in=nights).only(*Player.PUBLIC_NAME_FIELDS)
    }
    return SeasonStatistics(
        attendance=sorted(
            ((names[p], n) for p, n in nights.items()), key=lambda x: (-x[1], name_sorted(x[0]))
        ),
        contracts=sorted(((c, p, m) for c, (p, m) in contracts.items()), key=lambda x: -x[1]),
        records={
            key: (names[value[0]], value[1]) if value else None for key, value in best.items()
        },
    )
