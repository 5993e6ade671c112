"""The calendar's reminders and its door: a club's and a member's calendar settings (the
reminders' days, the link that turns them off, the private feed's key), the reminders queued
(beat's and the secretary's to those who have not answered), and the night made at the door
from its entry. One function per state change; pages, the API, the admin, the demo, commands
and tasks call these through ``games.calendar``.

The replies live in ``replies``, the planning in ``planning`` (both under this module)."""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from club import services as club_services
from club.models import Club, Membership, Player
from club.name_order import by_name, name_sorted
from infra.outbox import TaskName, work_queue

from .. import services
from ..draw import DrawRefused, table_sizes
from ..models import DrawMethod, Tournament
from .models import ClubCalendar, MemberCalendar, PlannedNight, Reply
from .planning import short_date
from .replies import LinkRefused, club_calendar, deadline, silent_members

REMINDERS_OFF_SALT = "games.calendar.reminders-off"
# Opening a night's door earlier than this before its date is most likely the wrong night.
OPEN_EARLY = datetime.timedelta(days=1)


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


# Reminders' links


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
                work_queue(TaskName.REMINDERS_EMAIL, night.pk)
                queued += 1
    return queued


def _reachable(players: Iterable[Player]) -> list[Player]:
    return [p for p in players if p.email or (p.user_id and p.user.email)]


def reminder_recipients(night: PlannedNight) -> list[Player]:
    """Who is reminded: the club's current members who have not said no and have not turned
    reminders off, with an address."""
    said_no = Reply.objects.filter(night=night, answer=Reply.Answer.NO).values("player")
    players = (
        Player.objects.filter(
            Membership.objects.current_q("memberships"),
            memberships__club=night.club_id,
            memberships__status=Membership.Status.ACTIVE,
        )
        .exclude(pk__in=said_no)
        .exclude(calendar__reminders=False)
        .select_related("user")
        .distinct()
        .order_by(*by_name())
    )
    return _reachable(players)


def silent_recipients(night: PlannedNight) -> list[Player]:
    """Who the secretary's reminder reaches: the members who have not answered, with an
    address, who have not turned reminders off."""
    silent = silent_members(night).exclude(calendar__reminders=False).select_related("user")
    return _reachable(silent)


@transaction.atomic
def silent_remind(
    night: PlannedNight, press: int, now: datetime.datetime | None = None
) -> int | None:
    """The secretary reminds, by e-mail through the outbox, the members who have not answered.
    ``press`` numbers this reminder (the night's count the page showed, plus one): the same
    press sent again (a double tap, the form posted twice) finds it done and returns None.
    Returns how many members it reaches."""
    now = now or timezone.now()
    night = PlannedNight.objects.select_for_update().select_related("club").get(pk=night.pk)
    if night.is_cancelled:
        raise ValidationError(_("Cette soirée est annulée."))
    if night.tournament_id or now >= deadline(night):
        raise ValidationError(_("Les réponses sont closes pour cette soirée."))
    if not 1 <= press <= night.nudges + 1:
        raise ValidationError(_("Cette page n'est plus à jour : rechargez-la."))
    if press <= night.nudges:
        return None
    recipients = silent_recipients(night)
    if not recipients:
        raise ValidationError(
            _("Aucun membre sans réponse n'a d'adresse e-mail : envoyez-leur leur lien.")
        )
    night.nudges = press
    night.save(update_fields=["nudges"])
    work_queue(TaskName.NUDGE_EMAIL, night.pk)
    return len(recipients)


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


def opens_early(night: PlannedNight, today: datetime.date | None = None) -> bool:
    """Whether ``night`` is more than a day away: its door opened now asks to be sure."""
    return night.date - (today or timezone.localdate()) > OPEN_EARLY


@transaction.atomic
def night_open(
    night: PlannedNight, *, early: bool = False, today: datetime.date | None = None
) -> Tournament:
    """Make the club night from its calendar entry, with those who said yes (and got a place)
    ticked present. More than a day before its date only when said so (``early``): a night
    opened a week ahead is most often the wrong line tapped, and it closes the answers."""
    night = PlannedNight.objects.select_for_update().select_related("club").get(pk=night.pk)
    if night.is_cancelled:
        raise ValidationError(_("Cette soirée est annulée."))
    if night.tournament_id:
        return night.tournament
    if opens_early(night, today) and not early:
        raise ValidationError(
            _("Cette soirée est prévue le %(date)s : confirmez pour la commencer dès maintenant.")
            % {"date": short_date(night.date)}
        )
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
    unannounced = list(Player.objects.filter(pk__in=present - set(replies)).order_by(*by_name()))
    return PresenceCheck(sorted(missing, key=lambda p: name_sorted(p.display_name)), unannounced)


def member_nights(player: Player, today: datetime.date | None = None) -> Q:
    """The planned nights of the member's clubs (a filter)."""
    clubs = Membership.objects.current().filter(player=player).values("club")
    return Q(club__in=clubs, date__gte=today or timezone.localdate())
