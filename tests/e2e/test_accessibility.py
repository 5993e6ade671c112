"""Accessible: axe-core (vendored for the tests only, tests/e2e/vendor/) runs on the site's
main pages in French, as a member, a scorer and a club admin open them, and finds no serious
or critical violation. Each page is checked on a phone (390 × 844) and on a desktop screen,
since what breaks (a cut label, a hidden control) is not the same on both."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from pprint import pformat

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import BrowserContext, Page

from club.models import Club, Player
from clubsite.models import NewsPost
from clubsite.models import Page as SitePage
from games.models import PlannedNight, Tournament
from scoring import services as scoring
from tests.e2e.test_phone_sheet import a_night, belgian_deals

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).parent / "vendor" / "axe-core-4.14.1.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
# What counts against the site: axe's two highest impacts. "moderate" and "minor" are read
# by a person from the report, not failed on.
SERIOUS = ("serious", "critical")

RUN_AXE = """async () => {
  const result = await axe.run(document, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
  });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ") + " :: " + n.failureSummary),
  }));
}"""


def signed_in(new_context: Callable[..., BrowserContext], base: str, user, viewport) -> Page:
    """A browser whose member is signed in (his session made by the test client); the CSP is
    left aside so that the test can add axe to the page (the site's own pages keep theirs)."""
    context = new_context(viewport=viewport, locale="fr-BE", bypass_csp=True)
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    return context.new_page()


def violations(page: Page, url: str) -> list[dict]:
    response = page.goto(url)
    assert response is not None and response.status == 200, (url, response and response.status)
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(RUN_AXE)
    return [v for v in found if v["impact"] in SERIOUS]


@pytest.fixture
def demo(django_capture_on_commit_callbacks) -> Club:
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo_club", stdout=io.StringIO())
    return Club.objects.get(name="RCWhist La Chevalerie")


@pytest.fixture
def tonight(demo: Club) -> Tournament:
    """A night running at the club: its sheets and its room screen are open."""
    season = demo.seasons.order_by("-start").first()
    night = a_night(demo, season, "rcwhist", 9)
    for poule in night.poules.all():
        scoring.deals_record(poule, belgian_deals(poule.seats.count(), 3))
    return night


def main_pages(club: Club, night: Tournament, published: Tournament) -> dict[str, str]:
    player = Player.objects.in_club(club).filter(user__isnull=True).order_by("pk").first()
    poule = night.poules.order_by("table").last()
    federation = club.federations.get()
    fed_season = federation.seasons.order_by("-start").first()
    planned = PlannedNight.objects.filter(club=club).order_by("date").first()
    site_page = SitePage.objects.get(club=club, slug="le-club")
    news = NewsPost.objects.filter(club=club).published().first()
    base = f"/clubs/{club.slug}"
    return {
        "home": "/",
        "club": f"{base}/",
        "ranking": f"{base}/classement/",
        "results": f"{base}/soirees/{published.pk}/resultats/",
        "player": f"{base}/joueurs/{player.pk}/",
        "sheet": f"{base}/soirees/{night.pk}/poules/{poule.pk}/",
        "room screen": f"{base}/soirees/{night.pk}/salle/",
        "night": f"{base}/soirees/{night.pk}/",
        "my results": "/compte/resultats/",
        "profile": "/compte/profil/",
        "club admin": f"{base}/gestion/",
        "members": f"{base}/membres/",
        "point tables": f"{base}/tableaux/",
        "archive": f"{base}/classements/",
        "cote": f"{base}/cote/",
        "club statistics": f"{base}/statistiques/",
        "player statistics": f"{base}/joueurs/{player.pk}/statistiques/",
        "night's cote": f"{base}/soirees/{published.pk}/cote/",
        "calendar": f"{base}/soirees/calendrier/",
        "calendar planning": f"{base}/soirees/calendrier/gestion/",
        "a night's replies": f"{base}/soirees/calendrier/{planned.pk}/reponses/",
        "a night changed": f"{base}/soirees/calendrier/{planned.pk}/modifier/",
        "my calendar": "/compte/calendrier/",
        "ranking import": f"{base}/saisons/importer/",
        "paper sheets": f"{base}/soirees/{night.pk}/tours/1/feuilles/",
        "typing a paper sheet": f"{base}/soirees/{night.pk}/poules/{poule.pk}/saisie/",
        "federation": f"/federations/{federation.slug}/",
        "federation ranking": f"/federations/{federation.slug}/classement/{fed_season.slug}/",
        "federation archive": f"/federations/{federation.slug}/classements/",
        "federation admin": f"/federations/{federation.slug}/gestion/",
        "join requests": f"{base}/gestion/demandes/",
        "signing a club up": "/inscription/",
        "asking to join": f"{base}/rejoindre/",
        "privacy": "/confidentialite/",
        # The club's own site (clubsite/): its pages, the point table, their management.
        "a club page": f"{base}/le-club/",
        "point table page": f"{base}/table-des-points/",
        "club site pages": f"{base}/gestion/site/pages/",
        "a club page edited": f"{base}/gestion/site/pages/{site_page.pk}/",
        "a club page's history": f"{base}/gestion/site/pages/{site_page.pk}/historique/?version=1",
        "news": f"{base}/actualites/",
        "a news post": f"{base}/actualites/{news.pk}/",
        "news management": f"{base}/gestion/site/actualites/",
        "a news post edited": f"{base}/gestion/site/actualites/{news.pk}/",
        "contact": f"{base}/contact/",
    }


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_main_pages_have_no_serious_accessibility_violation(
    live_server, new_context, demo, tonight, viewport
):
    admin = get_user_model().objects.get(username="admin")
    published = Tournament.objects.filter(club=demo, status=Tournament.Status.PUBLISHED).latest(
        "date"
    )
    pages = main_pages(demo, tonight, published)
    found: dict[str, list[dict]] = {}

    anonymous = signed_in(new_context, live_server.url, None, viewport)
    found["login"] = violations(anonymous, f"{live_server.url}/compte/login/")
    public = ("home", "club", "ranking", "results", "player", "cote", "calendar", "archive")
    public += (
        "signing a club up",
        "asking to join",
        "privacy",
        "a club page",
        "point table page",
        "news",
        "a news post",
        "contact",
    )
    for name in (*public, "federation", "federation ranking"):
        found[f"{name} (public)"] = violations(anonymous, live_server.url + pages[name])

    page = signed_in(new_context, live_server.url, admin, viewport)
    for name, path in pages.items():
        found[name] = violations(page, live_server.url + path)

    failing = {name: v for name, v in found.items() if v}
    assert not failing, pformat(failing, width=100)
