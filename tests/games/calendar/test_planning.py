"""A calendar that refuses the secretary's mistakes: a series planned over nights already
there skips their dates and names them, a second night at a taken date and time is refused, a
planned night is changed (date, time, place, places) or deleted while nobody has answered and
only cancelled after, the planning table shows each night's place and places, and a night
started more than a day early asks to be sure."""

from __future__ import annotations

import datetime

import icalendar
import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from games import calendar
from games.calendar.feed import night_uid
from games.models import PlannedNight, ReminderEmail, Reply, Tournament
from tests.factories import PlayerFactory
from tests.games.calendar_days import next_friday, said, series_form

pytestmark = pytest.mark.django_db


# A series over nights already there


def test_a_series_over_a_night_already_there_skips_its_date_and_names_it(club):
    cup = calendar.night_plan(club, next_friday(2), calendar.NightPlan(name="Coupe"))
    planned = calendar.series_plan(
        club, first=next_friday(1), last=next_friday(4), weekday=4, plan=calendar.NightPlan()
    )
    assert [n.date for n in planned.added] == [next_friday(w) for w in (1, 3, 4)]
    assert planned.skipped == [cup.date]
    # One night on that Friday at 20:00: the calendar, the feed and the reminders see one.
    assert list(PlannedNight.objects.filter(club=club, date=cup.date)) == [cup]


def test_the_planning_page_says_how_many_were_added_and_which_dates_were_taken(
    client, club, club_admin
):
    taken = calendar.night_plan(club, next_friday(2), calendar.NightPlan(name="Coupe"))
    client.force_login(club_admin)
    response = client.post(
        reverse("games:calendar-manage", args=[club.slug]),
        series_form(next_friday(1), next_friday(4)),
    )
    assert response.status_code == 302
    assert said(response) == [
        f"3 soirées ajoutées, 1 date déjà prise : {calendar.short_date(taken.date)}."
    ]
    assert PlannedNight.objects.filter(club=club).count() == 4


def test_a_short_date_reads_as_a_secretary_writes_it():
    assert calendar.short_date(datetime.date(2026, 12, 4)) == "ven. 4 déc."


def test_a_series_planned_twice_adds_nothing_and_says_why(client, club, club_admin):
    calendar.series_plan(
        club, first=next_friday(1), last=next_friday(3), weekday=4, plan=calendar.NightPlan()
    )
    client.force_login(club_admin)
    response = client.post(
        reverse("games:calendar-manage", args=[club.slug]),
        series_form(next_friday(1), next_friday(3)),
    )
    assert response.status_code == 200
    assert "Le club a déjà une soirée à chaque date de cette série" in response.content.decode()
    assert PlannedNight.objects.filter(club=club).count() == 3


def test_a_night_cancelled_keeps_its_date_from_a_series_planned_over_it(club):
    called_off = calendar.night_cancel(
        calendar.night_plan(club, next_friday(2), calendar.NightPlan())
    )
    planned = calendar.series_plan(
        club, first=next_friday(1), last=next_friday(3), weekday=4, plan=calendar.NightPlan()
    )
    assert planned.skipped == [called_off.date]


def test_a_second_night_at_a_taken_date_and_time_is_refused_in_words(club):
    calendar.night_plan(club, next_friday(), calendar.NightPlan(name="Championnat"))
    with pytest.raises(ValidationError) as refused:
        calendar.night_plan(club, next_friday(), calendar.NightPlan(name="Coupe"))
    when = calendar.short_date(next_friday())
    assert refused.value.messages == [f"Le club a déjà une soirée le {when} à 20:00."]
    # Another time that day, under another name: an afternoon and an evening.
    calendar.night_plan(
        club, next_friday(), calendar.NightPlan(name="Coupe", start=datetime.time(14, 0))
    )
    assert PlannedNight.objects.filter(club=club, date=next_friday()).count() == 2


# A planned night changed, deleted, cancelled


def test_a_planned_night_is_changed_and_calendar_applications_see_it(client, club):
    night = calendar.night_plan(club, next_friday(), calendar.NightPlan(place="Salle Saint-Roch"))
    changed = calendar.night_change(
        night,
        date=next_friday(2),
        start=datetime.time(19, 30),
        place="Café du Commerce",
        cap=16,
    )
    assert (changed.date, changed.start, changed.place, changed.cap) == (
        next_friday(2),
        datetime.time(19, 30),
        "Café du Commerce",
        16,
    )
    assert changed.sequence == night.sequence + 1
    feed = icalendar.Calendar.from_ical(
        client.get(reverse("games:calendar-feed", args=[club.slug])).content
    )
    (event,) = feed.walk("VEVENT")
    assert str(event["UID"]) == night_uid(night)
    assert str(event["LOCATION"]) == "Café du Commerce" and event["SEQUENCE"] == 1


def test_the_secretary_changes_a_night_from_its_page(client, club, club_admin):
    night = calendar.night_plan(club, next_friday(), calendar.NightPlan())
    client.force_login(club_admin)
    url = reverse("games:calendar-change", args=[club.slug, night.pk])
    assert client.get(url).status_code == 200
    response = client.post(
        url, {"date": next_friday().isoformat(), "start": "20:30", "place": "Chez Anne", "cap": ""}
    )
    assert response.status_code == 302
    night.refresh_from_db()
    assert (night.start, night.place, night.cap) == (datetime.time(20, 30), "Chez Anne", None)


def test_once_members_answered_the_date_stays_but_time_and_place_still_change(club, member):
    night = calendar.night_plan(club, next_friday(), calendar.NightPlan())
    calendar.reply_set(night, member.player, "yes")
    with pytest.raises(ValidationError) as refused:
        calendar.night_change(
            night, date=next_friday(2), start=night.start, place=night.place, cap=None
        )
    assert "la date ne change plus" in refused.value.messages[0]
    calendar.night_change(
        night, date=night.date, start=datetime.time(19, 0), place="Salle B", cap=None
    )
    night.refresh_from_db()
    assert (night.date, night.start, night.place) == (
        next_friday(),
        datetime.time(19, 0),
        "Salle B",
    )


def test_a_night_moved_onto_a_taken_date_and_time_is_refused(club):
    calendar.night_plan(club, next_friday(2), calendar.NightPlan(name="Coupe"))
    night = calendar.night_plan(club, next_friday(), calendar.NightPlan())
    with pytest.raises(ValidationError, match="déjà une soirée"):
        calendar.night_change(night, date=next_friday(2), start=night.start, place="", cap=None)


def test_places_never_drop_below_those_taken_and_more_places_move_up_who_waits(
    club, django_capture_on_commit_callbacks
):
    night = calendar.night_plan(club, next_friday(), calendar.NightPlan(cap=4))
    players = [PlayerFactory(club=club, email=f"j{i}@example.org") for i in range(6)]
    for player in players:
        calendar.reply_set(night, player, "yes")
    with pytest.raises(ValidationError) as refused:
        calendar.night_change(night, date=night.date, start=night.start, place="", cap=3)
    assert refused.value.messages == [
        "4 places sont déjà prises : le nombre de places ne descend pas en dessous."
    ]
    with django_capture_on_commit_callbacks(execute=True):
        calendar.night_change(night, date=night.date, start=night.start, place="", cap=5)
    assert not Reply.objects.get(night=night, player=players[4]).waiting
    assert Reply.objects.get(night=night, player=players[5]).waiting
    assert [m.to for m in mail.outbox] == [["j4@example.org"]]


def test_a_night_moved_is_reminded_again_at_its_new_date(club, django_capture_on_commit_callbacks):
    PlayerFactory(club=club, email="anne@example.org")
    night = calendar.night_plan(club, timezone.localdate(), calendar.NightPlan())
    with django_capture_on_commit_callbacks(execute=True):
        calendar.reminders_queue()
    assert ReminderEmail.objects.filter(night=night).count() == 1
    calendar.night_change(night, date=next_friday(), start=night.start, place="", cap=None)
    night.refresh_from_db()
    assert night.reminders_queued is None
    assert not ReminderEmail.objects.filter(night=night).exists()


def test_a_night_nobody_answered_is_deleted_and_one_with_answers_only_cancelled(
    client, club, club_admin, member
):
    mistake = calendar.night_plan(club, next_friday(), calendar.NightPlan())
    answered = calendar.night_plan(club, next_friday(2), calendar.NightPlan())
    calendar.reply_set(answered, member.player, "maybe")
    client.force_login(club_admin)

    response = client.post(reverse("games:calendar-delete", args=[club.slug, mistake.pk]))
    assert response.status_code == 302
    assert not PlannedNight.objects.filter(pk=mistake.pk).exists()

    response = client.post(reverse("games:calendar-delete", args=[club.slug, answered.pk]))
    assert said(response)[-1] == (
        "Des membres ont déjà répondu : cette soirée ne peut plus qu'être annulée."
    )
    assert PlannedNight.objects.filter(pk=answered.pk).exists()
    page = client.get(reverse("games:calendar-change", args=[club.slug, answered.pk]))
    assert "Annuler cette soirée" in page.content.decode()
    assert "Supprimer cette soirée" not in page.content.decode()


def test_a_night_already_started_is_neither_changed_nor_deleted(club):
    night = calendar.night_plan(club, timezone.localdate(), calendar.NightPlan())
    calendar.night_open(night)
    for change in (
        lambda: calendar.night_delete(night),
        lambda: calendar.night_change(
            night, date=night.date, start=night.start, place="x", cap=None
        ),
    ):
        with pytest.raises(ValidationError, match="déjà commencé"):
            change()


# The planning table


def test_the_planning_table_shows_each_nights_place_and_places(client, club, club_admin):
    calendar.night_plan(club, next_friday(), calendar.NightPlan(place="Salle Saint-Roch", cap=12))
    calendar.night_plan(club, next_friday(2), calendar.NightPlan(place="Café du Commerce"))
    client.force_login(club_admin)
    page = client.get(reverse("games:calendar-manage", args=[club.slug])).content.decode()
    assert "<th>Lieu</th>" in page and ">Places</th>" in page
    assert "Salle Saint-Roch" in page and "Café du Commerce" in page
    assert '<td class="num">12</td>' in page and "sans limite" in page


# At the door, early


def test_starting_a_night_a_week_early_asks_to_be_sure_first(client, club, scorer):
    night = calendar.night_plan(club, next_friday(), calendar.NightPlan())
    client.force_login(scorer)
    url = reverse("games:calendar-open", args=[club.slug, night.pk])

    asked = client.post(url)
    assert asked.status_code == 200
    assert "pas aujourd'hui" in asked.content.decode()
    assert not Tournament.objects.exists()

    started = client.post(url, {"confirm": "1"})
    assert started.status_code == 302
    assert PlannedNight.objects.get(pk=night.pk).tournament is not None


def test_the_service_refuses_an_early_start_without_its_confirmation(club):
    night = calendar.night_plan(club, next_friday(), calendar.NightPlan())
    with pytest.raises(ValidationError, match="confirmez"):
        calendar.night_open(night)
    assert not Tournament.objects.exists()
    assert calendar.night_open(night, early=True).date == night.date


def test_the_day_before_and_on_the_day_a_night_starts_without_a_question(club, scorer, client):
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    night = calendar.night_plan(club, tomorrow, calendar.NightPlan())
    client.force_login(scorer)
    response = client.post(reverse("games:calendar-open", args=[club.slug, night.pk]))
    assert response.status_code == 302
    assert PlannedNight.objects.get(pk=night.pk).tournament is not None


# At the door, from every page that names the night


def test_a_planned_night_starts_from_the_calendar_the_club_page_and_nouvelle_soiree(
    client, club, scorer
):
    today = timezone.localdate()
    tonight = calendar.night_plan(club, today, calendar.NightPlan(place="Salle Saint-Roch"))
    later = calendar.night_plan(club, next_friday(2), calendar.NightPlan())
    start = reverse("games:calendar-open", args=[club.slug, tonight.pk])
    client.force_login(scorer)
    # The calendar and the club page offer tonight's start, and only tonight's.
    for page in ("games:calendar", "club-detail"):
        html = client.get(reverse(page, args=[club.slug])).content.decode()
        assert html.count('action="' + start + '"') == 1, page
        assert reverse("games:calendar-open", args=[club.slug, later.pk]) not in html

    # « Nouvelle soirée » offers the planned night of its date rather than a second one.
    create = reverse("games:tournament-create", args=[club.slug])
    page = client.get(create)
    assert page.context["planned"] == tonight
    assert 'action="' + start + '"' in page.content.decode()
    form = {
        "date": today.isoformat(),
        "rules": "rcwhist",
        "tournament_points": "rcwhist",
        "rounds": "3",
        "draw_method": "avoid_repeats",
    }
    offered = client.post(create, form)
    assert offered.status_code == 200 and offered.context["planned"] == tonight
    assert not Tournament.objects.exists()
    # Asked for, another night of that date is made beside it.
    second = client.post(create, {**form, "name": "Revanche", "second": "1"})
    assert second.status_code == 302
    assert Tournament.objects.get().name == "Revanche"

    # Started, the night is no longer offered anywhere.
    assert client.post(start).status_code == 302
    assert PlannedNight.objects.get(pk=tonight.pk).tournament is not None
    assert client.get(create).context["planned"] is None


def test_a_member_who_does_not_score_is_offered_no_start(client, club, member):
    night = calendar.night_plan(club, timezone.localdate(), calendar.NightPlan())
    client.force_login(member)
    start = reverse("games:calendar-open", args=[club.slug, night.pk])
    for page in ("games:calendar", "club-detail"):
        assert start not in client.get(reverse(page, args=[club.slug])).content.decode()
