"""The e-mail that tells a club's admins a federation invites their club: who asks, what
joining means, and the link to the club's management page where they accept or refuse. Sent by
the outbox's task once the invitation commits; claimed on the invitation before it goes, so a
task run twice sends it once."""

from __future__ import annotations

import logging

from django.core.mail import EmailMessage, get_connection
from django.urls import reverse
from django.utils import timezone, translation

from infra.mail_text import plain_text, subject_line
from infra.site_address import absolute

from ..models import FederationInvitation
from .signup import club_admin_addresses

logger = logging.getLogger(__name__)


def invitation_recipients(invitation: FederationInvitation) -> list[tuple[str, str]]:
    """(address, language) of each current admin of the club who can sign in to answer; the
    club's contact address when none of them has one."""
    return club_admin_addresses(invitation.club)


def invitation_send(invitation_id: int) -> int:
    """E-mail a pending invitation to the club's admins; returns how many were sent. Nothing
    goes for an invitation answered or withdrawn meanwhile, or sent already. When none could go
    (the mail server was down), the claim is released and the error raised: the outbox keeps
    the work and tries again."""
    invitation = (
        FederationInvitation.objects.select_related("federation", "club")
        .filter(pk=invitation_id, status=FederationInvitation.Status.PENDING)
        .first()
    )
    if invitation is None:
        return 0
    claimed = FederationInvitation.objects.filter(pk=invitation.pk, emailed_at__isnull=True)
    if not claimed.update(emailed_at=timezone.now()):
        return 0
    context = {
        "federation": invitation.federation,
        "club": invitation.club,
        "link": absolute(reverse("club-admin", args=[invitation.club.slug])),
    }
    connection = get_connection()
    sent, failure = 0, None
    for address, language in invitation_recipients(invitation):
        with translation.override(language):
            subject = subject_line("email/federation_invitation_subject.txt", context)
            body = plain_text("email/federation_invitation.txt", context)
        message = EmailMessage(subject, body, to=[address], connection=connection)
        try:
            message.send()
        except Exception as error:
            logger.exception("federation invitation %s: e-mail to an admin failed", invitation.pk)
            failure = error
            continue
        sent += 1
    if failure is not None and not sent:
        FederationInvitation.objects.filter(pk=invitation.pk).update(emailed_at=None)
        raise failure
    return sent
