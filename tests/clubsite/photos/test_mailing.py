"""The club's admins told of a take-down request: once, in their language, with the page where
they answer; nothing when the request was answered before the task ran."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from clubsite.photos import mailing, services

from .photo_files import phone_photo

pytestmark = pytest.mark.django_db


@pytest.fixture
def asked(club, club_admin, member):
    album = services.album_create(club, "Soirée", datetime.date(2025, 3, 13))
    [photo] = services.photos_upload(album, [phone_photo()], None)
    services.photo_copies_make(photo.pk)
    services.photo_takedown_ask(photo, member, "Je préfère pas")
    return photo


def test_the_admins_are_told_once_with_the_members_name_and_word(asked, club, member, mailoutbox):
    assert mailing.takedown_send(asked.pk) == 1
    assert mailing.takedown_send(asked.pk) == 0
    [mail] = mailoutbox
    assert member.player.display_name in mail.body and "Je préfère pas" in mail.body
    assert reverse("photo-admin", args=[club.slug]) in mail.body


def test_nothing_goes_when_the_request_was_answered_first(asked, mailoutbox):
    services.photo_takedown_decide(asked, keep=True)
    assert mailing.takedown_send(asked.pk) == 0
    assert mailoutbox == []


def test_a_failed_sending_releases_the_claim_for_the_next_try(asked, mailoutbox, monkeypatch):
    def broken(self, *args, **kwargs):
        raise ConnectionError("mail server down")

    monkeypatch.setattr("django.core.mail.EmailMessage.send", broken)
    with pytest.raises(ConnectionError):
        mailing.takedown_send(asked.pk)
    monkeypatch.undo()
    assert mailing.takedown_send(asked.pk) == 1
