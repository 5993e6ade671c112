"""A member's own results of a season ("Mes résultats"): his nights with their rank and points,
the chart against the club average, his Belgian-whist contracts and his partners.

Read-only. Every function runs a fixed number of queries however many nights the member
played: the rows come in a few set-based queries and the rest is plain Python; the chart's
club average as stored for the season (``chart``). His contracts
and partners are not counted here: they are his nights' lines of ``nights.night_statistics``,
stored when each night was closed or corrected (``services.ratings.night_statistics_store``)
and added up with his season's (``PlayerSeasonStats``, ``seasons``), or counted now for a
night without its line yet (an import's, until its cote).
"""

from __future__ import annotations

import datetime
import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

import orjson
from django.db.models import (
    Exists,
    JSONField,
    OuterRef,
    QuerySet,
    Subquery,
    TextField,
)
from django.db.models.functions import Cast

from club.models import Player, Season
from games.labels import CONTRACT_LABELS
from games.models import COUNTED_STATUSES, Deal, PointTable, Seat, Tournament, night_title
from infra.compiled import Compiled
from scoring.engine.games import game_module

from ..fields import fraction_of
from ..models import (
    PlayerNightStats,
    PlayerSeasonStats,
    SeasonNights,
    TournamentStanding,
)
from .chart import ChartPoint, chart_points, published_nights, season_nights, stored_nights

# His cote beside his season (``member_cote``), his partners named (``member_partners``):
# read by the page as from here.
from .member_cote import CoteNow as CoteNow
from .member_cote import cote_kept, cote_now
from .member_partners import TOP_PARTNERS as TOP_PARTNERS
from .member_partners import PartnerLine, partner_order
from .member_partners import partners_named_today as partners_named_today
from .nights import (
    BELGIAN_WHIST,
    PouleDeals,
    contracts_and_partners,
    night_statistics,
)

# The game whose contracts the statistics follow, as the engine describes it.
belgian_whist = game_module(BELGIAN_WHIST)


@dataclass(slots=True)
class TournamentLine:
    """One of his nights, as a plain row (a season is hundreds of them; not frozen: a frozen
    dataclass sets each field through ``object.__setattr__``, seven times the cost)."""

    tournament_id: int
    date: datetime.date
    name: str
    published: bool
    rank: int
    tied: bool
    tournament_points: Fraction
    game_points: int
    poules_played: int
    poules_won: int

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


@dataclass(frozen=True)
class SeasonResults:
    season: Season
    tournaments: list[TournamentLine]
    chart: list[ChartPoint]
    contracts: list[ContractLine] = field(default_factory=list)
    partners: list[PartnerLine] = field(default_factory=list)

    # Each total is written twice on the page (the totals, the table's foot): added up once.
    @cached_property
    def tournament_points(self) -> Fraction:
        # A season's points take a handful of values: each added once, times its nights.
        counted = Counter(line.tournament_points for line in self.tournaments)
        return sum((points * nights for points, nights in counted.items()), Fraction(0))

    @cached_property
    def game_points(self) -> int:
        return sum(line.game_points for line in self.tournaments)

    @cached_property
    def poules_played(self) -> int:
        return sum(line.poules_played for line in self.tournaments)

    @cached_property
    def poules_won(self) -> int:
        return sum(line.poules_won for line in self.tournaments)

    @property
    def tournaments_won(self) -> int:
        return sum(1 for line in self.tournaments if line.rank == 1)

    def chart_data(self) -> dict[str, list[Any]]:
        """The chart's numbers for the page's script; floats only here, for drawing. The
        dates as « %d/%m » writes them, without strftime (a season's hundreds)."""
        return {
            "labels": [f"{point.date.day:02d}/{point.date.month:02d}" for point in self.chart],
            "mine": [round(point.mine_float, 2) for point in self.chart],
            "average": [round(point.average_float, 2) for point in self.chart],
        }


def seasons_played(player: Player) -> list[Season]:
    """The seasons with at least one closed night of the player, latest first; each with
    his contracts, partners and nights of its stored nights as his season's summary holds them
    (``summary_text``) and its published nights as the chart adds them up (``nights_text``),
    JSON left undecoded: only the season shown reads them (and his cote, which his summaries of
    the season's club keep: ``season_cote``). The query is
    compiled once (``infra.compiled``): its Exists and subqueries cost more to compile than
    to run."""
    return _SEASONS_PLAYED(player.pk)


def _seasons_of(player: int) -> QuerySet[Season]:
    # The whole summary: its parts picked by the database (a JSON object of three keys) cost
    # more to ask for than the rest of it does to decode.
    summary = PlayerSeasonStats.objects.filter(
        player=player, season=OuterRef("pk"), published_only=False
    ).values("data")[:1]
    nights = SeasonNights.objects.filter(season=OuterRef("pk")).values("nights")[:1]
    return (
        Season.objects.filter(
            Exists(
                TournamentStanding.objects.filter(
                    player=player,
                    tournament__season=OuterRef("pk"),
                    tournament__status__in=COUNTED_STATUSES,
                )
            )
        )
        .annotate(
            summary_text=Cast(Subquery(summary, output_field=JSONField()), TextField()),
            nights_text=Cast(Subquery(nights, output_field=JSONField()), TextField()),
        )
        .select_related("club")
        .order_by("-start", "club__name")
    )


_SEASONS_PLAYED = Compiled(_seasons_of)


def _stored_summary(player: Player, season: Season) -> dict[str, Any] | None:
    """His season's summary of its stored nights (contracts and partners): as
    ``seasons_played`` read it with the season (decoded once: his cote reads it too), else
    read now."""
    if hasattr(season, "summary_text"):
        if not hasattr(season, "summary_decoded"):
            text = season.summary_text
            season.summary_decoded = None if text is None else orjson.loads(text)
        return season.summary_decoded
    text = (
        PlayerSeasonStats.objects.filter(player=player, season=season, published_only=False)
        .annotate(text=Cast("data", TextField()))
        .values_list("text", flat=True)
        .first()
    )
    return None if text is None else orjson.loads(text)


def season_cote(player: Player, season: Season, seasons: Sequence[Season] = ()) -> CoteNow | None:
    """His cote at the season's club today: the latest his own summaries of his seasons there
    keep (``seasons``, as ``seasons_played`` read them; ``season_summary``'s ``cote``), when
    each keeps it; else (a summary written before it was kept, or not written yet: an
    import's, until its cote) read now (``cote_now``), one query."""
    there = [s for s in seasons if s.club_id == season.club_id and hasattr(s, "summary_text")]
    if season.pk in {s.pk for s in there}:
        kept = cote_kept([_stored_summary(player, s) for s in there])
        if kept is not None:
            return kept[0]
    return cote_now(player, season.club_id)


def _stored_nights(season: Season) -> list[list[Any]] | None:
    """The season's published nights as stored for the chart (``SeasonNights``): as
    ``seasons_played`` read them with the season, else read now."""
    if hasattr(season, "nights_text"):
        text = season.nights_text
    else:
        text = (
            SeasonNights.objects.filter(season=season)
            .annotate(text=Cast("nights", TextField()))
            .values_list("text", flat=True)
            .first()
        )
    return None if text is None else orjson.loads(text)


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
    partners. Two queries, however many nights: his nights (each marked whether its line is
    stored), the season's published nights for the chart; read with the season by
    ``seasons_played``: his season's summary of the stored nights (``PlayerSeasonStats``) and
    the club's side of the chart (``SeasonNights``). Two or three more while the club's side
    is not stored for the nights published (``chart``), three more while one of his
    Belgian-whist nights has no stored line yet (``_counted_now``). His partners come
    unnamed, best first: ``partners_named_today`` names them.

    His nights as his season's summary lists them (``seasons.season_summary``, written when
    each was closed, corrected, published or reopened) when it holds every night he played
    (``_listed_results``): then one query, his nights' dates and names, and the chart's."""
    summary = _stored_summary(player, season)
    if summary is not None and summary.get("listed") is not None:
        listed = _listed_results(player, season, summary)
        if listed is not None:
            return listed
    rows = (
        TournamentStanding.objects.filter(
            player=player, tournament__season=season, tournament__status__in=COUNTED_STATUSES
        )
        .with_points_text()
        .annotate(
            # His night's line is stored (added up in his season's summary) or not yet.
            stored=Exists(
                PlayerNightStats.objects.filter(
                    tournament=OuterRef("tournament"), player=OuterRef("player")
                )
            ),
        )
        .order_by("tournament__date", "tournament__name", "tournament_id")
        .values_list(
            "tournament_id",
            "tournament__date",
            "tournament__name",
            "tournament__status",
            "tournament__game",
            "rank",
            "tied",
            "points_text",
            "game_points",
            "poules_played",
            "poules_won",
            "stored",
            "points_units",
        )
    )
    tournaments = []
    missing: list[int] = []
    # His points at each published night, in whole units: his line of the chart.
    mine: dict[int, int] = {}
    for row in rows:
        tournament_id, date, name, status, game, rank, tied, text, *poules, stored, units = row
        published = status == Tournament.Status.PUBLISHED
        if published:
            mine[tournament_id] = units
        points = fraction_of(text)
        tournaments.append(
            TournamentLine(tournament_id, date, name, published, rank, tied, points, *poules)
        )
        if game == BELGIAN_WHIST and not stored:
            missing.append(tournament_id)
    # His stored nights as his season's summary adds them up (contracts and partners are
    # Belgian whist's alone: another game's nights add none).
    contracts, partners = _belgian_whist_stats(player, [summary] if summary else [], missing)
    return SeasonResults(
        season=season,
        tournaments=tournaments,
        chart=_season_chart(season, mine),
        contracts=contracts,
        partners=partners,
    )


def _listed_results(
    player: Player, season: Season, summary: dict[str, Any]
) -> SeasonResults | None:
    """``season_results`` from his nights as his season's summary lists them: one query, the
    season's nights that count (their date, name and state read now: a night renamed since
    its close is shown by its name of today) and which of them he played; None when the
    summary does not list exactly the nights he played (an import's, until its cote)."""
    listed = {line[0]: line for line in summary["listed"]}
    nights = _SEASON_NIGHTS(season.pk, player.pk)
    tournaments = []
    published_nights: list[tuple[int, datetime.date, str]] = []
    # His points at each published night, in whole units: his line of the chart.
    mine: dict[int, int] = {}
    for pk, date, name, status, played in nights:
        published = status == Tournament.Status.PUBLISHED
        if published:
            published_nights.append((pk, date, name))
        if not played:
            continue
        line = listed.pop(pk, None)
        if line is None:
            return None
        _pk, rank, tied, units, game_points, won, poules, text = line
        if published:
            mine[pk] = units
        points = fraction_of(text)
        tournaments.append(
            TournamentLine(pk, date, name, published, rank, tied, points, game_points, poules, won)
        )
    if listed:
        return None  # a night listed that he no longer played, or that no longer counts
    contracts, partners = _belgian_whist_stats(player, [summary], [])
    stored = stored_nights(_stored_nights(season), published_nights)
    return SeasonResults(
        season=season,
        tournaments=tournaments,
        chart=chart_points(season_nights(season) if stored is None else stored, mine),
        contracts=contracts,
        partners=partners,
    )


def _nights_of(season: int, player: int) -> QuerySet[Tournament]:
    return (
        Tournament.objects.filter(season=season, status__in=COUNTED_STATUSES)
        .annotate(
            played=Exists(
                TournamentStanding.objects.filter(tournament=OuterRef("pk"), player=player)
            )
        )
        .order_by("date", "name", "pk")
        .values_list("pk", "date", "name", "status", "played")
    )


# The season's nights and which he played: compiled once (``infra.compiled``).
_SEASON_NIGHTS = Compiled(_nights_of)


def _season_chart(season: Season, mine: dict[int, int]) -> list[ChartPoint]:
    """The chart (``chart``) from the season's published nights as stored for it: one query,
    a row a night (their dates and names); the club's figures counted now, two queries more,
    when the stored ones are not of these nights."""
    published = published_nights(season).values_list("pk", "date", "name")
    nights = stored_nights(_stored_nights(season), published)
    return chart_points(season_nights(season) if nights is None else nights, mine)


def _belgian_whist_stats(
    player: Player, stored: list[dict[str, Any]], missing: list[int]
) -> tuple[list[ContractLine], list[PartnerLine]]:
    """Per contract, how often he declared and made it; with whom he does best in the pair
    contracts (best first, unnamed). His Belgian-whist nights' lines as stored when each was
    closed or corrected (``stored``: their contracts and partners); the nights ``missing`` a
    stored line (an import's, until its cote is written) counted now from the deals."""
    if not stored and not missing:
        return [], []
    contracts, partners = contracts_and_partners(
        [*stored, *_counted_now(player, missing)] if missing else stored
    )
    lines = [
        ContractLine(code, *contracts[code])
        for code in belgian_whist.CONTRACTS
        if code in contracts
    ]
    together = [PartnerLine(int(mate), *values) for mate, values in partners.items()]
    together.sort(key=partner_order)
    return lines, together


@dataclass
class _PouleSeats:
    """One poule the player sat at: his seat, every seat's player, the night's point table."""

    mine: int = 0
    seats: dict[int, int] = field(default_factory=dict)
    point_table_id: int | None = None


def _counted_now(player: Player, nights: list[int]) -> list[dict[str, Any]]:
    """His lines of ``nights`` counted now from the deals by ``night_statistics``, one poule
    at a time. Three queries: the seats of his poules, their point tables, their deals.

    Plain rows throughout; a deal is decoded only if it names his seat: the others cannot
    count in his contracts or his partners."""
    seats = (
        Seat.objects.filter(poule__seats__player=player, tournament__in=nights)
        .order_by()
        .values_list("poule_id", "number", "tournament__point_table_id", "player_id")
    )
    poules: dict[int, _PouleSeats] = defaultdict(_PouleSeats)
    for poule_id, number, point_table_id, player_id in seats:
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
        Deal.objects.filter(poule__seats__player=player, poule__tournament__in=nights, counted=True)
        .order_by()
        .annotate(data_text=Cast("data", TextField()), points_text=Cast("points", TextField()))
        .values_list("poule_id", "data_text", "points_text", "dealer")
    )
    his_deals: dict[int, list[tuple[Any, list[int], int | None]]] = defaultdict(list)
    for poule_id, data_text, points, dealer in deals:
        # A deal names players by seat ("3"): one whose text never names his seat is not his
        # to count, and is not even decoded.
        if f'"{poules[poule_id].mine}"' in data_text:
            his_deals[poule_id].append((json.loads(data_text), json.loads(points), dealer))
    return [
        night_statistics(
            BELGIAN_WHIST,
            point_tables[poules[poule_id].point_table_id],
            [PouleDeals(poules[poule_id].seats, poule_deals)],
            {},
        )[player.pk]
        for poule_id, poule_deals in his_deals.items()
    ]
