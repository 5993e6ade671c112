"""The calendar's API: the coming nights (public), a member's reply (session, personal token
or the e-mail's signed link), the club admin's replies with names."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from club import tokens
from games import calendar
from games.models import PlannedNight, Reply
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db
API = "/api/v1"


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def night(club) -> PlannedNight:
    date = timezone.localdate() + datetime.timedelta(days=10)
    return calendar.night_plan(club, date, calendar.NightPlan(cap=4, place="Salle"))


def test_the_calendar_is_public_with_counts_and_tables(api, club, night):
    for _ in range(5):
        calendar.reply_set(night, PlayerFactory(club=club), "yes")
    (entry,) = api.get(f"{API}/clubs/{club.slug}/calendar/").json()
    assert (entry["id"], entry["yes"], entry["waiting"], entry["cap"]) == (night.pk, 4, 1, 4)
    assert entry["tables"] == {"fours": 1, "fives": 0, "refusal": ""}
    assert entry["open"] is True and entry["place"] == "Salle"
    assert "names" not in entry


def test_a_member_answers_with_his_personal_token(api, club, night, member):
    _token, key = tokens.token_create(member, "agenda")
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    url = f"{API}/clubs/{club.slug}/calendar/{night.pk}/reply/"
    assert api.get(url).json()["answer"] is None
    answered = api.put(url, {"answer": "maybe"}, format="json")
    assert answered.status_code == 200 and answered.json()["answer"] == "maybe"
    assert Reply.objects.get(player=member.player).answer == "maybe"
    assert api.put(url, {"answer": "perhaps"}, format="json").status_code == 400


def test_a_read_only_token_cannot_answer(api, club, night, member):
    _token, key = tokens.token_create(member, "lecture", read_only=True)
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    url = f"{API}/clubs/{club.slug}/calendar/{night.pk}/reply/"
    assert api.put(url, {"answer": "yes"}, format="json").status_code == 403
    assert not Reply.objects.exists()


def test_the_signed_link_answers_without_login_and_a_wrong_one_is_not_found(api, night, member):
    token = calendar.reply_token(night, member.player)
    url = f"{API}/calendar/replies/{token}/"
    assert api.put(url, {"answer": "yes"}, format="json").json()["answer"] == "yes"
    assert api.put(url[:-6] + "xxxxx/", {"answer": "no"}, format="json").status_code == 404
    assert Reply.objects.get(player=member.player).answer == "yes"


def test_past_the_deadline_the_api_refuses_the_answer(api, club, member):
    night = calendar.night_plan(
        club, timezone.localdate() + datetime.timedelta(days=1), calendar.NightPlan()
    )
    calendar.club_calendar_set(club, reminders=True, reminder_days=2, deadline_hours=48)
    url = f"{API}/calendar/replies/{calendar.reply_token(night, member.player)}/"
    assert api.put(url, {"answer": "yes"}, format="json").status_code == 400


def test_the_admin_reads_the_names_in_line_order(api, club, night, club_admin):
    players = [PlayerFactory(club=club) for _ in range(6)]
    for player in players:
        calendar.reply_set(night, player, "yes")
    api.force_authenticate(club_admin)
    body = api.get(f"{API}/clubs/{club.slug}/calendar/{night.pk}/replies/").json()
    assert [n["player"] for n in body["names"]["waiting"]] == [p.pk for p in players[4:]]
    assert {n["player"] for n in body["names"]["yes"]} == {p.pk for p in players[:4]}


def test_a_reply_carries_guests_and_a_comment_and_a_waiting_one_its_place(api, club, night):
    # The night has 4 places: Anne brings 2 guests, Bruno 1 does not fit and waits first.
    anne, bruno = PlayerFactory(club=club), PlayerFactory(club=club)
    url = f"{API}/calendar/replies/{calendar.reply_token(night, anne)}/"
    body = api.put(url, {"answer": "yes", "guests": 2, "comment": "vers 21 h"}, format="json")
    assert (body.json()["guests"], body.json()["comment"]) == (2, "vers 21 h")
    calendar.reply_set(night, bruno, "yes", guests=1)
    waiting = api.get(f"{API}/calendar/replies/{calendar.reply_token(night, bruno)}/").json()
    assert (waiting["waiting"], waiting["place"]) == (True, 1)
    (entry,) = api.get(f"{API}/clubs/{club.slug}/calendar/").json()
    assert (entry["yes"], entry["guests"], entry["waiting"]) == (1, 2, 1)
    too_many = api.put(url, {"answer": "yes", "guests": 4}, format="json")
    assert too_many.status_code == 400
    assert Reply.objects.get(player=anne).guests == 2
