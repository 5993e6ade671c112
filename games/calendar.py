"""The club's calendar: plan nights (alone or weekly, with exceptions), members' replies with
an optional cap and its waiting list, cancelling, the reminders' queueing, and the night made at
the door from its entry. One function per state change; pages, the API, the admin, the demo
and tasks call these.

A reply link is ``signing.dumps`` of (night, member) with its own salt: no login, one member
and one night; it expires (``LINK_MAX_AGE``) and, like any answer, changes nothing once the
night's deadline has passed."""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from dateutil import rrule
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from club import services as club_services
from club.models import Club, Membership, Player
from club.outbox import work_queue

from . import services
from .draw import DrawRefused, table_sizes
from .models import (
    ClubCalendar,
    DrawMethod,
    MemberCalendar,
    PlannedNight,
    PlannedSeries,
    Reply,
    Tournament,
)

# The tasks the outbox runs after a commit (games.tasks; named, never imported, here).
REMINDERS_EMAIL = "games.tasks.calendar_reminders_email"
PROMOTED_EMAIL = "games.tasks.calendar_promoted_email"

REPLY_SALT = "games.calendar.reply"
REMINDERS_OFF_SALT = "games.calendar.reminders-off"
# A reply link is good for a season's worth of reminders; the night's deadline closes it first.
LINK_MAX_AGE = datetime.timedelta(days=60)
# A series longer than this is a mistake (a year typed wrong), not a calendar.
SERIES_MAX_NIGHTS = 200


def club_calendar(club: Club) -> ClubCalendar:
    return ClubCalendar.objects.get_or_create(club=club)[0]


def member_calendar(player: Player) -> MemberCalendar:
    return MemberCalendar.objects.get_or_create(player=player)[0]


@transaction.atomic
def club_calendar_set(
    club: Club, *, reminders: bool, reminder_days: int, deadline_hours: int
) -> ClubCalendar:
    settings = ClubCalendar.objects.select_for_update().get(pk=club_calendar(club).pk)
    settings.reminders = reminders
    settings.reminder_days = reminder_days
    settings.deadline_hours = deadline_hours
    settings.full_clean()
    settings.save()
    return settings


def deadline(night: PlannedNight, settings: ClubCalendar | None = None) -> datetime.datetime:
    """When answers for ``night`` close: the club's hours before it starts."""
    settings = settings or club_calendar(night.club)
    return night.starts_at - datetime.timedelta(hours=settings.deadline_hours)


# Planning


@dataclass(frozen=True)
class NightPlan:
    """What each planned night of a series (or a single one) starts from."""

    start: datetime.time = datetime.time(20, 0)
    name: str = ""
    place: str = ""
    rules: str = "rcwhist"
    rounds: int = 3
    draw_method: str = DrawMethod.AVOID_REPEATS
    cap: int | None = None


def _night(club: Club, date: datetime.date, plan: NightPlan, **extra: object) -> PlannedNight:
    if plan.draw_method not in DrawMethod.values:
        raise ValidationError({"draw_method": _("Méthode de tirage inconnue.")})
    night = PlannedNight(
        club=club,
        date=date,
        start=plan.start,
        name=plan.name,
        place=plan.place or club.contact_address,
        rules=plan.rules,
        rounds=plan.rounds,
        draw_method=plan.draw_method,
        cap=plan.cap,
        **extra,
    )
    night.full_clean()
    return night


@transaction.atomic
def night_plan(club: Club, date: datetime.date, plan: NightPlan) -> PlannedNight:
    """One night on the calendar."""
    night = _night(club, date, plan)
    night.save()
    return night


def series_dates(
    first: datetime.date,
    last: datetime.date,
    weekday: int,
    months: Iterable[int] = (),
    exceptions: Iterable[datetime.date] = (),
) -> list[datetime.date]:
    """The dates of "every <weekday> from ``first`` to ``last``", in ``months`` only (empty:
    all; the club's summer break is months 7 and 8 left out), without the ``exceptions``."""
    rule = rrule.rrule(
        rrule.WEEKLY,
        dtstart=datetime.datetime.combine(first, datetime.time()),
        until=datetime.datetime.combine(last, datetime.time()),
        byweekday=weekday,
        bymonth=tuple(months) or None,
    )
    skipped = set(exceptions)
    return [moment.date() for moment in rule if moment.date() not in skipped]


@transaction.atomic
def series_plan(
    club: Club,
    *,
    first: datetime.date,
    last: datetime.date,
    weekday: int,
    plan: NightPlan,
    months: Iterable[int] = (),
    exceptions: Iterable[datetime.date] = (),
) -> PlannedSeries:
    """Every ``weekday`` from ``first`` to ``last`` (in ``months``), except ``exceptions``: one
    planned night each. A date the club has a night of that name already is left as it is."""
    months, exceptions = sorted(set(months)), sorted(set(exceptions))
    if last < first:
        raise ValidationError(_("La série finit avant de commencer."))
    dates = series_dates(first, last, weekday, months, exceptions)
    if not dates:
        raise ValidationError(_("Aucune date dans cette série."))
    if len(dates) > SERIES_MAX_NIGHTS:
        raise ValidationError(
            _("Une série compte au plus %(count)s soirées.") % {"count": SERIES_MAX_NIGHTS}
        )
    series = PlannedSeries.objects.create(
        club=club,
        rule=str(
            rrule.rrule(
                rrule.WEEKLY,
                dtstart=datetime.datetime.combine(first, plan.start),
                until=datetime.datetime.combine(last, plan.start),
                byweekday=weekday,
                bymonth=tuple(months) or None,
            )
        ),
        first=first,
        last=last,
        months=months,
        exceptions=[d.isoformat() for d in exceptions],
    )
    taken = set(
        PlannedNight.objects.filter(club=club, date__in=dates, name=plan.name).values_list(
            "date", flat=True
        )
    )
    PlannedNight.objects.bulk_create(
        _night(club, date, plan, series=series) for date in dates if date not in taken
    )
    return series


@transaction.atomic
def night_cancel(night: PlannedNight) -> PlannedNight:
    """The night will not take place (an exception to its series, or called off): it stays on
    the calendar, marked cancelled, so the feeds tell the calendar applications."""
    night = PlannedNight.objects.select_for_update().get(pk=night.pk)
    if night.tournament_id:
        raise ValidationError(_("Cette soirée a déjà commencé."))
    night.status = PlannedNight.Status.CANCELLED
    night.sequence += 1
    night.save(update_fields=["status", "sequence", "changed"])
    return night


# Replies


def _is_member(night: PlannedNight, player: Player) -> bool:
    return (
        Membership.objects.filter(club=night.club_id, player=player, end__isnull=True)
        .exclude(status=Membership.Status.FORMER)
        .exists()
    )


def _seats_taken(night: PlannedNight) -> int:
    return Reply.objects.filter(night=night, answer=Reply.Answer.YES, waiting=False).count()


@transaction.atomic
def reply_set(
    night: PlannedNight, player: Player, answer: str, *, now: datetime.datetime | None = None
) -> Reply:
    """``player`` answers yes, maybe or no for ``night``, until the club's deadline. A yes past
    the cap waits; a place freed (a yes changed to maybe or no) goes to the first who waits, in
    the same transaction, and he is told by e-mail (through the outbox)."""
    now = now or timezone.now()
    # The night locked: two answers at once take their turns for the last place.
    night = PlannedNight.objects.select_for_update().select_related("club").get(pk=night.pk)
    if answer not in Reply.Answer.values:
        raise ValidationError(_("Réponse inconnue."))
    if night.is_cancelled:
        raise ValidationError(_("Cette soirée est annulée."))
    if night.tournament_id or now >= deadline(night):
        raise ValidationError(_("Les réponses sont closes pour cette soirée."))
    if not _is_member(night, player):
        raise ValidationError(_("Seuls les membres du club répondent."))
    reply = Reply.objects.filter(night=night, player=player).first()
    freed = reply is not None and reply.answer == Reply.Answer.YES and not reply.waiting
    if reply is not None and reply.answer == answer:
        return reply  # the same answer again: nothing changes, not even his place in line
    if reply is None:
        reply = Reply(night=night, player=player)
    reply.answer = answer
    reply.answered = now
    reply.waiting = answer == Reply.Answer.YES and (
        night.cap is not None and _seats_taken(night) >= night.cap
    )
    reply.full_clean()
    reply.save()
    if freed and answer != Reply.Answer.YES:
        _move_up(night, now)
    return reply


def _move_up(night: PlannedNight, now: datetime.datetime) -> Reply | None:
    """The first who waits takes the place freed, and is told."""
    if night.cap is not None and _seats_taken(night) >= night.cap:
        return None
    first = Reply.objects.filter(night=night, waiting=True).order_by("answered", "pk").first()
    if first is None:
        return None
    first.waiting = False
    first.promoted = now
    first.save(update_fields=["waiting", "promoted"])
    work_queue(PROMOTED_EMAIL, first.pk)
    return first


def reply_token(night: PlannedNight, player: Player) -> str:
    """The signed link's token: this member, this night."""
    return signing.dumps({"n": night.pk, "p": player.pk}, salt=REPLY_SALT, compress=True)


class LinkRefused(Exception):
    """A reply link that does not work: tampered, expired, or for nothing that exists."""


def reply_link_read(token: str) -> tuple[PlannedNight, Player]:
    try:
        data = signing.loads(token, salt=REPLY_SALT, max_age=LINK_MAX_AGE)
        night = PlannedNight.objects.select_related("club").get(pk=int(data["n"]))
        player = Player.objects.get(pk=int(data["p"]))
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise LinkRefused from None
    except (PlannedNight.DoesNotExist, Player.DoesNotExist):
        raise LinkRefused from None
    return night, player


def reminders_off_token(player: Player) -> str:
    return signing.dumps(player.pk, salt=REMINDERS_OFF_SALT)


def reminders_off_read(token: str) -> Player:
    try:
        return Player.objects.get(pk=int(signing.loads(token, salt=REMINDERS_OFF_SALT)))
    except (signing.BadSignature, TypeError, ValueError, Player.DoesNotExist):
        raise LinkRefused from None


# A member's settings


def member_reminders_set(player: Player, on: bool) -> MemberCalendar:
    settings = member_calendar(player)
    settings.reminders = on
    settings.save(update_fields=["reminders"])
    return settings


def feed_key_renew(player: Player) -> MemberCalendar:
    """A new secret address for the member's private feed; the old one answers 404 from now."""
    settings = member_calendar(player)
    settings.feed_key = secrets.token_urlsafe(32)
    settings.save(update_fields=["feed_key"])
    return settings


# Reminders


def reminders_queue(today: datetime.date | None = None) -> int:
    """Hand to the outbox the reminders due today (the club's days before each night), once per
    night: the night is marked in the same transaction as its work row. Returns how many."""
    today = today or timezone.localdate()
    queued = 0
    # Reminders are on, two days before, for a club whose admin has not said otherwise.
    default = ClubCalendar()
    due = (
        PlannedNight.objects.filter(
            status=PlannedNight.Status.PLANNED,
            reminders_queued__isnull=True,
            tournament__isnull=True,
            date__gte=today,
            date__lte=today + datetime.timedelta(days=14),
        )
        .exclude(club__calendar__reminders=False)
        .order_by("date")
    )
    nights = list(due)
    settings = {
        c.club_id: c for c in ClubCalendar.objects.filter(club__in={n.club_id for n in nights})
    }
    for night in nights:
        days = settings.get(night.club_id, default).reminder_days
        if night.date - datetime.timedelta(days=days) > today:
            continue
        with transaction.atomic():
            marked = PlannedNight.objects.filter(pk=night.pk, reminders_queued__isnull=True).update(
                reminders_queued=timezone.now()
            )
            if marked:
                work_queue(REMINDERS_EMAIL, night.pk)
                queued += 1
    return queued


def reminder_recipients(night: PlannedNight) -> list[Player]:
    """Who is reminded: the club's current members who have not said no and have not turned
    reminders off, with an address."""
    said_no = Reply.objects.filter(night=night, answer=Reply.Answer.NO).values("player")
    players = (
        Player.objects.filter(
            memberships__club=night.club_id,
            memberships__end__isnull=True,
            memberships__status=Membership.Status.ACTIVE,
        )
        .exclude(pk__in=said_no)
        .exclude(calendar__reminders=False)
        .select_related("user")
        .distinct()
        .order_by("display_name")
    )
    return [p for p in players if p.email or (p.user_id and p.user.email)]


# At the door


@dataclass(frozen=True)
class TablePlan:
    """The tables of 4 and 5 an expected count gives, or why it cannot be seated."""

    count: int
    fours: int
    fives: int
    refusal: str


def table_plan(count: int) -> TablePlan:
    try:
        sizes = table_sizes(count)
    except DrawRefused as refused:
        return TablePlan(count, 0, 0, refused.message)
    return TablePlan(count, sizes.count(4), sizes.count(5), "")


@transaction.atomic
def night_open(night: PlannedNight) -> Tournament:
    """Make the club night from its calendar entry, with those who said yes (and got a place)
    ticked present."""
    night = PlannedNight.objects.select_for_update().select_related("club").get(pk=night.pk)
    if night.is_cancelled:
        raise ValidationError(_("Cette soirée est annulée."))
    if night.tournament_id:
        return night.tournament
    club = night.club
    tournament = services.tournament_create(
        club=club,
        season=club_services.season_for_date(club, night.date),
        date=night.date,
        game=services.point_table_for_preset(night.rules, club).game,
        point_table=services.point_table_for_preset(night.rules, club),
        name=night.name,
        rounds=night.rounds,
        draw_method=night.draw_method or DrawMethod.AVOID_REPEATS,
    )
    coming = Player.objects.filter(
        replies__night=night, replies__answer=Reply.Answer.YES, replies__waiting=False
    )
    services.presence_set(tournament, coming.filter(memberships__club=club).distinct())
    night.tournament = tournament
    night.save(update_fields=["tournament", "changed"])
    return tournament


@dataclass(frozen=True)
class PresenceCheck:
    """At the door: who said yes and is not ticked, who is ticked without having answered."""

    missing: list[Player]
    unannounced: list[Player]


def presence_check(tournament: Tournament, present: set[int]) -> PresenceCheck | None:
    night = PlannedNight.objects.filter(tournament=tournament).first()
    if night is None:
        return None
    replies = {r.player_id: r for r in Reply.objects.filter(night=night).select_related("player")}
    said_yes = {pk for pk, r in replies.items() if r.answer == Reply.Answer.YES and not r.waiting}
    missing = [replies[pk].player for pk in said_yes - present]
    unannounced = list(
        Player.objects.filter(pk__in=present - set(replies)).order_by("display_name")
    )
    return PresenceCheck(sorted(missing, key=lambda p: p.display_name), unannounced)


def member_nights(player: Player, today: datetime.date | None = None) -> Q:
    """The planned nights of the member's clubs (a filter)."""
    clubs = Membership.objects.filter(player=player, end__isnull=True).values("club")
    return Q(club__in=clubs, date__gte=today or timezone.localdate())
