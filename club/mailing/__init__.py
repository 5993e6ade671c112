"""The club's e-mails built one way (a subject, a text and an HTML part, in the reader's
language), and the word to a club, or a federation, that a merge of two records ended a role
it had granted (``club.services.roles``)."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from email.utils import formataddr, parseaddr
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from infra.mail_text import plain_text, subject_line
from infra.site_address import absolute

from ..models import Club, Federation, FederationAdmin, Membership, Player, PlayerMerge
from ..services import role_ended_line
from ..unsubscribe import list_headers

logger = logging.getLogger(__name__)


def club_sender(club: Club | None) -> str | None:
    """``From``: the club's name before the site's address (« RCWhist La Chevalerie
    <noreply@…> »), encoded as a header must be; None (the site's own) without a club."""
    if club is None:
        return None
    return formataddr((club.name, parseaddr(settings.DEFAULT_FROM_EMAIL)[1]))


def email_message(
    template: str,
    context: dict[str, Any],
    language: str,
    address: str,
    connection: Any,
    *,
    club: Club | None = None,
    unsubscribe: str = "",
) -> EmailMultiAlternatives:
    """``email/<template>_subject.txt``, ``.txt`` and ``.html`` rendered in ``language``: the
    subject and the text part as written (``infra.mail_text``), the HTML part escaped, its
    ``<title>`` the subject (``email_subject``). ``club``: the sender named. ``unsubscribe``:
    a bulk e-mail's one-click way out (``club.unsubscribe``), in its headers and its text."""
    context = {**context, "unsubscribe_url": unsubscribe}
    with translation.override(language):
        subject = subject_line(f"email/{template}_subject.txt", context)
        body = plain_text(f"email/{template}.txt", context)
        html = render_to_string(f"email/{template}.html", {**context, "email_subject": subject})
    message = EmailMultiAlternatives(
        subject=subject,
        body=body,
        from_email=club_sender(club),
        to=[address],
        connection=connection,
        headers=list_headers(unsubscribe) if unsubscribe else None,
    )
    message.attach_alternative(html, "text/html")
    return message


def _readers(players: Iterable[Player]) -> list[tuple[Player, str]]:
    """Each player with the address he is written to (his own, else his account's)."""
    found = []
    for player in players:
        address = player.email or (player.user.email if player.user_id else "")
        if address:
            found.append((player, address))
    return found


def _told(entries: list[dict]) -> list[tuple[Club | Federation, str, list[dict], list]]:
    """Per club and federation named in ``entries``: itself, its management address, its
    entries, and its remaining administrators with their addresses."""
    groups: dict[tuple[str, int], list[dict]] = {}
    for entry in entries:
        kind = "club" if "club" in entry else "federation"
        groups.setdefault((kind, entry[kind]), []).append(entry)
    clubs = Club.objects.in_bulk([pk for kind, pk in groups if kind == "club"])
    federations = Federation.objects.in_bulk([pk for kind, pk in groups if kind == "federation"])
    told = []
    for (kind, pk), lines in groups.items():
        if kind == "club" and pk in clubs:
            admins = Membership.objects.admins().filter(club_id=pk).select_related("player__user")
            link = reverse("club-merges", args=[clubs[pk].slug])
            told.append((clubs[pk], link, lines, _readers(m.player for m in admins)))
        elif kind == "federation" and pk in federations:
            admins = FederationAdmin.objects.filter(federation_id=pk).select_related("player__user")
            link = reverse("federation-admin", args=[federations[pk].slug])
            told.append((federations[pk], link, lines, _readers(a.player for a in admins)))
    return told


def merge_roles_send(merge_id: int) -> int:
    """Tell the remaining administrators of each club (or federation) whose role the merge, or
    its undo, ended: once (the merge counts what it told, claimed before sending); returns how
    many e-mails went. An address that fails is logged: the club's merges page says the same."""
    merge = PlayerMerge.objects.select_related("kept", "merged", "club").filter(pk=merge_id).first()
    if merge is None or merge.roles_told >= len(merge.roles_ended):
        return 0
    entries = merge.roles_ended[merge.roles_told :]
    claimed = PlayerMerge.objects.filter(pk=merge.pk, roles_told=merge.roles_told).update(
        roles_told=len(merge.roles_ended)
    )
    if not claimed:
        return 0
    connection = get_connection()
    sent = 0
    for body, link, lines, readers in _told(entries):
        for player, address in readers:
            with translation.override(player.language):
                said = [role_ended_line(entry) for entry in lines]
            context = {
                "merge": merge,
                "reader": player,
                "body": body,
                "lines": said,
                "link": absolute(link),
            }
            try:
                email_message("merge_roles", context, player.language, address, connection).send()
            except Exception:
                logger.exception("merge %s: roles notice to player %s failed", merge.pk, player.pk)
                continue
            sent += 1
    return sent
