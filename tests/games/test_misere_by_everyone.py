"""A misère nobody could have played is refused everywhere the same: when every active player
declares it, their tricks add up to exactly the deal's (scoring-rules.md §1.1). The engine says
it once, with its code and place; the sheet says it in the page's language, the API in its
error format, the night-file import in English, and nothing is written."""

from __future__ import annotations

import copy

import pytest
from rest_framework.test import APIClient

from games.models import Deal
from games.nightfile import tournament_import
from scoring.engine.errors import DocumentRefused
from tests.games.test_nightfile import ANNE, BRUNO, CHLOE, DIDIER, EXAMPLE, row_counts
from tests.games.views.test_problems import refused_on_sheet
from tests.games.views.test_tournament import table_of

pytestmark = pytest.mark.django_db

# "All four made it": 0 + 0 + 0 + 0 of the 12 tricks of a petite misère.
ALL_FOUR = {
    "contract": "petite_misere",
    "declarers": ["1", "2", "3", "4"],
    "tricks": {"1": 0, "2": 0, "3": 0, "4": 0},
}
CODE = "tricks_total_all_declare"
IN_WORDS = {
    "fr": "Donne 1 : Tous les joueurs jouent Petite misère : ensemble, ils font exactement "
    "12 plis, pas 0.",
    "en": "Deal 1: Every player plays Small misery: together they take exactly 12 tricks, not 0.",
    "nl": "Spel 1: Alle spelers spelen Kleine miserie: samen halen ze precies 12 slagen, niet 0.",
}


@pytest.mark.parametrize("language", ["fr", "en", "nl"])
def test_the_sheet_refuses_it_in_the_pages_language(client, running_night, scorer, language):
    response = refused_on_sheet(client, running_night, scorer, ALL_FOUR, language)

    assert list(response.context["form"].non_field_errors()) == [IN_WORDS[language]]


def test_the_api_refuses_it_with_its_code_and_place(running_night, scorer):
    poule = table_of(running_night, 4)
    api = APIClient()
    api.force_login(scorer)
    night = f"/api/v1/clubs/{running_night.club.slug}/nights/{running_night.pk}"
    path = f"{night}/poules/{poule.pk}/deals/"

    response = api.post(path, {"deal": ALL_FOUR}, format="json")

    assert response.status_code == 400
    [problem] = response.json()["problems"]
    assert (problem["code"], problem["place"]) == (CODE, "deals[0].tricks")
    assert problem["message"] == IN_WORDS["fr"]  # the API speaks the request's language
    assert not Deal.objects.filter(poule=poule).exists()


def test_the_night_file_import_refuses_it_located_and_writes_nothing():
    night = copy.deepcopy(EXAMPLE)
    night["poules"][0]["deals"][3] = {
        "contract": "grande_misere",
        "declarers": [ANNE, BRUNO, CHLOE, DIDIER],
        "tricks": {ANNE: 0, BRUNO: 0, CHLOE: 0, DIDIER: 0},
    }
    before = row_counts()

    with pytest.raises(DocumentRefused) as refused:
        tournament_import(night)

    assert row_counts() == before
    [error] = refused.value.errors
    assert (error.place, error.code) == ("poules[0].deals[3].tricks", CODE)
    assert refused.value.problems == (
        "poules[0].deals[3].tricks: every active player declares grande_misere: their tricks "
        "add up to 0, not the deal's 13",
    )
