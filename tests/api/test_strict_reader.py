"""One strict reader for every JSON body (api/parsers.py): a body too large is refused with 413
before it is read, one nested too deep with 400 before the parser recurses, NUL characters and
lone surrogates with a located 400; the API's error shape each time, and nothing stored."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from games.models import Deal, Poule, Tournament
from tests.api.test_api import API, SOLO, night_path, signed

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def deals_path(running_night: Tournament) -> str:
    poule = Poule.objects.filter(tournament=running_night, round=1).order_by("table").first()
    return night_path(running_night, f"poules/{poule.pk}/deals/")


def post_raw(api: APIClient, path: str, body: str | bytes):
    return api.post(path, body, content_type="application/json")


def assert_refused(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:300]
    answer = response.json()
    assert answer["detail"]
    assert code in [problem["code"] for problem in answer["problems"]]
    return answer


def test_a_deal_body_past_its_cap_is_refused_413_and_nothing_is_stored(api, deals_path, scorer):
    signed(api, scorer)
    body = json.dumps({"deal": {**SOLO, "note": "x" * 100_000}})
    assert_refused(post_raw(api, deals_path, body), 413, "too_large")
    assert not Deal.objects.exists()


def test_an_import_past_its_cap_is_refused_413(api, club, club_admin, night_document, settings):
    settings.API_IMPORT_MAX_BYTES = 200_000
    signed(api, club_admin)
    doc = {**night_document, "padding": "x" * 250_000}
    path = f"{API}/clubs/{club.slug}/nights/import/"
    assert_refused(post_raw(api, path, json.dumps(doc)), 413, "too_large")
    assert not Tournament.objects.filter(club=club).exists()
    # A file under the cap is read as before.
    assert api.post(path, night_document, format="json").status_code == 201


@pytest.mark.parametrize("levels", [100, 100_000])
def test_a_body_nested_too_deep_is_refused_400_not_a_crash(api, deals_path, scorer, levels):
    signed(api, scorer)
    body = '{"deal": ' + "[" * levels + "]" * levels + "}"
    if len(body) > 64 * 1024:
        body = "[" * 30_000 + "]" * 30_000  # as deep as the cap lets a body be
    assert_refused(post_raw(api, deals_path, body), 400, "too_deep")
    assert not Deal.objects.exists()


@pytest.mark.parametrize(
    ("deal", "place"),
    [
        ({**SOLO, "contract": "\ud800"}, "deal.contract"),
        ({**SOLO, "note\ud800": 1}, "deal"),
        ({**SOLO, "note": "a\x00b"}, "deal.note"),
    ],
)
def test_a_lone_surrogate_or_a_nul_is_refused_with_its_place(api, deals_path, scorer, deal, place):
    signed(api, scorer)
    answer = assert_refused(
        post_raw(api, deals_path, json.dumps({"deal": deal})), 400, "unstorable_text"
    )
    assert place in [problem["place"] for problem in answer["problems"]]
    assert not Deal.objects.exists()


def test_a_body_that_is_not_utf8_is_a_parse_error(api, deals_path, scorer):
    signed(api, scorer)
    response = post_raw(api, deals_path, b'{"deal": "\xff\xfe"}')
    assert response.status_code == 400
