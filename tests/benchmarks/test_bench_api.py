"""``manage.py bench api`` prints a row per endpoint, cold and warm (never a time asserted)."""

import io

import pytest
from django.core.management import call_command

ENDPOINTS = [
    "ranking, current season",
    "ranking, oldest season",
    "nights of a season (page 1)",
    "nights, all seasons (page 1)",
    "a night: poules, deals, points",
]


@pytest.mark.django_db(transaction=True)
def test_bench_api_prints_p50_and_p95_of_each_endpoint_cold_and_warm():
    out = io.StringIO()
    # The command makes and drops its own throw-away database (hence a real transaction).
    call_command("bench", "api", "--seasons", "2", "--nights", "2", "--requests", "3", stdout=out)
    lines = out.getvalue().splitlines()
    for endpoint in ENDPOINTS:
        rows = [line for line in lines if line.startswith(endpoint + " ")]
        assert len(rows) == 2, endpoint
        assert {row.split()[len(endpoint.split())] for row in rows} == {"cold", "warm"}
        for row in rows:
            p50, p95, queries, goal = row.split()[len(endpoint.split()) + 1 :][:4]
            assert float(p50.removesuffix("ms")) <= float(p95.removesuffix("ms")), row
            assert int(queries) >= 1 or "warm" in row, row
            assert goal in ("ok", "MISSES"), row
