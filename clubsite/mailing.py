"""The club site's e-mails: a news post to the members who asked for news (a bulk e-mail,
with its one-click way out), and a visitor's message to the club's contact address. Each is
claimed before it goes, so that a task run twice sends nothing twice."""

from __future__ import annotations

import logging
from typing import Any

from django.core.mail import EmailMessage, get_connection
from django.urls import reverse
from django.utils import timezone, translation

from club.mailing import club_sender, email_message
from club.mailing.claimed import claimed_send, row_claimed
from club.models import Player
from club.unsubscribe import MailKind, unsubscribe_url
from games.mailing import result_address
from infra.mail_text import plain_text, subject_line
from infra.site_address import absolute

from .models import ContactMessage, NewsEmail, NewsPost
from .news import news_readers

logger = logging.getLogger(__name__)


def news_email_send(post_id: int) -> int:
    """E-mail a published post to each member who asked for the club's news, in his
    language; returns how many went. Who has it already is skipped; a failed address is
    released for the next run and the others still go."""
    post = NewsPost.objects.select_related("club").filter(pk=post_id).first()
    if post is None or not post.is_published:
        return 0
    club = post.club
    done = set(NewsEmail.objects.filter(post=post).values_list("player_id", flat=True))
    post_url = absolute(reverse("news-post", args=[club.slug, post.pk]))
    photo_url = absolute(post.photo.url) if post.photo else ""

    def message(player: Player, address: str, connection: Any) -> EmailMessage:
        context = {
            "post": post,
            "club": club,
            "player": player,
            "post_url": post_url,
            "photo_url": photo_url,
        }
        return email_message(
            "news_post",
            context,
            player.language,
            address,
            connection,
            club=club,
            unsubscribe=unsubscribe_url(MailKind.NEWS, player, club.pk),
        )

    readers = ((player, result_address(player)) for player in news_readers(club))
    return claimed_send(
        ((player, address) for player, address in readers if player.pk not in done and address),
        lambda player, address: row_claimed(NewsEmail, post=post, player=player, email=address),
        message,
        f"news {post.pk}",
    )


def contact_send(message_id: int) -> int:
    """A visitor's message to the club's contact address (once: marked as it goes), in the
    club's language, answerable straight to the visitor (``Reply-To``)."""
    contact = ContactMessage.objects.select_related("club").filter(pk=message_id).first()
    if contact is None or not contact.club.contact_email:
        return 0
    claimed = ContactMessage.objects.filter(pk=contact.pk, sent_at__isnull=True).update(
        sent_at=timezone.now()
    )
    if not claimed:
        return 0
    context = {"contact": contact, "club": contact.club}
    with translation.override(contact.club.language):
        subject = subject_line("email/contact_message_subject.txt", context)
        body = plain_text("email/contact_message.txt", context)
    message = EmailMessage(
        subject,
        body,
        from_email=club_sender(contact.club),
        to=[contact.club.contact_email],
        reply_to=[contact.email],
        connection=get_connection(),
    )
    try:
        message.send()
    except Exception:
        logger.exception("contact message %s: e-mail failed", contact.pk)
        ContactMessage.objects.filter(pk=contact.pk).update(sent_at=None)
        return 0
    return 1
