"""Pages as they are printed and on a desktop: the club's name on the printed ranking, and the
point table's wide grid scrolling inside its own box at 1280 px, not the page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring import services as scoring_services
from tests.e2e.conftest import page_width

from .test_club_night import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def test_the_printed_ranking_names_the_club(live_server, new_context, club, imported_night):
    scoring_services.tournament_publish(imported_night)
    scoring_services.ranking_publish(imported_night.season)
    page = new_context(locale="fr-BE", **DESKTOP).new_page()
    page.goto(f"{live_server.url}/clubs/{club.slug}/classement/")
    expect(page.locator(".print-brand")).to_be_hidden()  # on screen, the header says it

    page.emulate_media(media="print")

    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.locator(".print-brand")).to_be_visible()
    expect(page.locator(".print-brand")).to_have_text(club.name)


def test_the_point_table_grid_scrolls_inside_its_box_at_1280_px(
    live_server, new_context, club, club_admin
):
    page = new_context(locale="fr-BE", **DESKTOP).new_page()
    log_in(page, live_server.url, club_admin.username)
    page.goto(live_server.url + reverse("point-table", args=[club.slug, "rcwhist"]))
    box = page.locator("div.scroll[role=region]:has(table.grid)")
    expect(box).to_have_attribute("tabindex", "0")
    expect(box).to_have_attribute("aria-label", re.compile("RCWhist"))

    assert page_width(page) <= 1280
    widths = box.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert widths[0] > widths[1], widths  # the grid is wider than its box, which scrolls
    box.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    # The arrow keys scroll the box smoothly: wait for it to move, rather than read it at once.
    page.wait_for_function("el => el.scrollLeft > 0", arg=box.element_handle(), timeout=5_000)
