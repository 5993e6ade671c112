"""Recording a deal on a score sheet during a club night, through the real view, as a scorer's
phone does it: an htmx POST of the deal form that gets the updated sheet back.

- ``sheet``: ``manage.py bench sheet``, a night of 40 players and 3 rounds (10 tables of 4 a
  round, 12 deals each: 360 deals); every request timed and its queries counted.
- ``record_deal``: the measure of ``manage.py bench``, next to a bare view's POST.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable
from functools import partial
from typing import Any

from django.db import connection
from django.test import Client
from django.urls import reverse

from . import data
from .report import Row, percentile
from .timing import WARM_UP, ok, timed


def _post(client: Client, address: str, deal: dict[str, Any], form: dict[str, Any]) -> Any:
    measured = timed(partial(client.post, address, form, HTTP_HX_REQUEST="true"))
    response = measured[2]
    # A refused deal comes back as the sheet with the engine's message.
    if response.status_code != 200 or b"dealform-errors" in response.content:
        raise RuntimeError(f"deal refused or failed: {deal}")
    return measured


def record_deal(players: int, requests: int, seed: int) -> Row:
    """Deals posted to the score sheet by a scorer's phone (htmx), a night of ``players``."""
    club, user, members = data.scorer_club(players, slug=f"banc-feuilles-{players}")
    tables = players // 4
    # Enough rounds for the deals asked for: each poule takes at least twelve.
    rounds = max(data.ROUNDS, math.ceil((requests + WARM_UP) / (12 * tables)) + 1)
    tournament = data.night(club, members, rounds)
    client = Client()
    client.force_login(user)
    bare = reverse("bench-bare")
    row = Row("record a deal (score sheet POST)", f"{players} players")
    posts = data.sheet_posts(tournament, random.Random(seed), seed)
    for index, (address, deal, form) in enumerate(posts):
        measured = _post(client, address, deal, form)
        baseline = timed(partial(client.post, bare, form, HTTP_HX_REQUEST="true"))
        ok(baseline[2], bare)
        if index >= WARM_UP:
            row.add(measured, baseline)
        if len(row.times) == requests:
            break
    posts.close()
    return row


def sheet(
    report: Callable[[str], None],
    *,
    seed: int = 2026,
    players: int = data.PLAYERS,
    rounds: int = data.ROUNDS,
) -> dict[str, Any]:
    """Every deal of a night of ``players`` and ``rounds`` recorded through the sheet view."""
    rng = random.Random(seed)
    club, user, members = data.scorer_club(players)
    tournament = data.night(club, members, rounds)
    client = Client()
    client.force_login(user)
    times: list[float] = []
    queries: list[int] = []
    for path, deal, form in data.sheet_posts(tournament, rng, seed):
        elapsed, count, _response = _post(client, path, deal, form)
        times.append(elapsed)
        queries.append(count)
    result = {
        "requests": len(times),
        "p50_ms": statistics.median(times),
        "p95_ms": percentile(times, 0.95),
        "max_ms": max(times),
        "queries_first_table": queries[0:12],
        "queries_min": min(queries),
        "queries_max": max(queries),
        "queries_last_10": queries[-10:],
    }
    report(f"database: {connection.vendor}")
    report(f"deals recorded through the sheet view: {result['requests']}")
    report(
        f"server time per deal: p50 {result['p50_ms']:.1f} ms, p95 {result['p95_ms']:.1f} ms, "
        f"max {result['max_ms']:.1f} ms (goal: p95 < 50 ms)"
    )
    report(
        f"queries per deal: min {result['queries_min']}, max {result['queries_max']}; "
        f"first deals {result['queries_first_table'][:5]}, "
        f"last deals {result['queries_last_10'][-5:]}"
    )
    return result
