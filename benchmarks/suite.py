"""``manage.py bench``: every measure of the site's speed, at two sizes, next to a baseline.

Each measure runs in the same process as its baseline, one call of each in turn, so that a
slower machine or a busy core slows both alike and the ratio (p50 / baseline p50) stays
meaningful where a bare time would not. The data are built by ``benchmarks.data`` and by the
club-night importer, in the throw-away database the command makes; each measure lives with its
topic (``pages``, ``deals``, ``seasons``; the engine's here, beside the pure benchmark it
shares its deals with).

The baselines: for a page or a deal, a bare view that runs one query, requested through the
same test client, middleware, method and login; for the season ranking task, one GROUP BY,
nothing else, over the same standings; for the import, the engine alone reading the same documents;
for the engine, a bare loop of grid look-ups that adds into the same per-player totals.

The goals are printed beside the numbers and never asserted: speed depends on the machine.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any

from django.db import connection

from scoring.engine.games.belgian_whist import PointTable, score_deal
from scoring.engine.tables import preset

from .deals import record_deal
from .engine import bare_cases, bare_grids, bare_points, realistic_deals
from .pages import my_results, public_pages, results_page, statistics_page
from .report import Row, count, ms, names, p95, table
from .seasons import night_import, season_club, season_ranking
from .timing import side_by_side


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

# The table's order, and the keys of ``run``'s answer.
MEASURES = (
    "results",
    "record",
    "ranking",
    "pages",
    "import",
    "my-results",
    "statistics",
    "engine",
)


# --------------------------------------------------------------------------------------------
# The engine: Belgian whist deals scored into per-player totals, next to a bare loop


def engine_cases(
    point_table: PointTable, deals: int, rng: random.Random
) -> list[tuple[Any, int, int, tuple[str, ...]]]:
    """Realistic deals, each at a table of players drawn from a club of 40."""
    club = names(40)
    return [
        (deal, seat_count, dealer, tuple(rng.sample(club, seat_count)))
        for deal, seat_count, dealer in realistic_deals(rng, point_table, deals)
    ]


def engine_totals(point_table: PointTable, cases: Iterable[Any]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for deal, seat_count, dealer, players in cases:
        points = score_deal(point_table, deal, seat_count, dealer)
        for player, p in zip(players, points, strict=True):
            totals[player] = totals.get(player, 0) + p
    return totals


def bare_totals(
    grids: dict[Any, Any], bare: Iterable[Any], seated: Iterable[tuple[str, ...]]
) -> dict[str, int]:
    """``benchmarks.engine.bare_points``' arithmetic (look-ups and additions, no checks), and
    then, as the engine loop, the points added into each player's total."""
    totals: dict[str, int] = {}
    for points, players in zip(bare_points(grids, bare), seated, strict=True):
        for player, p in zip(players, points, strict=True):
            totals[player] = totals.get(player, 0) + p
    return totals


def engine(deals: int, requests: int, rng: random.Random) -> Row:
    """Belgian whist deals scored into per-player totals, the collector off (as ``timeit``)."""
    point_table = preset("rcwhist")
    cases = engine_cases(point_table, deals, rng)
    grids = bare_grids(point_table)
    reduced = bare_cases(point_table, [(deal, seats, dealer) for deal, seats, dealer, _ in cases])
    seated = [players for *_, players in cases]
    # The baseline must do the same work, or the ratio means nothing.
    if bare_totals(grids, reduced, seated) != engine_totals(point_table, cases):
        raise RuntimeError("the bare loop's totals differ from score_deal's")
    enabled = gc.isenabled()
    gc.disable()
    try:
        return side_by_side(
            Row("engine: score_deal into totals", count(deals, "deal")),
            lambda: engine_totals(point_table, cases),
            lambda: bare_totals(grids, reduced, seated),
            requests,
        )
    finally:
        if enabled:
            gc.enable()


# --------------------------------------------------------------------------------------------
# The report and the run


def _verdict(ok: bool) -> str:
    return "ok" if ok else "not yet"


def goals(rows: dict[str, list[Row]]) -> list[str]:
    """Each goal with the numbers it is judged on: a named size, else every size."""
    lines = ["goals (printed, never asserted):"]
    measured = {key for key, found in rows.items() if found}

    def goal(text: str, numbers: str, ok: bool | None) -> None:
        verdict = "not judged here" if ok is None else _verdict(ok)
        lines.append(f"  {text:64} {numbers:56} {verdict}")

    if measured != set(MEASURES):
        # A run of some measures only (--only): each goal needs its own measure.
        lines.append(
            f"  judged on a full run only (this run measured: {', '.join(sorted(measured))})"
        )
        return lines

    # The goals are ratios to the baseline measured in the same run: absolute times move by
    # half between runs on a shared machine, the ratios do not.
    def at_most(most: float, text: str, row: Row, more: str = "") -> None:
        # A ratio to the baseline, met at ``most`` or under, shown with its p95 (and ``more``).
        goal(text, f"{row.ratio:.1f}× (p95 {ms(p95(row.times))} ms{more})", row.ratio <= most)

    large, cached = rows["results"][-2:]
    at_most(8, f"results page, {large.size}: ≤ 8× bare uncached", large)
    at_most(3, f"results page, {cached.size}: ≤ 3× bare", cached)
    record = rows["record"][-1]
    at_most(
        6, f"record a deal, {record.size}: ≤ 6× bare", record, f", {max(record.queries)} queries"
    )
    task, sums = rows["ranking"][-2:]
    goal(
        f"season ranking, {sums.size}: sums ≤ 2× one GROUP BY",
        f"sums {sums.ratio:.1f}× (the whole task, writes included: {task.ratio:.1f}×)",
        sums.ratio <= 2,
    )
    imported = rows["import"][-1]
    goal(
        f"import, {imported.size}: ≤ 5× the engine alone",
        f"{imported.ratio:.1f}× ({imported.rate:.1f} nights/s)",
        imported.ratio <= 5,
    )
    mine, first = rows["my-results"][-2:]
    change = f'"Mes résultats", {first.size}: first view after a change ≤ 10× bare'
    at_most(10, change, first, f"; again: {mine.ratio:.1f}×")
    statistics = rows["statistics"][-1]
    at_most(10, f"player statistics, {statistics.size}: first view ≤ 10× bare", statistics)
    goal(
        "engine ≥ 0.5× the bare loop's speed",
        ", ".join(f"{r.size} {1 / r.ratio:.2f}×" for r in rows["engine"]),
        all(1 / r.ratio >= 0.5 for r in rows["engine"]),
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
    for nights in (
        sizes.season_nights if {"ranking", "my-results", "statistics"} & set(only) else ()
    ):
        season, player = season_club(nights, sizes.club_players, seed, step)
        step(f"season ranking task, Mes résultats and statistics, {nights} nights")
        if "ranking" in only:
            rows["ranking"] += season_ranking(season, nights, requests)
        if "statistics" in only:
            rows["statistics"].append(statistics_page(player, nights, requests))
        if "my-results" in only:
            rows["my-results"] += my_results(player, nights, requests)
    for seasons in sizes.club_seasons if "pages" in only else ():
        step(f"public pages, {count(seasons, 'season')} of {sizes.season_length} nights")
        rows["pages"] += public_pages(
            seasons, sizes.season_length, sizes.club_players, requests, seed, step
        )
    for nights in sizes.import_nights if "import" in only else ():
        step(f"import, {count(nights, 'night')} of {sizes.club_players} players")
        rows["import"].append(night_import(nights, sizes.club_players, rng))
    for deals in sizes.engine_deals if "engine" in only else ():
        step(f"engine, {count(deals, 'deal')}")
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
        "(pages, deals); one GROUP BY alone over the same standings (ranking); the engine "
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
    for line in goals(rows):
        report(line)
    return rows
