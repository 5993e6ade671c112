"""The e-mail that tells a closed club's members it closed: when its data will be deleted, and
how to keep their own before then. Sent by the outbox's task once the closing commits; claimed
on the closing before it goes, so a task run twice sends it once."""

from __future__ import annotations

import logging

from django.core.mail import get_connection
from django.urls import reverse
from django.utils import timezone

from infra.site_address import absolute

from ..models import ClubClosing, Membership
from ..name_order import by_name
from . import email_message

logger = logging.getLogger(__name__)


def closing_recipients(closing: ClubClosing) -> list[tuple[str, str]]:
    """(address, language) of each member whose membership the closing ended, once each."""
    found: dict[str, str] = {}
    memberships = (
        Membership.objects.filter(pk__in=closing.memberships)
        .select_related("player__user")
        .order_by(*by_name("player__"))
    )
    for membership in memberships:
        player = membership.player
        address = player.email or (player.user.email if player.user else "")
        if address:
            found.setdefault(address.lower(), player.language)
    return list(found.items())


def club_closed_send(closing_id: int) -> int:
    """E-mail the closed club's members; returns how many were sent. Nothing goes for a club
    reopened meanwhile, or told already. When none could go (the mail server was down), the
    claim is released and the error raised: the outbox keeps the work and tries again."""
    closing = ClubClosing.objects.select_related("club").filter(pk=closing_id).first()
    if closing is None:
        return 0
    if not ClubClosing.objects.filter(pk=closing.pk, emailed_at=None).update(
        emailed_at=timezone.now()
    ):
        return 0
    context = {
        "club": closing.club,
        "closed": timezone.localtime(closing.closed_at),
        "purge": timezone.localtime(closing.purge_after),
        "my_data": absolute(reverse("my-data")),
        "privacy": absolute(reverse("privacy")),
    }
    connection = get_connection()
    sent, failure = 0, None
    for address, language in closing_recipients(closing):
        try:
            email_message(
                "club_closed", context, language, address, connection, club=closing.club
            ).send()
        except Exception as error:
            logger.exception("club closing %s: e-mail to a member failed", closing.pk)
            failure = error
        else:
            sent += 1
    if failure is not None and not sent:
        ClubClosing.objects.filter(pk=closing.pk).update(emailed_at=None)
        raise failure
    return sent
