"""A member's own results of a season ("Mes résultats"): his nights with their rank and points,
the chart against the club average, his Belgian-whist contracts and his partners.

Read-only. Every function runs a fixed number of queries however many nights the member
played: the rows come in a few set-based queries and the rest is plain Python. His contracts
and partners are not counted here: they are his nights' lines of ``nights.night_statistics``,
as the cote stored them, or counted now by it while the cote is being rewritten.
"""

from __future__ import annotations

import datetime
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Exists, JSONField, OuterRef, Subquery, TextField
from django.db.models.functions import Cast

from club.models import PendingWork, Player, Season
from club.names import Viewer
from games.labels import CONTRACT_LABELS
from games.models import COUNTED_STATUSES, Deal, PointTable, Seat, Tournament, night_title
from scoring.engine.games import game_module

from ..fields import fraction_of
from ..models import PlayerNightStats, TournamentStanding
from .nights import (
    BELGIAN_WHIST,
    RATINGS_UPDATE,
    PouleDeals,
    contracts_and_partners,
    night_statistics,
)

# What a player's public name is made of (``Player.public_display_name``).
PUBLIC_NAME = (
    "player__display_name",
    "player__first_name",
    "player__last_name",
    "player__public_name",
)
# The game whose contracts the statistics follow, as the engine describes it.
belgian_whist = game_module(BELGIAN_WHIST)
TOP_PARTNERS = 5


@dataclass(frozen=True)
class TournamentLine:
    tournament: Tournament
    rank: int
    tied: bool
    tournament_points: Fraction
    game_points: int
    poules_played: int
    poules_won: int


@dataclass(frozen=True)
class ChartPoint:
    """One night of the season: the member's points so far and the club average so far."""

    date: datetime.date
    name: str
    played: bool
    mine: Fraction
    average: Fraction

    @property
    def title(self) -> str:
        return night_title(self.name, self.date)


@dataclass
class ContractLine:
    code: str
    played: int = 0
    made: int = 0

    @property
    def label(self) -> str:
        return str(CONTRACT_LABELS.get(self.code, self.code))


@dataclass
class PartnerLine:
    player: Player
    deals: int = 0
    made: int = 0
    points: int = 0

    @property
    def name(self) -> str:
        return self.player.public_display_name

    @property
    def made_rate(self) -> Fraction:
        return Fraction(self.made, self.deals) if self.deals else Fraction(0)


@dataclass(frozen=True)
class SeasonResults:
    season: Season
    tournaments: list[TournamentLine]
    chart: list[ChartPoint]
    contracts: list[ContractLine] = field(default_factory=list)
    partners: list[PartnerLine] = field(default_factory=list)

    @property
    def tournament_points(self) -> Fraction:
        return sum((line.tournament_points for line in self.tournaments), Fraction(0))

    @property
    def game_points(self) -> int:
        return sum(line.game_points for line in self.tournaments)

    @property
    def poules_played(self) -> int:
        return sum(line.poules_played for line in self.tournaments)

    @property
    def poules_won(self) -> int:
        return sum(line.poules_won for line in self.tournaments)

    @property
    def tournaments_won(self) -> int:
        return sum(1 for line in self.tournaments if line.rank == 1)

    def chart_data(self) -> dict[str, list[Any]]:
        """The chart's numbers for the page's script; floats only here, for drawing."""
        return {
            "labels": [point.date.strftime("%d/%m") for point in self.chart],
            "mine": [round(float(point.mine), 2) for point in self.chart],
            "average": [round(float(point.average), 2) for point in self.chart],
        }


def seasons_played(player: Player) -> list[Season]:
    """The seasons with at least one closed night of the player, latest first."""
    return list(
        Season.objects.filter(
            tournaments__status__in=COUNTED_STATUSES, tournaments__standings__player=player
        )
        .distinct()
        .select_related("club")
        .order_by("-start", "club__name")
    )


def season_choice(seasons: list[Season], wanted: str | None) -> Season | None:
    """The season asked for by name or by id among ``seasons``; else the latest."""
    if not seasons:
        return None
    if wanted:
        by_name = [s for s in seasons if s.name == wanted]
        if by_name:
            return by_name[0]
        by_pk = [s for s in seasons if str(s.pk) == wanted]
        if by_pk:
            return by_pk[0]
    return seasons[0]


def season_results(player: Player, season: Season) -> SeasonResults:
    """The player's nights of ``season``, the chart against the club, his contracts and his
    partners. Three queries, however many nights (his nights with their stored statistics,
    the chart, his partners' names); five while the cote is being rewritten."""
    standings = list(
        TournamentStanding.objects.filter(
            player=player, tournament__season=season, tournament__status__in=COUNTED_STATUSES
        )
        .annotate(
            night_stats=Subquery(
                PlayerNightStats.objects.filter(
                    tournament=OuterRef("tournament"), player=OuterRef("player")
                ).values("data")[:1],
                output_field=JSONField(),
            ),
            # Set while the club's cote waits to be rewritten (a night just closed, corrected
            # or reopened, two records merged): its stored nights may be behind the deals.
            cote_due=Exists(
                PendingWork.objects.filter(
                    task=RATINGS_UPDATE,
                    key__in=Tournament.objects.filter(club=season.club_id).values("pk"),
                )
            ),
        )
        .select_related("tournament__club")
        .order_by("tournament__date", "tournament__name", "tournament_id")
    )
    tournaments = [
        TournamentLine(
            tournament=line.tournament,
            rank=line.rank,
            tied=line.tied,
            tournament_points=line.tournament_points,
            game_points=line.game_points,
            poules_played=line.poules_played,
            poules_won=line.poules_won,
        )
        for line in standings
    ]
    contracts, partners = _belgian_whist_stats(player, season, standings)
    return SeasonResults(
        season=season,
        tournaments=tournaments,
        chart=_season_chart(player, season),
        contracts=contracts,
        partners=partners,
    )


def partners_named_today(partners: list[PartnerLine], viewer: Viewer) -> None:
    """Partners computed earlier, named as each chooses to be named now (a member may have
    changed his public name since), each marked whether ``viewer`` knows him. One query."""
    if not partners:
        return
    fields = [name.removeprefix("player__") for name in PUBLIC_NAME]
    ids = [line.player.pk for line in partners]
    today = viewer.annotate(Player.objects.filter(pk__in=ids).only(*fields))
    named = {player.pk: player for player in today}
    for line in partners:
        line.player = named.get(line.player.pk, line.player)


def _season_chart(player: Player, season: Season) -> list[ChartPoint]:
    """At each published night of the season, in date order: the player's tournament points so
    far, and the club average so far = all tournament points awarded so far ÷ the players who
    have played so far. A player counts in the average from his first night on. Published
    nights only: the average holds everybody's points, which are the club's until it
    publishes them."""
    # Plain rows, the points as text: a season has thousands of standings and a handful of
    # distinct points ("5", "3", "4/3" …), each parsed once and summed by how often it occurs.
    lines = (
        TournamentStanding.objects.filter(
            tournament__season=season, tournament__status=Tournament.Status.PUBLISHED
        )
        .with_points_text()
        .order_by("tournament__date", "tournament__name", "tournament_id")
        .values_list(
            "tournament_id", "tournament__date", "tournament__name", "player_id", "points_text"
        )
    )
    tournaments: dict[int, dict[str, Any]] = {}
    for tournament_id, date, name, player_id, points in lines:
        if tournament_id not in tournaments:
            tournaments[tournament_id] = {
                "date": date,
                "name": name,
                "players": set(),
                "points": Counter(),
                "mine": None,
            }
        tournament = tournaments[tournament_id]
        tournament["players"].add(player_id)
        tournament["points"][points] += 1
        if player_id == player.pk:
            tournament["mine"] = points
    chart = []
    awarded, mine = Fraction(0), Fraction(0)
    seen: set[int] = set()
    for tournament in tournaments.values():
        awarded += sum(
            (fraction_of(text) * count for text, count in tournament["points"].items()),
            Fraction(0),
        )
        seen |= tournament["players"]
        if tournament["mine"] is not None:
            mine += fraction_of(tournament["mine"])
        chart.append(
            ChartPoint(
                date=tournament["date"],
                name=tournament["name"],
                played=tournament["mine"] is not None,
                mine=mine,
                average=awarded / len(seen),
            )
        )
    return chart


def _belgian_whist_stats(
    player: Player, season: Season, standings: list[TournamentStanding]
) -> tuple[list[ContractLine], list[PartnerLine]]:
    """Per contract, how often he declared and made it; with whom he does best in the pair
    contracts. His Belgian-whist nights' lines as the cote stored them and one query for his
    partners' names; while one of them is missing or the cote is being rewritten, all of them
    counted now from the deals (three queries: ``_counted_now``)."""
    belgian = [line for line in standings if line.tournament.game == BELGIAN_WHIST]
    if not belgian:
        return [], []
    if all(line.night_stats is not None and not line.cote_due for line in belgian):
        contracts, partners = contracts_and_partners(line.night_stats for line in belgian)
        players = _players_named([int(mate) for mate in partners])
    else:
        contracts, partners, players = _counted_now(player, season)
    lines = [
        ContractLine(code, *contracts[code])
        for code in belgian_whist.CONTRACTS
        if code in contracts
    ]
    together = [
        PartnerLine(players.get(int(mate)) or Player(pk=int(mate)), *values)
        for mate, values in partners.items()
    ]
    best = sorted(together, key=lambda p: (-p.points, -p.made_rate, -p.deals, p.name))
    return lines, best[:TOP_PARTNERS]


def _players_named(ids: list[int]) -> dict[int, Player]:
    """The players ``ids``, each with only what his public name needs (none: no query)."""
    if not ids:
        return {}
    fields = [name.removeprefix("player__") for name in PUBLIC_NAME]
    return {p.pk: p for p in Player.objects.filter(pk__in=ids).only(*fields)}


@dataclass
class _PouleSeats:
    """One poule the player sat at: his seat, every seat's player, the night's point table."""

    mine: int = 0
    seats: dict[int, int] = field(default_factory=dict)
    point_table_id: int | None = None


def _counted_now(
    player: Player, season: Season
) -> tuple[dict[str, list[int]], dict[str, list[int]], dict[int, Player]]:
    """His contracts and partners of ``season`` counted now from the deals by
    ``night_statistics``, one poule at a time, and the players he sat with. Three queries:
    the seats of his poules, their point tables, their deals.

    Plain rows throughout: a season of 200 nights is thousands of seats and deals. Each
    player is built once, with only what his public name needs; a deal is decoded only if it
    names his seat: the others cannot count in his contracts or his partners."""
    seats = Seat.objects.filter(
        poule__seats__player=player,
        tournament__season=season,
        tournament__status__in=COUNTED_STATUSES,
        tournament__game=BELGIAN_WHIST,
    ).values_list("poule_id", "number", "tournament__point_table_id", "player_id", *PUBLIC_NAME)
    poules: dict[int, _PouleSeats] = defaultdict(_PouleSeats)
    players: dict[int, Player] = {}
    for poule_id, number, point_table_id, player_id, *name in seats:
        if player_id not in players:
            fields = (field.removeprefix("player__") for field in PUBLIC_NAME)
            players[player_id] = Player(pk=player_id, **dict(zip(fields, name, strict=True)))
        poule = poules[poule_id]
        poule.seats[number] = player_id
        poule.point_table_id = point_table_id
        if player_id == player.pk:
            poule.mine = number
    point_tables = {
        point_table.pk: point_table.engine_table()
        for point_table in PointTable.objects.filter(
            pk__in={poule.point_table_id for poule in poules.values()}
        )
    }
    deals = (
        Deal.objects.filter(
            poule__seats__player=player,
            poule__tournament__season=season,
            poule__tournament__status__in=COUNTED_STATUSES,
            poule__tournament__game=BELGIAN_WHIST,
            counted=True,
        )
        .annotate(data_text=Cast("data", TextField()), points_text=Cast("points", TextField()))
        .values_list("poule_id", "data_text", "points_text", "dealer")
    )
    his_deals: dict[int, list[tuple[Any, list[int], int | None]]] = defaultdict(list)
    for poule_id, data_text, points, dealer in deals:
        # A deal names players by seat ("3"): one whose text never names his seat is not his
        # to count, and is not even decoded (most of a season's deals).
        if f'"{poules[poule_id].mine}"' in data_text:
            his_deals[poule_id].append((json.loads(data_text), json.loads(points), dealer))
    lines = (
        night_statistics(
            BELGIAN_WHIST,
            point_tables[poules[poule_id].point_table_id],
            [PouleDeals(poules[poule_id].seats, poule_deals)],
            {},
        )[player.pk]
        for poule_id, poule_deals in his_deals.items()
    )
    contracts, partners = contracts_and_partners(lines)
    return contracts, partners, players
