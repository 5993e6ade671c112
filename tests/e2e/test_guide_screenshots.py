"""The guide's pictures, taken on the demo clubs on a 390 px phone in each of the guide's
languages and written where the guide serves them (static/guide/<lang>/<name>.png), so that
every run redraws them as the pages look now. Each picture is squeezed to a 64-colour palette
(Pillow), which keeps a phone's screen readable at a few tens of kilobytes.

Which picture each guide page shows is said in its prose (templates/front/guide/<lang>/); the unit
test tests/front/test_guide.py fails when one of them is not here."""

from __future__ import annotations

import datetime
import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.test import Client
from PIL import Image
from playwright.sync_api import BrowserContext, Page, expect

from club.models import Club, ClubSignup, Membership, Player
from front.guide import GUIDE_LANGUAGES
from games.models import Tournament
from scoring import services as scoring
from tests.club.views.test_member_import import members_rows, xlsx_of
from tests.e2e.test_phone_sheet import a_night, belgian_deals
from tests.factories import ClubFactory

# It rewrites files of the repository: taken on purpose (`pytest -m guide -n 0`), never by the
# suite, so that a test run leaves the working tree as it was.
pytestmark = [pytest.mark.e2e, pytest.mark.guide, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PICTURES = Path(settings.BASE_DIR) / "static" / "guide"
LINK = re.compile(r"https?://\S+/inscription/confirmer/[^/\s]+/")
PASSWORD = "trefle-carreau-pique-coeur"


def picture(page: Page, language: str, name: str, top: str | None = None) -> None:
    """The phone's screen, from the element ``top`` when the part to show is lower down."""
    if top:
        # Just below the header, which stays at the top of the screen as the page scrolls.
        page.locator(top).first.evaluate(
            "e => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY"
            " - document.querySelector('.site-header').offsetHeight - 8)"
        )
    png = page.screenshot(animations="disabled", caret="hide")
    squeezed = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=64)
    folder = PICTURES / language
    folder.mkdir(parents=True, exist_ok=True)
    squeezed.save(folder / name, optimize=True)


def browser_in(
    new_context: Callable[..., BrowserContext], base: str, language: str, user=None
) -> Page:
    """A phone reading the site in ``language``, its member signed in when ``user`` is given."""
    context = new_context(viewport=PHONE, locale=language, is_mobile=True, has_touch=True)
    cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base}]
    if user is not None:
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        cookies.append({"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base})
    context.add_cookies(cookies)
    return context.new_page()


def sign_up_pictures(page: Page, base: str, language: str) -> None:
    """The home page and the sign-up's club step, as a stranger meets them."""
    page.goto(f"{base}/")
    picture(page, language, "home.png")
    page.goto(f"{base}/inscription/")
    page.fill("#id_email", f"marie.{language}@example.org")
    page.fill("#id_name", "Marie Lambert")
    page.click("main button.primary")
    (letter,) = [m for m in mail.outbox if m.to == [f"marie.{language}@example.org"]]
    page.goto(LINK.search(letter.body).group(0))
    page.fill("#id_new_password1", PASSWORD)
    page.fill("#id_new_password2", PASSWORD)
    page.click("main button.primary")
    expect(page.locator("#id_town")).to_be_visible()
    page.fill("#id_name", "Whist Club de Ciney")
    page.fill("#id_town", "Ciney")
    page.select_option("#id_default_rules", "rcwhist")
    picture(page, language, "signup-club.png")


def member_import_pictures(page: Page, base: str, language: str, club: Club, tmp: Path) -> None:
    """The member import's columns and its lines to check, on a new club (nothing imported)."""
    workbook = tmp / "membres.xlsx"
    workbook.write_bytes(xlsx_of(members_rows(40)))
    page.goto(f"{base}/clubs/{club.slug}/membres/importer/")
    page.set_input_files("#id_file", str(workbook))
    page.click("main button[type=submit]")
    expect(page.locator("#id_first_name")).to_have_value("0")
    picture(page, language, "members-import-columns.png", top="main h1")
    page.click("main button[type=submit]")
    expect(page.locator(".import-counts")).to_be_visible()
    picture(page, language, "members-import-review.png", top=".import-counts")


@pytest.fixture
def demo(django_capture_on_commit_callbacks) -> Club:
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo_club", stdout=io.StringIO())
    return Club.objects.get(name="RCWhist La Chevalerie")


def test_the_guide_s_pictures_are_taken_on_the_demo(
    demo, live_server, new_context, settings, mailoutbox, tmp_path
):
    settings.CLUB_SIGNUP = "open"
    settings.SITE_URL = live_server.url
    base, club = live_server.url, demo
    admin = get_user_model().objects.get(username="admin")
    season = club.seasons.order_by("-start").first()
    tonight = a_night(club, season, "rcwhist", 8)
    poule = tonight.poules.order_by("table").first()
    scoring.deals_record(poule, belgian_deals(poule.seats.count(), 5))
    on_paper = tonight.poules.order_by("table").last()
    published = Tournament.objects.filter(club=club, status=Tournament.Status.PUBLISHED).last()
    player = Player.objects.in_club(club).filter(user__isnull=True).order_by("pk").first()
    # A club just opened, with the demo's admin as its administrator: its first steps.
    new_club = ClubFactory(name="Whist Club de Dinant", town="Dinant", default_rules="rcwhist")
    Membership.objects.create(
        club=new_club,
        player=Player.objects.get(user=admin),
        role=Membership.Role.ADMIN,
        start=datetime.date.today(),
    )
    ClubSignup.objects.create(
        email="admin@example.org",
        name="Marie Lambert",
        user=admin,
        status=ClubSignup.Status.OPENED,
        club=new_club,
    )
    at = f"{base}/clubs/{club.slug}"
    night = f"{at}/soirees/{tonight.pk}"
    shots = {
        "night-new.png": (f"{at}/soirees/nouvelle/", None),
        "night-presence.png": (f"{night}/presents/", None),
        "night-tables.png": (f"{night}/", ".rounds, main h2"),
        "sheet.png": (f"{night}/poules/{poule.pk}/", None),
        "paper-entry.png": (f"{night}/poules/{on_paper.pk}/saisie/", None),
        "results.png": (f"{at}/soirees/{published.pk}/resultats/", None),
        "ranking.png": (f"{at}/classement/", None),
        "calendar-manage.png": (f"{at}/soirees/calendrier/gestion/", None),
        "calendar.png": (f"{at}/soirees/calendrier/", None),
        "ratings.png": (f"{at}/cote/", None),
        "player-statistics.png": (f"{at}/joueurs/{player.pk}/statistiques/", None),
        "signup-checklist.png": (f"{base}/clubs/{new_club.slug}/", ".club-start"),
    }
    for language in GUIDE_LANGUAGES:
        sign_up_pictures(browser_in(new_context, base, language), base, language)
        page = browser_in(new_context, base, language, user=admin)
        for name, (address, top) in shots.items():
            response = page.goto(address)
            assert response is not None and response.status == 200, (address, response)
            assert page.locator("html").get_attribute("lang") == language
            picture(page, language, name, top=top)
        member_import_pictures(page, base, language, new_club, tmp_path)
    taken = {path.name for path in (PICTURES / "fr").glob("*.png")}
    assert taken >= set(shots), set(shots) - taken
