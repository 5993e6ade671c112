"""The sheet opens offline, as an installable web app (templates/front/offline/sw.js): a scorer who
reloads his sheet with no network sees it, with its waiting deals, and is told he is offline;
another login on the same phone never gets his sheet; a new version of the site takes over
and empties the old caches."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import override_settings
from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from club.models import Membership
from games.models import Poule
from tests.e2e.test_phone_sheet import (
    a_night,
    a_scorer,
    belgian_deals,
    phone_context,
    record_belgian_whist,
    saves_fail,
    screenshot,
    sheet_url,
    sign_in,
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


# The browser answers about its caches with a promise, and wait_for_function takes any pending
# promise for a truthy answer: each poll asks again and reads the answer the last one left.
CACHES_HOLD = """([wanted, exactly]) => {
    caches.keys().then((names) => { window.cacheNames = names; });
    const names = window.cacheNames || [];
    return wanted.every((name) => names.includes(name))
        && (!exactly || names.length === wanted.length);
}"""
VIEWER_NOTED = """() => {
    caches.match("/__viewer__")
        .then((kept) => (kept ? kept.text() : null))
        .then((viewer) => { window.viewerNoted = viewer; });
    return window.viewerNoted === document.body.dataset.viewer;
}"""


def until_caches(page: Page, wanted: set[str], exactly: bool = False) -> list[str]:
    """The page's cache names once they hold ``wanted`` (``exactly``: nothing else), or as
    they are after 15 s, for the test to say what it found."""
    try:
        page.wait_for_function(CACHES_HOLD, arg=[sorted(wanted), exactly], timeout=15_000)
    except PlaywrightTimeout:
        pass
    return cache_names(page)


@pytest.fixture(params=["development", "production"])
def server(request: pytest.FixtureRequest) -> object:
    """The test server as the other browser tests have it, and the site as deployed (hashed
    static files served by whitenoise: tests/e2e/conftest.py, on the SQLite pass only)."""
    return request.getfixturevalue(
        "live_server" if request.param == "development" else "production_server"
    )


def test_a_sheet_reloaded_offline_shows_itself_its_queue_and_says_offline(
    request, server, new_context, club, season
):
    live_server = server
    user = a_scorer(club)
    poule = a_night(club, season, "rcwhist", 4).poules.get()
    context = phone_context(new_context, live_server, user)
    failed: list[str] = []
    context.on(
        "response",
        lambda response: failed.append(response.url) if response.status >= 500 else None,
    )
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
    # Its styles came from the phone's copy of the shell (in production, the hashed names).
    styles = page.evaluate("() => [...document.styleSheets].map(s => [s.href, s.cssRules.length])")
    assert len(styles) == 3 and all(rules for _href, rules in styles), styles
    if request.node.callspec.id == "production":
        assert all(re.search(r"\.[0-9a-f]{12}\.css$", href) for href, _rules in styles), styles
    screenshot(page, f"offline-reload-{request.node.callspec.id}")

    context.set_offline(False)
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "2", timeout=15_000)
    assert poule.deals.count() == 2
    assert failed == []  # the worker, the manifest, the files: no server error


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
    page.wait_for_function(VIEWER_NOTED)  # the worker notes the new viewer as the page arrives

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
        until_caches(page, {"shell-v1", "sheets-v1"})
    with override_settings(OFFLINE_VERSION="v2"):
        page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.update())")
        names = until_caches(page, {"shell-v2", "sheets-v2"}, exactly=True)
    assert set(names) == {"shell-v2", "sheets-v2"}, json.dumps(names)
    # The page is still served, now by the new worker.
    page.reload()
    expect(page.locator("#sheet")).to_be_visible()


# ---- A shared phone: each login's waiting deals are its own -----------------------------------


def queued_on_phone(page: Page, poule) -> list[dict]:
    kept = page.evaluate(f"() => localStorage.getItem('sheet-queue-{poule.pk}')")
    return json.loads(kept) if kept else []


@dataclass
class SharedPhone:
    """A table's sheet on a phone where the first scorer's deal ``his`` waits (the saves fail
    until ``page.unroute("**/poules/*/")``); ``stamp`` is his page's viewer; ``second`` is
    another scorer of the club, with a deal of his own (``theirs``)."""

    first: Any
    second: Any
    poule: Poule
    context: BrowserContext
    page: Page
    his: dict[str, Any]
    theirs: dict[str, Any]
    stamp: str


def a_deal_waiting(live_server, new_context, club, season) -> SharedPhone:
    first = a_scorer(club)
    second = UserFactory(username="deuxieme")
    PlayerFactory(user=second, club=club, club__role=Membership.Role.SCORER)
    poule = a_night(club, season, "rcwhist", 4).poules.get()
    context = phone_context(new_context, live_server, first)
    page = context.new_page()
    saves_fail(page)
    page.goto(sheet_url(live_server.url, poule))
    his, theirs = belgian_deals(4, 2)
    stamp = page.locator("#sheet").get_attribute("data-viewer")
    record_belgian_whist(page, his, wait_for=None)
    expect(page.locator("[data-queue]")).to_contain_text("1 donne en attente")
    return SharedPhone(first, second, poule, context, page, his, theirs, stamp)


def test_a_scorer_who_logs_out_leaves_no_waiting_deal_to_the_next_one(
    live_server, new_context, club, season
):
    phone = a_deal_waiting(live_server, new_context, club, season)
    page, poule = phone.page, phone.poule

    # He logs out from another page, which names his waiting deal; he is asked first.
    page.goto(f"{live_server.url}/")
    expect(page.locator("#waiting-deals")).to_contain_text("table 1 (1)")
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.locator("[data-menu-toggle]").click()  # the header's links, folded on a phone
    page.locator("button", has_text="Déconnexion").click()
    expect(page.locator("a", has_text="Connexion")).to_be_attached()
    assert "(1)" in asked[0]
    assert queued_on_phone(page, poule) == []

    # The next scorer signs in on the same phone and opens the same sheet: nothing waits,
    # and his own deal is the only one recorded, under his name.
    page.unroute("**/poules/*/")
    sign_in(phone.context, live_server, phone.second)
    page.goto(sheet_url(live_server.url, poule))
    expect(page.locator("#sheet")).to_be_visible()
    expect(page.locator("[data-queue]")).to_be_hidden()
    record_belgian_whist(page, phone.theirs, wait_for=1)
    assert [(d.data, d.recorded_by_id) for d in poule.deals.all()] == [
        (phone.theirs, phone.second.pk)
    ]


def test_another_login_sets_a_scorers_waiting_deals_aside_until_he_signs_in_again(
    live_server, new_context, club, season
):
    phone = a_deal_waiting(live_server, new_context, club, season)
    page, poule = phone.page, phone.poule
    page.unroute("**/poules/*/")

    # Another scorer signs in over him (no logout): the deal is set aside, neither shown nor
    # sent; his own deal goes first and alone, under his name.
    sign_in(phone.context, live_server, phone.second)
    page.goto(sheet_url(live_server.url, poule))
    expect(page.locator("[data-queue]")).to_be_hidden()
    record_belgian_whist(page, phone.theirs, wait_for=1)
    assert [(d.data, d.recorded_by_id) for d in poule.deals.all()] == [
        (phone.theirs, phone.second.pk)
    ]
    page.goto(f"{live_server.url}/")
    expect(page.locator("#waiting-deals")).to_be_hidden()
    assert len(queued_on_phone(page, poule)) == 1

    # The first scorer signs in again: his deal is back. The sheet changed meanwhile, so it
    # comes back in the form to confirm (409), and is recorded under his name.
    sign_in(phone.context, live_server, phone.first)
    page.goto(sheet_url(live_server.url, poule))
    expect(page.locator("[data-queue]")).to_contain_text("Donne refusée, à corriger")
    page.locator("[data-save]").click()
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "2")
    assert [(d.data, d.recorded_by_id) for d in poule.deals.order_by("position")] == [
        (phone.theirs, phone.second.pk),
        (phone.his, phone.first.pk),
    ]


def test_a_page_of_the_first_login_sending_under_the_second_is_refused_in_words(
    live_server, new_context, club, season
):
    phone = a_deal_waiting(live_server, new_context, club, season)
    page = phone.page
    expect(page.locator("[data-alert]")).to_contain_text("erreur 500")

    # Another scorer signs in (another tab); this page, still the first one's, tries again.
    sign_in(phone.context, live_server, phone.second)
    page.unroute("**/poules/*/")
    page.locator("[data-alert] button", has_text="Réessayer").click()

    expect(page.locator("[data-problem]")).to_contain_text("notée sous une autre connexion")
    expect(page.locator("#sheet")).not_to_have_attribute("data-viewer", phone.stamp)
    expect(page.locator("[data-queue]")).to_be_hidden()
    screenshot(page, "offline-other-login")
    assert phone.poule.deals.count() == 0
    assert [entry["viewer"] for entry in queued_on_phone(page, phone.poule)] == [phone.stamp]
