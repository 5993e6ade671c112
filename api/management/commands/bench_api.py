"""manage.py bench_api — p50/p95 of the API's ranking and night endpoints on ten seasons of
data (club/bench.py's club: 10 seasons × 50 nights × 40 players, every night published with
its deals), in a throw-away database. Goal: p95 under 100 ms on SQLite."""

from __future__ import annotations

import gc
import statistics
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings

from club.bench import BENCH_SETTINGS, GOAL_MS, generate
from games.models import Tournament


def _timed(client: Client, path: str, requests: int, *, cold: bool) -> dict[str, Any]:
    """``cold``: the server's cache emptied before each request (the first reader after a
    publication); else as every later reader finds it."""
    for _ in range(3):
        assert client.get(path).status_code == 200, path
    cache.clear()
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as captured:
        client.get(path)
    queries = len(captured)
    times = []
    for _ in range(requests):
        if cold:
            cache.clear()
        start = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, path
    ordered = sorted(times)
    return {
        "queries": queries,
        "p50": statistics.median(ordered),
        "p95": ordered[int(0.95 * (len(ordered) - 1))],
    }


class Command(BaseCommand):
    help = "Benchmark: p50/p95 of the API's ranking and night endpoints (10 seasons of data)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument("--requests", type=int, default=100, help="requests per endpoint")
        parser.add_argument("--seasons", type=int, default=10)
        parser.add_argument("--nights", type=int, default=50, help="nights per season")

    def handle(self, *args: Any, **options: Any) -> None:
        old_name = connection.settings_dict["NAME"]
        connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            # The throttles would answer 429 long before the end of the run.
            rates = {"anon": "1000000/min", "token": "1000000/min"}
            rest = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
            with override_settings(**BENCH_SETTINGS, REST_FRAMEWORK=rest):
                self._run(options)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)

    def _run(self, options: dict[str, Any]) -> None:
        write = self.stdout.write
        club, seasons, _player = generate(
            options["seed"],
            write,
            seasons=options["seasons"],
            nights=options["nights"],
            deals=True,
        )
        night = Tournament.objects.filter(season=seasons[0]).order_by("-date").first()
        # The generator leaves a heap no web worker has (hundreds of thousands of objects):
        # set aside from the garbage collector, its full collections would be timed as
        # requests. (Web servers that preload the site do the same with gc.freeze().)
        gc.collect()
        gc.freeze()
        base = f"/api/v1/clubs/{club.slug}"
        endpoints = {
            "ranking, current season": f"{base}/seasons/{seasons[0].slug}/ranking/",
            "ranking, oldest season": f"{base}/seasons/{seasons[-1].slug}/ranking/",
            "nights of a season (page 1)": f"{base}/nights/?season={seasons[0].slug}",
            "nights, all seasons (page 1)": f"{base}/nights/",
            "a night: poules, deals, points": f"{base}/nights/{night.pk}/",
        }
        client = Client()
        write(f"database: {connection.vendor}; {options['requests']} anonymous requests each")
        write(f"{'endpoint':34} {'cache':5} {'p50':>8} {'p95':>8}  queries  goal")
        for label, path in endpoints.items():
            for cold in (True, False):
                result = _timed(client, path, options["requests"], cold=cold)
                verdict = "ok" if result["p95"] < GOAL_MS else f"MISSES {GOAL_MS} ms"
                write(
                    f"{label:34} {'cold' if cold else 'warm':5} {result['p50']:6.1f}ms "
                    f"{result['p95']:6.1f}ms  {result['queries']:7}  {verdict}"
                )
