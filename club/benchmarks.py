"""``manage.py bench``: every measure of the site's speed, at two sizes, next to a baseline.

Each measure runs in the same process as its baseline, one call of each in turn, so that a
slower machine or a busy core slows both alike and the ratio (p50 / baseline p50) stays
meaningful where a bare time would not. The data are built by the same builders as the older
benchmarks (``club.bench.generate``, ``games.bench``) and by the club-night importer, in the
throw-away database the command makes.

The baselines: for a page or a deal, a bare view that runs one query, requested through the
same test client, middleware, method and login; for the season ranking task, one GROUP BY in
raw SQL over the same standings; for the import, the engine alone reading the same documents;
for the engine, a bare loop of grid look-ups that adds into the same per-player totals.

The goals are printed beside the numbers and never asserted: speed depends on the machine.
"""

from __future__ import annotations

import datetime
import gc
import math
import random
import statistics
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path, reverse
from django.utils import timezone

from games import bench as sheet_bench
from games.demo import random_night
from games.models import COUNTED_STATUSES, Tournament
from games.nightfile import tournament_import, tournaments_import
from scoring.engine.bench import bare_cases, bare_grids, realistic_deals
from scoring.engine.games.belgian_whist import PointTable, score_deal
from scoring.engine.night import read_night
from scoring.engine.tables import preset
from scoring.models import TournamentStanding
from scoring.services import season_ranking_update, season_totals, tournament_publish

from . import bench as ranking_bench
from . import urls as site_urls
from .models import Club, Player, Season


@dataclass(frozen=True)
class Sizes:
    """The two sizes of every measure (small, large)."""

    night_players: tuple[int, int] = (8, 40)
    season_nights: tuple[int, int] = (10, 200)
    club_seasons: tuple[int, int] = (1, 10)
    season_length: int = 50
    club_players: int = 40
    import_nights: tuple[int, int] = (10, 50)
    engine_deals: tuple[int, int] = (1_000, 10_000)


DEFAULT = Sizes()
# --full: a club's whole history through the importer, 10 seasons of 50 nights.
FULL = Sizes(import_nights=(10, 500))
# --quick: the command's own test; every measure runs, on a few rows.
QUICK = Sizes(
    night_players=(4, 8),
    season_nights=(2, 3),
    club_seasons=(1, 2),
    season_length=2,
    club_players=4,
    import_nights=(1, 2),
    engine_deals=(50, 100),
)

WARM_UP = 3  # untimed calls of each side first: templates compiled, connection open
# The table's order, and the keys of ``run``'s answer.
MEASURES = ("results", "record", "ranking", "pages", "import", "my-results", "engine")


# --------------------------------------------------------------------------------------------
# The baseline of every page: the site's whole middleware stack and one query, nothing else.


def bare_view(request: HttpRequest) -> HttpResponse:
    Club.objects.values_list("pk", flat=True).first()
    return HttpResponse(b"ok", content_type="text/plain")


# The command runs with ROOT_URLCONF pointing here: the site's own addresses, unchanged, and the
# bare view after them.
urlpatterns = [*site_urls.urlpatterns, path("banc-d-essai/vide/", bare_view, name="bench-bare")]


# --------------------------------------------------------------------------------------------
# Timing


class _QueryCount:
    """Counts the statements run on the connection (cheaper than logging them)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute: Callable[..., Any], *args: Any) -> Any:
        self.count += 1
        return execute(*args)


def timed(call: Callable[[], Any]) -> tuple[float, int, Any]:
    """``call()``'s wall time in ms, its queries, and what it returned."""
    counter = _QueryCount()
    with connection.execute_wrapper(counter):
        start = time.perf_counter()
        result = call()
        elapsed = time.perf_counter() - start
    return elapsed * 1000, counter.count, result


def p50(times: Sequence[float]) -> float:
    return statistics.median(times)


def p95(times: Sequence[float]) -> float:
    """The nearest rank: never below the median, however few the times."""
    ordered = sorted(times)
    return ordered[math.ceil(0.95 * len(ordered)) - 1]


@dataclass
class Row:
    measure: str
    size: str
    times: list[float] = field(default_factory=list)
    queries: list[int] = field(default_factory=list)
    baseline: list[float] = field(default_factory=list)

    def add(self, measured: tuple[float, int, Any], baseline: tuple[float, int, Any]) -> None:
        self.times.append(measured[0])
        self.queries.append(measured[1])
        self.baseline.append(baseline[0])

    @property
    def ratio(self) -> float:
        return p50(self.times) / p50(self.baseline)

    # What one call does: the import takes a whole batch of nights in one call.
    items: int = 1

    @property
    def rate(self) -> float:
        """Items a second: nights a second, for the import."""
        return self.items * len(self.times) / (sum(self.times) / 1000)

    @property
    def baseline_rate(self) -> float:
        return self.items * len(self.baseline) / (sum(self.baseline) / 1000)


def _ok(response: Any, what: str) -> Any:
    if response.status_code != 200:
        raise RuntimeError(f"{what}: status {response.status_code}")
    return response


def side_by_side(
    row: Row,
    measured: Callable[[], Any],
    baseline: Callable[[], Any],
    requests: int,
    before: Callable[[], None] | None = None,
) -> Row:
    """``requests`` calls of each, in turn; ``before`` runs untimed before every call."""
    for _ in range(WARM_UP):
        measured()
        baseline()
    for _ in range(requests):
        if before:
            before()
        first = timed(measured)
        if before:
            before()
        row.add(first, timed(baseline))
    return row


def _page(client: Client, address: str) -> Callable[[], Any]:
    return lambda: _ok(client.get(address), address)


def _caches_cleared() -> None:
    for cache in caches.all():
        cache.clear()


# --------------------------------------------------------------------------------------------
# The measures


def _count(number: int, thing: str) -> str:
    return f"{number:,} {thing}{'s' if number > 1 else ''}".replace(",", " ")


def _names(count: int) -> list[str]:
    return [f"Joueur {n:02d}" for n in range(1, count + 1)]


def _last_year() -> int:
    return timezone.localdate().year - 1


def results_page(players: int, requests: int, rng: random.Random) -> Row:
    """A published night's results, every poule with its deals; the cache emptied before each
    request (the goal is for the page as first built)."""
    date = datetime.date(_last_year(), 3, 14)
    doc = random_night(
        rng,
        club=f"Banc d'essai des résultats ({players})",
        season=str(date.year),
        date=date,
        members=_names(players),
        present=players,
    )
    tournament = tournament_publish(tournament_import(doc))
    address = reverse("games:results", kwargs={"slug": tournament.club.slug, "pk": tournament.pk})
    client = Client()
    page, bare = _page(client, address), _page(client, reverse("bench-bare"))
    return [
        side_by_side(
            Row("results page (games:results)", f"{players} players"),
            page,
            bare,
            requests,
            before=_caches_cleared,
        ),
        # Another visitor of the published night: the page comes from the cache.
        side_by_side(Row("results page, cached", f"{players} players"), page, bare, requests),
    ]


def record_deal(players: int, requests: int, seed: int) -> Row:
    """Deals posted to the score sheet by a scorer's phone (htmx), a night of ``players``."""
    club, user, members = sheet_bench.scorer_club(players, slug=f"banc-feuilles-{players}")
    tables = players // 4
    # Enough rounds for the deals asked for: each poule takes at least twelve.
    rounds = max(sheet_bench.ROUNDS, math.ceil((requests + WARM_UP) / (12 * tables)) + 1)
    tournament = sheet_bench.night(club, members, rounds)
    client = Client()
    client.force_login(user)
    bare = reverse("bench-bare")
    row = Row("record a deal (score sheet POST)", f"{players} players")
    posts = sheet_bench.sheet_posts(tournament, random.Random(seed), seed)
    for index, (address, deal, data) in enumerate(posts):
        measured = timed(partial(client.post, address, data, HTTP_HX_REQUEST="true"))
        response = measured[2]
        # A refused deal comes back as the sheet with the engine's message.
        if response.status_code != 200 or b"dealform-errors" in response.content:
            raise RuntimeError(f"deal refused or failed: {deal}")
        baseline = timed(partial(client.post, bare, data, HTTP_HX_REQUEST="true"))
        _ok(baseline[2], bare)
        if index >= WARM_UP:
            row.add(measured, baseline)
        if len(row.times) == requests:
            break
    posts.close()
    return row


_RANKING_SQL = """
    SELECT standing.player_id, SUM(standing.game_points), COUNT(*)
    FROM {standing} standing JOIN {tournament} tournament
        ON tournament.id = standing.tournament_id
    WHERE tournament.season_id = %s AND tournament.status IN ({statuses})
    GROUP BY standing.player_id
"""


def ranking_sql(season: Season) -> list[tuple[Any, ...]]:
    """The baseline of the ranking task: the season's standings summed per player in one
    statement (game points: tournament points are stored as text, "7/2")."""
    sql = _RANKING_SQL.format(
        standing=TournamentStanding._meta.db_table,
        tournament=Tournament._meta.db_table,
        statuses=", ".join(["%s"] * len(COUNTED_STATUSES)),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [season.pk, *COUNTED_STATUSES])
        return cursor.fetchall()


def season_club(
    nights: int, sizes: Sizes, seed: int, report: Callable[[str], None]
) -> tuple[Season, Player]:
    """One season of ``nights`` nights, all played by every player, with their deals."""
    _club, seasons, player = ranking_bench.generate(
        seed,
        report,
        seasons=1,
        nights=nights,
        players=sizes.club_players,
        deals=True,
        slug=f"banc-saison-{nights}",
    )
    return seasons[0], player


def season_ranking(season: Season, nights: int, requests: int) -> list[Row]:
    """The ranking task as a worker runs it (the season locked, its live snapshot written),
    then its reading alone: the season's standings summed by the database, next to the same
    rows summed in raw SQL."""
    rules = season.ranking_rules()
    return [
        side_by_side(
            Row("season ranking task", _count(nights, "night")),
            lambda: season_ranking_update(season),
            lambda: ranking_sql(season),
            requests,
        ),
        side_by_side(
            Row("season ranking, its sums", _count(nights, "night")),
            lambda: season_totals(season, rules),
            lambda: ranking_sql(season),
            requests,
        ),
    ]


def my_results(player: Player, nights: int, requests: int) -> list[Row]:
    """A member's own page for a season in which he played every night: as he opens it again
    (the club's results unchanged), then its first view after a change (cache emptied)."""
    user = get_user_model().objects.create_user(f"membre-banc-{nights}")
    Player.objects.filter(pk=player.pk).update(user=user)
    client = Client()
    client.force_login(user)
    page, bare = _page(client, reverse("my-results")), _page(client, reverse("bench-bare"))
    return [
        side_by_side(
            Row("Mes résultats (my-results)", _count(nights, "night")), page, bare, requests
        ),
        side_by_side(
            Row("Mes résultats, first view", _count(nights, "night")),
            page,
            bare,
            max(3, requests // 5),
            before=_caches_cleared,
        ),
    ]


def public_pages(
    seasons: int, sizes: Sizes, requests: int, seed: int, report: Callable[[str], None]
) -> list[Row]:
    club, club_seasons, player = ranking_bench.generate(
        seed,
        report,
        seasons=seasons,
        nights=sizes.season_length,
        players=sizes.club_players,
        slug=f"banc-classements-{seasons}",
    )
    size = _count(seasons, "season")
    pages = {
        "current ranking (ranking)": reverse("ranking", args=[club.slug]),
        # The oldest season: the only one when the club has one.
        "past season (ranking-season)": reverse(
            "ranking-season", args=[club.slug, club_seasons[-1].slug]
        ),
        "player page (player)": reverse("player", args=[club.slug, player.pk]),
    }
    client = Client()
    bare = _page(client, reverse("bench-bare"))
    return [
        side_by_side(Row(label, size), _page(client, address), bare, requests)
        for label, address in pages.items()
    ]


def night_documents(nights: int, players: int, rng: random.Random) -> list[dict[str, Any]]:
    """``nights`` club nights as club-night files, 50 a season (weekly), the last season last
    year; everybody present."""
    first_year = _last_year() - (nights - 1) // 50
    docs = []
    for n in range(nights):
        year = first_year + n // 50
        date = datetime.date(year, 1, 1) + datetime.timedelta(days=7 * (n % 50 + 1))
        docs.append(
            random_night(
                rng,
                club=f"Banc d'essai de l'import ({nights})",
                season=str(year),
                date=date,
                members=_names(players),
                present=players,
            )
        )
    return docs


def night_import(nights: int, players: int, rng: random.Random) -> Row:
    """The nights imported in one batch as a club's history is (each closed, each season
    ranked once at the end), once: the same files cannot be imported twice. The baseline is
    the engine reading the same files."""
    docs = night_documents(nights, players, rng)
    row = Row("import nights (tournaments_import)", _count(nights, "night"), items=nights)
    baseline = timed(lambda: [read_night(doc) for doc in docs])
    measured = timed(partial(tournaments_import, docs))
    refused = [outcome for outcome in measured[2] if not isinstance(outcome, Tournament)]
    if refused:
        raise RuntimeError(f"nights refused: {refused[0]}")
    row.add(measured, baseline)
    return row


def engine_cases(
    point_table: PointTable, count: int, rng: random.Random
) -> list[tuple[Any, int, int, tuple[str, ...]]]:
    """Realistic deals, each at a table of players drawn from a club of 40."""
    names = _names(40)
    return [
        (deal, seat_count, dealer, tuple(rng.sample(names, seat_count)))
        for deal, seat_count, dealer in realistic_deals(rng, point_table, count)
    ]


def engine_totals(point_table: PointTable, cases: Iterable[Any]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for deal, seat_count, dealer, players in cases:
        points = score_deal(point_table, deal, seat_count, dealer)
        for player, p in zip(players, points, strict=True):
            totals[player] = totals.get(player, 0) + p
    return totals


def bare_totals(grids: dict[Any, Any], cases: Iterable[Any]) -> dict[str, int]:
    """``scoring.engine.bench.bare_loop``'s arithmetic (look-ups and additions, no checks),
    and then, as the engine loop, the points added into each player's total."""
    totals: dict[str, int] = {}
    for key, declarers, tricks, active, seat_count, penalties, players in cases:
        points = [0] * seat_count
        if key is not None:
            declarer, defender, each = grids[key]
            if each:
                for seat_of, t in zip(declarers, tricks, strict=True):
                    made, lost = declarer[t], defender[t]
                    for seat in active:
                        points[seat] += made if seat == seat_of else lost
            else:
                made, lost = declarer[tricks], defender[tricks]
                for seat in active:
                    points[seat] = made if seat in declarers else lost
        for offender, p in penalties:
            others = len(active) - 1
            for seat in active:
                points[seat] += -p * others if seat == offender else p
        for player, p in zip(players, points, strict=True):
            totals[player] = totals.get(player, 0) + p
    return totals


def engine(deals: int, requests: int, rng: random.Random) -> Row:
    """Belgian whist deals scored into per-player totals, the collector off (as ``timeit``)."""
    point_table = preset("rcwhist")
    cases = engine_cases(point_table, deals, rng)
    grids = bare_grids(point_table)
    reduced = bare_cases(point_table, [(deal, seats, dealer) for deal, seats, dealer, _ in cases])
    bare = [(*case, players) for case, (*_, players) in zip(reduced, cases, strict=True)]
    # The baseline must do the same work, or the ratio means nothing.
    if bare_totals(grids, bare) != engine_totals(point_table, cases):
        raise RuntimeError("the bare loop's totals differ from score_deal's")
    enabled = gc.isenabled()
    gc.disable()
    try:
        return side_by_side(
            Row("engine: score_deal into totals", _count(deals, "deal")),
            lambda: engine_totals(point_table, cases),
            lambda: bare_totals(grids, bare),
            requests,
        )
    finally:
        if enabled:
            gc.enable()


# --------------------------------------------------------------------------------------------
# The report


def _ms(value: float) -> str:
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def table(rows: Sequence[Row]) -> list[str]:
    header = (
        f"{'measure':36} {'size':12} {'p50 ms':>9} {'p95 ms':>9} {'queries':>8} "
        f"{'baseline p50 ms':>16} {'ratio':>8}"
    )
    lines = [header, "-" * len(header)]
    for row in rows:
        lines.append(
            f"{row.measure:36} {row.size:12} {_ms(p50(row.times)):>9} "
            f"{_ms(p95(row.times)):>9} {statistics.median(row.queries):>8g} "
            f"{_ms(p50(row.baseline)):>16} {row.ratio:>8.2f}"
        )
    return lines


def _verdict(ok: bool) -> str:
    return "ok" if ok else "not yet"


def goals(rows: dict[str, list[Row]], postgresql: bool) -> list[str]:
    """Each goal with the numbers it is judged on: a named size, else every size."""
    lines = ["goals (printed, never asserted):"]
    measured = {key for key, found in rows.items() if found}

    def goal(text: str, numbers: str, ok: bool | None) -> None:
        verdict = "not judged here" if ok is None else _verdict(ok)
        lines.append(f"  {text:52} {numbers:52} {verdict}")

    if measured != set(MEASURES):
        # A run of some measures only (--only): each goal needs its own measure.
        lines.append(
            f"  judged on a full run only (this run measured: {', '.join(sorted(measured))})"
        )
        return lines

    large, cached = rows["results"][-2:]
    goal(
        f"results page, {large.size}: p95 < 40 ms uncached",
        f"p95 {_ms(p95(large.times))} ms",
        p95(large.times) < 40,
    )
    goal(
        f"results page, {cached.size}: cached < 5 ms",
        f"p50 {_ms(p50(cached.times))} ms, p95 {_ms(p95(cached.times))} ms",
        p95(cached.times) < 5,
    )
    task, sums = rows["ranking"][-2:]
    goal(
        f"season ranking, {sums.size}: sums ≤ 2× the raw SQL",
        f"sums {sums.ratio:.1f}× (the whole task, writes included: {task.ratio:.1f}×)",
        sums.ratio <= 2,
    )
    most = max(q for r in rows["record"] for q in r.queries)
    goal(
        "record a deal ≤ 12 queries",
        f"at most {most} queries for one deal",
        most <= 12,
    )
    goal(
        "record a deal p95 < 20 ms on PostgreSQL",
        ", ".join(f"{r.size} {_ms(p95(r.times))} ms" for r in rows["record"])
        + ("" if postgresql else " (on SQLite)"),
        all(p95(r.times) < 20 for r in rows["record"]) if postgresql else None,
    )
    goal(
        "import ≥ 10 nights/s",
        ", ".join(f"{r.size} {r.rate:.1f}/s" for r in rows["import"]),
        all(r.rate >= 10 for r in rows["import"]),
    )
    goal(
        "engine ≥ 0.5× the bare loop's speed",
        ", ".join(f"{r.size} {1 / r.ratio:.2f}×" for r in rows["engine"]),
        all(1 / r.ratio >= 0.5 for r in rows["engine"]),
    )
    mine, first = rows["my-results"][-2:]
    goal(
        f'"Mes résultats", {mine.size}: p95 < 50 ms',
        f"p95 {_ms(p95(mine.times))} ms (first view after a change: p50 {_ms(p50(first.times))})",
        p95(mine.times) < 50,
    )
    return lines


def run(
    report: Callable[[str], None],
    *,
    sizes: Sizes = DEFAULT,
    requests: int = 50,
    seed: int = 2026,
    only: Collection[str] = MEASURES,
) -> dict[str, list[Row]]:
    """Build the data, measure everything (or the ``only`` measures named), print the table
    and the goals."""
    started = time.perf_counter()
    rng = random.Random(seed)
    rows: dict[str, list[Row]] = {key: [] for key in MEASURES}

    def step(text: str) -> None:
        report(f"[{time.perf_counter() - started:5.1f} s] {text}")

    report(f"database: {connection.vendor}; {requests} requests (or runs) a measure and size")
    for players in sizes.night_players if "results" in only else ():
        step(f"results page, {players} players")
        rows["results"] += results_page(players, requests, rng)
    for players in sizes.night_players if "record" in only else ():
        step(f"record a deal, {players} players")
        rows["record"].append(record_deal(players, requests, seed))
    for nights in sizes.season_nights if {"ranking", "my-results"} & set(only) else ():
        season, player = season_club(nights, sizes, seed, step)
        step(f"season ranking task and Mes résultats, {nights} nights")
        if "ranking" in only:
            rows["ranking"] += season_ranking(season, nights, requests)
        if "my-results" in only:
            rows["my-results"] += my_results(player, nights, requests)
    for seasons in sizes.club_seasons if "pages" in only else ():
        step(f"public pages, {_count(seasons, 'season')} of {sizes.season_length} nights")
        rows["pages"] += public_pages(seasons, sizes, requests, seed, step)
    for nights in sizes.import_nights if "import" in only else ():
        step(f"import, {_count(nights, 'night')} of {sizes.club_players} players")
        rows["import"].append(night_import(nights, sizes.club_players, rng))
    for deals in sizes.engine_deals if "engine" in only else ():
        step(f"engine, {_count(deals, 'deal')}")
        rows["engine"].append(engine(deals, requests, rng))
    step("done")

    report("")
    for line in table([row for key in MEASURES for row in rows[key]]):
        report(line)
    report("")
    report(
        "p50/p95: per request (pages, a deal), per run (ranking task, engine); the import is "
        "one run of the whole batch (p50 = p95); queries: the median per call."
    )
    report(
        "baseline: a bare view running one query, through the same client, login and method "
        "(pages, deals); one GROUP BY in raw SQL over the same standings (ranking); the engine "
        "alone reading the same files (import); a bare loop of grid look-ups adding into the "
        "same per-player totals (engine)."
    )
    report(
        "import rate: "
        + "; ".join(
            f"{r.size} in {r.times[0] / 1000:.1f} s, {r.rate:.1f} nights/s (the engine alone "
            f"reading them: {r.baseline_rate:.0f}/s)"
            for r in rows["import"]
        )
    )
    report("")
    for line in goals(rows, connection.vendor == "postgresql"):
        report(line)
    return rows
