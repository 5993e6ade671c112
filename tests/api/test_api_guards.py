"""The API's guards found wanting in review: throttling behind (or without) proxies and for
refused keys, 404s that say nothing, an idempotency key reused with another deal, a retry
after the night's close, If-Modified-Since, the deal's version required, the import a club
admin's, tokens gone with a new password."""

from __future__ import annotations

import uuid

import pytest
from django.core import mail
from django.urls import reverse
from django.utils.http import http_date
from rest_framework.test import APIClient

from club import tokens
from club.models import ApiToken, Membership
from games.models import Deal, Poule, Tournament
from scoring import services as scoring_services
from tests.api.test_api import API, SOLO, night_path, signed
from tests.games.test_phone_sheet import post_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def poule(running_night: Tournament) -> Poule:
    return Poule.objects.filter(tournament=running_night, round=1).order_by("table").first()


@pytest.fixture
def tight(settings) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "3/min", "token": "3/min", "failed_token": "3/min"},
    }


# --------------------------------------------------------------------------------------------
# Throttling


def test_a_forged_x_forwarded_for_is_no_new_address(api, club, tight):
    answers = [
        api.get(f"{API}/clubs/", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code for n in range(4)
    ]
    assert answers == [200, 200, 200, 429]


def test_behind_one_proxy_the_address_it_saw_is_throttled(api, club, tight, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    # The proxy appends the address it saw: what the client wrote before it is ignored.
    answers = [
        api.get(f"{API}/clubs/", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}, 192.0.2.7").status_code
        for n in range(4)
    ]
    assert answers == [200, 200, 200, 429]
    other = api.get(f"{API}/clubs/", HTTP_X_FORWARDED_FOR="192.0.2.8")
    assert other.status_code == 200


def test_refused_keys_are_counted_per_address_and_key_and_never_lock_out_a_good_key(
    api, club, member, tight
):
    api.credentials(HTTP_AUTHORIZATION="Token cw_guessed")
    answers = [api.get(f"{API}/clubs/").status_code for _ in range(4)]
    assert answers == [401, 401, 401, 429]
    # The broken script's address is not locked out: the club's good key still works there.
    _token, key = tokens.token_create(member, "outil")
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert [api.get(f"{API}/clubs/").status_code for _ in range(3)] == [200, 200, 200]
    # Another wrong key from that address has its own budget; the first is still refused.
    api.credentials(HTTP_AUTHORIZATION="Token cw_another")
    assert api.get(f"{API}/clubs/").status_code == 401
    api.credentials(HTTP_AUTHORIZATION="Token cw_guessed")
    assert api.get(f"{API}/clubs/").status_code == 429


def test_a_key_with_a_nul_or_a_surrogate_is_refused_in_words(api, club, tight):
    for key in ("cw_\x00abc", "cw_\udcff"):
        api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        assert api.get(f"{API}/clubs/").status_code == 401


# --------------------------------------------------------------------------------------------
# 404s say nothing


def test_every_not_found_says_the_same(api, running_night, club):
    # An unpublished night, a night that does not exist, a club, a ranking: one answer, in
    # the request's language, that tells an outsider nothing (no reason, no model's name).
    for language, words in (("en", "Not found."), ("fr", "Pas trouvé.")):
        for path in (
            night_path(running_night),
            f"{API}/clubs/{club.slug}/nights/999999/",
            f"{API}/clubs/nope/",
            f"{API}/clubs/{club.slug}/seasons/2024/ranking/",
            f"{API}/clubs/{club.slug}/players/999999/",
        ):
            answer = api.get(path, HTTP_ACCEPT_LANGUAGE=language)
            assert answer.status_code == 404
            assert answer.json() == {"detail": words}, (path, language)


# --------------------------------------------------------------------------------------------
# Idempotency keys


def test_a_key_sent_again_with_another_deal_is_refused(api, running_night, poule, scorer):
    signed(api, scorer)
    key = str(uuid.uuid4())
    path = night_path(running_night, f"poules/{poule.pk}/deals/")
    assert api.post(path, {"deal": SOLO, "client_key": key}, format="json").status_code == 201
    other = {**SOLO, "tricks": 8}
    again = api.post(path, {"deal": other, "client_key": key}, format="json")
    assert again.status_code == 409
    assert again.json()["problems"][0]["code"] == "key_reused"
    assert Deal.objects.get(poule=poule).data == SOLO
    # The same deal, its keys in another order: a retry.
    reordered = dict(reversed(list(SOLO.items())))
    retry = api.post(path, {"deal": reordered, "client_key": key}, format="json")
    assert retry.status_code == 200 and retry.json()["replayed"] is True


def test_the_score_sheet_says_a_reused_key_in_words(client, running_night, poule, scorer):
    key = str(uuid.uuid4())
    client.force_login(scorer)
    assert post_deal(client, poule, SOLO, client_key=key, seen="0")["X-Sheet-Result"] == (
        "recorded"
    )
    answer = post_deal(client, poule, {**SOLO, "tricks": 8}, client_key=key, seen="1")
    assert (answer.status_code, answer["X-Sheet-Result"]) == (409, "conflict")
    assert "déjà enregistrée et différente" in answer.content.decode()
    assert answer.context["form"].deal_data() == {**SOLO, "tricks": 8}  # the deal typed, kept
    assert Deal.objects.get(poule=poule).data == SOLO


def test_a_retry_after_the_close_is_answered_as_recorded(
    api, running_night, poule, scorer, member, club_admin
):
    signed(api, scorer)
    key = str(uuid.uuid4())
    path = night_path(running_night, f"poules/{poule.pk}/deals/")
    first = api.post(path, {"deal": SOLO, "client_key": key}, format="json")
    assert first.status_code == 201
    scoring_services.tournament_close(running_night, unfinished_ok=True)
    again = api.post(path, {"deal": SOLO, "client_key": key}, format="json")
    assert again.status_code == 200
    assert again.json()["id"] == first.json()["id"] and again.json()["replayed"] is True
    # A club admin's phone too (he may still correct the closed night: no new deal for that).
    by_admin = signed(api, club_admin).post(path, {"deal": SOLO, "client_key": key}, format="json")
    assert by_admin.status_code == 200 and by_admin.json()["replayed"] is True
    signed(api, scorer)
    # Another deal with that key, a new key, a member: refused as before.
    reused = api.post(path, {"deal": {**SOLO, "tricks": 9}, "client_key": key}, format="json")
    assert reused.status_code == 409
    fresh = api.post(path, {"deal": SOLO, "client_key": str(uuid.uuid4())}, format="json")
    assert fresh.status_code == 403
    assert (
        signed(api, member).post(path, {"deal": SOLO, "client_key": key}, format="json").status_code
        == 403
    )
    assert Deal.objects.filter(poule=poule).count() == 1


# --------------------------------------------------------------------------------------------
# Conditional requests


def test_if_modified_since_without_an_etag(api, imported_night):
    scoring_services.tournament_publish(imported_night)
    first = api.get(night_path(imported_night))
    since = first["Last-Modified"]
    assert api.get(night_path(imported_night), HTTP_IF_MODIFIED_SINCE=since).status_code == 304
    older = http_date(0)
    assert api.get(night_path(imported_night), HTTP_IF_MODIFIED_SINCE=older).status_code == 200
    # An ETag sent decides alone (RFC 9110): a stale one is answered in full.
    both = api.get(
        night_path(imported_night), HTTP_IF_MODIFIED_SINCE=since, HTTP_IF_NONE_MATCH='"old"'
    )
    assert both.status_code == 200
    assert api.get(night_path(imported_night), HTTP_IF_MODIFIED_SINCE="garbage").status_code == 200


def test_a_deal_is_corrected_or_deleted_only_with_its_version(api, running_night, poule, scorer):
    signed(api, scorer)
    deal = scoring_services.deal_record(poule, SOLO)
    path = night_path(running_night, f"deals/{deal.pk}/")
    missing = api.put(path, {"deal": {**SOLO, "tricks": 8}}, format="json")
    assert missing.status_code == 428
    assert missing.json()["problems"][0]["code"] == "version_required"
    assert api.delete(path).status_code == 428
    version = scoring_services.deal_version(deal)
    by_header = api.put(path, {"deal": {**SOLO, "tricks": 8}}, format="json", HTTP_IF_MATCH=version)
    assert by_header.status_code == 200
    stale = api.delete(f"{path}?version={version}")
    assert stale.status_code == 409
    assert stale.json()["problems"][0]["code"] == "deal_changed"
    assert Deal.objects.filter(pk=deal.pk).exists()
    current = by_header.json()["version"]
    assert api.delete(path, {"version": current}, format="json").status_code == 204
    assert not Deal.objects.filter(pk=deal.pk).exists()


# --------------------------------------------------------------------------------------------
# Import


def test_a_scorer_may_not_import_a_night(api, club, night_document, scorer):
    # An import adds the file's unknown names as members and may open a season: a club
    # admin's work, not a scorer's.
    signed(api, scorer)
    refused = api.post(f"{API}/clubs/{club.slug}/nights/import/", night_document, format="json")
    assert refused.status_code == 403
    assert not Tournament.objects.filter(club=club).exists()


# --------------------------------------------------------------------------------------------
# Tokens and passwords


def test_a_password_change_removes_the_tokens(api, client, member):
    member.set_password("ancien-mot-de-passe-7")
    member.save()
    _token, key = tokens.token_create(member, "tableur")
    client.force_login(member)
    assert "retire toutes vos clés" in client.get(reverse("api-tokens")).content.decode()
    changed = client.post(
        reverse("password_change"),
        {
            "old_password": "ancien-mot-de-passe-7",
            "new_password1": "nouveau-secret-whist-42",
            "new_password2": "nouveau-secret-whist-42",
        },
        follow=True,
    )
    assert changed.status_code == 200
    assert "clés d'API ont été retirées" in changed.content.decode()
    assert not ApiToken.objects.filter(user=member).exists()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get(f"{API}/me/").status_code == 401


def test_a_password_reset_removes_the_tokens(client, member, scorer):
    member.email = "membre@example.org"
    member.save()
    tokens.token_create(member, "tableur")
    tokens.token_create(scorer, "outil")
    client.post(reverse("password_reset"), {"email": "membre@example.org"})
    link = next(word for word in mail.outbox[-1].body.split() if "/reset/" in word).rstrip(".")
    form = client.get(link, follow=True)
    done = client.post(
        form.redirect_chain[-1][0] if form.redirect_chain else link,
        {"new_password1": "nouveau-secret-whist-42", "new_password2": "nouveau-secret-whist-42"},
        follow=True,
    )
    assert done.status_code == 200
    assert "clés d'API ont été retirées" in done.content.decode()
    assert not ApiToken.objects.filter(user=member).exists()
    assert ApiToken.objects.filter(user=scorer).exists()
    assert Membership.objects.filter(player__user=member).exists()


# --------------------------------------------------------------------------------------------
# Read-only tokens


def test_a_read_only_token_reads_and_changes_nothing(api, running_night, poule, scorer):
    _token, key = tokens.token_create(scorer, "site du club", read_only=True)
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get(night_path(running_night)).status_code == 200
    assert api.get(f"{API}/me/").status_code == 200
    path = night_path(running_night, f"poules/{poule.pk}/deals/")
    refused = api.post(path, {"deal": SOLO}, format="json")
    assert refused.status_code == 403
    assert "lecture seule" in refused.json()["detail"]
    assert api.patch(f"{API}/me/", {"public_name": "initials"}, format="json").status_code == 403
    assert not Deal.objects.filter(poule=poule).exists()
    # The same member's ordinary token still scores.
    _other, writer = tokens.token_create(scorer, "outil")
    api.credentials(HTTP_AUTHORIZATION=f"Token {writer}")
    assert api.post(path, {"deal": SOLO}, format="json").status_code == 201


def test_a_read_only_token_is_made_in_the_profile(client, member):
    client.force_login(member)
    page = client.post(reverse("api-tokens"), {"name": "site du club", "read_only": "1"})
    assert page.status_code == 200
    assert ApiToken.objects.get(user=member).read_only
    assert "lecture seule" in client.get(reverse("api-tokens")).content.decode()
