"""The guide (« Aide »): each page in each language renders, every picture it shows is a file
the site serves, every section it links to is there; every page of the site has its guide
section or is named as having none (front/guide.py), and the header's « ? » leads there."""

from __future__ import annotations

import json
from functools import cache
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve

from front.guide import (
    GUIDE_LANGUAGES,
    MANIFEST,
    NOT_A_PAGE,
    PAGES,
    PICTURES,
    PICTURES_FOLDER,
    SECTIONS,
    WITHOUT_SECTION,
    template_hashes,
)

# Django's and the API's own addresses: the admin's pages are Django's, the API answers JSON.
OUTSIDE = {"admin", "api"}


class Links(HTMLParser):
    """A page's pictures, links and the ids its sections carry."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[str] = []
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(found["id"])
        if tag == "img":
            self.images.append(found.get("src") or "")
        if tag == "a" and found.get("href"):
            self.links.append(found["href"])


@cache
def guide_page(language: str, path: str) -> Links:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(path)
    assert response.status_code == 200, (language, path, response.status_code)
    assert response.headers["Content-Language"] == language
    links = Links()
    links.feed(response.content.decode())
    return links


def page_path(slug: str) -> str:
    return f"/aide/{slug}/"


@pytest.mark.parametrize("language", GUIDE_LANGUAGES)
@pytest.mark.parametrize("slug", PAGES)
def test_a_guide_page_shows_only_pictures_and_sections_that_exist(db, language, slug):
    page = guide_page(language, page_path(slug))
    for src in page.images:
        assert src.startswith(settings.STATIC_URL) or src.startswith("/" + settings.STATIC_URL)
        name = src.split(settings.STATIC_URL, 1)[1]
        assert finders.find(name), f"{language} {slug}: the picture {name} is missing"
    for href in page.links:
        address = urlsplit(href)
        if not address.fragment:
            continue
        if not address.path:
            target = page
        else:
            assert resolve(address.path).url_name == "guide-page", href
            target = guide_page(language, address.path)
        assert address.fragment in target.ids, f"{language} {slug}: {href} leads nowhere"


@pytest.mark.parametrize("slug", PAGES)
def test_a_guide_page_shows_the_same_pictures_and_sections_in_every_language(db, slug):
    pages = [guide_page(language, page_path(slug)) for language in GUIDE_LANGUAGES]
    pictures = [sorted(src.rsplit("/", 1)[1] for src in page.images) for page in pages]
    assert pictures[0], f"{slug} shows no picture"
    assert pictures.count(pictures[0]) == len(pictures), pictures
    assert all(page.ids >= pages[0].ids for page in pages), slug


def named_routes(patterns=None, namespace: str = "") -> set[str]:
    routes: set[str] = set()
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            inner = pattern.namespace or namespace
            if inner not in OUTSIDE:
                routes |= named_routes(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            routes.add(f"{namespace}:{pattern.name}" if namespace else pattern.name)
    return routes


def test_every_page_of_the_site_is_given_its_guide_section_or_none_by_name():
    routes = named_routes()
    said = [set(SECTIONS), set(WITHOUT_SECTION), set(NOT_A_PAGE)]
    unsaid = routes - set().union(*said)
    assert not unsaid, f"say in front/guide.py which guide section explains {sorted(unsaid)}"
    stale = set().union(*said) - routes
    assert not stale, f"front/guide.py names addresses the site no longer has: {sorted(stale)}"
    assert not (said[0] & said[1]) and not (said[0] & said[2]) and not (said[1] & said[2])


def test_every_section_a_page_points_to_is_in_the_guide_in_every_language(db):
    for key, target in SECTIONS.items():
        slug, _sep, anchor = target.partition("#")
        assert slug in PAGES, key
        for language in GUIDE_LANGUAGES:
            assert anchor in guide_page(language, page_path(slug)).ids, (key, language)


def test_the_header_s_help_leads_to_the_section_of_the_page_or_to_the_contents(db, client):
    home = client.get("/").content.decode()
    assert 'class="help-link" href="/aide/inscrire-un-club/#annuaire"' in home
    privacy = client.get("/confidentialite/").content.decode()
    assert 'class="help-link" href="/aide/"' in privacy


def test_the_contents_list_every_page_and_an_unknown_page_is_not_found(db, client):
    contents = guide_page("fr", "/aide/")
    assert {page_path(slug) for slug in PAGES} <= set(contents.links)
    assert client.get("/aide/nulle-part/").status_code == 404


def test_every_picture_the_guide_shows_is_taken_after_the_last_change_of_its_templates(db):
    """The pictures are taken by ``manage.py guide_pictures``, never by the tests: it writes
    beside them the hash of each template they show, and a template changed since is a
    picture to take again."""
    for language in GUIDE_LANGUAGES:
        for slug in PAGES:
            for src in guide_page(language, page_path(slug)).images:
                name = src.rsplit("/", 1)[1]
                assert name in PICTURES, f"say in front/guide.py which templates {name} shows"
                assert (PICTURES_FOLDER / language / name).is_file(), (language, name)
    taken = json.loads(MANIFEST.read_text())["templates"]
    stale = sorted(name for name, digest in template_hashes().items() if taken.get(name) != digest)
    assert not stale, f"run `manage.py guide_pictures`: these changed since the pictures {stale}"
