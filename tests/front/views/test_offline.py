"""The installable web app's parts (front/views/offline.py, config/middleware.py): the manifest
and its icons, the favicon, the worker served from the root and never cached, and each page
naming its viewer so that the worker keeps one login's sheets apart from another's."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from front.views import offline

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_site_and_icons_that_exist(client):
    response = client.get(reverse("manifest"))
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]


def test_every_page_links_its_icon_and_manifest_and_favicon_ico_is_no_404(client, club):
    page = client.get(reverse("club-detail", args=[club.slug])).content.decode()
    assert 'rel="icon"' in page and 'rel="manifest"' in page
    favicon = client.get("/favicon.ico")
    assert favicon.status_code == 301
    assert finders.find(favicon["Location"].removeprefix("/static/"))


def test_the_worker_is_served_from_the_root_fresh_each_time(client):
    response = client.get(reverse("service-worker"))
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    body = response.content.decode()
    assert "&quot;" not in body  # JSON values, not HTML-escaped ones
    assert '"/hors-ligne/"' in body


def test_each_login_is_another_viewer_and_the_public_one_more(club, member, scorer):
    path = reverse("club-detail", args=[club.slug])
    seen = set()
    for user in (None, member, scorer):
        client = Client()
        if user is not None:
            client.force_login(user)
        seen.add(client.get(path)["X-Viewer"])
    assert len(seen) == 3
    assert "public" in seen


def test_the_workers_copy_of_a_sheet_sets_no_cookie(client, running_night, scorer):
    client.force_login(scorer)
    poule = running_night.poules.first()
    path = reverse("games:sheet", args=[running_night.club.slug, running_night.pk, poule.pk])
    assert client.get(path).cookies  # an ordinary visit gets its CSRF cookie
    fresh = Client()
    fresh.force_login(scorer)
    copy = fresh.get(path, headers={"X-Sheet-Copy": "1"})
    assert copy.status_code == 200
    assert not copy.cookies


# ---- In production: DEBUG off, the files collected under hashed names, whitenoise ------------

HASHED = re.compile(r"^/static/(?P<name>.+)\.[0-9a-f]{12}\.(?P<ext>[a-z]+)$")


def shell_of(worker: str) -> list[str]:
    return json.loads(re.search(r"^const SHELL = (.*);$", worker, re.M).group(1))


def test_in_production_the_worker_keeps_the_hashed_files_whitenoise_serves(production_static):
    client = Client()  # made inside the production settings: whitenoise is in its middleware

    response = client.get("/sw.js")

    assert response.status_code == 200
    worker = response.content.decode()
    assert 'const STATIC_PREFIX = "/static/";' in worker
    shell = shell_of(worker)
    files = [url for url in shell if url.startswith("/static/")]
    assert len(files) == len(offline.SHELL)
    for url in files:
        assert HASHED.match(url), url
        served = client.get(url)
        assert served.status_code == 200, url
        assert "immutable" in served["Cache-Control"]  # whitenoise's year on a hashed name
    assert reverse("offline") in shell
    assert client.get(reverse("offline")).status_code == 200


def test_in_production_the_manifest_and_the_favicon_name_hashed_files_that_are_served(
    production_static,
):
    client = Client()

    response = client.get("/manifest.webmanifest")

    assert response.status_code == 200
    icons = [icon["src"] for icon in response.json()["icons"]]
    favicon = client.get("/favicon.ico")
    assert favicon.status_code == 301
    for url in [*icons, favicon["Location"]]:
        assert HASHED.match(url), url
        assert client.get(url).status_code == 200, url


def test_the_workers_version_follows_the_names_it_keeps(production_static, settings):
    """The version is the fingerprint of the files as the pages name them: in production,
    the hashed names (a new file, a new name, a new version), even on a machine that has
    only the collected files and not static/ (the finders find nothing)."""
    collected = offline.offline_version()
    settings.STATICFILES_DIRS = []
    offline._version_of_files.cache_clear()
    only_collected = offline.offline_version()
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    offline._version_of_files.cache_clear()

    assert offline.offline_version() != only_collected != collected
