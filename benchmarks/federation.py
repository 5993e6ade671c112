"""``manage.py bench federation``: the site at a federation's scale, on PostgreSQL.

In one run, in a throw-away database: deals recorded through ``scoring.services.deal_record``
in the empty database; the federation generated (``federation_data``: 100 clubs × 10 seasons
× 40 nights by default) and a handful of its nights scored again by the engine; the same deal
recording in the full database (p50/p95 of each and their ratio, goal ≤ 1.5×); the
federation's ranking recomputed by its Celery task (in this process, eager; goal < 2 s); its
public pages drawn and then served from the cache (or, while those pages do not exist, the
stored ranking read); and ``scorers`` phones recording at once against gunicorn
(``federation_load``). Goals are printed, never asserted.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from django.db import connection
from django.test import Client, override_settings
from django.urls import Resolver404, resolve, reverse

from club.models import Club, FederationSeason, Player
from games.demo import random_deal
from games.models import Poule, Tournament
from games.services import point_table_for_preset
from scoring.engine.games.belgian_whist import counts_toward_poule
from scoring.engine.night import score_poule_deals
from scoring.engine.standings import PouleResult, poule_standings, scheme, tournament_standings
from scoring.models import FederationRankingLine
from scoring.services import deal_record, round_draw
from scoring.tasks import federation_ranking_update

from . import data
from .federation_data import CLUBS, DEALS, NIGHTS, SEASONS, SEATS, TABLE, TABLES, generate
from .federation_load import DEALS_EACH, scorers_load
from .report import Row, count, ms, percentile
from .timing import WARM_UP, caches_cleared, page, side_by_side, timed

# Past this many nights, SQLite would take hours and measure nothing a club would run on.
SQLITE_MAX_NIGHTS = 2_000
SCORERS = 200
DEALS_TIMED = 50
RUNS = 5
TURN = 5  # deals timed in one database before the other takes its turn
EMPTY = "vide"  # the empty database's suffix


def nights_of(clubs: int, seasons: int, nights: int) -> int:
    return clubs * seasons * nights


def deals_recorded(club: Club, players: list[Player], count: int, seed: int) -> Iterator[float]:
    """Deals recorded one by one through ``deal_record`` at tonight's night of ``club`` (8
    players, two tables, rounds drawn as they are needed): each call's ms, ``count`` of them
    after ``WARM_UP`` untimed. A generator, so that two databases can take turns."""
    total = count + WARM_UP
    tournament = data.night(club, players, rounds=math.ceil(total / (DEALS * TABLES)) + 1)
    rng = random.Random(seed)
    done = 0
    for round in range(1, tournament.rounds + 1):
        round_draw(tournament, round, seed=seed + round)
        poules = Poule.objects.filter(tournament=tournament, round=round).select_related(
            "tournament__club", "tournament__point_table"
        )
        for poule in poules.order_by("table"):
            counted = 0
            while counted < DEALS:
                deal = random_deal(rng, SEATS)
                elapsed, _queries, _deal = timed(
                    lambda p=poule, d=deal: deal_record(p, d, client_key=uuid.uuid4())
                )
                done += 1
                if done > WARM_UP:
                    yield elapsed
                if done == total:
                    return
                counted += counts_toward_poule(deal["contract"])


@contextmanager
def on_database(name: str) -> Iterator[None]:
    """The connection switched to another database of the same server for a while."""
    own = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = name
    connection.ensure_connection()  # opened here, not inside the first timed call
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict["NAME"] = own
        connection.ensure_connection()


def in_turns(
    streams: list[tuple[str | None, Iterator[float]]], turn: int = TURN
) -> list[list[float]]:
    """``turn`` deals of each stream in turn, each on its own database (None: this one), so
    that a machine busy with something else for a while slows both alike."""
    times: list[list[float]] = [[] for _ in streams]
    running = True
    while running:
        running = False
        for (database, stream), measured in zip(streams, times, strict=True):
            with on_database(database) if database else nullcontext():
                taken = list(itertools.islice(stream, turn))
            measured += taken
            running = running or len(taken) == turn
    return times


def _spread(times: list[float]) -> str:
    return f"p50 {ms(statistics.median(times))} ms, p95 {ms(percentile(times, 0.95))} ms"


def standings_mismatches(nights: Iterable[Tournament]) -> list[str]:
    """Generated nights scored again from their stored deals by the engine, as the services
    score a sheet: each poule or night whose stored standings differ."""
    table = point_table_for_preset("rcwhist").engine_table()
    points_scheme = scheme("rcwhist")
    wrong = []
    for night in nights:
        results = []
        for poule in night.poules.order_by("round", "table"):
            seats = list(poule.seats.order_by("number").values_list("number", "player_id"))
            deals = list(poule.deals.order_by("position").values_list("data", flat=True))
            score = score_poule_deals(table, [str(number) for number, _ in seats], deals)
            lines = poule_standings(score, points_scheme)
            engine = {
                (seats[x.seat][1], x.seat + 1, x.rank, x.tied, x.game_points, x.tournament_points)
                for x in lines
            }
            stored = set(
                poule.standings.values_list(
                    "player_id", "seat", "rank", "tied", "game_points", "tournament_points"
                )
            )
            if engine != stored:
                wrong.append(f"{night.club} {night}: {poule}")
            results += [
                PouleResult(seats[x.seat][1], x.rank, x.game_points, x.tournament_points)
                for x in sorted(lines, key=lambda x: (x.rank, x.seat))
            ]
        engine_night = {
            (x.player, x.rank, x.tied, x.tournament_points, x.game_points, x.poules_played)
            for x in tournament_standings(results)
        }
        stored_night = set(
            night.standings.values_list(
                "player_id", "rank", "tied", "tournament_points", "game_points", "poules_played"
            )
        )
        if engine_night != stored_night:
            wrong.append(f"{night.club} {night}: night standings")
    return wrong


def ranking_task(season: FederationSeason, runs: int) -> dict[str, Any]:
    """The task as a worker runs it (``apply``: here, eagerly), ``runs`` times."""
    times = [
        timed(lambda: federation_ranking_update.apply(args=[season.pk]).get())[0]
        for _ in range(runs)
    ]
    season.ranking.refresh_from_db()
    return {
        "season": season.name,
        "nights": season.ranking.tournaments,
        "clubs": season.ranking.clubs,
        "lines": season.ranking.lines.count(),
        "p50_ms": statistics.median(times),
        "max_ms": max(times),
    }


def public_pages(season: FederationSeason, requests: int) -> list[str]:
    """The federation's public pages uncached (the first reader after a change) and cached,
    each beside the bare one-query view (``benchmarks/urls.py``) requested in turn through the
    same client, with the ratio of their p50; while they are not there, the stored ranking's
    read, said so."""
    slug = season.federation.slug
    ranking = f"/federations/{slug}/classement/{season.slug}/"
    paths = [f"/federations/{slug}/", ranking, f"{ranking}?page=2", f"{ranking}?q=chloe"]
    client = Client()
    lines = []
    with override_settings(ROOT_URLCONF="benchmarks.urls"):
        bare = page(client, reverse("bench-bare"))
        for path in paths:
            lines += _page_beside_bare(client, path, bare, requests)
    if len(lines) == sum("not there yet" in line for line in lines):
        caches_cleared()
        read = [
            timed(
                lambda: list(
                    FederationRankingLine.objects.filter(ranking__season=season)
                    .select_related("player")
                    .order_by("position")
                )
            )
            for _ in range(requests)
        ]
        times = [t for t, _q, _r in read]
        lines.append(
            f"the stored federation ranking read instead ({len(read[0][2])} lines, "
            f"{read[0][1]} query): {_spread(times)}"
        )
    return lines


def _page_beside_bare(
    client: Client, path: str, bare: Callable[[], Any], requests: int
) -> list[str]:
    """A public page drawn (the caches emptied before each request) and cached, each beside
    the bare view, with its size."""
    try:
        resolve(path.partition("?")[0])
    except Resolver404:
        return [f"public page {path}: not there yet"]
    cold = side_by_side(
        Row(path, "first draw"), page(client, path), bare, requests, before=caches_cleared
    )
    warm = side_by_side(Row(path, "cached"), page(client, path), bare, requests)
    size = len(client.get(path).content)
    return [
        f"public page {path} ({size:,} bytes): first draw {_row(cold)}; from the cache "
        f"{_row(warm)}".replace(",", " ")
    ]


def _row(row: Row) -> str:
    """A page's p50/p95 and queries, and its ratio to the bare view's p50."""
    return (
        f"p50 {ms(statistics.median(row.times))} ms, p95 {ms(percentile(row.times, 0.95))} ms "
        f"({max(row.queries)} queries), bare view p50 {ms(statistics.median(row.baseline))} ms: "
        f"{row.ratio:.1f}×"
    )


def federation(
    report: Callable[[str], None],
    *,
    seed: int = 2026,
    clubs: int = CLUBS,
    seasons: int = SEASONS,
    nights: int = NIGHTS,
    deals: int = DEALS_TIMED,
    runs: int = RUNS,
    requests: int = 20,
    scorers: int = SCORERS,
    scorer_deals: int = DEALS_EACH,
) -> dict[str, Any]:
    report(f"database: {connection.vendor} {connection.settings_dict['NAME']}")
    # The empty database: a copy of this one, migrated and empty, taken before the generation.
    empty_database = None
    in_memory = connection.vendor == "sqlite" and connection.creation.is_in_memory_db(
        connection.settings_dict["NAME"]
    )
    if not in_memory:
        connection.close()
        connection.creation.clone_test_db(suffix=EMPTY, verbosity=0, autoclobber=True)
        empty_database = connection.creation.get_test_db_clone_settings(EMPTY)["NAME"]
    try:
        return _measured(
            report,
            empty_database,
            seed,
            clubs,
            seasons,
            nights,
            deals,
            runs,
            requests,
            scorers,
            scorer_deals,
        )
    finally:
        if empty_database:
            connection.creation.destroy_test_db(verbosity=0, suffix=EMPTY)


def _measured(
    report: Callable[[str], None],
    empty_database: str | None,
    seed: int,
    clubs: int,
    seasons: int,
    nights: int,
    deals: int,
    runs: int,
    requests: int,
    scorers: int,
    scorer_deals: int,
) -> dict[str, Any]:
    with on_database(empty_database) if empty_database else nullcontext():
        club, _user, members = data.scorer_club(TABLE * TABLES, slug="banc-federation-vide")
        empty_deals = deals_recorded(club, members, deals, seed)
        # In memory, no second database: the empty one's deals are timed now, before the rows.
        empty = [] if empty_database else list(empty_deals)

    generated = generate(seed, report, clubs=clubs, seasons=seasons, nights=nights)
    sample = list(
        Tournament.objects.filter(club__in=generated.clubs)
        .exclude(federation_season=None)
        .order_by("pk")[:3]
    ) + list(Tournament.objects.filter(club=generated.clubs[-1]).order_by("-pk")[:3])
    wrong = standings_mismatches(sample)
    report(
        f"stored standings of {len(sample)} generated nights scored again by the engine: "
        + ("identical" if not wrong else f"{len(wrong)} differ: {'; '.join(wrong[:5])}")
    )

    host = generated.clubs[0]
    players = list(Player.objects.filter(memberships__club=host).order_by("pk")[: TABLE * TABLES])
    full_deals = deals_recorded(host, players, deals, seed)
    if empty_database:
        empty, full = in_turns([(empty_database, empty_deals), (None, full_deals)])
        how = f"in turns of {TURN} with the empty database"
    else:
        full = list(full_deals)
        how = "the empty one's before the generation (in memory: no second database)"
    report(f"record a deal (deal_record), empty database: {_spread(empty)} ({len(empty)} deals)")
    ratio = statistics.median(full) / statistics.median(empty)
    ratio95 = percentile(full, 0.95) / percentile(empty, 0.95)
    report(
        f"record a deal (deal_record), {count(generated.rows['nights'], 'night')} generated: "
        f"{_spread(full)} ({len(full)} deals; {how})"
    )
    report(f"  full / empty: p50 {ratio:.2f}×, p95 {ratio95:.2f}× (goal ≤ 1.5×)")

    tasks = [ranking_task(s, runs) for s in (generated.championship[-1], generated.every_night)]
    for task in tasks:
        report(
            f"federation ranking task, season {task['season']}: {task['nights']} nights of "
            f"{task['clubs']} clubs, {task['lines']} players ranked: p50 "
            f"{task['p50_ms'] / 1000:.2f} s, max {task['max_ms'] / 1000:.2f} s over {runs} runs "
            f"(goal < 2 s)"
        )
    # The season of every night: the longest ranking (~1 800 lines at 75 clubs).
    pages = public_pages(generated.every_night, requests)
    for line in pages:
        report(line)

    load = None
    if scorers and connection.vendor == "postgresql":
        load = scorers_load(report, generated.clubs, scorers, seed, scorer_deals)
    else:
        report("load test: skipped (" + ("--scorers 0" if not scorers else "not PostgreSQL") + ")")
    report("goals (printed, never asserted):")
    report(f"  record a deal, full ≤ 1.5× empty: p50 {ratio:.2f}× {_ok(ratio <= 1.5)}")
    slowest = max(task["max_ms"] for task in tasks) / 1000
    report(f"  federation ranking task < 2 s: slowest run {slowest:.2f} s {_ok(slowest < 2)}")
    if load:
        report(
            f"  {load['scorers']} scorers at once, 0 errors: {load['errors']} errors, "
            f"p95 {load['p95_ms']:.0f} ms {_ok(load['errors'] == 0)}"
        )
        limit = load["limit_ms"]
        report(
            f"  {load['scorers']} scorers at once, p95 ≤ 2× the physical limit: p95 "
            f"{load['p95_ms']:.0f} ms, limit {limit:.0f} ms "
            f"({load['cpu_per_deal_ms']:.1f} ms CPU a deal): {load['p95_ms'] / max(limit, 1):.2f}× "
            f"{_ok(load['p95_ms'] <= 2 * limit)}"
        )
    return {
        "generated": generated,
        "empty": empty,
        "full": full,
        "ratio": ratio,
        "tasks": tasks,
        "pages": pages,
        "mismatches": wrong,
        "load": load,
    }


def _ok(ok: bool) -> str:
    return "ok" if ok else "not yet"
