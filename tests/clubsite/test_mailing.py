"""A post goes by e-mail once to each member who asked, with his own way out; a visitor's
message goes once to the club's address, answerable to him."""

import pytest
from django.core import mail

from club.models import Club
from club.unsubscribe import MailKind, unsubscribe_read
from clubsite.mailing import contact_send, news_email_send
from clubsite.models import ContactMessage, NewsEmail
from clubsite.news import news_publish, news_reader_set
from clubsite.tasks import news_email
from tests.clubsite.helpers import post_of
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_a_post_goes_once_to_each_member_who_asked(club, django_capture_on_commit_callbacks):
    readers = [PlayerFactory(club=club, email=f"m{i}@example.org") for i in range(2)]
    PlayerFactory(club=club, email="silent@example.org")
    for player in readers:
        news_reader_set(club, player, True)
    post = post_of(club, published=False)
    with django_capture_on_commit_callbacks(execute=True):
        news_publish(post, email=True)
    assert sorted(m.to[0] for m in mail.outbox) == ["m0@example.org", "m1@example.org"]
    # Delivered again (a retried task), and published again: nothing more goes.
    assert news_email(post.pk) == 0
    with django_capture_on_commit_callbacks(execute=True):
        news_publish(post, email=True)
    assert len(mail.outbox) == 2
    assert NewsEmail.objects.filter(post=post).count() == 2


def test_each_reader_gets_his_own_link_for_this_clubs_news(club):
    reader = PlayerFactory(club=club, email="m@example.org")
    news_reader_set(club, reader, True)
    assert news_email_send(post_of(club).pk) == 1
    link = mail.outbox[0].extra_headers["List-Unsubscribe"][1:-1]
    token = link.rstrip("/").rsplit("/", 1)[1]
    assert unsubscribe_read(token) == (MailKind.NEWS, reader, club.pk)
    assert link in mail.outbox[0].body


def test_a_draft_is_never_sent(club):
    news_reader_set(club, PlayerFactory(club=club, email="m@example.org"), True)
    assert news_email_send(post_of(club, published=False).pk) == 0
    assert mail.outbox == []


def test_a_visitors_message_goes_once_to_the_club_answerable_to_him(club):
    Club.objects.filter(pk=club.pk).update(contact_email="info@rcwhist.be")
    message = ContactMessage.objects.create(
        club=club, name="Paul", email="paul@example.org", message="Vous jouez le lundi ?"
    )
    assert contact_send(message.pk) == 1
    assert contact_send(message.pk) == 0
    sent = mail.outbox[0]
    assert sent.to == ["info@rcwhist.be"] and sent.reply_to == ["paul@example.org"]
    assert "Vous jouez le lundi ?" in sent.body
