"""The club's admins told that a member asks for a photo to be taken down: sent by the
outbox's task once the request commits, claimed on the photo's row (``takedown_told_at``) so
that a task run twice sends it once; when none could go, the claim is released and the error
raised, and the outbox tries again."""

from __future__ import annotations

import logging

from django.core.mail import EmailMessage, get_connection
from django.urls import reverse
from django.utils import timezone, translation

from club.mailing.signup import club_admin_addresses
from club.models import Player
from infra.mail_text import plain_text, subject_line
from infra.site_address import absolute

from ..models import Photo

logger = logging.getLogger(__name__)


def takedown_send(photo_id: int) -> int:
    """How many of the club's admins were told (0 when the request was answered meanwhile)."""
    rows = Photo.objects.filter(
        pk=photo_id, takedown_asked_at__isnull=False, takedown_told_at__isnull=True
    )
    photo = rows.select_related("album__club", "takedown_asked_by").first()
    if photo is None or not rows.update(takedown_told_at=timezone.now()):
        return 0
    club = photo.album.club
    asker = photo.takedown_asked_by
    player = Player.objects.filter(user=asker).first() if asker is not None else None
    context = {
        "club": club,
        "album": photo.album,
        "name": player.display_name if player else (asker.get_username() if asker else "?"),
        "note": photo.takedown_note,
        "link": absolute(reverse("photo-admin", args=[club.slug])),
    }
    connection, sent, failure = get_connection(), 0, None
    for address, language in club_admin_addresses(club):
        with translation.override(language):
            subject = subject_line("email/photo_takedown_subject.txt", context)
            body = plain_text("email/photo_takedown.txt", context)
        try:
            EmailMessage(subject, body, to=[address], connection=connection).send()
        except Exception as error:
            logger.exception("photo take-down: an e-mail failed")
            failure = error
            continue
        sent += 1
    if failure is not None and not sent:
        rows.model.objects.filter(pk=photo_id).update(takedown_told_at=None)
        raise failure
    return sent
