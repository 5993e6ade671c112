"""The calendar's e-mails: a night's reminder (with the member's reply link), the secretary's
reminder to those who have not answered, and the word that a place freed for a member who
waited. Each is claimed by a row before it goes, so a task run twice sends nothing twice. And
the same words for the club's chat group and for a member without an address, which the
secretary copies and sends herself."""

from __future__ import annotations

import logging
from typing import Any

from django.core.mail import EmailMessage, get_connection
from django.urls import reverse
from django.utils import timezone

from club.mailing import email_message
from club.mailing.claimed import claimed_send, row_claimed
from club.models import Player
from club.unsubscribe import MailKind, unsubscribe_url
from infra.mail_text import plain_text
from infra.site_address import absolute

from .. import calendar
from ..mailing import result_address
from ..models import PlannedNight, ReminderEmail, Reply

logger = logging.getLogger(__name__)


def reply_url(night: PlannedNight, player: Player) -> str:
    token = calendar.reply_token(night, player)
    return absolute(
        reverse("games:calendar-reply", kwargs={"slug": night.club.slug, "token": token})
    )


def reminders_off_url(player: Player) -> str:
    """The site's one way out of a kind of e-mail (``club.unsubscribe``), for reminders."""
    return unsubscribe_url(MailKind.REMINDERS, player)


def calendar_url(night: PlannedNight) -> str:
    """The club's calendar, at the night's own entry."""
    address = reverse("games:calendar", kwargs={"slug": night.club.slug})
    return absolute(f"{address}#soiree-{night.pk}")


def _context(
    night: PlannedNight, player: Player, reply: Reply | None, nudge: bool = False
) -> dict[str, Any]:
    return {
        "night": night,
        "club": night.club,
        "player": player,
        "reply": reply,
        "nudge": nudge,
        "reply_url": reply_url(night, player),
        "off_url": reminders_off_url(player),
        "calendar_url": absolute(reverse("games:calendar", kwargs={"slug": night.club.slug})),
    }


def _text(template: str, context: dict[str, Any]) -> str:
    return " ".join(plain_text(f"games/calendar/{template}", context).split())


def group_message(night: PlannedNight) -> str:
    """For the club's chat group: the night, its place, where to answer (members signed in
    answer on the calendar; the others have their own link)."""
    return _text(
        "share_group.txt", {"night": night, "club": night.club, "url": calendar_url(night)}
    )


def member_message(night: PlannedNight, player: Player) -> str:
    """For one member without an address, sent by the secretary herself: her own link (it
    answers for her only, so it goes to her only)."""
    context = {"night": night, "club": night.club, "player": player}
    return _text("share_member.txt", {**context, "url": reply_url(night, player)})


def reminders_send(night_id: int, *, nudge: bool = False) -> int:
    """Remind each member of the night (``calendar.reminder_recipients``), in his language;
    returns how many were sent. ``nudge``: the secretary's latest reminder, to those who have
    not answered (``calendar.silent_recipients``). One already reminded (this round) is
    skipped; a failed address is logged, released for the next run, and the others still
    go."""
    night = PlannedNight.objects.select_related("club").filter(pk=night_id).first()
    if night is None or night.is_cancelled:
        return 0
    round_ = night.nudges if nudge else 0
    recipients = (calendar.silent_recipients if nudge else calendar.reminder_recipients)(night)
    replies = {r.player_id: r for r in Reply.objects.with_place().filter(night=night)}
    done = set(
        ReminderEmail.objects.filter(night=night, round=round_).values_list("player_id", flat=True)
    )

    def message(player: Player, address: str, connection: Any) -> EmailMessage:
        context = _context(night, player, replies.get(player.pk), nudge)
        # A bulk e-mail says where its reader stops it (RFC 2369, one click: RFC 8058).
        return email_message(
            "calendar_reminder",
            context,
            player.language,
            address,
            connection,
            club=night.club,
            unsubscribe=context["off_url"],
        )

    return claimed_send(
        ((player, result_address(player)) for player in recipients if player.pk not in done),
        lambda player, address: row_claimed(
            ReminderEmail, night=night, player=player, email=address, round=round_
        ),
        message,
        f"planned night {night.pk}: reminder",
    )


def promoted_send(reply_id: int) -> int:
    """Tell a member who waited that he has a place (once: the reply is marked as it goes)."""
    reply = Reply.objects.select_related("night__club", "player__user").filter(pk=reply_id).first()
    if reply is None or reply.waiting or reply.answer != Reply.Answer.YES:
        return 0
    claimed = Reply.objects.filter(pk=reply.pk, promoted_told__isnull=True).update(
        promoted_told=timezone.now()
    )
    address = result_address(reply.player)
    if not claimed or not address:
        return 0
    context = _context(reply.night, reply.player, reply)
    try:
        email_message(
            "calendar_promoted",
            context,
            reply.player.language,
            address,
            get_connection(),
            club=reply.night.club,
        ).send()
    except Exception:
        logger.exception("reply %s: promotion e-mail failed", reply.pk)
        Reply.objects.filter(pk=reply.pk).update(promoted_told=None)
        return 0
    return 1
