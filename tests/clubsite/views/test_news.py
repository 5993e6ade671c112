"""The club's news as everybody reads it: paged in a fixed number of queries, a draft hidden
from all but its admins, the Atom feed parsed with absolute links, a member's e-mail choice."""

import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from clubsite.news import news_reader
from tests.clubsite.helpers import post_of
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db
ATOM = "{http://www.w3.org/2005/Atom}"


def test_the_news_page_lists_published_posts_in_a_fixed_number_of_queries(
    client, club, django_assert_num_queries
):
    for day in range(1, 13):
        post_of(club, f"Post {day}", day=day)
    post_of(club, "Brouillon secret", day=20, published=False)
    # The club, the count for the pager, the page's posts.
    with django_assert_num_queries(3):
        response = client.get(reverse("news", args=[club.slug]))
    text = response.content.decode()
    assert "Post 12" in text and "Post 3" in text and "Post 2" not in text
    assert "Brouillon secret" not in text
    assert "Page 1 sur 2" in text
    second = client.get(reverse("news", args=[club.slug]) + "?page=2").content.decode()
    assert "Post 2" in second and "Post 1" in second


def test_a_page_past_the_last_shows_the_last(client, club):
    post_of(club)
    assert client.get(reverse("news", args=[club.slug]) + "?page=99").status_code == 200


def test_a_draft_is_its_admins_alone(client, club, club_admin, member):
    draft = post_of(club, "Brouillon", published=False)
    address = reverse("news-post", args=[club.slug, draft.pk])
    assert client.get(address).status_code == 404
    client.force_login(member)
    assert client.get(address).status_code == 404
    client.force_login(club_admin)
    assert "Brouillon" in client.get(address).content.decode()


def test_another_clubs_post_is_not_found_at_this_clubs_address(client, club):
    other = post_of(ClubFactory(name="Voisins"))
    assert client.get(reverse("news-post", args=[club.slug, other.pk])).status_code == 404


def test_the_feed_parses_as_atom_with_absolute_links(client, club):
    post_of(club, "Souper & tournoi", day=2)
    post_of(club, "Brouillon", day=3, published=False)
    response = client.get(reverse("news-feed", args=[club.slug]))
    assert response["Content-Type"].startswith("application/atom+xml")
    feed = ET.fromstring(response.content)
    assert feed.tag == f"{ATOM}feed"
    entries = feed.findall(f"{ATOM}entry")
    assert [e.findtext(f"{ATOM}title") for e in entries] == ["Souper & tournoi"]
    links = [link.get("href") for link in feed.iter(f"{ATOM}link")]
    assert links and all(href.startswith("http://testserver/clubs/rcwhist/") for href in links)
    assert "<strong>samedi</strong>" in entries[0].findtext(f"{ATOM}summary")


def test_the_club_pages_link_their_feed(client, club):
    feed = reverse("news-feed", args=[club.slug])
    tag = f'<link rel="alternate" type="application/atom+xml" href="{feed}"'
    assert tag in client.get(reverse("club-detail", args=[club.slug])).content.decode()
    assert tag in client.get(reverse("news", args=[club.slug])).content.decode()


def test_a_member_asks_for_the_news_by_email_and_stops_them(client, club, member):
    client.force_login(member)
    address = reverse("news-subscribe", args=[club.slug])
    assert client.post(address, {"on": "1"}).status_code == 302
    assert news_reader(club, member.player)
    assert "Ne plus les recevoir" in client.get(reverse("news", args=[club.slug])).content.decode()
    client.post(address, {"on": "0"})
    assert not news_reader(club, member.player)


def test_only_the_clubs_members_ask_for_its_news(client, club, outsider):
    client.force_login(outsider)
    assert client.post(reverse("news-subscribe", args=[club.slug]), {"on": "1"}).status_code == 404
