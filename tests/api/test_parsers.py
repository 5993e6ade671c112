"""One strict reader for every JSON body (api/parsers.py): a body too large is refused with 413
before it is read, one nested too deep with 400 before the parser recurses, NUL characters and
lone surrogates with a located 400; the API's error shape each time, and nothing stored."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from club.models import Player
from games.models import Deal, DealChange, Poule, Tournament
from scoring import services as scoring_services
from tests.api.test_urls import API, SOLO, night_path, signed

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


# Generated junk thrown at what reads members' input (hypothesis): the night-file import, the
# deal endpoints (record and correct) and the profile page. Whatever comes — nested deep, huge,
# lone surrogates, NUL, wrong types, unknown keys — the answer is never a server error, and a
# refused request stores nothing.


FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Text as an attacker sends it: lone surrogates, NUL, controls, right-to-left overrides, long.
nasty_text = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["\ud800", "a\x00b", "\u202eevil", "Bruno\u200bLemaire", "x" * 5000, ""]),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    nasty_text,
)
junk = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(nasty_text, inner, max_size=4)
    ),
    max_leaves=20,
)
# A real deal with one key changed or added: the shapes an almost-right client sends.
deal_like = st.builds(
    lambda key, value: {**SOLO, key: value},
    st.sampled_from(["contract", "bid", "declarers", "tricks", "penalties", "note", "\ud800"]),
    junk,
)
deep = st.integers(min_value=1, max_value=3000).map(lambda n: "[" * n + "]" * n)


def raw_bodies(document: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(document.map(json.dumps), deep, st.binary(max_size=200))


def refused_and_nothing_stored(response, counts_before, counts_after) -> None:
    assert response.status_code < 500, response.content[:300]
    if response.status_code >= 300:
        assert counts_after == counts_before


def counts():
    return (
        Deal.objects.count(),
        DealChange.objects.count(),
        Tournament.objects.count(),
        Player.objects.count(),
    )


def test_the_deal_endpoint_never_fails_on_junk(api, running_night, scorer):
    signed(api, scorer)
    poule = Poule.objects.filter(tournament=running_night, round=1).order_by("table").first()
    path = night_path(running_night, f"poules/{poule.pk}/deals/")

    @FUZZ
    @given(raw_bodies(st.one_of(junk, st.builds(lambda d: {"deal": d}, deal_like))))
    def send(body):
        before = counts()
        response = api.post(path, body, content_type="application/json")
        refused_and_nothing_stored(response, before, counts())

    send()


def test_a_deal_correction_never_fails_on_junk(api, running_night, scorer):
    signed(api, scorer)
    poule = Poule.objects.filter(tournament=running_night, round=1).order_by("table").first()
    deal = scoring_services.deal_record(poule, SOLO, by=scorer)
    path = night_path(running_night, f"deals/{deal.pk}/")

    @FUZZ
    @given(raw_bodies(st.one_of(junk, st.builds(lambda d: {"deal": d}, deal_like))))
    def send(body):
        before = counts()
        deal.refresh_from_db()
        data = dict(deal.data)
        response = api.put(path, body, content_type="application/json")
        assert response.status_code < 500, response.content[:300]
        if response.status_code >= 300:
            deal.refresh_from_db()
            assert deal.data == data
            assert counts() == before

    send()


def test_the_import_never_fails_on_junk(api, club, club_admin, night_document):
    signed(api, club_admin)
    path = f"{API}/clubs/{club.slug}/nights/import/"

    def spoiled(key, value):
        doc = json.loads(json.dumps(night_document))
        doc[key] = value
        return doc

    document = st.one_of(
        junk,
        st.builds(spoiled, st.sampled_from([*sorted(night_document), "\ud800", "extra"]), junk),
    )

    @FUZZ
    @given(raw_bodies(document))
    def send(body):
        before = counts()
        response = api.post(path, body, content_type="application/json")
        refused_and_nothing_stored(response, before, counts())

    send()


def test_the_profile_page_never_fails_on_junk(client, member):
    client.force_login(member)
    player = member.player
    fields = ["display_name", "email", "phone", "language", "public_name", "result_emails"]

    @FUZZ
    @given(st.dictionaries(st.sampled_from([*fields, "user", "\x00"]), nasty_text, max_size=6))
    def send(form):
        before = Player.objects.filter(pk=player.pk).values().get()
        # Encoded as a browser would, a lone surrogate as the bytes it stands for.
        body = "&".join(
            f"{quote(key.encode('utf-8', 'surrogatepass'))}="
            f"{quote(value.encode('utf-8', 'surrogatepass'))}"
            for key, value in form.items()
        )
        response = client.post(
            reverse("profile"), body, content_type="application/x-www-form-urlencoded"
        )
        assert response.status_code < 500
        if response.status_code != 302:
            assert Player.objects.filter(pk=player.pk).values().get() == before

    send()
