"""``/robots.txt`` and ``/sitemap.xml``: crawlers kept out of management, accounts, the API
and the admin, and sent to the sitemap, which parses and lists the demo's public pages."""

from __future__ import annotations

import io
from xml.etree import ElementTree

import pytest
from django.core.management import call_command
from django.urls import reverse

from club.models import Club, Federation, FederationSeason
from clubsite.models import Album, NewsPost, Page
from games.models import Tournament

pytestmark = pytest.mark.django_db


def test_robots_keeps_crawlers_out_of_management_accounts_api_and_admin(client):
    response = client.get("/robots.txt", HTTP_HOST="localhost")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    lines = response.content.decode().splitlines()
    assert lines[0] == "User-agent: *"
    for path in ("/clubs/*/gestion/", "/compte/", "/api/", "/admin/"):
        assert f"Disallow: {path}" in lines
    assert "Sitemap: http://localhost/sitemap.xml" in lines
    assert "Disallow: /" not in lines  # the public pages stay open


def test_robots_and_the_sitemap_refuse_a_post(client):
    assert client.post("/robots.txt").status_code == 405
    assert client.post("/sitemap.xml").status_code == 405


def test_the_sitemap_parses_and_lists_the_demos_public_pages_and_no_private_one(
    client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo_club", stdout=io.StringIO())
    Club.objects.filter(slug="whist-club-de-wavre").update(listed=False)

    response = client.get("/sitemap.xml", HTTP_HOST="localhost")

    assert response.status_code == 200
    root = ElementTree.fromstring(response.content)
    pages = {
        loc.text.removeprefix("http://localhost")
        for loc in root.findall(
            "{http://www.sitemaps.org/schemas/sitemap/0.9}url/"
            "{http://www.sitemaps.org/schemas/sitemap/0.9}loc"
        )
    }
    for club in Club.objects.filter(listed=True):
        assert reverse("palmares", args=[club.slug]) in pages
        for night in Tournament.objects.filter(club=club):
            shown = reverse("games:results", args=[club.slug, night.pk]) in pages
            assert shown == (night.status == Tournament.Status.PUBLISHED)
    assert not any("/clubs/whist-club-de-wavre/" in page for page in pages)
    assert not any("/gestion/" in page or "/compte/" in page for page in pages)
    # Every address in it answers a visitor.
    for page in sorted(pages)[:40]:
        assert client.get(page).status_code == 200, page


def test_the_sitemap_lists_the_clubs_own_site_and_the_federations_public_pages_only(
    client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo_club", stdout=io.StringIO())
    listed = Club.objects.filter(listed=True)
    silent = listed.first()
    Club.objects.filter(pk=silent.pk).update(contact_email="")
    draft = NewsPost.objects.filter(club__in=listed).first()
    NewsPost.objects.filter(pk=draft.pk).update(status=NewsPost.Status.DRAFT)
    hidden_album = Album.objects.filter(club__in=listed).first()
    Album.objects.filter(pk=hidden_album.pk).update(members_only=True)

    response = client.get("/sitemap.xml", HTTP_HOST="localhost")

    root = ElementTree.fromstring(response.content)
    pages = {
        loc.text.removeprefix("http://localhost")
        for loc in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")
    }
    site = {
        reverse(name, args=[club.slug])
        for club in listed
        for name in ("news", "photo-albums", "point-table-page", "contact")
        if name != "contact" or club.contact_email
    }
    for page in Page.objects.filter(club__in=listed):
        shown = reverse("site-page", args=[page.club.slug, page.slug]) in pages
        assert shown == (not page.members_only), page.slug
    for post in NewsPost.objects.filter(club__in=listed):
        shown = reverse("news-post", args=[post.club.slug, post.pk]) in pages
        assert shown == (post.pk != draft.pk), post.title
    for album in Album.objects.filter(club__in=listed):
        shown = reverse("photo-album", args=[album.club.slug, album.slug]) in pages
        assert shown == (album.pk != hidden_album.pk), album.title
    for federation in Federation.objects.all():
        site |= {
            reverse("federation", args=[federation.slug]),
            reverse("federation-archive", args=[federation.slug]),
        }
    for season in FederationSeason.objects.select_related("federation"):
        site.add(reverse("federation-ranking", args=[season.federation.slug, season.slug]))
    assert Page.objects.filter(members_only=True).exists() and FederationSeason.objects.exists()
    assert site <= pages
    assert reverse("contact", args=[silent.slug]) not in pages
    # Each of these answers a visitor.
    for page in sorted(site | {p for p in pages if "/actualites/" in p or "/photos/" in p}):
        assert client.get(page).status_code == 200, page
