"""How fast the engine scores: ``manage.py bench engine``, or with no Django at all (no
settings, no database: the engine and this module are pure Python)
``python -m benchmarks.engine``.

(a) Belgian whist deals scored per second by ``score_deal`` on one core, over realistic deals
    (prebuilt ``Deal`` objects; best of several repeats);
(b) the same deals through a bare loop of dictionary look-ups and additions — what the
    interpreter can do at best for the same arithmetic — and the ratio of the two;
(c) the time to rank a season of 50 club nights of 40 players (3 rounds, 10 tables of 4,
    12 deals each): from the club-night documents (``rank_nights`` scores every deal) and from
    the tournament results alone (``season_ranking``).

It prints numbers next to the goals and asserts nothing about time: speed depends on the machine.
Every deal comes from a seeded ``random.Random``, so two runs measure the same work.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from scoring.engine.base import Penalty
from scoring.engine.games.belgian_whist import PASS, Deal, PointTable, active_seats, score_deal
from scoring.engine.night import read_night
from scoring.engine.ranking import RankingRules, TournamentEntry, season_ranking
from scoring.engine.season_file import night_entries, rank_nights
from scoring.engine.tables import preset

from .report import names, thin

DEALS_PER_SECOND_GOAL = 200_000
SEASON_SECONDS_GOAL = 1.0

# How often each contract is played. The club's score sheets are not available: these follow
# the usual shape of a Belgian whist evening — mostly emballages, solos and passed deals, some
# misères, a trou now and then, abondance and the chelems rarely.
CONTRACT_MIX = {
    "emballage": 46,
    "solo": 22,
    PASS: 12,
    "petite_misere": 6,
    "trou": 5,
    "grande_misere": 3,
    "solo_sur_misere": 2,
    "abondance": 2,
    "grande_misere_table": 1,
    "petit_chelem": 0.5,
    "chelem": 0.5,
}
BIDS = {
    "emballage": {8: 70, 9: 20, 10: 7, 11: 2, 12: 0.7, 13: 0.3},
    "solo": {6: 60, 7: 30, 8: 10},
    "trou": {8: 50, 9: 50},
}
# Tricks of the declaring side around its bid: usually made, sometimes one or two down.
TRICKS_OVER_BID = {-3: 2, -2: 5, -1: 15, 0: 30, 1: 25, 2: 15, 3: 6, 4: 2}
PENALTY_RATE = 0.01


def _pick(rng: random.Random, weights: dict[Any, float]) -> Any:
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def random_deal(rng: random.Random, point_table: PointTable, seat_count: int, dealer: int) -> Deal:
    """A deal that could have been played at this table with this dealer."""
    active = active_seats(seat_count, dealer)
    penalties: tuple[Penalty, ...] = ()
    if rng.random() < PENALTY_RATE:
        penalties = (Penalty(rng.choice(active), rng.randint(1, 5)),)
    contract = _pick(rng, CONTRACT_MIX)
    if contract == PASS:
        return Deal(PASS, penalties=penalties)
    bid = _pick(rng, BIDS[contract]) if contract in BIDS else None
    row = point_table.row(contract, bid)
    if row.side == "each":
        declarers = tuple(rng.sample(active, 1 if rng.random() < 0.8 else 2))
        tricks: int | tuple[int, ...] = tuple(
            row.needed if rng.random() < 0.75 else rng.randint(1, 3) for _ in declarers
        )
    else:
        declarers = tuple(rng.sample(active, 2 if row.side == "pair" else 1))
        over = _pick(rng, TRICKS_OVER_BID) if row.needed else rng.choice((0, 0, 0, 1))
        tricks = max(0, min(row.deal_tricks, row.needed + over))
    return Deal(contract, row.bid, declarers, tricks, penalties)


def realistic_deals(
    rng: random.Random, point_table: PointTable, count: int
) -> list[tuple[Deal, int, int]]:
    """``(deal, seat_count, dealer)`` triples; one table in four seats five (with a mort)."""
    cases = []
    for _ in range(count):
        seat_count = 5 if rng.random() < 0.25 else 4
        dealer = rng.randrange(seat_count)
        cases.append((random_deal(rng, point_table, seat_count, dealer), seat_count, dealer))
    return cases


def best_time(run: Callable[[], object], repeats: int) -> float:
    """The best wall time of ``repeats`` runs, with the collector off as ``timeit`` does."""
    best = float("inf")
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.perf_counter()
            run()
            best = min(best, time.perf_counter() - start)
    finally:
        if enabled:
            gc.enable()
    return best


# --------------------------------------------------------------------------------------------
# (a) and (b): one deal at a time


def engine_loop(
    point_table: PointTable, cases: Sequence[tuple[Deal, int, int]]
) -> Callable[[], None]:
    def run() -> None:
        for deal, seat_count, dealer in cases:
            score_deal(point_table, deal, seat_count, dealer)

    return run


def empty_loop(cases: Sequence[tuple[Deal, int, int]]) -> Callable[[], None]:
    def run() -> None:
        for _deal, _seat_count, _dealer in cases:
            pass

    return run


def bare_cases(
    point_table: PointTable, cases: Sequence[tuple[Deal, int, int]]
) -> list[tuple[Any, ...]]:
    """The deals reduced to plain tuples: the row's key, declarers, tricks, active seats."""
    bare = []
    for deal, seat_count, dealer in cases:
        key = None
        if deal.contract != PASS:
            row = point_table.row(deal.contract, deal.bid)
            key = (row.contract, row.bid)
        penalties = tuple((p.seat, p.points) for p in deal.penalties)
        active = active_seats(seat_count, dealer)
        bare.append((key, deal.declarers, deal.tricks, active, seat_count, penalties))
    return bare


def bare_grids(point_table: PointTable) -> dict[Any, tuple[tuple[int, ...], tuple[int, ...], bool]]:
    return {
        key: (row.declarer, row.defender, row.side == "each")
        for key, row in point_table.rows.items()
    }


def bare_points(grids: dict[Any, Any], bare: Iterable[tuple[Any, ...]]) -> Iterator[list[int]]:
    """The same arithmetic as ``score_deal``, with no checks: look-ups and additions only,
    each deal's points in turn. A generator rather than a function a deal: resuming it costs
    less than a call, so the baseline stays what the interpreter can do at best."""
    for key, declarers, tricks, active, seat_count, penalties in bare:
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
        yield points


def bare_score(grids: dict[Any, Any], case: tuple[Any, ...]) -> tuple[int, ...]:
    return tuple(next(bare_points(grids, [case])))


def bare_loop(grids: dict[Any, Any], bare: Sequence[tuple[Any, ...]]) -> Callable[[], None]:
    def run() -> None:
        for points in bare_points(grids, bare):
            tuple(points)

    return run


# --------------------------------------------------------------------------------------------
# (c): a season


def club_night(
    rng: random.Random,
    point_table: PointTable,
    number: int,
    players: Sequence[str],
    rounds: int,
    deals: int,
) -> dict[str, Any]:
    """A ``club-night/1`` document: each round draws the players to tables of four."""
    poules = []
    for round_no in range(1, rounds + 1):
        drawn = list(players)
        rng.shuffle(drawn)
        for table_no, start in enumerate(range(0, len(drawn), 4), start=1):
            seats = drawn[start : start + 4]
            raw_deals: list[dict[str, Any]] = []
            counted = 0
            while counted < deals:
                deal = random_deal(rng, point_table, 4, 0)
                raw_deals.append(_deal_document(deal, seats))
                counted += deal.contract != PASS
            poules.append(
                {"round": round_no, "table": table_no, "seats": seats, "deals": raw_deals}
            )
    return {
        "format": "club-night/1",
        "club": "RCWhist La Chevalerie",
        "season": "2024",
        "date": f"2024-{1 + number // 5:02d}-{1 + 5 * (number % 5):02d}",
        "game": "belgian_whist",
        "rules": point_table.name,
        "tournament_points": "rcwhist",
        "players": list(players),
        "poules": poules,
    }


def _deal_document(deal: Deal, seats: Sequence[str]) -> dict[str, Any]:
    raw: dict[str, Any] = {"contract": deal.contract}
    if deal.contract != PASS:
        if deal.bid is not None:
            raw["bid"] = deal.bid
        raw["declarers"] = [seats[s] for s in deal.declarers]
        if isinstance(deal.tricks, tuple):
            raw["tricks"] = {seats[s]: t for s, t in zip(deal.declarers, deal.tricks, strict=True)}
        else:
            raw["tricks"] = deal.tricks
    if deal.penalties:
        raw["penalties"] = [{"player": seats[p.seat], "points": p.points} for p in deal.penalties]
    return raw


def season_entries(docs: Sequence[dict[str, Any]]) -> list[TournamentEntry]:
    entries = []
    for index, doc in enumerate(docs):
        entries.extend(night_entries(index, read_night(doc).standings))
    return entries


# --------------------------------------------------------------------------------------------


def _verdict(ok: bool) -> str:
    return "ok" if ok else "BELOW GOAL"


def options() -> argparse.ArgumentParser:
    """The options of the engine's benchmark, for ``python -m benchmarks.engine`` and
    ``manage.py bench engine`` alike."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--deals", type=int, default=100_000, help="deals for (a) and (b)")
    parser.add_argument("--repeats", type=int, default=7, help="timed runs; the best is kept")
    parser.add_argument("--nights", type=int, default=50, help="club nights in the season")
    parser.add_argument("--seed", type=int, default=2024)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.engine", description=__doc__, parents=[options()]
    )
    args = parser.parse_args(argv)
    run(print, deals=args.deals, repeats=args.repeats, nights=args.nights, seed=args.seed)
    return 0


def run(report: Callable[[str], None], *, deals: int, repeats: int, nights: int, seed: int) -> None:
    """Measure (a), (b) and (c) and ``report`` each line."""
    point_table = preset("rcwhist")
    rng = random.Random(seed)
    report(
        f"scoring engine benchmark — Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.machine()}, one core, "
        f"seed {seed}, best of {repeats}"
    )

    # (a)
    cases = realistic_deals(rng, point_table, deals)
    fives = sum(1 for _, seats, _ in cases if seats == 5)
    passes = sum(1 for deal, _, _ in cases if deal.contract == PASS)
    report(
        f"\n(a) score_deal, preset rcwhist: {thin(len(cases))} prebuilt deals "
        f"({fives / len(cases):.0%} at tables of 5, {passes / len(cases):.0%} passed)"
    )
    engine = best_time(engine_loop(point_table, cases), repeats)
    overhead = best_time(empty_loop(cases), repeats)
    rate = len(cases) / engine
    report(
        f"    score_deal   {thin(rate, 10)} deals/s   {thin(engine / len(cases) * 1e9, 5)} ns/deal"
        f"   goal ≥ {thin(DEALS_PER_SECOND_GOAL)}   {_verdict(rate >= DEALS_PER_SECOND_GOAL)}"
    )
    report(f"    (the loop around the calls: {thin(overhead / len(cases) * 1e9)} ns/deal of that)")

    # (b)
    grids = bare_grids(point_table)
    bare = bare_cases(point_table, cases)
    for (deal, seat_count, dealer), case in zip(cases[:2000], bare, strict=False):
        # The baseline must do the same work, or the ratio means nothing.
        if bare_score(grids, case) != score_deal(point_table, deal, seat_count, dealer):
            raise SystemExit(f"bare loop disagrees with score_deal on {deal}")
    bare_seconds = best_time(bare_loop(grids, bare), repeats)
    report("\n(b) the same deals as a bare loop of dictionary look-ups and additions")
    report(
        f"    bare loop    {thin(len(bare) / bare_seconds, 10)} deals/s   "
        f"{thin(bare_seconds / len(bare) * 1e9, 5)} ns/deal"
    )
    report(f"    ratio: score_deal takes {engine / bare_seconds:.2f}× the time of the bare loop")

    # (c)
    players = names(40)
    docs = [club_night(rng, point_table, n, players, rounds=3, deals=12) for n in range(nights)]
    deal_count = sum(len(p["deals"]) for doc in docs for p in doc["poules"])
    report(
        f"\n(c) season ranking: {len(docs)} club nights × {len(players)} players, 3 rounds of "
        f"10 tables of 4, 12 counted deals each ({thin(deal_count)} deals with the passes)"
    )
    season_repeats = max(1, min(repeats, 3))
    from_docs = best_time(lambda: rank_nights(docs), season_repeats)
    report(
        f"    from club-night documents (rank_nights)       {from_docs:8.4f} s   "
        f"goal < {SEASON_SECONDS_GOAL:g} s   {_verdict(from_docs < SEASON_SECONDS_GOAL)}"
    )
    report(
        f"        {from_docs / len(docs) * 1e3:.1f} ms per night, "
        f"{from_docs / deal_count * 1e6:.1f} µs per deal (checks, scoring, standings)"
    )
    entries = season_entries(docs)
    from_results = best_time(lambda: season_ranking(entries), repeats)
    report(
        f"    from tournament results (season_ranking)      {from_results:8.4f} s   "
        f"goal < {SEASON_SECONDS_GOAL:g} s   {_verdict(from_results < SEASON_SECONDS_GOAL)}"
    )
    rules = RankingRules(best_n=18, min_tournaments=10)
    with_rules = best_time(lambda: season_ranking(entries, rules), repeats)
    report(f"    the same with best_n=18, min_tournaments=10   {with_rules:8.4f} s")
    report(f"        ({thin(len(entries))} tournament results)")


if __name__ == "__main__":
    sys.exit(main())
