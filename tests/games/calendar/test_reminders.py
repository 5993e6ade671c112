"""The calendar's reminders: due the club's days before a night, sent through the outbox once
per night and member, also when the broker was down when they were queued."""

from __future__ import annotations

import datetime
import io
import re

import pytest
from django.core import mail
from django.core.management import call_command
from django.utils import timezone

from club.unsubscribe import MailKind, unsubscribe_read
from games import calendar
from games.models import PlannedNight, ReminderEmail
from games.tasks import calendar_reminders_email
from infra.models import PendingWork
from infra.outbox import TaskName, pending_requeue
from tests.factories import PlayerFactory
from tests.infra.test_outbox import broker_back, broker_down, later  # noqa: F401


def in_days(days: int) -> datetime.date:
    return timezone.localdate() + datetime.timedelta(days=days)


@pytest.fixture
def members(club):
    return [PlayerFactory(club=club, email=f"membre{i}@example.org") for i in range(4)]


@pytest.mark.django_db
def test_reminders_are_due_the_clubs_days_before(club, members, django_capture_on_commit_callbacks):
    soon = calendar.night_plan(club, in_days(2), calendar.NightPlan())
    calendar.night_plan(club, in_days(9), calendar.NightPlan())
    with django_capture_on_commit_callbacks(execute=True):
        assert calendar.reminders_queue() == 1
    assert sorted(m.to[0] for m in mail.outbox) == [p.email for p in members]
    assert set(ReminderEmail.objects.values_list("night", flat=True)) == {soon.pk}
    # Beat asks again every quarter of an hour: nothing more is sent.
    with django_capture_on_commit_callbacks(execute=True):
        assert calendar.reminders_queue() == 0
    assert calendar_reminders_email(soon.pk) == 0
    assert len(mail.outbox) == len(members)


@pytest.mark.django_db
def test_without_beat_the_command_sends_the_reminders_due_once(
    club, members, django_capture_on_commit_callbacks
):
    # The Quick start runs no broker and no beat: cron runs the command instead.
    calendar.night_plan(club, in_days(1), calendar.NightPlan())
    calendar.night_plan(club, in_days(9), calendar.NightPlan())
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("calendar_reminders", stdout=out)
    assert sorted(m.to[0] for m in mail.outbox) == [p.email for p in members]
    assert out.getvalue() == "Reminders sent for 1 night(s).\n"

    again = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("calendar_reminders", stdout=again)
    assert len(mail.outbox) == len(members)
    assert again.getvalue() == "No reminder due.\n"


@pytest.mark.django_db
def test_the_reminder_carries_the_members_link_and_a_way_out(
    club, members, django_capture_on_commit_callbacks
):
    night = calendar.night_plan(club, in_days(1), calendar.NightPlan())
    with django_capture_on_commit_callbacks(execute=True):
        calendar.reminders_queue()
    message = next(m for m in mail.outbox if m.to == [members[0].email])
    token = re.search(r"/calendrier/reponse/([^/\s]+)/", message.body).group(1)
    assert calendar.reply_link_read(token) == (night, members[0])
    # The site's one way out of a kind of e-mail (club.unsubscribe), for reminders.
    off = re.search(r"/desabonnement/([^/\s]+)/", message.body).group(1)
    assert unsubscribe_read(off) == (MailKind.REMINDERS, members[0], None)


@pytest.mark.django_db
def test_who_said_no_or_opted_out_or_the_club_turned_them_off_gets_none(
    club, members, django_capture_on_commit_callbacks
):
    night = calendar.night_plan(club, in_days(1), calendar.NightPlan())
    calendar.reply_set(night, members[0], "no")
    calendar.member_reminders_set(members[1], False)
    with django_capture_on_commit_callbacks(execute=True):
        calendar.reminders_queue()
    assert sorted(m.to[0] for m in mail.outbox) == [members[2].email, members[3].email]

    mail.outbox.clear()
    calendar.club_calendar_set(club, reminders=False, reminder_days=2, deadline_hours=2)
    calendar.night_plan(club, in_days(2), calendar.NightPlan())
    with django_capture_on_commit_callbacks(execute=True):
        assert calendar.reminders_queue() == 0
    assert mail.outbox == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("broker_down")
def test_reminders_queued_while_the_broker_is_down_go_once_it_is_back(club, members):
    night = calendar.night_plan(club, in_days(1), calendar.NightPlan())

    assert calendar.reminders_queue() == 1

    assert mail.outbox == []
    assert set(PendingWork.objects.values_list("task", "key")) == {
        (TaskName.REMINDERS_EMAIL, night.pk)
    }
    assert PlannedNight.objects.get(pk=night.pk).reminders_queued is not None
    # Beat's next look, the broker still down: still pending, nothing sent.
    assert pending_requeue(now=later()) == 0
    assert calendar.reminders_queue() == 0

    broker_back()
    assert pending_requeue(now=later()) == 1
    assert sorted(m.to[0] for m in mail.outbox) == [p.email for p in members]
    assert not PendingWork.objects.exists()
    # Delivered again (a worker died after sending): nobody gets it twice.
    assert calendar_reminders_email(night.pk) == 0
    assert pending_requeue(now=later()) == 0
    assert len(mail.outbox) == len(members)
    assert ReminderEmail.objects.count() == len(members)
