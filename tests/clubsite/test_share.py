"""A night's and a season's share picture: drawn once when published (through the outbox's
task), a small PNG of the podium stored through Django's storage, named on the page as its
absolute ``og:image``; taken away with the night."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.files.storage import default_storage
from django.urls import reverse
from PIL import Image

from club.models import Player
from clubsite.share import (
    SIZE,
    drawable,
    night_picture_name,
    night_podium,
    season_picture_name,
)
from games.models import Deal, Tournament
from scoring import services as scoring_services
from scoring.models import TournamentStanding

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_storage(settings):
    """Each test starts from an empty store: the tests' in-memory storage lives as long as the
    process, and one test's picture must not stand for another's."""
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    }


@pytest.fixture
def published_night(imported_night, django_capture_on_commit_callbacks) -> Tournament:
    with django_capture_on_commit_callbacks(execute=True):
        return scoring_services.tournament_publish(imported_night)


def stored_png(name: str) -> Image.Image:
    with default_storage.open(name) as stored:
        content = stored.read()
    assert content.startswith(b"\x89PNG") and len(content) < 100_000
    image = Image.open(io.BytesIO(content))
    image.load()
    return image


def og_image(html: str) -> str | None:
    start = html.find('<meta property="og:image" content="')
    if start < 0:
        return None
    start += len('<meta property="og:image" content="')
    return html[start : html.index('"', start)]


def test_a_published_night_has_its_podium_picture_named_on_its_results_page(
    client, published_night
):
    image = stored_png(night_picture_name(published_night))
    assert image.format == "PNG" and image.size == SIZE

    page = reverse("games:results", args=[published_night.club.slug, published_night.pk])
    address = og_image(client.get(page, HTTP_HOST="localhost").content.decode())
    assert address is not None and address.startswith("http://localhost/")
    assert night_picture_name(published_night) in address


def test_a_night_taken_back_loses_its_picture(published_night, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.tournament_unpublish(published_night)
    assert not default_storage.exists(night_picture_name(published_night))


def test_a_closed_night_not_published_has_no_picture(client, imported_night):
    assert not default_storage.exists(night_picture_name(imported_night))


def test_a_published_season_ranking_has_its_picture_named_on_its_page(
    client, imported_night, django_capture_on_commit_callbacks
):
    season = imported_night.season
    # The club publishes its ranking itself: publishing the night leaves the ranking unsaid.
    type(season.club).objects.filter(pk=season.club_id).update(ranking_follows_nights=False)
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.tournament_publish(imported_night)
    page = reverse("ranking-season", args=[season.club.slug, season.slug])
    assert og_image(client.get(page).content.decode()) is None

    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.ranking_publish(season)

    assert stored_png(season_picture_name(season)).size == SIZE
    address = og_image(client.get(page, HTTP_HOST="localhost").content.decode())
    assert address is not None and season_picture_name(season) in address


def test_the_picture_names_the_podium_as_the_public_reads_it(published_night):
    first = TournamentStanding.objects.filter(tournament=published_night, rank=1).first().player
    first.public_name = Player.PublicName.INITIALS
    first.save()

    podium = night_podium(published_night)

    assert [rank for rank, _name, _points in podium.places] == [1, 2, 3]
    assert podium.places[0][1] == first.initials
    assert podium.club == published_night.club.name


def test_without_dejavu_the_text_is_written_in_the_letters_pillows_font_has():
    nowhere = Path("/no/such/font.ttf")
    assert drawable("Soirée des Cœurs – été", nowhere) == "Soiree des Coeurs - ete"


def test_a_published_night_corrected_has_its_picture_drawn_again(
    published_night, django_capture_on_commit_callbacks
):
    name = night_picture_name(published_night)
    default_storage.delete(name)
    deal = next(
        deal
        for deal in Deal.objects.filter(poule__tournament=published_night)
        if deal.data.get("contract") in ("solo", "emballage")
    )
    tricks = deal.data["tricks"]
    corrected = {**deal.data, "tricks": tricks + 1 if tricks < 13 else tricks - 1}

    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.deal_correct(deal, corrected, closed_ok=True)

    assert stored_png(name).size == SIZE
