"""Every public page says what it is to search engines and messaging apps: a description, its
canonical address (absolute, from the request's host) and Open Graph tags, from one include
of the base template fed by ``config.context_processors.page_address``; the demo's published
nights and rankings have their share picture as ``og:image``."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from club.models import Club, Federation
from clubsite.models import Album, NewsPost, Page, Photo
from front.guide import PAGES
from games.models import Tournament
from scoring.models import RankingSnapshot

pytestmark = pytest.mark.django_db

TAGS = ("og:title", "og:description", "og:url", "og:type", "og:locale")


def meta(html: str) -> dict[str, str]:
    """The page's description, canonical address and Open Graph tags."""
    found = dict(re.findall(r'<meta property="(og:[a-z_]+)" content="([^"]*)"', html))
    description = re.search(r'<meta name="description" content="([^"]*)"', html)
    canonical = re.search(r'<link rel="canonical" href="([^"]*)"', html)
    found["description"] = description.group(1) if description else ""
    found["canonical"] = canonical.group(1) if canonical else ""
    return found


def club_site_pages(club: Club) -> list[tuple[str, bool]]:
    """The club's own site as a visitor reads it: its public pages, its news and a post, the
    point table, the contact form, its albums, an album and a photo."""
    slug = club.slug
    pages = [
        reverse(name, args=[slug])
        for name in ("news", "point-table-page", "photo-albums")
        + (("contact",) if club.contact_email else ())
    ]
    pages += [
        reverse("site-page", args=[slug, page.slug])
        for page in Page.objects.filter(club=club).public()
    ]
    post = NewsPost.objects.filter(club=club).published().first()
    if post is not None:
        pages.append(reverse("news-post", args=[slug, post.pk]))
    album = Album.objects.filter(club=club, members_only=False).first()
    if album is not None:
        pages.append(reverse("photo-album", args=[slug, album.slug]))
        photo = Photo.objects.shown().filter(album=album).first()
        pages.append(reverse("photo", args=[slug, album.slug, photo.pk]))
    return [(page, False) for page in pages]


def public_pages() -> list[tuple[str, bool]]:
    """The demo's public pages, each with whether it shows a published podium (og:image)."""
    pages = [(reverse("home"), False), (reverse("guide"), False), (reverse("privacy"), False)]
    pages += [(reverse("guide-page", args=[slug]), False) for slug in PAGES]
    for club in Club.objects.filter(listed=True):
        slug = club.slug
        pages += [
            (reverse("club-detail", args=[slug]), False),
            (reverse("ranking-archive", args=[slug]), False),
            (reverse("palmares", args=[slug]), False),
        ]
        pages += club_site_pages(club)
        player = club.memberships.first().player_id
        pages.append((reverse("player", args=[slug, player]), False))
        night = Tournament.objects.filter(club=club, status=Tournament.Status.PUBLISHED).first()
        if night is not None:
            pages.append((reverse("games:results", args=[slug, night.pk]), True))
        for snapshot in RankingSnapshot.objects.filter(season__club=club).latest_published():
            pages.append((reverse("ranking-season", args=[slug, snapshot.season.slug]), True))
    for federation in Federation.objects.all():
        pages += [
            (reverse("federation", args=[federation.slug]), False),
            (reverse("federation-archive", args=[federation.slug]), False),
        ]
    return pages


def test_every_public_page_of_the_demo_has_its_description_canonical_link_and_og_tags(
    client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo_club", stdout=io.StringIO())

    pages = public_pages()
    assert len(pages) > 30
    descriptions = set()
    for path, podium in pages:
        response = client.get(path, HTTP_HOST="localhost")
        assert response.status_code == 200, path
        tags = meta(response.content.decode())
        assert tags["canonical"] == f"http://localhost{path}", path
        assert tags["og:url"] == tags["canonical"], path
        assert all(tags.get(tag) for tag in TAGS), (path, tags)
        assert len(tags["description"]) > 30, path
        assert tags["og:locale"] == "fr_BE"
        descriptions.add(tags["description"])
        # The demo's publications went through the services: their pictures are drawn.
        image = tags.get("og:image")
        assert bool(image) == podium, path
        if podium:
            assert image.startswith("http://localhost/") and ".png" in image
    # A description says what the page is, not the site's one sentence everywhere.
    assert len(descriptions) > len(pages) // 2


def test_the_locale_follows_the_readers_language(client, club):
    client.cookies["django_language"] = "nl"
    tags = meta(client.get(reverse("club-detail", args=[club.slug])).content.decode())
    assert tags["og:locale"] == "nl_BE"
