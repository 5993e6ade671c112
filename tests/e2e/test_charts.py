"""The charts in a real browser: "Mes résultats" draws the member's season against the club's
average, a player's page and his statistics draw his « cote » against the club's mean where
everybody starts, each line labelled in the page's words, drawn by the server (an SVG, no script);
on a phone of 390 px the « cote » and the statistics fit the screen, the chart's axis fitted
to its numbers."""

from __future__ import annotations

import datetime
import random

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import Page, expect

from club.models import Player
from games.demo import random_night
from games.nightfile import tournament_import
from scoring import services as scoring_services
from scoring.models import PlayerRating
from scoring.statistics.cote import INITIAL_MU
from tests.e2e.conftest import page_width

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# What the server drew (club/templatetags/charts.py, an SVG): its name, its lines (class, points,
# dots), the legend's words, the y axis's title and numbers, and whether any script drew it.
DRAWN = """(id) => {
  const svg = document.getElementById(id);
  if (!svg) return null;
  const figure = svg.closest("figure");
  const texts = (selector) => Array.from(svg.querySelectorAll(selector), (t) => t.textContent);
  return {
    role: svg.getAttribute("role"),
    title: svg.querySelector("title").textContent,
    lines: Array.from(svg.querySelectorAll("polyline"), (line) => [
      line.getAttribute("class"),
      line.getAttribute("points").split(" ").length,
      svg.querySelectorAll("." + line.getAttribute("class") + "-dots circle").length,
    ]),
    legend: Array.from(figure.querySelectorAll("figcaption span"), (s) => s.textContent),
    y: svg.querySelector(".y-title") ? svg.querySelector(".y-title").textContent : null,
    ticks: texts(".y-ticks text"),
    script: typeof window.Chart !== "undefined",
  };
}"""


@pytest.fixture
def two_published_nights(club, club_members, django_capture_on_commit_callbacks) -> Player:
    """Two published nights of the club; returns a player of both, with a login."""
    rng = random.Random(5)
    for week in range(2):
        doc = random_night(
            rng,
            club=club.name,
            season="2024",
            date=datetime.date(2024, 4, 4) + datetime.timedelta(days=7 * week),
            members=[p.display_name for p in club_members],
            present=len(club_members),
        )
        with django_capture_on_commit_callbacks(execute=True):
            scoring_services.tournament_publish(tournament_import(doc))
    player = club_members[0]
    player.user = get_user_model().objects.create_user("chloe", password="x")
    player.save()
    return player


def signed_in(new_context, base: str, user) -> Page:
    context = new_context(locale="fr-BE")
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
    return context.new_page()


def test_my_results_draw_my_season_against_the_club_average(
    new_context, live_server, two_published_nights
):
    page = signed_in(new_context, live_server.url, two_published_nights.user)

    page.goto(f"{live_server.url}/compte/resultats/")

    expect(page.locator("figure.season-chart")).to_be_visible()
    drawn = page.evaluate(DRAWN, "season-chart")
    ticks = drawn.pop("ticks")
    assert drawn == {
        "role": "img",
        "title": "Graphique : mes points de tournoi cumulés et la moyenne du club, "
        "soirée après soirée",
        # Mine, full, after the club's average (dashed): one point a night, a dot on each.
        "lines": [["reference", 2, 2], ["line", 2, 2]],
        "legend": ["Mes points de tournoi (cumul)", "Moyenne du club (cumul)"],
        "y": "Points de tournoi",
        "script": False,
    }
    # From zero, whole numbers only: a night of 5 points is not drawn on a 0.5 scale.
    assert ticks[0] == "0" and all(tick.isdigit() for tick in ticks), ticks

    # No script is needed to see it.
    without_script = new_context(locale="fr-BE", java_script_enabled=False)
    client = Client()
    client.force_login(two_published_nights.user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    without_script.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    bare = without_script.new_page()
    bare.goto(f"{live_server.url}/compte/resultats/")
    expect(bare.locator("svg#season-chart")).to_be_visible()
    expect(bare.locator("svg#season-chart polyline")).to_have_count(2)


def test_a_player_page_and_his_statistics_draw_his_cote(
    new_context, live_server, club, two_published_nights
):
    player = two_published_nights
    assert PlayerRating.objects.filter(player=player).count() == 2
    page = new_context(locale="fr-BE").new_page()
    expected = {
        "role": "img",
        "title": "Graphique : la cote, soirée après soirée, et la moyenne du club",
        # The cote's line, a small dot a night; the club's start, level, no dots.
        "lines": [["reference", 2, 0], ["line", 2, 2]],
        "legend": ["Cote", "Moyenne du club (départ de chacun)"],
        "y": None,
        "script": False,
    }

    for address in (f"joueurs/{player.pk}/", f"joueurs/{player.pk}/statistiques/"):
        page.goto(f"{live_server.url}/clubs/{club.slug}/{address}")

        expect(page.locator("figure.season-chart")).to_be_visible()
        drawn = page.evaluate(DRAWN, "rating-chart")
        assert drawn.pop("ticks"), address
        assert drawn == expected, address


# A common phone (390 × 844): the page never scrolls sideways, a wide table scrolls inside
# its own box.
PHONE_390 = {"width": 390, "height": 844}

# The chart's y axis as drawn (its bounds) and its width on the screen.
AXIS = """(id) => {
  const svg = document.getElementById(id);
  return {
    min: Number(svg.dataset.low), max: Number(svg.dataset.high),
    width: svg.getBoundingClientRect().width,
  };
}"""


def test_the_cote_and_the_statistics_fit_a_phone_and_the_chart_is_fitted_to_its_numbers(
    new_context, live_server, club, two_published_nights
):
    player = two_published_nights
    context = new_context(viewport=PHONE_390, locale="fr-BE", is_mobile=True, has_touch=True)
    page = context.new_page()
    statistics = f"{live_server.url}/clubs/{club.slug}/joueurs/{player.pk}/statistiques/"

    for address in (f"{live_server.url}/clubs/{club.slug}/cote/", statistics):
        page.goto(address)
        expect(page.locator("h1")).to_be_visible()
        assert page_width(page) <= 390, address

    # The head-to-head table is there, inside its own box.
    assert page.locator("table.opponents tbody tr").count() > 0
    expect(page.locator("figure.season-chart")).to_be_visible()
    axis = page.evaluate(AXIS, "rating-chart")
    # Its numbers: the cote after each night and the club's start, where everybody begins.
    cotes = [round(rating.mu, 2) for rating in PlayerRating.objects.filter(player=player)]
    axis["low"], axis["high"] = min([*cotes, INITIAL_MU]), max([*cotes, INITIAL_MU])
    # Every number on the axis, a point of margin either side and no more than two.
    assert axis["min"] <= axis["low"] - 1 < axis["min"] + 1
    assert axis["max"] - 1 < axis["high"] + 1 <= axis["max"]
    # The chart takes the page's width (the figure's own margins once left it 278 px).
    assert axis["width"] >= 330
