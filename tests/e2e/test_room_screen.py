"""The room screen worth projecting: read from the back of the room at 1920 × 1080 (names at
24 px and more), every text at a contrast of 4.5:1 at least (computed in the page, whatever
colours the club picked), each table's progress, opened on the projector's PC by the club's
private link without a login, and on a phone without running off its edge in FR, EN and NL."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from club import services as club_services
from scoring import services as scoring
from tests.e2e.test_phone_sheet import a_night, belgian_deals, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}

# Every element with text of its own: its colour against the first opaque background behind
# it, as WCAG computes the ratio; the smallest found, with where.
LOWEST_CONTRAST = """() => {
  const rgb = (value) => (value.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((c) => { c /= 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const background = (element) => {
    for (let e = element; e; e = e.parentElement) {
      const colour = rgb(getComputedStyle(e).backgroundColor);
      if (colour.length === 3 || (colour.length === 4 && colour[3] > 0.5)) return colour;
    }
    return [255, 255, 255];
  };
  let lowest = { ratio: 99, where: "" };
  for (const element of document.body.querySelectorAll("*")) {
    const own = Array.from(element.childNodes)
      .some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !element.getClientRects().length) continue;
    const style = getComputedStyle(element);
    if (style.visibility === "hidden" || style.display === "none") continue;
    const a = lum(rgb(style.color)), b = lum(background(element));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const where = element.tagName + " " + element.textContent.trim().slice(0, 40);
    if (ratio < lowest.ratio) lowest = { ratio, where };
  }
  return lowest;
}"""


@pytest.fixture
def night(club, season, club_admin):
    tournament = a_night(club, season, "rcwhist", 9)
    for poule in tournament.poules.all():
        scoring.deals_record(poule, belgian_deals(poule.seats.count(), 5))
    return tournament


def room_link(club) -> str:
    return club_services.room_key_renew(club).room_key


def test_the_room_screen_reads_from_the_back_of_the_room(live_server, new_context, club, night):
    # The club picked white on a pale yellow: the page keeps its text readable anyway.
    club.colour_background, club.colour_text = "#fff3a0", "#ffffff"
    club.save()
    key = room_link(club)
    page = new_context(viewport=PROJECTOR, locale="fr-BE").new_page()
    page.goto(f"{live_server.url}/clubs/{club.slug}/salle/{key}/")

    expect(page.locator("#room-standings")).to_be_visible()
    lowest = page.evaluate(LOWEST_CONTRAST)
    assert lowest["ratio"] >= 4.5, lowest
    sizes = page.locator(".room-standings tbody td:nth-child(2)").evaluate_all(
        "(cells) => cells.map((c) => parseFloat(getComputedStyle(c).fontSize))"
    )
    assert sizes and min(sizes) >= 24, sizes
    tables = page.locator(".room-round.current li")
    expect(tables).to_have_count(2)
    expect(tables.first).to_contain_text("5/")
    assert page.locator(".room-leaders li").count() >= 3
    screenshot(page, "room-projector")


def test_the_private_link_opens_without_login_and_a_renewed_one_closes_the_old(
    live_server, new_context, club, night
):
    old = room_link(club)
    page = new_context(viewport=PROJECTOR).new_page()
    page.goto(f"{live_server.url}/clubs/{club.slug}/salle/{old}/")
    expect(page.locator("#room-standings")).to_be_visible()
    new = room_link(club)
    assert new != old
    answer = Client().get(f"/clubs/{club.slug}/salle/{old}/")
    assert answer.status_code == 404
    assert Client().get(f"/clubs/{club.slug}/salle/{new}/").status_code == 200


@pytest.mark.parametrize("locale", ["fr-BE", "en-GB", "nl-BE"])
def test_the_room_screen_fits_a_phone_in_every_language(
    live_server, new_context, club, night, locale
):
    key = room_link(club)
    context = new_context(viewport=PHONE, locale=locale, is_mobile=True, has_touch=True)
    page: Page = context.new_page()
    page.goto(f"{live_server.url}/clubs/{club.slug}/salle/{key}/")
    expect(page.locator("#room-standings")).to_be_visible()
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{overflow}px too wide in {locale}"
    screenshot(page, f"room-phone-{locale}")


def test_each_tables_last_three_deals_read_from_the_back_of_the_room(
    live_server, new_context, club, night
):
    """The club shows the last deals (the room link's setting): each table of the round, its
    last three deals in words at 24 px and more, every text readable, the screen and its deals
    within 1920 × 1080; and on a phone without running off its edge."""
    club_services.room_last_deals_set(club, True)
    key = room_link(club)
    page = new_context(viewport=PROJECTOR, locale="fr-BE").new_page()
    page.goto(f"{live_server.url}/clubs/{club.slug}/salle/{key}/")

    tables = page.locator(".room-deals-table")
    expect(tables).to_have_count(2)
    for index in range(2):
        expect(tables.nth(index).locator("li")).to_have_count(3)
    expect(tables.first).to_contain_text("plis")
    sizes = page.locator(".room-deals-table li").evaluate_all(
        "(lines) => lines.map((l) => parseFloat(getComputedStyle(l).fontSize))"
    )
    assert min(sizes) >= 24, sizes
    screenshot(page, "room-projector-last-deals")
    lowest = page.evaluate(LOWEST_CONTRAST)
    assert lowest["ratio"] >= 4.5, lowest
    bottom = page.locator(".room-deals").evaluate("(e) => e.getBoundingClientRect().bottom")
    assert bottom <= PROJECTOR["height"], bottom
    screenshot(page, "room-projector-last-deals")

    phone = new_context(viewport=PHONE, locale="fr-BE", is_mobile=True, has_touch=True)
    small = phone.new_page()
    small.goto(f"{live_server.url}/clubs/{club.slug}/salle/{key}/")
    expect(small.locator(".room-deals-table")).to_have_count(2)
    assert small.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
