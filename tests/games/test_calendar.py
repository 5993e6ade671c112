"""The club's calendar: weekly series with exceptions, members' replies (on the site and from
the e-mail's signed link), the deadline, the cap and its waiting list, the night opened at the
door, the feeds parsed back with icalendar, and the pages' query counts."""

from __future__ import annotations

import datetime
from urllib.parse import urlsplit

import icalendar
import pytest
from django.core import mail, signing
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from club.models import Membership, Player
from games import calendar
from games.calendar.feed import night_uid
from games.calendar.mailing import reply_url
from games.models import PlannedNight, Reply, Tournament
from tests.factories import PlayerFactory
from tests.games.calendar_days import next_friday, series_form

pytestmark = pytest.mark.django_db


@pytest.fixture
def capped(club) -> PlannedNight:
    return calendar.night_plan(club, next_friday(2), calendar.NightPlan(cap=4))


def link_path(night: PlannedNight, player: Player) -> str:
    return urlsplit(reply_url(night, player)).path


def test_every_friday_from_september_to_june_but_the_exceptions():
    dates = calendar.series_dates(
        datetime.date(2026, 9, 1),
        datetime.date(2027, 6, 30),
        weekday=4,
        months=[9, 10, 11, 12, 1, 2, 3, 4, 5, 6],
        exceptions=[datetime.date(2026, 12, 25), datetime.date(2027, 1, 1)],
    )
    assert dates[0] == datetime.date(2026, 9, 4)
    assert dates[-1] == datetime.date(2027, 6, 25)
    assert all(d.weekday() == 4 and d.month not in (7, 8) for d in dates)
    assert datetime.date(2026, 12, 25) not in dates and datetime.date(2027, 1, 1) not in dates
    assert len(dates) == 41


def test_a_series_plans_one_night_per_date_and_keeps_its_rule(club):
    first = next_friday()
    series = calendar.series_plan(
        club,
        first=first,
        last=first + datetime.timedelta(weeks=5),
        weekday=4,
        exceptions=[first + datetime.timedelta(weeks=2)],
        plan=calendar.NightPlan(start=datetime.time(20, 0)),
    ).series
    dates = list(series.nights.values_list("date", flat=True))
    assert len(dates) == 5
    assert first + datetime.timedelta(weeks=2) not in dates
    assert "FREQ=WEEKLY" in series.rule and "BYDAY=FR" in series.rule


def test_a_series_without_any_date_is_refused(club):
    monday = next_friday() + datetime.timedelta(days=3)
    with pytest.raises(ValidationError):
        calendar.series_plan(club, first=monday, last=monday, weekday=4, plan=calendar.NightPlan())


def test_a_member_answers_and_changes_his_mind(night, member):
    player = member.player
    calendar.reply_set(night, player, "yes")
    reply = calendar.reply_set(night, player, "maybe")
    assert reply.answer == "maybe"
    assert Reply.objects.filter(night=night).count() == 1


def test_an_outsider_cannot_answer(night, outsider):
    with pytest.raises(ValidationError):
        calendar.reply_set(night, outsider.player, "yes")


def test_answers_close_at_the_clubs_deadline(night, member):
    closes = calendar.deadline(night)
    calendar.reply_set(night, member.player, "yes", now=closes - datetime.timedelta(minutes=1))
    with pytest.raises(ValidationError, match="closes"):
        calendar.reply_set(night, member.player, "no", now=closes)
    assert Reply.objects.get(night=night).answer == "yes"


def test_a_cancelled_night_takes_no_answer(night, member):
    calendar.night_cancel(night)
    with pytest.raises(ValidationError):
        calendar.reply_set(night, member.player, "yes")


def test_past_the_cap_a_yes_waits_and_moves_up_when_a_place_frees(
    club, capped, django_capture_on_commit_callbacks
):
    players = [PlayerFactory(club=club, email=f"j{i}@example.org") for i in range(6)]
    for player in players:
        calendar.reply_set(capped, player, "yes")
    waiting = list(Reply.objects.filter(night=capped, waiting=True).order_by("answered"))
    assert [r.player for r in waiting] == players[4:]

    with django_capture_on_commit_callbacks(execute=True):
        calendar.reply_set(capped, players[1], "no")

    moved = Reply.objects.get(night=capped, player=players[4])
    assert not moved.waiting and moved.promoted is not None
    assert Reply.objects.get(night=capped, player=players[5]).waiting
    assert Reply.objects.filter(night=capped, answer="yes", waiting=False).count() == 4
    # Told once, through the outbox (tasks run in-process without a broker).
    assert [m.to for m in mail.outbox] == [["j4@example.org"]]
    assert "place" in mail.outbox[0].subject


def test_the_same_yes_again_keeps_his_place_in_line(club, capped):
    players = [PlayerFactory(club=club) for _ in range(6)]
    for player in players:
        calendar.reply_set(capped, player, "yes")
    calendar.reply_set(capped, players[4], "yes")
    calendar.reply_set(capped, players[0], "maybe")
    assert not Reply.objects.get(night=capped, player=players[4]).waiting


# The e-mail's signed link


def test_the_link_answers_for_its_member_without_login(client, night, member):
    path = link_path(night, member.player)
    page = client.get(path)
    assert page.status_code == 200
    response = client.post(path, {"answer": "yes"})
    assert response.status_code == 302
    assert Reply.objects.get(night=night, player=member.player).answer == "yes"
    # Used again to change the answer, before the deadline.
    client.post(path, {"answer": "no"})
    assert Reply.objects.get(night=night, player=member.player).answer == "no"


def test_the_link_used_again_after_the_deadline_changes_nothing(client, club, member):
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    night = calendar.night_plan(club, tomorrow, calendar.NightPlan())
    path = link_path(night, member.player)
    client.post(path, {"answer": "yes"})
    # The club closes answers two days before: tomorrow's night is past its deadline now.
    calendar.club_calendar_set(club, reminders=True, reminder_days=2, deadline_hours=48)
    response = client.post(path, {"answer": "no"})
    assert response.status_code == 400
    assert Reply.objects.get(night=night, player=member.player).answer == "yes"


def test_an_expired_link_is_refused(client, night, member, monkeypatch):
    path = link_path(night, member.player)
    later = timezone.now() + calendar.LINK_MAX_AGE + datetime.timedelta(minutes=1)
    monkeypatch.setattr(signing.time, "time", lambda: later.timestamp())
    assert client.post(path, {"answer": "yes"}).status_code == 404
    assert not Reply.objects.exists()


def test_a_link_answers_only_for_its_own_member(client, night, member, scorer):
    # The member's link, opened by another member signed in: it is still the member's answer.
    client.force_login(scorer)
    client.post(link_path(night, member.player), {"answer": "no"})
    assert list(Reply.objects.values_list("player", "answer")) == [(member.player.pk, "no")]


def test_a_tampered_link_is_refused(client, night, member, scorer):
    token = calendar.reply_token(night, member.player)
    forged = signing.dumps(
        {"n": night.pk, "p": scorer.player.pk}, salt="another salt", compress=True
    )
    head, _, signature = token.rpartition(":")
    for bad in (forged, head + ":" + signature[::-1], token[:-3]):
        path = reverse("games:calendar-reply", args=[night.club.slug, bad])
        assert client.post(path, {"answer": "yes"}).status_code == 404
    assert not Reply.objects.exists()


def test_a_link_of_another_club_address_is_refused(client, night, member):
    path = reverse(
        "games:calendar-reply", args=["autre-club", calendar.reply_token(night, member.player)]
    )
    assert client.get(path).status_code == 404


# At the door


def test_the_night_opened_from_its_entry_ticks_those_who_said_yes(club, night, club_members):
    for player in club_members[:8]:
        calendar.reply_set(night, player, "yes")
    calendar.reply_set(night, club_members[8], "maybe")
    tournament = calendar.night_open(night, today=night.date)
    assert set(tournament.present.all()) == set(club_members[:8])
    assert tournament.date == night.date and tournament.status == Tournament.Status.PLANNED
    assert calendar.night_open(night, today=night.date) == tournament  # twice: the same night


def test_the_presence_page_names_who_said_yes_and_who_came_unannounced(
    client, scorer, night, club_members
):
    for player in club_members[:5]:
        calendar.reply_set(night, player, "yes")
    tournament = calendar.night_open(night, today=night.date)
    tournament.present.set([*club_members[1:5], club_members[9]])
    client.force_login(scorer)
    page = client.get(reverse("games:presence", args=[night.club.slug, tournament.pk])).content
    page = page.decode()
    check = calendar.presence_check(tournament, {p.pk for p in tournament.present.all()})
    assert check.missing == [club_members[0]]
    assert check.unannounced == [club_members[9]]
    assert club_members[0].display_name in page and club_members[9].display_name in page


@pytest.mark.parametrize(
    ("count", "fours", "fives"), [(8, 2, 0), (9, 1, 1), (13, 2, 1), (16, 4, 0)]
)
def test_the_expected_count_gives_tables_of_4_and_5(count, fours, fives):
    plan = calendar.table_plan(count)
    assert (plan.fours, plan.fives, plan.refusal) == (fours, fives, "")


@pytest.mark.parametrize("count", [1, 2, 3, 6, 7, 11])
def test_counts_that_cannot_be_seated_are_said(count):
    assert calendar.table_plan(count).refusal


# Feeds


def test_the_clubs_feed_parses_back_with_icalendar(client, club, night):
    cancelled = calendar.night_plan(club, next_friday(3), calendar.NightPlan(name="Coupe"))
    calendar.night_cancel(cancelled)
    response = client.get(reverse("games:calendar-feed", args=[club.slug]))
    assert response["Content-Type"].startswith("text/calendar")
    feed = icalendar.Calendar.from_ical(response.content)
    assert feed["VERSION"] == "2.0" and "clubwhist" in str(feed["PRODID"])
    assert [tz["TZID"] for tz in feed.walk("VTIMEZONE")] == ["Europe/Brussels"]
    events = {str(e["UID"]): e for e in feed.walk("VEVENT")}
    first = events[night_uid(night)]
    start = first.decoded("DTSTART")
    assert start.date() == night.date and (start.hour, start.minute) == (20, 0)
    assert str(start.tzinfo) == "Europe/Brussels"
    assert first["DTSTART"].params["TZID"] == "Europe/Brussels"
    assert str(first["LOCATION"]) == "Salle Saint-Roch"
    assert club.short in str(first["SUMMARY"]) and first.decoded("DTSTAMP")
    assert str(events[night_uid(cancelled)]["STATUS"]) == "CANCELLED"
    # The same UID on the next read: a calendar application updates, never duplicates.
    again = icalendar.Calendar.from_ical(
        client.get(reverse("games:calendar-feed", args=[club.slug])).content
    )
    assert {str(e["UID"]) for e in again.walk("VEVENT")} == set(events)


def test_the_private_feed_says_the_members_answer_and_its_renewed_address_kills_the_old(
    client, night, member
):
    calendar.reply_set(night, member.player, "yes")
    old = calendar.feed_key_renew(member.player).feed_key
    feed = icalendar.Calendar.from_ical(client.get(reverse("member-feed", args=[old])).content)
    (event,) = feed.walk("VEVENT")
    assert "Je viens" in str(event["SUMMARY"])
    new = calendar.feed_key_renew(member.player).feed_key
    assert client.get(reverse("member-feed", args=[old])).status_code == 404
    assert client.get(reverse("member-feed", args=[new])).status_code == 200


def test_the_member_renews_his_feed_from_his_calendar_page(client, member):
    client.force_login(member)
    client.post(reverse("my-calendar-renew"))
    key = member.player.calendar.feed_key
    assert key and key in client.get(reverse("my-calendar")).content.decode()


# Pages


def test_the_club_page_shows_the_next_nights(client, club, night):
    page = client.get(reverse("club-detail", args=[club.slug])).content.decode()
    assert "Prochaines soirées" in page and reverse("games:calendar", args=[club.slug]) in page


def test_a_member_answers_on_the_calendar_page(client, club, night, member):
    client.force_login(member)
    client.post(reverse("games:calendar-answer", args=[club.slug, night.pk]), {"answer": "yes"})
    page = client.get(reverse("games:calendar", args=[club.slug])).content.decode()
    assert Reply.objects.get(player=member.player).answer == "yes"
    assert "Votre réponse" in page


@pytest.mark.parametrize(
    ("name", "who", "most"),
    [("games:calendar", "member", 8), ("games:calendar-manage", "club_admin", 10)],
)
def test_the_calendar_pages_read_in_a_fixed_number_of_queries(
    client, club, request, name, who, most
):
    client.force_login(request.getfixturevalue(who))
    calendar.series_plan(
        club, first=next_friday(), last=next_friday(3), weekday=4, plan=calendar.NightPlan()
    )
    url = reverse(name, args=[club.slug])
    client.get(url)
    with CaptureQueriesContext(connection) as three:
        client.get(url)
    calendar.series_plan(
        club, first=next_friday(4), last=next_friday(12), weekday=4, plan=calendar.NightPlan()
    )
    with CaptureQueriesContext(connection) as twelve:
        assert client.get(url).status_code == 200
    assert len(twelve) == len(three) <= most


def test_the_replies_page_reads_in_a_fixed_number_of_queries(
    client, club, club_admin, night, club_members
):
    client.force_login(club_admin)
    url = reverse("games:calendar-replies", args=[club.slug, night.pk])
    calendar.reply_set(night, club_members[0], "yes")
    client.get(url)
    with CaptureQueriesContext(connection) as one:
        client.get(url)
    for player in club_members[1:]:
        calendar.reply_set(night, player, "maybe")
    with CaptureQueriesContext(connection) as twelve:
        page = client.get(url).content.decode()
    assert len(twelve) == len(one) <= 8
    assert all(p.display_name in page for p in club_members)


def test_the_admin_plans_a_series_from_the_page(client, club, club_admin):
    client.force_login(club_admin)
    first = next_friday()
    response = client.post(
        reverse("games:calendar-manage", args=[club.slug]),
        series_form(
            first,
            first + datetime.timedelta(weeks=3),
            **{"series-exceptions": (first + datetime.timedelta(weeks=1)).isoformat()},
        ),
    )
    assert response.status_code == 302
    assert PlannedNight.objects.filter(club=club).count() == 3


def test_the_member_turns_reminders_off_from_the_emails_link(client, member):
    token = calendar.reminders_off_token(member.player)
    url = reverse("calendar-reminders-off", args=[token])
    assert client.get(url).status_code == 200
    client.post(url)
    assert member.player.calendar.reminders is False
    assert client.get(url[:-5] + "xxxx/").status_code == 404


def test_only_current_members_can_be_answered_for(night, club):
    former = PlayerFactory(club=club)
    Membership.objects.filter(player=former).update(status=Membership.Status.FORMER)
    with pytest.raises(ValidationError):
        calendar.reply_set(night, former, "yes")
