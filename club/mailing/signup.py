"""The e-mails of a club's sign-up and of a request to join a club, sent by the outbox's tasks
once their change commits: the link that confirms the secretary's address, the word to the
site's operator that a club waits for his approval, his answer to the secretary, and the word
to a club's admins that somebody asks to join. Each is claimed on its row before it goes, so a
task run twice sends it once; when none could go (the mail server was down), the claim is
released and the error raised: the outbox keeps the work and tries again."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage, get_connection
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone, translation

from infra.mail_text import plain_text, subject_line
from infra.site_address import absolute

from ..invitations import token_hash
from ..models import Club, ClubSignup, JoinRequest, SignupLink
from ..services.members import admins_who_log_in
from ..services.signup_opening import LINK_DAYS

logger = logging.getLogger(__name__)

# (address, language, context) of each e-mail of one piece of work.
Letters = list[tuple[str, str, dict[str, Any]]]


def _message(template: str, context: dict[str, Any], language: str, address: str, connection):
    with translation.override(language):
        subject = subject_line(f"email/{template}_subject.txt", context)
        body = plain_text(f"email/{template}.txt", context)
    return EmailMessage(subject, body, to=[address], connection=connection)


def _send_claimed(rows: QuerySet, field: str, template: str, letters: Callable[[], Letters]) -> int:
    """Claim the work on its row (``field`` set now), then send each of ``letters()``; returns
    how many went."""
    if not rows.filter(**{f"{field}__isnull": True}).update(**{field: timezone.now()}):
        return 0
    connection = get_connection()
    sent, failure = 0, None
    for address, language, context in letters():
        try:
            _message(template, context, language, address, connection).send()
        except Exception as error:
            logger.exception("%s: an e-mail failed", template)
            failure = error
            continue
        sent += 1
    if failure is not None and not sent:
        rows.update(**{field: None})
        raise failure
    return sent


def signup_link_send(signup_id: int) -> int:
    """The link that confirms a sign-up's address. A new token each time it goes, and only
    its hash is kept; the links sent before keep working until the sign-up's link expires
    (``SignupLink``): whoever starts a sign-up with her address voids nothing of hers."""
    rows = ClubSignup.objects.filter(pk=signup_id, status=ClubSignup.Status.UNCONFIRMED)
    signup = rows.first()
    if signup is None:
        return 0

    def letters() -> Letters:
        token = secrets.token_urlsafe(32)
        if signup.token_hash:
            SignupLink.objects.get_or_create(signup=signup, token_hash=signup.token_hash)
        rows.update(token_hash=token_hash(token))
        link = absolute(reverse("signup-confirm", args=[token]))
        context = {"signup": signup, "link": link, "days": LINK_DAYS}
        return [(signup.email, signup.language, context)]

    return _send_claimed(rows, "link_sent_at", "signup_link", letters)


def operators() -> list[tuple[str, str]]:
    """(address, language) of the site's operators: its active superusers with an address."""
    users = get_user_model().objects.filter(is_superuser=True, is_active=True).exclude(email="")
    found = {user.email.lower(): settings.LANGUAGE_CODE[:2] for user in users.order_by("pk")}
    return list(found.items())


def signup_operators_send(signup_id: int) -> int:
    """Tell the operators that a club waits for their approval, with the admin's list of the
    sign-ups waiting (where they approve or refuse them)."""
    rows = ClubSignup.objects.filter(pk=signup_id, status=ClubSignup.Status.WAITING)
    signup = rows.first()
    if signup is None:
        return 0
    waiting = reverse("admin:club_clubsignup_changelist") + "?status__exact=waiting"
    link = absolute(waiting)
    context = {"signup": signup, "link": link}
    found = operators()
    if not found:
        logger.warning("club sign-up %s waits, and no superuser has an e-mail address", signup.pk)
    return _send_claimed(
        rows,
        "operators_told_at",
        "signup_operators",
        lambda: [(address, language, context) for address, language in found],
    )


def signup_decision_send(signup_id: int) -> int:
    """The operator's answer to the secretary: her club is open (with its link), or refused
    (with his word)."""
    decided = [ClubSignup.Status.OPENED, ClubSignup.Status.REFUSED]
    rows = ClubSignup.objects.filter(pk=signup_id, status__in=decided)
    signup = rows.select_related("club").first()
    if signup is None:
        return 0
    context: dict[str, Any] = {"signup": signup, "club": signup.club}
    if signup.club is not None:
        context["link"] = absolute(reverse("club-detail", args=[signup.club.slug]))
    return _send_claimed(
        rows,
        "decision_told_at",
        "signup_decision",
        lambda: [(signup.email, signup.language, context)],
    )


def club_admin_addresses(club: Club) -> list[tuple[str, str]]:
    """(address, language) of each current admin of the club who can sign in; the club's
    contact address when none of them has one."""
    admins = admins_who_log_in(club.pk).select_related("player__user").order_by("player_id")
    found: dict[str, str] = {}
    for membership in admins:
        player = membership.player
        address = player.user.email or player.email
        if address:
            found.setdefault(address.lower(), player.language)
    if not found and club.contact_email:
        found[club.contact_email] = club.language
    return list(found.items())


def join_request_send(request_id: int) -> int:
    """Tell the club's admins that somebody asks to join, with the page where they answer."""
    rows = JoinRequest.objects.filter(pk=request_id, status=JoinRequest.Status.PENDING)
    join_request = rows.select_related("club").first()
    if join_request is None:
        return 0
    club = join_request.club
    link = absolute(reverse("join-requests", args=[club.slug]))
    context = {"join_request": join_request, "club": club, "link": link}
    return _send_claimed(
        rows,
        "admins_told_at",
        "join_request",
        lambda: [(address, language, context) for address, language in club_admin_addresses(club)],
    )
