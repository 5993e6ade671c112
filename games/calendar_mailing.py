"""The calendar's e-mails: a night's reminder (with the member's reply link) and the word that
a place freed for a member who waited. Each is claimed by a row before it goes, so a task run
twice sends nothing twice."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.mail import get_connection
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from club.mailing import email_message
from club.models import Player

from . import calendar
from .mailing import result_address
from .models import PlannedNight, ReminderEmail, Reply

logger = logging.getLogger(__name__)


def reply_url(night: PlannedNight, player: Player) -> str:
    token = calendar.reply_token(night, player)
    return settings.SITE_URL + reverse(
        "games:calendar-reply", kwargs={"slug": night.club.slug, "token": token}
    )


def reminders_off_url(player: Player) -> str:
    token = calendar.reminders_off_token(player)
    return settings.SITE_URL + reverse("calendar-reminders-off", kwargs={"token": token})


def _context(night: PlannedNight, player: Player, reply: Reply | None) -> dict[str, Any]:
    return {
        "night": night,
        "club": night.club,
        "player": player,
        "reply": reply,
        "reply_url": reply_url(night, player),
        "off_url": reminders_off_url(player),
        "calendar_url": settings.SITE_URL
        + reverse("games:calendar", kwargs={"slug": night.club.slug}),
    }


def _claim(night: PlannedNight, player: Player, address: str) -> ReminderEmail | None:
    try:
        with transaction.atomic():
            return ReminderEmail.objects.create(night=night, player=player, email=address)
    except IntegrityError:
        return None


def reminders_send(night_id: int) -> int:
    """Remind each member of the night (``calendar.reminder_recipients``), in his language;
    returns how many were sent. One already reminded is skipped; a failed address is logged,
    released for the next run, and the others still go."""
    night = PlannedNight.objects.select_related("club").filter(pk=night_id).first()
    if night is None or night.is_cancelled:
        return 0
    replies = {r.player_id: r for r in Reply.objects.filter(night=night)}
    done = set(ReminderEmail.objects.filter(night=night).values_list("player_id", flat=True))
    connection = get_connection()
    sent = 0
    for player in calendar.reminder_recipients(night):
        if player.pk in done:
            continue
        address = result_address(player)
        record = _claim(night, player, address)
        if record is None:
            continue
        context = _context(night, player, replies.get(player.pk))
        try:
            email_message("calendar_reminder", context, player.language, address, connection).send()
        except Exception:
            logger.exception("planned night %s: reminder to player %s failed", night.pk, player.pk)
            record.delete()
            continue
        sent += 1
    return sent


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
            "calendar_promoted", context, reply.player.language, address, get_connection()
        ).send()
    except Exception:
        logger.exception("reply %s: promotion e-mail failed", reply.pk)
        Reply.objects.filter(pk=reply.pk).update(promoted_told=None)
        return 0
    return 1
