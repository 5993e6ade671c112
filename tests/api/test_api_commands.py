"""``manage.py bench_api`` prints a row per endpoint (never a time asserted), and
``manage.py api_token`` prints a key that signs API requests in."""

import io

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

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
    call_command("bench_api", "--seasons", "2", "--nights", "2", "--requests", "3", stdout=out)
    lines = out.getvalue().splitlines()
    for endpoint in ENDPOINTS:
        rows = [line for line in lines if line.startswith(endpoint + " ")]
        assert len(rows) == 2, endpoint
        assert {row.split()[len(endpoint.split())] for row in rows} == {"cold", "warm"}


@pytest.mark.django_db
def test_api_token_prints_a_working_key(member):
    out = io.StringIO()
    call_command("api_token", member.username, "--name", "outil", stdout=out)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {out.getvalue().strip()}")
    assert api.get("/api/v1/me/").status_code == 200
    with pytest.raises(CommandError):
        call_command("api_token", "personne", stdout=io.StringIO())
