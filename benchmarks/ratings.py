"""``manage.py bench ratings``: which rating predicts the next night, and how fast it is kept.

- ``prediction`` (no database): a decade of nights of players with a hidden true skill (it
  drifts a little each season), each deal's outcome drawn from the skills of its sides and
  scored by the engine. Before each night after the first season, each model predicts every
  pair of a poule ("A finishes above B"): the log-loss of those predictions and the mean
  Spearman correlation of each poule's predicted and actual order, for the deal model, the
  poule model and both (``scoring.statistics.cote.METHODS``); and how far the players' mean μ strays
  from the start (after the decade, and the most after any night): the scale must not drift.
- ``speed`` (a throw-away database): rebuilding a decade of one club's ratings, updating
  after one night, and a player's statistics page uncached (p95 and queries).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.models import Tournament
from scoring.engine.night import score_poule_deals
from scoring.engine.standings import poule_standings, scheme
from scoring.engine.tables import preset
from scoring.services import ratings_rebuild, ratings_update
from scoring.statistics.cote import (
    DRIFT_TOLERANCE,
    INITIAL_MU,
    INITIAL_SIGMA,
    METHODS,
    NightRecord,
    PouleRecord,
    Rating,
    above_probability,
    deal_sides,
    mean_drift,
    rate_night,
)

from . import data
from .report import percentile
from .timing import timed

SEATS = ("1", "2", "3", "4")
# contract, bid, declarers, weight — the mix of a club night.
MIX = [
    ("emballage", 8, 2, 45),
    ("solo", 6, 1, 22),
    ("petite_misere", None, 1, 10),
    ("abondance", 9, 1, 5),
    ("trou", 8, 2, 3),
    ("pass", None, 0, 15),
]


def _deal(rng: random.Random, skill: dict[str, float]) -> dict[str, Any]:
    contract, bid, count, _weight = rng.choices(MIX, weights=[m[3] for m in MIX])[0]
    if contract == "pass":
        return {"contract": "pass"}
    declarers = rng.sample(SEATS, count)
    defenders = [s for s in SEATS if s not in declarers]
    edge = sum(skill[s] for s in declarers) / count - sum(skill[s] for s in defenders) / len(
        defenders
    )
    made = rng.random() < 1 / (1 + math.exp(-(1.2 * edge + 0.5)))
    if contract == "petite_misere":
        return {
            "contract": contract,
            "declarers": declarers,
            "tricks": {declarers[0]: 0 if made else 1},
        }
    tricks = bid + min(rng.randint(0, 2), 13 - bid) if made else bid - 1 - rng.randint(0, 1)
    return {"contract": contract, "bid": bid, "declarers": declarers, "tricks": tricks}


def generated_nights(
    seed: int, seasons: int, nights: int, players: int
) -> list[tuple[NightRecord, list[tuple[list[int], list[int]]]]]:
    """Nights of 3 rounds at tables of four, each poule with its 12 counted deals."""
    rng = random.Random(seed)
    table = preset("rcwhist")
    points_scheme = scheme("rcwhist")
    true = {p: rng.gauss(0, 1) for p in range(players)}
    out = []
    for season in range(seasons):
        if season:
            true = {p: s + rng.gauss(0, 0.3) for p, s in true.items()}
        for night in range(nights):
            poules = []
            for _round in range(3):
                order = list(range(players))
                rng.shuffle(order)
                for t in range(players // 4):
                    seated = order[4 * t : 4 * t + 4]
                    skill = {SEATS[i]: true[p] for i, p in enumerate(seated)}
                    raw: list[dict[str, Any]] = []
                    while sum(d["contract"] != "pass" for d in raw) < 12:
                        raw.append(_deal(rng, skill))
                    score = score_poule_deals(table, list(SEATS), raw)
                    lines = sorted(poule_standings(score, points_scheme), key=lambda x: x.seat)
                    deals = [
                        deal_sides("belgian_whist", seated, d, pts, None)
                        for d, pts, ok in zip(raw, score.deal_points, score.counted, strict=True)
                        if ok
                    ]
                    poules.append(
                        PouleRecord(
                            players=tuple(seated),
                            ranks=tuple(line.rank for line in lines),
                            deals=tuple(d for d in deals if d),
                        )
                    )
            out.append(
                (NightRecord(season * nights + night, season, tuple(poules)), list(true.items()))
            )
    return out


def _spearman(xs: list[float], ys: list[float]) -> float | None:
    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=lambda i: values[i])
        result = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                result[order[k]] = (i + j) / 2
            i = j + 1
        return result

    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    sy = math.sqrt(sum((b - my) ** 2 for b in ry))
    return None if not sx or not sy else sxy / (sx * sy)


def prediction_quality(
    nights: list[tuple[NightRecord, Any]], method: str, warm_up: int
) -> tuple[float, float, float, float, float]:
    """Log-loss of the pairwise predictions, mean Spearman per poule, the players' mean μ less
    the start after the last night and the farthest it went after any night, seconds to rate."""
    ratings: dict[int, Rating] = {}
    losses, rhos = [], []
    drift = worst = 0.0
    start = time.perf_counter()
    for index, (night, _true) in enumerate(nights):
        if index >= warm_up:
            for poule in night.poules:
                known = [ratings.get(p, Rating(INITIAL_MU, INITIAL_SIGMA)) for p in poule.players]
                for a in range(len(known)):
                    for b in range(a + 1, len(known)):
                        if poule.ranks[a] == poule.ranks[b]:
                            continue
                        p = above_probability(known[a], known[b])
                        p = min(max(p, 1e-9), 1 - 1e-9)
                        losses.append(-math.log(p if poule.ranks[a] < poule.ranks[b] else 1 - p))
                rho = _spearman([-r.mu for r in known], [float(r) for r in poule.ranks])
                if rho is not None:
                    rhos.append(rho)
        rate_night(ratings, night, method)
        drift = mean_drift(rating.mu for rating in ratings.values())
        worst = max(worst, abs(drift))
    seconds = time.perf_counter() - start
    return sum(losses) / len(losses), sum(rhos) / len(rhos), drift, worst, seconds


def prediction(write: Callable[[str], None], seed: int, seasons: int, nights: int, players: int):
    generated = generated_nights(seed, seasons, nights, players)
    write(
        f"prediction of the next night's poules: {seasons} seasons × {nights} nights × "
        f"{players} players, the first season to learn (log-loss: lower is better, "
        "0.693 = a coin; Spearman: higher is better); the players' mean μ less the start "
        f"{INITIAL_MU:g}, after the last night and the farthest after any night "
        f"(goal: within {DRIFT_TOLERANCE})"
    )
    write(
        f"{'model':<10} {'log-loss':>9} {'Spearman':>9} {'mean μ drift':>13} {'farthest':>9} "
        f"{'rating time':>12}"
    )
    results = {}
    for method in METHODS:
        loss, rho, drift, worst, seconds = prediction_quality(generated, method, warm_up=nights)
        results[method] = (loss, rho, drift, worst)
        write(
            f"{method:<10} {loss:>9.4f} {rho:>9.4f} {drift:>+13.3f} {worst:>9.3f} "
            f"{seconds:>10.2f} s"
        )
    return results


def speed(
    write: Callable[[str], None],
    seed: int,
    seasons: int,
    nights: int,
    players: int,
    requests: int,
) -> dict[str, float]:
    club, _seasons, player = data.generate(
        seed, write, seasons=seasons, nights=nights, players=players, deals=True
    )
    deals = sum(
        1 for _ in Tournament.objects.filter(club=club).values_list("poules__deals__pk", flat=True)
    )
    ms, queries, rated = timed(lambda: ratings_rebuild(club))
    write(
        f"rebuild: {rated} nights, {deals} deals in {ms / 1000:.2f} s "
        f"({queries} queries; goal < 10 s)"
    )
    last = Tournament.objects.filter(club=club).order_by("-date", "-pk").first()
    update_ms, update_queries, _n = timed(lambda: ratings_update(last))
    write(f"update after one night: {update_ms:.0f} ms ({update_queries} queries; goal < 100 ms)")
    client = Client()
    address = reverse("player-statistics", kwargs={"slug": club.slug, "pk": player.pk})
    bare_address = reverse("bench-bare")
    times, counts, bare = [], [], []
    for _ in range(requests):
        for cache in caches.all():
            cache.clear()
        page_ms, page_queries, response = timed(lambda: client.get(address))
        if response.status_code != 200:
            raise RuntimeError(f"{address}: {response.status_code}")
        times.append(page_ms)
        counts.append(page_queries)
        # The baseline, in turn: a bare view running one query through the same client.
        bare.append(timed(lambda: client.get(bare_address))[0])
    p95 = percentile(times, 0.95)
    p50, bare_p50 = percentile(times, 0.5), percentile(bare, 0.5)
    write(
        f"statistics page uncached: p50 {p50:.1f} ms, p95 {p95:.1f} ms, "
        f"{max(counts)} queries (goal p95 < 50 ms, ≤ 6 queries); bare view p50 "
        f"{bare_p50:.2f} ms, ratio {p50 / bare_p50:.1f}× (goal ≤ 8×)"
    )
    connection.close()
    return {
        "rebuild_s": ms / 1000,
        "update_ms": update_ms,
        "page_p95_ms": p95,
        "page_queries": max(counts),
        "page_ratio": p50 / bare_p50,
    }


def ratings(
    write: Callable[[str], None],
    *,
    seed: int,
    seasons: int,
    nights: int,
    players: int,
    requests: int,
) -> dict[str, Any]:
    quality = prediction(write, seed, seasons, nights, players)
    return {"quality": quality, **speed(write, seed, seasons, nights, players, requests)}
