"""The sheet opens offline, as an installable web app (templates/offline/sw.js): a scorer who
reloads his sheet with no network sees it, with its waiting deals, and is told he is offline;
another login on the same phone never gets his sheet; a new version of the site takes over
and empties the old caches."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import pytest
from django.test import override_settings
from playwright.sync_api import Page, expect

from tests.e2e.test_phone_sheet import (
    a_night,
    a_scorer,
    belgian_deals,
    phone_context,
    record_belgian_whist,
    screenshot,
    sheet_url,
)
from tests.factories import PlayerFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def controlled(page: Page) -> None:
    """Wait until the service worker controls the page (it claims it on activation)."""
    page.wait_for_function(
        "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
        timeout=15_000,
    )


def cache_names(page: Page) -> list[str]:
    return page.evaluate("() => caches.keys()")


def until_caches(page: Page, wanted: Callable[[list[str]], bool]) -> list[str]:
    """The page's cache names once ``wanted`` holds of them (within 15 s)."""
    deadline = time.monotonic() + 15
    while True:
        names = cache_names(page)
        if wanted(names) or time.monotonic() > deadline:
            return names
        page.wait_for_timeout(100)


@pytest.fixture(params=["development", "production"])
def server(request: pytest.FixtureRequest) -> object:
    """The test server as the other browser tests have it, and the site as deployed (hashed
    static files served by whitenoise: tests/e2e/conftest.py, on the SQLite pass only)."""
    return request.getfixturevalue(
        "live_server" if request.param == "development" else "production_server"
    )


def test_a_sheet_reloaded_offline_shows_itself_its_queue_and_says_offline(
    server, new_context, club, season
):
    live_server = server
    user = a_scorer(club)
    poule = a_night(club, season, "rcwhist", 4).poules.get()
    context = phone_context(new_context, live_server, user)
    page = context.new_page()
    page.goto(sheet_url(live_server.url, poule))
    controlled(page)
    first, second = belgian_deals(4, 2)
    record_belgian_whist(page, first, wait_for=1)

    context.set_offline(True)
    record_belgian_whist(page, second, wait_for=None)
    expect(page.locator("[data-queue]")).to_contain_text("1 donne en attente")
    page.reload()

    expect(page.locator("#sheet")).to_be_visible()
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator("#offline-banner")).to_contain_text("Hors ligne")
    # The deal recorded online is in the kept sheet; the one recorded offline waits.
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "1")
    expect(page.locator("[data-queue]")).to_contain_text("1 donne en attente")
    screenshot(page, "offline-reload")

    context.set_offline(False)
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "2", timeout=15_000)
    assert poule.deals.count() == 2


def test_a_page_never_kept_opens_the_offline_page(live_server, new_context, club, season):
    user = a_scorer(club)
    poule = a_night(club, season, "rcwhist", 4).poules.get()
    context = phone_context(new_context, live_server, user)
    page = context.new_page()
    page.goto(sheet_url(live_server.url, poule))
    controlled(page)
    context.set_offline(True)
    page.goto(f"{live_server.url}/clubs/{club.slug}/classement/")
    expect(page.locator("h1")).to_have_text("Hors ligne")


def test_another_login_on_the_same_phone_never_gets_the_first_ones_sheet(
    live_server, new_context, club, season
):
    scorer = a_scorer(club)
    poule = a_night(club, season, "rcwhist", 4).poules.get()
    context = phone_context(new_context, live_server, scorer)
    page = context.new_page()
    url = sheet_url(live_server.url, poule)
    page.goto(url)
    controlled(page)
    expect(page.locator("#sheet")).to_be_visible()

    # Another member signs in on this phone (his session cookie) and opens any page.
    other = UserFactory(username="autre")
    PlayerFactory(user=other, club=club)
    other_context = phone_context(new_context, live_server, other)
    cookie = next(c for c in other_context.cookies() if c["name"] == "sessionid")
    context.add_cookies([cookie])
    page.goto(f"{live_server.url}/")
    page.wait_for_timeout(300)  # the worker notes the new viewer as the page arrives

    context.set_offline(True)
    page.goto(url)
    expect(page.locator("h1")).to_have_text("Hors ligne")
    expect(page.locator("#sheet")).to_have_count(0)


def test_a_new_version_of_the_site_takes_over_and_empties_the_old_caches(
    live_server, new_context, club, season
):
    user = a_scorer(club)
    poule = a_night(club, season, "rcwhist", 4).poules.get()
    context = phone_context(new_context, live_server, user)
    page = context.new_page()
    with override_settings(OFFLINE_VERSION="v1"):
        page.goto(sheet_url(live_server.url, poule))
        controlled(page)
        until_caches(page, lambda names: {"shell-v1", "sheets-v1"} <= set(names))
    with override_settings(OFFLINE_VERSION="v2"):
        page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.update())")
        names = until_caches(page, lambda names: set(names) == {"shell-v2", "sheets-v2"})
    assert set(names) == {"shell-v2", "sheets-v2"}, json.dumps(names)
    # The page is still served, now by the new worker.
    page.reload()
    expect(page.locator("#sheet")).to_be_visible()
