"""The club's page shows its latest three posts, its feed and a way to write to it, from the
club site's own blocks."""

import pytest
from django.urls import reverse

from club.models import Club
from clubsite.news import news_reader
from tests.clubsite.helpers import post_of

pytestmark = pytest.mark.django_db


def test_the_clubs_page_shows_its_latest_three_posts(client, club):
    for day in range(1, 5):
        post_of(club, f"Nouvelle {day}", day=day)
    page = client.get(reverse("club-detail", args=[club.slug])).content.decode()
    assert "Nouvelle 4" in page and "Nouvelle 2" in page and "Nouvelle 1" not in page
    assert reverse("news", args=[club.slug]) in page


def test_the_contact_button_shows_when_the_club_takes_messages(client, club):
    contact = reverse("contact", args=[club.slug])
    assert contact not in client.get(reverse("club-detail", args=[club.slug])).content.decode()
    Club.objects.filter(pk=club.pk).update(contact_email="info@rcwhist.be")
    assert contact in client.get(reverse("club-detail", args=[club.slug])).content.decode()


def test_the_members_profile_turns_each_clubs_news_on_and_off(client, club, member):
    client.force_login(member)
    profile = reverse("profile")
    page = client.get(profile).content.decode()
    assert "Actualités des clubs par e-mail" in page and club.name in page
    response = client.post(
        reverse("news-subscribe", args=[club.slug]), {"on": "1", "next": profile}
    )
    assert response["Location"] == profile
    assert news_reader(club, member.player)
    assert "Ne plus les recevoir" in client.get(profile).content.decode()
    # Never sent back to another site.
    away = client.post(
        reverse("news-subscribe", args=[club.slug]), {"on": "0", "next": "https://evil.example/"}
    )
    assert away["Location"] == reverse("news", args=[club.slug])
