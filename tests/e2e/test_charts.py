"""The charts in a real browser: "Mes résultats" draws the member's season against the club's
average, a player's page and his statistics draw his « cote » against the club's mean where
everybody starts, each line labelled in the page's words, from the numbers the page carries;
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

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# What Chart.js drew on a canvas: its lines' labels, points, widths and dashes, its y axis.
DRAWN = """(id) => {
  const chart = Chart.getChart(document.getElementById(id));
  if (!chart) return null;
  const y = chart.options.scales.y;
  return {
    type: chart.config.type,
    labels: chart.data.labels.length,
    lines: chart.data.datasets.map((d) => [d.label, d.data.length, d.borderWidth,
                                           d.pointRadius ?? null, d.borderDash ?? null]),
    y: y && y.title && y.title.display ? [y.title.text, y.beginAtZero, y.ticks.precision] : null,
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
    assert drawn == {
        "type": "line",
        "labels": 2,
        "lines": [
            ["Mes points de tournoi (cumul)", 2, 3, None, None],
            ["Moyenne du club (cumul)", 2, 2, 2, [6, 4]],
        ],
        "y": ["Points de tournoi", True, 0],
    }


def test_a_player_page_and_his_statistics_draw_his_cote(
    new_context, live_server, club, two_published_nights
):
    player = two_published_nights
    assert PlayerRating.objects.filter(player=player).count() == 2
    page = new_context(locale="fr-BE").new_page()
    expected = {
        "type": "line",
        "labels": 2,
        "lines": [
            ["Cote", 2, 3, 1, None],
            ["Moyenne du club (départ de chacun)", 2, 2, 0, [6, 4]],
        ],
        "y": None,
    }

    for address in (f"joueurs/{player.pk}/", f"joueurs/{player.pk}/statistiques/"):
        page.goto(f"{live_server.url}/clubs/{club.slug}/{address}")

        expect(page.locator("figure.season-chart")).to_be_visible()
        assert page.evaluate(DRAWN, "rating-chart") == expected, address


# A common phone (390 × 844): the page never scrolls sideways, a wide table scrolls inside
# its own box.
PHONE_390 = {"width": 390, "height": 844}

# The chart's y axis as drawn, its numbers and its width on the screen.
AXIS = """(id) => {
  const chart = Chart.getChart(document.getElementById(id));
  const values = chart.data.datasets.flatMap((d) => d.data);
  return {
    min: chart.scales.y.min, max: chart.scales.y.max,
    low: Math.min(...values), high: Math.max(...values),
    width: chart.canvas.getBoundingClientRect().width,
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
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, address

    # The head-to-head table is there, inside its own box.
    assert page.locator("table.opponents tbody tr").count() > 0
    expect(page.locator("figure.season-chart")).to_be_visible()
    axis = page.evaluate(AXIS, "rating-chart")
    # Every number on the axis, a point of margin either side and no more than two.
    assert axis["min"] <= axis["low"] - 1 < axis["min"] + 1
    assert axis["max"] - 1 < axis["high"] + 1 <= axis["max"]
    # The chart takes the page's width (the figure's own margins once left it 278 px).
    assert axis["width"] >= 330
