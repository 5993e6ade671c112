"""A night's set-up and its guards in a real browser, on a 390×844 phone: the date field filled
in French, English and Dutch; the ticks kept when a guest is added; closing asked first; a
refused or lost htmx request said in words on the page. Each step's picture goes to
build/screenshots/ (git-ignored)."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from club.models import Membership
from games.models import Tournament
from scoring import services as scoring_services
from tests.e2e.conftest import page_width
from tests.factories import PlayerFactory, UserFactory

from .test_club_night import log_in, record

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 7}


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"setup-{name}.png"), full_page=True)


def fits_the_phone(page: Page) -> None:
    width = page_width(page)
    assert width <= PHONE["width"], f"{page.url} is {width}px wide"


def phone_page(new_context, locale: str = "fr-BE") -> Page:
    context = new_context(viewport=PHONE, locale=locale, is_mobile=True, has_touch=True)
    return context.new_page()


def a_scorer(club) -> str:
    user = UserFactory(username="marqueur")
    PlayerFactory(user=user, club=club, club__role=Membership.Role.SCORER, display_name="Marc")
    return user.username


@pytest.mark.parametrize(
    ("locale", "language"), [("fr-BE", "fr"), ("en-GB", "en"), ("nl-BE", "nl")]
)
def test_the_new_night_shows_todays_date_in_every_language(
    live_server, new_context, club, season, locale, language
):
    page = phone_page(new_context, locale)
    log_in(page, live_server.url, a_scorer(club))
    # The scorer reads the site in this language (his profile's is French).
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )

    page.goto(f"{live_server.url}/clubs/{club.slug}/soirees/nouvelle/")

    expect(page.locator("html")).to_have_attribute("lang", language)
    # What the browser shows: the field's value, today's date (an empty field has "").
    assert page.input_value("input[name=date]") == datetime.date.today().isoformat()
    expect(page.locator("select[name=rules] option[value=rcwhist]")).not_to_have_text("rcwhist")
    fits_the_phone(page)
    shot(page, f"new-night-{language}")


def test_ticking_8_players_then_adding_a_guest_keeps_the_8_ticks(
    live_server, new_context, club, tonight, club_members
):
    page = phone_page(new_context)
    log_in(page, live_server.url, a_scorer(club))
    page.goto(f"{live_server.url}/clubs/{club.slug}/soirees/{tonight.pk}/presents/")

    for player in club_members[:8]:
        page.get_by_label(player.display_name, exact=True).check()
    expect(page.locator("[data-present-count]")).to_have_text("8")
    page.fill("#new-player", "Invité Durand")
    page.click("button:has-text('Ajouter et marquer présent')")

    expect(page.locator(".messages")).to_contain_text("Invité Durand")
    for player in club_members[:8]:
        expect(page.get_by_label(player.display_name, exact=True)).to_be_checked()
    expect(page.get_by_label("Invité Durand", exact=True)).to_be_checked()
    for player in club_members[8:]:
        expect(page.get_by_label(player.display_name, exact=True)).not_to_be_checked()
    assert tonight.present.count() == 9
    fits_the_phone(page)
    shot(page, "presence-guest")

    # Enter in the name field adds the player too (not a save that drops the name).
    page.fill("#new-player", "Invitée Lambert")
    page.press("#new-player", "Enter")
    expect(page.get_by_label("Invitée Lambert", exact=True)).to_be_checked()
    assert tonight.present.count() == 10


def test_closing_the_night_is_asked_first_on_the_phone(
    live_server, new_context, club, running_night
):
    poule = running_night.poules.first()
    scoring_services.deal_record(poule, SOLO)
    page = phone_page(new_context)
    log_in(page, live_server.url, a_scorer(club))
    page.goto(f"{live_server.url}/clubs/{club.slug}/soirees/{running_night.pk}/")
    fits_the_phone(page)
    shot(page, "night")

    page.click("button:has-text('Clôturer la soirée')")

    expect(page.locator("h1")).to_contain_text("Clôturer la soirée ?")
    expect(page.locator(".confirmation")).to_contain_text("2 tables inachevées")
    expect(page.locator(".confirmation")).to_contain_text("tours 2, 3 pas tirés")
    running_night.refresh_from_db()
    assert running_night.status == Tournament.Status.RUNNING
    fits_the_phone(page)
    shot(page, "close-confirmation")

    page.click("button:has-text('Clôturer quand même')")
    expect(page.locator(".messages")).to_contain_text("Soirée clôturée")
    running_night.refresh_from_db()
    assert running_night.status == Tournament.Status.CLOSED


def test_a_refused_htmx_request_is_said_on_the_page(live_server, new_context, club, running_night):
    """The scorer's sheet is open when the night is closed elsewhere: the next deal is refused
    (403) and the page says why, in words."""
    poule = running_night.poules.first()
    page = phone_page(new_context)
    log_in(page, live_server.url, a_scorer(club))
    page.goto(f"{live_server.url}/clubs/{club.slug}/soirees/{running_night.pk}/poules/{poule.pk}/")
    scoring_services.deal_record(poule, SOLO)
    scoring_services.tournament_close(running_night, unfinished_ok=True)

    record(page, "solo", 6, ["3"], 7)

    alert = page.locator("[role=alert]:visible", has_text="clôturée")
    expect(alert).to_be_visible()
    fits_the_phone(page)
    shot(page, "refused-deal")


def test_a_request_lost_offline_is_said_on_the_page(live_server, new_context, club, season):
    page = phone_page(new_context)
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    banner = page.locator("#request-error")
    expect(banner).to_be_hidden()

    page.context.set_offline(True)
    page.locator(".seasons a.chip").first.click()

    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Connexion perdue : vérifiez le Wi-Fi puis réessayez")
    shot(page, "offline")
    page.context.set_offline(False)
    banner.get_by_role("button", name="Fermer").click()
    expect(banner).to_be_hidden()


def test_a_member_finds_the_room_screen_of_tonights_night(
    live_server, new_context, club, running_night, member
):
    page = phone_page(new_context)
    log_in(page, live_server.url, member.username)
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    fits_the_phone(page)
    shot(page, "club-member")
    page.locator(".running-night a:has-text('Classement de la soirée (salle)')").click()

    expect(page.locator("#room-standings")).to_be_visible()
    expect(page.locator(".site-nav")).to_have_count(0)
    fits_the_phone(page)
    shot(page, "room")

    page.goto(f"{live_server.url}/clubs/{club.slug}/soirees/{running_night.pk}/")
    expect(page.get_by_role("link", name="Classement de la soirée (salle)")).to_be_visible()
    fits_the_phone(page)
    shot(page, "member-night")

    page.goto(f"{live_server.url}/clubs/{club.slug}/pas-une-page/")
    expect(page.locator("h1")).to_have_text("Page introuvable")
    fits_the_phone(page)
    shot(page, "404")
