"""A visitor's message to a club: kept and handed to the outbox; refused in words when sent
too fast, from a stale form, too often from one address, or too often to one club."""

import datetime
import time

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from club.models import Club
from clubsite import contact
from clubsite.contact import contact_messages_purge, contact_receive, shown_check, shown_token
from clubsite.models import ContactMessage
from infra.models import PendingWork
from infra.outbox import TaskName

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(club):
    Club.objects.filter(pk=club.pk).update(contact_email="info@rcwhist.be")
    club.refresh_from_db()
    return club


def write(club, address="192.0.2.1", **fields):
    data = {"name": "Paul Renard", "email": "paul@example.org", "message": "Bonjour !"}
    return contact_receive(club, **{**data, **fields}, address=address)


def test_a_message_is_kept_and_queued_for_the_club(club):
    message = write(club)
    assert ContactMessage.objects.get().pk == message.pk
    assert PendingWork.objects.filter(task=TaskName.CONTACT_EMAIL, key=message.pk).exists()


def test_a_form_sent_seconds_after_it_was_shown_is_refused_in_words():
    now = 1_800_000_000
    with pytest.raises(ValidationError, match="trop vite"):
        shown_check(shown_token(at=now - 1), now=now)
    shown_check(shown_token(at=now - contact.MIN_SECONDS), now=now)


def test_a_tampered_or_stale_form_is_refused_in_words():
    with pytest.raises(ValidationError, match="expiré"):
        shown_check(shown_token()[:-2] + "xx")
    with pytest.raises(ValidationError, match="expiré"):
        shown_check(shown_token(at=time.time() - 2 * 86_400))


def test_one_address_is_limited_and_refused_in_words(club):
    for _ in range(contact.CONTACT_ADDRESS.attempts):
        write(club)
    with pytest.raises(ValidationError, match="Trop de messages"):
        write(club)
    # Another address still writes.
    write(club, address="198.51.100.7")
    assert ContactMessage.objects.count() == contact.CONTACT_ADDRESS.attempts + 1


def test_one_club_is_limited_whatever_the_addresses(club, monkeypatch):
    monkeypatch.setattr(
        contact, "CONTACT_CLUB", contact.Limit("contact-club", 2, contact.CONTACT_CLUB.window)
    )
    write(club, address="192.0.2.1")
    write(club, address="192.0.2.2")
    with pytest.raises(ValidationError, match="trop de messages aujourd'hui"):
        write(club, address="192.0.2.3")


def test_a_club_without_a_contact_address_takes_no_message(club):
    Club.objects.filter(pk=club.pk).update(contact_email="")
    club.refresh_from_db()
    with pytest.raises(ValidationError, match="ne reçoit pas"):
        write(club)


def test_a_message_is_deleted_once_kept_its_days_sent_or_not_and_the_privacy_page_says_so(
    club, client
):
    now = timezone.now()
    old_sent, old_unsent, recent = (write(club, address=f"192.0.2.{n}") for n in (1, 2, 3))
    kept = datetime.timedelta(days=contact.KEPT_DAYS)
    ContactMessage.objects.filter(pk=old_sent.pk).update(
        received=now - kept - datetime.timedelta(minutes=1), sent_at=now - kept
    )
    ContactMessage.objects.filter(pk=old_unsent.pk).update(received=now - kept * 2)
    ContactMessage.objects.filter(pk=recent.pk).update(
        received=now - kept + datetime.timedelta(minutes=1)
    )

    assert contact_messages_purge(now) == 2

    assert list(ContactMessage.objects.values_list("pk", flat=True)) == [recent.pk]
    page = client.get(reverse("privacy")).content.decode()
    assert f"Le site les efface {contact.KEPT_DAYS} jours après leur arrivée" in page
