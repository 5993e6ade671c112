"""``manage.py bench decade`` at a tiny size: every club's nights imported from files, each
stored, each season ranked, and what it prints. Never a time asserted."""

import io
import random

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from benchmarks.decade import club_decade


@pytest.mark.django_db(transaction=True)
def test_the_decade_bench_imports_every_clubs_nights_and_prints_its_rate():
    out = io.StringIO()

    call_command("bench", "decade", "--clubs", "2", "--seasons", "2", "--nights", "3", stdout=out)

    printed = out.getvalue()
    assert "2 clubs × 2 seasons × 3 nights of 8 players, imported" in printed
    assert "imported: 12 nights in " in printed and " nights/s; this process's CPU " in printed
    assert "a club's decade (6 nights): median " in printed
    # Counted in its throw-away database, which the command made and dropped.
    assert "stored: 12 nights" in printed


def test_a_clubs_decade_is_its_seasons_weekly_nights_oldest_first_of_its_own_club():
    docs = club_decade(random.Random(1), 7, seasons=2, nights=3)

    dates = [doc["date"] for doc in docs]
    assert len(docs) == 6 and dates == sorted(dates)
    assert {doc["club"] for doc in docs} == {"Cercle de whist n° 007"}
    assert [doc["season"] for doc in docs] == [docs[0]["season"]] * 3 + [docs[3]["season"]] * 3
    assert all(len(doc["poules"]) == 2 for doc in docs)


@pytest.mark.skipif(connection.vendor == "postgresql", reason="the refusal is SQLite's")
def test_the_decade_bench_refuses_sqlite_at_a_federations_scale():
    with pytest.raises(CommandError, match="measured on PostgreSQL only: set DATABASE_URL"):
        call_command("bench", "decade")
