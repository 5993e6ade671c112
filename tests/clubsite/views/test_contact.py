"""The contact page: the club's address is never on it; a robot is refused by the hidden
field, by its haste and by the limits, each in words; a person's message goes."""

import html
import time

import pytest
from django.urls import reverse

from club.models import Club
from clubsite import contact
from clubsite.contact import shown_token
from clubsite.models import ContactMessage

pytestmark = pytest.mark.django_db
ADDRESS = "secret-contact@rcwhist.be"


@pytest.fixture
def club(club):
    Club.objects.filter(pk=club.pk).update(contact_email=ADDRESS)
    club.refresh_from_db()
    return club


def message(**extra):
    data = {
        "name": "Paul Renard",
        "email": "paul@example.org",
        "message": "Vous jouez le lundi ?",
        "shown": shown_token(at=time.time() - 60),
    }
    return {**data, **extra}


def test_the_page_and_the_clubs_page_never_show_the_address(client, club):
    page = client.get(reverse("contact", args=[club.slug])).content.decode()
    assert ADDRESS not in page and 'name="website"' in page and 'name="shown"' in page
    club_page = client.get(reverse("club-detail", args=[club.slug])).content.decode()
    assert ADDRESS not in club_page
    assert reverse("contact", args=[club.slug]) in club_page


def test_a_persons_message_goes(client, club):
    response = client.post(reverse("contact", args=[club.slug]), message(), follow=True)
    assert "Votre message est envoyé" in response.content.decode()
    assert ContactMessage.objects.get().message == "Vous jouez le lundi ?"


def test_the_hidden_field_filled_is_refused_in_words(client, club):
    response = client.post(reverse("contact", args=[club.slug]), message(website="http://x"))
    assert "champ caché" in response.content.decode()
    assert not ContactMessage.objects.exists()


def test_a_form_sent_at_once_is_refused_in_words(client, club):
    response = client.post(reverse("contact", args=[club.slug]), message(shown=shown_token()))
    assert "trop vite" in response.content.decode()
    assert not ContactMessage.objects.exists()


def test_past_the_limit_a_client_is_refused_in_words(client, club):
    for _ in range(contact.CONTACT_ADDRESS.attempts):
        client.post(reverse("contact", args=[club.slug]), message())
    response = client.post(reverse("contact", args=[club.slug]), message())
    assert response.status_code == 200
    assert "Trop de messages envoyés d'ici" in html.unescape(response.content.decode())
    assert ContactMessage.objects.count() == contact.CONTACT_ADDRESS.attempts


def test_without_an_address_the_page_says_so_and_shows_its_admin_where_to_give_one(
    client, club, club_admin
):
    Club.objects.filter(pk=club.pk).update(contact_email="")
    page = client.get(reverse("contact", args=[club.slug])).content.decode()
    assert "ne reçoit pas encore de message" in html.unescape(page) and 'name="message"' not in page
    settings_page = reverse("club-settings", args=[club.slug])
    assert settings_page not in page
    client.force_login(club_admin)
    assert settings_page in client.get(reverse("contact", args=[club.slug])).content.decode()
