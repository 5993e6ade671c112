"""The calendar's replies: a member's answer (with a word for the secretary and the guests he
brings), the places they take against the night's cap, the waiting list and its order, and
the signed reply link. The lowest of the calendar's modules: planning (``planning``)
and the rest (``reminders``) build on it; every name here is importable from
``games.calendar``.

A reply link is ``signing.dumps`` of (night, member) with its own salt: no login, one member
and one night; it expires (``LINK_MAX_AGE``) and, like any answer, changes nothing once the
night's deadline has passed."""

from __future__ import annotations

import datetime

from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club.models import Club, Membership, Player
from club.name_order import by_name
from infra.outbox import TaskName, work_queue

from .models import MAX_GUESTS, ClubCalendar, PlannedNight, Reply

REPLY_SALT = "games.calendar.reply"
# A reply link is good for a season's worth of reminders; the night's deadline closes it first.
LINK_MAX_AGE = datetime.timedelta(days=60)


def club_calendar(club: Club) -> ClubCalendar:
    return ClubCalendar.objects.get_or_create(club=club)[0]


def deadline(night: PlannedNight, settings: ClubCalendar | None = None) -> datetime.datetime:
    """When answers for ``night`` close: the club's hours before it starts."""
    settings = settings or club_calendar(night.club)
    return night.starts_at - datetime.timedelta(hours=settings.deadline_hours)


def _is_member(night: PlannedNight, player: Player) -> bool:
    return (
        Membership.objects.current()
        .filter(club=night.club_id, player=player)
        .exclude(status=Membership.Status.FORMER)
        .exists()
    )


def seats_taken(night: PlannedNight) -> int:
    """The places taken: each yes with a place, and the guests it brings."""
    seated = Reply.objects.filter(night=night, answer=Reply.Answer.YES, waiting=False)
    total = seated.aggregate(people=Count("pk"), guests=Sum("guests"))
    return total["people"] + (total["guests"] or 0)


def _held(reply: Reply) -> int:
    """The places ``reply`` holds: its member and his guests, once he has a place."""
    if reply.pk is None or reply.answer != Reply.Answer.YES or reply.waiting:
        return 0
    return 1 + reply.guests


def _guests(reply: Reply, answer: str, guests: int | None) -> int:
    """The guests the answer brings: none with a maybe or a no; unchanged when not said."""
    if answer != Reply.Answer.YES:
        return 0
    if guests is None:
        return reply.guests if reply.answer == Reply.Answer.YES else 0
    if not 0 <= guests <= MAX_GUESTS:
        raise ValidationError(
            ngettext(
                "Au plus %(count)s invité par réponse.",
                "Au plus %(count)s invités par réponse.",
                MAX_GUESTS,
            )
            % {"count": MAX_GUESTS}
        )
    return guests


@transaction.atomic
def reply_set(
    night: PlannedNight,
    player: Player,
    answer: str,
    *,
    comment: str | None = None,
    guests: int | None = None,
    now: datetime.datetime | None = None,
) -> Reply:
    """``player`` answers yes, maybe or no for ``night``, until the club's deadline, with an
    optional comment and, with a yes, the guests he brings (``None``: as before). A yes that
    does not fit in the places left, or comes while others wait, waits in line; places freed
    go to those who wait, in order, in the same transaction, and each is told by e-mail
    (through the outbox). More guests on a place held must fit, or nothing changes."""
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
    reply = reply or Reply(night=night, player=player)
    guests = _guests(reply, answer, guests)
    comment = reply.comment if comment is None else " ".join(comment.split())
    same = reply.pk is not None and reply.answer == answer
    if same and (reply.guests, reply.comment) == (guests, comment):
        return reply  # the same answer again: nothing changes, not even his place in line
    held = _held(reply)
    if not same:
        # A new answer goes to the end of the line (the same yes keeps its place).
        reply.answered = now
        reply.waiting = answer == Reply.Answer.YES and (
            night.cap is not None
            and (
                Reply.objects.filter(night=night, waiting=True).exists()
                or seats_taken(night) + 1 + guests > night.cap
            )
        )
    elif held and night.cap is not None:
        free = night.cap - (seats_taken(night) - held)
        if 1 + guests > free:
            raise ValidationError(
                _(
                    "Plus assez de places pour vos invités : il en faut %(need)s, "
                    "il en reste %(free)s."
                )
                % {"need": 1 + guests, "free": free}
            )
    reply.answer, reply.guests, reply.comment = answer, guests, comment
    reply.full_clean()
    reply.save()
    if _held(reply) < held or reply.waiting:
        places_fill(night, now)
    return reply


def places_fill(night: PlannedNight, now: datetime.datetime) -> list[Reply]:
    """Those who wait take the places free, in line order, each with his guests; the line
    stops at the first who does not fit (nobody overtakes him). Each is told (outbox)."""
    waiting = list(Reply.objects.filter(night=night, waiting=True).order_by("answered", "pk"))
    if not waiting:
        return []
    taken = seats_taken(night)
    moved = []
    for reply in waiting:
        if night.cap is not None and taken + 1 + reply.guests > night.cap:
            break
        taken += 1 + reply.guests
        reply.waiting = False
        reply.promoted = now
        reply.save(update_fields=["waiting", "promoted"])
        work_queue(TaskName.PROMOTED_EMAIL, reply.pk)
        moved.append(reply)
    return moved


def silent_members(night: PlannedNight) -> QuerySet[Player]:
    """The club's current members who have not answered for ``night``, by name."""
    answered = Reply.objects.filter(night=night).values("player")
    return (
        Player.objects.filter(
            Membership.objects.current_q("memberships"),
            memberships__club=night.club_id,
            memberships__status=Membership.Status.ACTIVE,
        )
        .exclude(pk__in=answered)
        .distinct()
        .order_by(*by_name())
    )


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
