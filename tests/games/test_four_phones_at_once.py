"""The Quick start's database holds a real club night: four phones saving at the same moment
to four tables, fifty times each, get no server error (SQLite in WAL mode, IMMEDIATE
transactions and a busy timeout: config/settings.py). On PostgreSQL the same test shows row
locks doing the same work."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection
from django.test import Client

from games import services as games_services
from scoring import services as scoring_services
from tests.factories import PlayerFactory
from tests.games.views.test_sheet import post_deal

pytestmark = pytest.mark.django_db(transaction=True)

SOLO = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}
PASS = {"contract": "pass"}
PHONES = 4
SAVES = 50


def test_four_phones_saving_at_the_same_moment_fifty_times_get_no_server_error(
    tonight, club_members, scorer
):
    if connection.vendor == "sqlite":
        assert connection.settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
        assert "memory" not in str(connection.settings_dict["NAME"]), "threads need a file"
    present = club_members + [PlayerFactory(club=tonight.club) for _ in range(16 - 12)]
    games_services.presence_set(tonight, present)
    scoring_services.round_draw(tonight, 1, seed=7)
    poules = list(tonight.poules.filter(round=1).order_by("table"))
    assert [poule.seats.count() for poule in poules] == [4, 4, 4, 4]
    # Ten solos and forty passes each: a pass never fills the table, so every save counts.
    sheet = [SOLO if n % 5 == 0 else PASS for n in range(SAVES)]
    together = threading.Barrier(PHONES)
    answers: list[list[int]] = [[] for _ in range(PHONES)]

    def phone(index: int) -> None:
        client = Client()
        client.force_login(scorer)
        try:
            for deal in sheet:
                together.wait(timeout=30)
                response = post_deal(client, poules[index], deal, client_key=str(uuid.uuid4()))
                answers[index].append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(PHONES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)

    assert [len(codes) for codes in answers] == [SAVES] * PHONES
    assert {code for codes in answers for code in codes} == {200}
    for poule in poules:
        assert poule.deals.count() == SAVES
