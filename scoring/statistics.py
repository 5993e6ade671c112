"""The statistics whist players argue about, summed once per player and night when the night's
ratings are written (``services.ratings``), and added up on read from those rows only.

Roles in Belgian whist: *declarer* is a contract played alone (solo, abondance, misère …),
*partner* a contract played as a pair (emballage, trou), *defender* every other deal played;
the mort plays none. Head-to-head: the deals two players played at the same table (both
active), with the points each scored in them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from club.models import Player
from club.names import Viewer, name_shown
from games.models import COUNTED_STATUSES, Tournament, night_title
from scoring.engine.errors import EngineError
from scoring.engine.games import game_module

from .models import PlayerNightStats, PlayerRating

BELGIAN_WHIST = "belgian_whist"
ROLES = ("declarer", "partner", "defender")
TOP = 5
REGULAR = 5


@dataclass(frozen=True)
class PouleDeals:
    """A poule's seats (seat number → player) and counted deals (data, points, dealer)."""

    seats: Mapping[int, int]
    deals: Sequence[tuple[Any, Sequence[int], int | None]]


def _blank() -> dict[str, Any]:
    return {
        "deals": 0,
        "mort": 0,
        "points": 0,
        "best_deal": None,
        "made": 0,
        "roles": {role: [0, 0] for role in ROLES},
        "contracts": {},
        "sides": {},
        "partners": {},
        "opponents": {},
    }


_BELGIAN = game_module(BELGIAN_WHIST)


def _deal_roles(
    game: str,
    point_table: Any,
    data: Mapping[str, Any],
    seat: str,
    declarers: list[str],
    pairs: dict[tuple[Any, Any], bool],
) -> tuple[str, bool | None]:
    """The seat's role in the deal and whether he made his contract (None: not declaring)."""
    if game != BELGIAN_WHIST or seat not in declarers:
        return "defender", None
    key = (data.get("contract"), data.get("bid"))
    pair = pairs.get(key)
    if pair is None:
        pair = pairs[key] = _BELGIAN.is_partner_contract(point_table, *key)
    return ("partner" if pair else "declarer"), _BELGIAN.contract_made(point_table, data, seat)


def night_statistics(
    game: str,
    point_table: Any,
    poules: Sequence[PouleDeals],
    standings: Mapping[int, tuple[int, bool, int, int]],
) -> dict[int, dict[str, Any]]:
    """Each player's night: deals, mort, points by role, contracts declared and made, his
    partners and the opponents at his tables; his rank and points of the night."""
    lines: dict[int, dict[str, Any]] = {}
    pairs: dict[tuple[Any, Any], bool] = {}
    mort_at = game_module(game).MORT_AT
    for poule in poules:
        numbers = sorted(poule.seats)
        players = [poule.seats[n] for n in numbers]
        for player in players:
            lines.setdefault(player, _blank())
        by_mort: dict[int | None, list[Any]] = {}
        for data, points, dealer in poule.deals:
            if len(points) != len(players):
                continue
            out = dealer - 1 if dealer is not None and mort_at == len(players) else None
            active = [i for i in range(len(players)) if i != out]
            if out is not None:
                lines[players[out]]["mort"] += 1
            summed = by_mort.setdefault(out, [0, [0] * len(players)])
            summed[0] += 1
            for i in active:
                summed[1][i] += points[i]
            declarers = [str(s) for s in data.get("declarers") or ()]
            for i in active:
                line = lines[players[i]]
                seat = str(numbers[i])
                if seat not in declarers:
                    role, made = "defender", None
                else:
                    try:
                        role, made = _deal_roles(game, point_table, data, seat, declarers, pairs)
                    except (EngineError, KeyError, AttributeError):
                        role, made = "defender", None
                line["deals"] += 1
                line["points"] += points[i]
                if line["best_deal"] is None or points[i] > line["best_deal"]:
                    line["best_deal"] = points[i]
                line["roles"][role][0] += 1
                line["roles"][role][1] += points[i]
                if made is not None:
                    contract = str(data.get("contract"))
                    line["contracts"].setdefault(contract, [0, 0])
                    line["contracts"][contract][0] += 1
                    line["contracts"][contract][1] += made
                    line["made"] += made
                    # Counted once per declaring side (its first seat) for the club's figures.
                    if role != "partner" or seat == min(declarers, key=int):
                        line["sides"].setdefault(contract, [0, 0])
                        line["sides"][contract][0] += 1
                        line["sides"][contract][1] += made
                    if role == "partner":
                        other = next((s for s in declarers if s != seat), None)
                        if other is not None and int(other) in poule.seats:
                            mate = str(poule.seats[int(other)])
                            together = line["partners"].setdefault(mate, [0, 0, 0])
                            together[0] += 1
                            together[1] += made
                            together[2] += points[i]
        # Head to head, summed per mort (None: everybody played): two players played together
        # every deal whose mort was neither of them.
        for out, (count, sums) in by_mort.items():
            for i, player in enumerate(players):
                if i == out:
                    continue
                opponents = lines[player]["opponents"]
                for j, other in enumerate(players):
                    if j in (i, out):
                        continue
                    versus = opponents.setdefault(str(other), [0, 0, 0])
                    versus[0] += count
                    versus[1] += sums[i]
                    versus[2] += sums[j]
    for player, line in lines.items():
        rank, tied, game_points, units = standings.get(player, (None, False, 0, 0))
        line.update(rank=rank, tied=tied, game_points=game_points, units=units)
    return lines


# --------------------------------------------------------------------------------------------
# Read


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
    title: str
    game_points: int
    rank: int | None


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


def player_statistics(
    player: Player, club: Any, *, own: bool = False, viewer: Viewer | None = None
) -> PlayerStatistics:
    """The player's statistics at ``club``: three queries (his nights, his ratings, the names
    of his partners and opponents), however many nights. Partners and opponents are named as
    ``viewer`` may see them (``club.names``; None: the public)."""
    statuses = visible_statuses(own)
    rows = (
        PlayerNightStats.objects.filter(
            player=player, tournament__club=club, tournament__status__in=statuses
        )
        .order_by("tournament__date", "tournament_id")
        .values_list("tournament_id", "tournament__date", "tournament__name", "data")
    )
    result = PlayerStatistics(roles={role: [0, 0] for role in ROLES})
    partners: dict[str, list[int]] = {}
    opponents: dict[str, list[int]] = {}
    streak = 0
    for tournament_id, date, name, data in rows:
        result.nights += 1
        result.deals += data["deals"]
        result.mort += data["mort"]
        for role in ROLES:
            for k in (0, 1):
                result.roles[role][k] += data["roles"][role][k]
        for code, (played, made) in data["contracts"].items():
            line = result.contracts.setdefault(code, [0, 0])
            line[0] += played
            line[1] += made
        for mate, values in data["partners"].items():
            total = partners.setdefault(mate, [0, 0, 0])
            for k in range(3):
                total[k] += values[k]
        for other, values in data["opponents"].items():
            total = opponents.setdefault(other, [0, 0, 0])
            for k in range(3):
                total[k] += values[k]
        night = NightLine(tournament_id, night_title(name, date), data["game_points"], data["rank"])
        if result.best_night is None or night.game_points > result.best_night.game_points:
            result.best_night = night
        streak = streak + 1 if data["game_points"] > 0 else 0
        result.longest_streak = max(result.longest_streak, streak)
    result.current_streak = streak
    result.ratings = list(
        PlayerRating.objects.filter(
            player=player, tournament__club=club, tournament__status__in=statuses
        )
        .order_by("tournament__date", "tournament_id")
        .values(
            "tournament_id",
            "tournament__date",
            "game",
            "mu",
            "sigma",
            "conservative",
            "deals",
            "change",
            "moves",
        )
    )
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
        named = Player.objects.filter(pk__in={s.player_id for s in shown}).only(
            *Player.PUBLIC_NAME_FIELDS
        )
        names = {p.pk: name_shown(p, viewer) for p in named}
        for line in shown:
            line.name = names.get(line.player_id, "?")
    return result


@dataclass
class SeasonStatistics:
    attendance: list[tuple[str, int]]
    contracts: list[tuple[str, int, int]]
    records: dict[str, tuple[str, int] | None]


def season_statistics(season: Any, viewer: Viewer | None = None) -> SeasonStatistics:
    """Per club and season: each player's nights, how often each contract is played and
    made, the season's records. Two queries (the published nights' rows, the names), each
    player named as ``viewer`` may see him (``club.names``; None: the public)."""
    rows = PlayerNightStats.objects.filter(
        tournament__season=season, tournament__status=Tournament.Status.PUBLISHED
    ).values_list("player_id", "data")
    nights: dict[int, int] = {}
    contracts: dict[str, list[int]] = {}
    best: dict[str, tuple[int, int] | None] = {"night": None, "deal": None, "made": None}
    for player, data in rows:
        nights[player] = nights.get(player, 0) + 1
        for code, (played, made) in data["sides"].items():
            line = contracts.setdefault(code, [0, 0])
            line[0] += played
            line[1] += made
        for key, value in (
            ("night", data["game_points"]),
            ("deal", data["best_deal"]),
            ("made", data["made"]),
        ):
            if value is not None and (best[key] is None or value > best[key][1]):
                best[key] = (player, value)
    names = {
        p.pk: name_shown(p, viewer)
        for p in Player.objects.filter(pk__in=nights).only(*Player.PUBLIC_NAME_FIELDS)
    }
    return SeasonStatistics(
        attendance=sorted(((names[p], n) for p, n in nights.items()), key=lambda x: (-x[1], x[0])),
        contracts=sorted(((c, p, m) for c, (p, m) in contracts.items()), key=lambda x: -x[1]),
        records={
            key: (names[value[0]], value[1]) if value else None for key, value in best.items()
        },
    )
