"""``manage.py bench api``: p50/p95 of the API's ranking and night endpoints on ten seasons of
data (``data.generate``'s club: 10 seasons × 50 nights × 40 players, every night published
with its deals), each cold (the cache emptied before each request: the first reader after a
publication) and warm. Goal: p95 under 100 ms on SQLite."""

from __future__ import annotations

import gc
from collections.abc import Callable

from django.db import connection
from django.test import Client

from games.models import Tournament

from . import data
from .pages import GOAL_MS
from .timing import measure_page

# The throttles would answer 429 long before the end of the run.
RATES = {"anon": "1000000/min", "token": "1000000/min"}


def api(
    report: Callable[[str], None],
    *,
    seed: int = 2026,
    requests: int = 100,
    seasons: int = data.SEASONS,
    nights: int = data.TOURNAMENTS,
) -> None:
    club, club_seasons, _player = data.generate(
        seed, report, seasons=seasons, nights=nights, deals=True
    )
    night = Tournament.objects.filter(season=club_seasons[0]).order_by("-date").first()
    # The generator leaves a heap no web worker has (hundreds of thousands of objects): set
    # aside from the garbage collector, its full collections would be timed as requests.
    # (Web servers that preload the site do the same with gc.freeze().)
    gc.collect()
    gc.freeze()
    base = f"/api/v1/clubs/{club.slug}"
    endpoints = {
        "ranking, current season": f"{base}/seasons/{club_seasons[0].slug}/ranking/",
        "ranking, oldest season": f"{base}/seasons/{club_seasons[-1].slug}/ranking/",
        "nights of a season (page 1)": f"{base}/nights/?season={club_seasons[0].slug}",
        "nights, all seasons (page 1)": f"{base}/nights/",
        "a night: poules, deals, points": f"{base}/nights/{night.pk}/",
    }
    client = Client()
    report(f"database: {connection.vendor}; {requests} anonymous requests each")
    report(f"{'endpoint':34} {'cache':5} {'p50':>8} {'p95':>8}  queries  goal")
    try:
        for label, path in endpoints.items():
            for cold in (True, False):
                result = measure_page(client, path, requests, warm_up=3, cold=cold)
                verdict = "ok" if result["p95_ms"] < GOAL_MS else f"MISSES {GOAL_MS} ms"
                report(
                    f"{label:34} {'cold' if cold else 'warm':5} {result['p50_ms']:6.1f}ms "
                    f"{result['p95_ms']:6.1f}ms  {result['queries']:7}  {verdict}"
                )
    finally:
        gc.unfreeze()
