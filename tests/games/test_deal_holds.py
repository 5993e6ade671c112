"""A deal holds what its game knows, whatever the way in: an extra key, a huge text, a long list
or a value nested deep is refused by the API (400), on the score sheet, by the recording service
and by the night-file import (a located problem); nothing is stored and the night's export still
answers. An import refuses a poule past its table's count unless the file says it was longer,
and any number past its column's range."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from games.dealforms import deal_post
from games.models import Deal, Poule, Tournament
from games.nightfile import tournament_import
from games.nightfile_export import tournament_export
from scoring import services as scoring_services
from scoring.engine.errors import DocumentRefused
from tests.api.test_urls import API, SOLO, night_path, signed
from tests.games.views.test_tournament import table_of, url

pytestmark = pytest.mark.django_db


def nested(levels: int) -> Any:
    value: Any = "deep"
    for _ in range(levels):
        value = [value]
    return value


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def poule(running_night: Tournament) -> Poule:
    return table_of(running_night, 4)


def codes(response) -> list[tuple[str, str]]:
    return [(p["place"], p["code"]) for p in response.json()["problems"]]


# --------------------------------------------------------------------------------------------
# The API


@pytest.mark.parametrize(
    ("deal", "expected"),
    [
        ({**SOLO, "note": "x"}, ("deals[0]", "deal_key_unknown")),
        ({**SOLO, "dealer": "x" * 20_000}, ("deals[0].dealer", "text_too_long")),
        ({**SOLO, "penalties": nested(25)}, ("deals[0].penalties[0]", "value_kind")),
    ],
    ids=["extra key", "long text", "nested value"],
)
def test_the_api_refuses_what_the_game_does_not_know_and_the_export_still_answers(
    api, running_night, poule, scorer, deal, expected
):
    signed(api, scorer)
    response = api.post(
        night_path(running_night, f"poules/{poule.pk}/deals/"), {"deal": deal}, format="json"
    )
    assert response.status_code == 400, response.content[:300]
    assert expected in codes(response)
    assert not Deal.objects.exists()
    assert api.get(night_path(running_night, "export/")).status_code == 200


def test_a_correction_through_the_api_is_held_alike(api, running_night, poule, scorer):
    deal = scoring_services.deal_record(poule, SOLO, by=scorer)
    signed(api, scorer)
    response = api.put(
        night_path(running_night, f"deals/{deal.pk}/"),
        {"deal": {**SOLO, "note": "x"}, "version": scoring_services.deal_version(deal)},
        format="json",
    )
    assert response.status_code == 400
    assert ("deals[0]", "deal_key_unknown") in codes(response)
    deal.refresh_from_db()
    assert deal.data == SOLO


# --------------------------------------------------------------------------------------------
# The recording service every input goes through


@pytest.mark.parametrize(
    "deal",
    [
        {**SOLO, "note": "x"},
        {**SOLO, "dealer": "x" * 5_000_000},
        {**SOLO, "note": nested(500)},
        {"contract": "pass", "bid": nested(500)},
    ],
    ids=["extra key", "5 MB text", "500 deep", "500 deep where the rules do not read"],
)
def test_the_recording_service_refuses_it_and_stores_nothing(running_night, poule, deal):
    with pytest.raises(ValidationError) as refused:
        scoring_services.deal_record(poule, deal)
    assert all(len(message) < 400 for message in refused.value.messages)
    assert not Deal.objects.exists()
    assert tournament_export(running_night)["poules"]


# --------------------------------------------------------------------------------------------
# The score sheet


def test_the_sheet_refuses_a_deal_past_its_penalties_length(client, running_night, poule, scorer):
    penalties = [{"player": "2", "points": 1}] * 25
    client.force_login(scorer)
    response = client.post(
        url("sheet", running_night, poule_pk=poule.pk),
        deal_post(poule, {**SOLO, "penalties": penalties}),
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    errors = list(response.context["form"].non_field_errors())
    assert any("25" in error and "20" in error for error in errors), errors
    assert not poule.deals.exists()


# --------------------------------------------------------------------------------------------
# The night file


def test_an_import_refuses_a_deal_with_a_key_its_game_does_not_know(night_document):
    doc = copy.deepcopy(night_document)
    doc["poules"][1]["deals"][2]["comment"] = "ok"
    with pytest.raises(DocumentRefused) as refused:
        tournament_import(doc)
    assert [(e.place, e.code) for e in refused.value.errors] == [
        ("poules[1].deals[2]", "deal_key_unknown")
    ]
    assert not Tournament.objects.exists()


def long_poule(night_document: dict[str, Any], deals: int) -> tuple[dict[str, Any], int]:
    """The night with its first table of 4 played ``deals`` deals long."""
    doc = copy.deepcopy(night_document)
    index = next(i for i, p in enumerate(doc["poules"]) if len(p["seats"]) == 4)
    poule = doc["poules"][index]
    solo = {"contract": "solo", "bid": 6, "declarers": [poule["seats"][1]], "tricks": 6}
    poule["deals"] = [dict(solo) for _ in range(deals)]
    return doc, index


def test_an_import_refuses_a_poule_past_its_count_unless_the_file_says_it_was_longer(
    night_document,
):
    doc, index = long_poule(night_document, 3_000)
    with pytest.raises(ValidationError) as refused:
        tournament_import(doc)
    assert refused.value.messages == [
        f"poules[{index}].deals: 3000 deals played, the club plays 12 at a table of 4; "
        'a longer poule says so ("longer": true)'
    ]
    assert not Tournament.objects.exists()

    doc["poules"][index]["longer"] = True
    night = tournament_import(doc)
    assert Deal.objects.filter(poule__tournament=night).count() > 3_000
    exported = tournament_export(night)
    assert [p.get("longer") for p in exported["poules"]].count(True) == 1
    # The file the site writes imports back.
    exported["date"] = "2024-04-01"
    assert tournament_import(exported).poules.count() == night.poules.count()


@pytest.mark.parametrize("longer", ["yes", 1])
def test_longer_is_true_or_false(night_document, longer):
    doc = copy.deepcopy(night_document)
    doc["poules"][0]["longer"] = longer
    with pytest.raises(ValidationError) as refused:
        tournament_import(doc)
    assert refused.value.messages == ["poules[0].longer: expected true or false"]


def test_an_import_refuses_a_number_past_its_column_through_the_api(
    api, club, club_admin, night_document
):
    doc, index = long_poule(night_document, 40_000)
    doc["poules"][index]["longer"] = True
    doc["poules"][0]["table"] = 40_000
    signed(api, club_admin)
    response = api.post(f"{API}/clubs/{club.slug}/nights/import/", doc, format="json")
    assert response.status_code == 400, response.content[:300]
    messages = [p["message"] for p in response.json()["problems"]]
    assert any(f"poules[{index}].deals: 40000 deals, at most 32767" in m for m in messages)
    assert any("poules[0].table: 40000 is out of range (at most 32767)" in m for m in messages)
    assert not Tournament.objects.exists()
