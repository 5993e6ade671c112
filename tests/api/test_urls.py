"""The JSON API, endpoint by endpoint: its shape, who may use it (every role), idempotent
deal recording, located import refusals, tokens, ETags and constant query counts. The
permissions matrix of the site (tests/test_permissions_matrix.py) walks every address too."""

from __future__ import annotations

import copy
import datetime
import random
import uuid
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.http import http_date
from rest_framework.test import APIClient

from club import tokens
from club.models import ApiToken, Membership, Player
from games.demo import random_night
from games.models import Deal, Poule, Tournament
from games.nightfile import tournament_import
from scoring import services as scoring_services
from scoring.models import TournamentStanding
from tests.conftest import persona
from tests.factories import ClubFactory
from tests.games.views.test_sheet import post_deal

pytestmark = pytest.mark.django_db

SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 6}
API = "/api/v1"


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def signed(api: APIClient, user: Any) -> APIClient:
    api.force_authenticate(user=None)
    api.logout()
    if user is not None:
        api.force_login(user)
    return api


@pytest.fixture
def published_night(imported_night: Tournament) -> Tournament:
    scoring_services.tournament_publish(imported_night)
    imported_night.refresh_from_db()
    return imported_night


@pytest.fixture
def poule(running_night: Tournament) -> Poule:
    return Poule.objects.filter(tournament=running_night, round=1).order_by("table").first()


def night_path(night: Tournament, tail: str = "") -> str:
    return f"{API}/clubs/{night.club.slug}/nights/{night.pk}/{tail}"


# --------------------------------------------------------------------------------------------
# Reading


def test_clubs_are_listed_paginated_for_everybody(api, club):
    response = api.get(f"{API}/clubs/")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 1
    assert body["results"][0] == {
        "slug": club.slug,
        "name": club.name,
        "game": club.default_game,
        "rules": club.default_rules,
        "rounds_per_night": club.rounds_per_night,
    }


def test_seasons_say_when_their_ranking_was_published(api, published_night):
    season = published_night.season
    response = api.get(f"{API}/clubs/{season.club.slug}/seasons/")
    assert response.status_code == 200
    [row] = [r for r in response.json()["results"] if r["slug"] == season.slug]
    assert row["ranking_published_at"] is None
    scoring_services.ranking_publish(season)
    [row] = [
        r
        for r in api.get(f"{API}/clubs/{season.club.slug}/seasons/").json()["results"]
        if r["slug"] == season.slug
    ]
    assert row["ranking_published_at"] is not None


def test_the_published_ranking_is_public_with_public_names_and_an_etag(
    api, published_night, member
):
    season = published_night.season
    first = published_night.standings.order_by("rank").first().player
    first.public_name = Player.PublicName.INITIALS
    first.save()
    scoring_services.ranking_publish(season)
    path = f"{API}/clubs/{season.club.slug}/seasons/{season.slug}/ranking/"
    response = api.get(path)
    assert response.status_code == 200
    body = response.json()
    assert body["provisional"] is False and body["season"] == season.slug
    names = {line["player"]["name"] for line in body["lines"]}
    assert first.initials in names and first.display_name not in names
    line = body["lines"][0]
    assert set(line) == {
        "rank",
        "tied",
        "player",
        "tournament_points",
        "game_points",
        "tournaments_played",
        "tournaments_counted",
        "tournaments_won",
    }
    assert response["ETag"] and response["Last-Modified"]
    again = api.get(path, HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304
    # A new publication moves the club's stamp: the old copy is no longer the latest.
    scoring_services.ranking_publish(season)
    assert api.get(path, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 200


def test_a_published_ranking_is_served_from_the_cache_until_the_stamp_moves(
    api, published_night, django_assert_max_num_queries
):
    season = published_night.season
    scoring_services.ranking_publish(season)
    path = f"{API}/clubs/{season.club.slug}/seasons/{season.slug}/ranking/"
    api.get(path)
    with CaptureQueriesContext(connection) as cached:
        assert api.get(path).status_code == 200
    # The club, the season and its snapshot: the lines come from the cache.
    assert not any("scoring_rankingline" in q["sql"].lower() for q in cached.captured_queries)


def test_the_provisional_ranking_is_the_club_admins(api, imported_night, club_admin, member):
    season = imported_night.season
    path = f"{API}/clubs/{season.club.slug}/seasons/{season.slug}/ranking/?provisional=true"
    assert signed(api, None).get(path).status_code == 404
    assert signed(api, member).get(path).status_code == 403
    response = signed(api, club_admin).get(path)
    assert response.status_code == 200
    assert response.json()["provisional"] is True
    # Not published: nobody reads a published one.
    plain = f"{API}/clubs/{season.club.slug}/seasons/{season.slug}/ranking/"
    assert signed(api, club_admin).get(plain).status_code == 404


def test_players_are_named_as_the_site_names_them(api, published_night, member):
    first = published_night.standings.order_by("rank").first().player
    first.public_name = Player.PublicName.INITIALS
    first.save()
    path = f"{API}/clubs/{published_night.club.slug}/players/"
    public = {row["id"]: row for row in signed(api, None).get(path).json()["results"]}
    assert public[first.pk] == {"id": first.pk, "name": first.initials, "initials": first.initials}
    own = {row["id"]: row for row in signed(api, member).get(path).json()["results"]}
    assert own[first.pk]["name"] == first.display_name
    one = signed(api, None).get(f"{path}{first.pk}/")
    assert one.status_code == 200 and one.json()["name"] == first.initials


def test_players_the_public_members_and_admins_may_know(
    api, imported_night, club_members, member, club_admin, outsider
):
    """The public: the players of a published night or ranking; members: the current
    membership; club admins: every player the club ever had."""
    club = imported_night.club
    path = f"{API}/clubs/{club.slug}/players/"
    played = set(imported_night.standings.values_list("player_id", flat=True))
    absent = next(p for p in club_members if p.pk not in played)
    former = next(p for p in club_members if p.pk in played)
    Membership.objects.filter(player=former).update(end=imported_night.date)

    def ids(user: Any) -> set[int]:
        return {
            row["id"] for row in signed(api, user).get(f"{path}?page_size=200").json()["results"]
        }

    # Closed, not published: the public knows nobody yet, another club's admin neither.
    assert ids(None) == set() and ids(outsider) == set()
    assert signed(api, None).get(f"{path}{absent.pk}/").status_code == 404
    scoring_services.tournament_publish(imported_night)
    assert ids(None) == played and ids(outsider) == played
    assert signed(api, None).get(f"{path}{absent.pk}/").status_code == 404
    # The former member played a published night: the public still sees him there.
    assert signed(api, None).get(f"{path}{former.pk}/").status_code == 200
    mine = ids(member)
    assert absent.pk in mine and former.pk not in mine and member.player.pk in mine
    assert signed(api, member).get(f"{path}{former.pk}/").status_code == 404
    everybody = ids(club_admin)
    assert {absent.pk, former.pk, member.player.pk} <= everybody


def test_nights_public_and_the_scorers(api, running_night, published_night, scorer, member):
    path = f"{API}/clubs/{running_night.club.slug}/nights/"
    public = signed(api, member).get(path).json()
    assert [row["id"] for row in public["results"]] == [published_night.pk]
    row = public["results"][0]
    assert row["status"] == "published" and row["game"] == "belgian_whist"
    assert row["title"] == str(published_night)
    mine = signed(api, scorer).get(path).json()
    assert {row["id"] for row in mine["results"]} == {running_night.pk, published_night.pk}


def test_nights_filter_by_season_date_and_game(api, published_night):
    path = f"{API}/clubs/{published_night.club.slug}/nights/"
    day = published_night.date.isoformat()
    assert api.get(path, {"season": published_night.season.slug}).json()["count"] == 1
    assert api.get(path, {"season": "1999"}).json()["count"] == 0
    assert api.get(path, {"date": day}).json()["count"] == 1
    assert api.get(path, {"date_after": "2030-01-01"}).json()["count"] == 0
    assert api.get(path, {"game": "hearts"}).json()["count"] == 0
    assert api.get(path, {"game": "belgian_whist"}).json()["count"] == 1
    assert api.get(path, {"game": "chess"}).status_code == 400


def test_a_published_night_has_standings_poules_deals_and_points(api, published_night):
    response = api.get(night_path(published_night))
    assert response.status_code == 200
    body = response.json()
    assert body["standings"][0]["rank"] == 1
    assert set(body["standings"][0]) == {
        "player",
        "rank",
        "tied",
        "tournament_points",
        "game_points",
        "poules_played",
        "poules_won",
    }
    poule = body["poules"][0]
    assert poule["round"] == 1 and poule["table"] == 1
    assert [seat["number"] for seat in poule["seats"]] == list(range(1, len(poule["seats"]) + 1))
    deal = poule["deals"][0]
    assert deal["number"] == 1 and len(deal["points"]) == len(poule["seats"])
    assert "contract" in deal["data"]
    assert response["ETag"]
    assert (
        api.get(night_path(published_night), HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    )


def test_a_running_night_is_its_scorers(api, running_night, scorer, member, outsider):
    path = night_path(running_night)
    assert signed(api, None).get(path).status_code == 404
    assert signed(api, outsider).get(path).status_code == 404
    assert signed(api, member).get(path).status_code == 403
    response = signed(api, scorer).get(path)
    assert response.status_code == 200
    assert "ETag" not in response  # it changes with every deal


def test_export_is_the_club_night_result_file(api, published_night, scorer):
    first = published_night.standings.order_by("rank").first().player
    first.public_name = Player.PublicName.INITIALS
    first.save()
    public = signed(api, None).get(night_path(published_night, "export/")).json()
    assert public["format"] == "club-night-result/1"
    assert first.display_name not in public["players"]
    own = signed(api, scorer).get(night_path(published_night, "export/")).json()
    assert first.display_name in own["players"]


# --------------------------------------------------------------------------------------------
# Scoring


def test_a_deal_is_recorded_once_whatever_the_retries(api, running_night, poule, scorer):
    signed(api, scorer)
    key = str(uuid.uuid4())
    path = night_path(running_night, f"poules/{poule.pk}/deals/")
    first = api.post(path, {"deal": SOLO, "client_key": key, "seen": 0}, format="json")
    assert first.status_code == 201
    body = first.json()
    assert body["number"] == 1 and body["replayed"] is False and len(body["points"]) >= 4
    again = api.post(path, {"deal": SOLO, "client_key": key, "seen": 0}, format="json")
    assert again.status_code == 200
    assert again.json()["id"] == body["id"] and again.json()["replayed"] is True
    assert Deal.objects.filter(poule=poule).count() == 1


def test_a_retry_of_a_deal_removed_since_is_a_conflict(api, running_night, poule, scorer):
    signed(api, scorer)
    key = str(uuid.uuid4())
    path = night_path(running_night, f"poules/{poule.pk}/deals/")
    first = api.post(path, {"deal": SOLO, "client_key": key, "seen": 0}, format="json")
    scoring_services.deal_delete(Deal.objects.get(pk=first.json()["id"]))
    again = api.post(path, {"deal": SOLO, "client_key": key, "seen": 0}, format="json")
    assert again.status_code == 409
    assert again.json()["problems"][0]["code"] == "deal_removed"
    assert not Deal.objects.filter(poule=poule).exists()


def test_a_sheet_changed_meanwhile_is_a_conflict(api, running_night, poule, scorer):
    signed(api, scorer)
    scoring_services.deal_record(poule, SOLO)
    path = night_path(running_night, f"poules/{poule.pk}/deals/")
    response = api.post(path, {"deal": SOLO, "seen": 0}, format="json")
    assert response.status_code == 409
    assert response.json()["problems"][0]["code"] == "sheet_changed"
    assert Deal.objects.filter(poule=poule).count() == 1


def test_an_impossible_deal_is_refused_located(api, running_night, poule, scorer):
    signed(api, scorer)
    path = night_path(running_night, f"poules/{poule.pk}/deals/")
    response = api.post(path, {"deal": {**SOLO, "tricks": 14}}, format="json")
    assert response.status_code == 400
    problem = response.json()["problems"][0]
    assert problem["place"].startswith("deals[0]") and problem["message"]
    assert not Deal.objects.filter(poule=poule).exists()


def test_members_may_not_record(api, running_night, poule, member, outsider):
    path = night_path(running_night, f"poules/{poule.pk}/deals/")
    assert signed(api, None).post(path, {"deal": SOLO}, format="json").status_code == 401
    assert signed(api, member).post(path, {"deal": SOLO}, format="json").status_code == 403
    assert signed(api, outsider).post(path, {"deal": SOLO}, format="json").status_code == 404
    assert not Deal.objects.filter(poule=poule).exists()


def test_a_deal_is_corrected_with_its_version_and_deleted(api, running_night, poule, scorer):
    signed(api, scorer)
    deal = scoring_services.deal_record(poule, SOLO)
    path = night_path(running_night, f"deals/{deal.pk}/")
    version = scoring_services.deal_version(deal)
    corrected = api.put(path, {"deal": {**SOLO, "tricks": 8}, "version": version}, format="json")
    assert corrected.status_code == 200
    assert corrected.json()["data"]["tricks"] == 8
    stale = api.put(path, {"deal": {**SOLO, "tricks": 5}, "version": version}, format="json")
    assert stale.status_code == 409
    current = corrected.json()["version"]
    assert api.delete(path, HTTP_IF_MATCH=f'"{current}"').status_code == 204
    assert not Deal.objects.filter(pk=deal.pk).exists()
    assert poule.changes.count() == 2  # the correction and the removal, kept


def test_a_round_is_drawn_and_a_night_closed(api, running_night, poule, scorer):
    signed(api, scorer)
    scoring_services.deal_record(poule, SOLO)
    drawn = api.post(night_path(running_night, "rounds/2/draw/"), {"seed": 7}, format="json")
    assert drawn.status_code == 201
    assert drawn.json()["seed"] == 7 and drawn.json()["poules"]
    refused = api.post(night_path(running_night, "close/"), {}, format="json")
    assert refused.status_code == 400 and "inachev" in refused.json()["detail"]
    closed = api.post(night_path(running_night, "close/"), {"unfinished_ok": True}, format="json")
    assert closed.status_code == 200 and closed.json()["status"] == "closed"


def test_import_is_all_or_nothing_with_located_problems(api, club, night_document, club_admin):
    signed(api, club_admin)
    path = f"{API}/clubs/{club.slug}/nights/import/"
    bad = copy.deepcopy(night_document)
    bad["poules"][1]["deals"][3]["tricks"] = 14
    refused = api.post(path, bad, format="json")
    assert refused.status_code == 400
    problems = refused.json()["problems"]
    assert {"place": "poules[1].deals[3].tricks", "code": "tricks_outside"} in [
        {"place": p["place"], "code": p["code"]} for p in problems
    ]
    assert not Tournament.objects.filter(club=club).exists()
    made = api.post(path, night_document, format="json")
    assert made.status_code == 201
    assert made.json()["status"] == "closed"
    # The same night again: a conflict with what the club has, not a bad document.
    again = api.post(path, night_document, format="json")
    assert again.status_code == 409
    assert again.json()["problems"][0]["code"] == "night_exists"
    other = ClubFactory(name="Whist Club Liège")
    admin = persona(other, "admin-liege", Membership.Role.ADMIN)
    elsewhere = signed(api, admin).post(
        f"{API}/clubs/{other.slug}/nights/import/", night_document, format="json"
    )
    assert elsewhere.status_code == 400
    assert elsewhere.json()["problems"][0]["place"] == "club"


# --------------------------------------------------------------------------------------------
# The member's own, tokens, throttling


def test_me_reads_and_changes_the_profile(api, member, scorer):
    signed(api, member)
    body = api.get(f"{API}/me/").json()
    assert body["clubs"][0]["role"] == "member"
    changed = api.patch(f"{API}/me/", {"public_name": "initials"}, format="json")
    assert changed.status_code == 200
    assert changed.json()["public_display_name"] == changed.json()["initials"]
    # Another member's name is his: refused, said where.
    taken = scorer.player.display_name
    refused = api.patch(f"{API}/me/", {"display_name": taken}, format="json")
    assert refused.status_code == 400
    assert refused.json()["problems"][0]["place"] == "display_name"
    assert signed(api, None).get(f"{API}/me/").status_code == 401


def test_my_results_and_my_data(api, imported_night):
    player = imported_night.standings.order_by("rank").first().player
    user = persona_for(player)
    signed(api, user)
    results = api.get(f"{API}/me/results/").json()
    assert results["count"] == 1
    assert results["results"][0]["rank"] == 1
    assert results["results"][0]["night"]["id"] == imported_night.pk
    data = api.get(f"{API}/me/data/")
    assert data.status_code == 200 and data.json()["format"] == "member-data/1"


def persona_for(player: Player) -> Any:
    user = type(player).user.field.related_model.objects.create_user(
        username=f"u{player.pk}", email=f"u{player.pk}@example.org"
    )
    player.user = user
    player.save()
    return user


def test_a_token_carries_its_members_roles_and_is_refused_once_revoked(api, running_night, member):
    token, key = tokens.token_create(member, "tableur")
    assert key not in str(ApiToken.objects.values_list("key_hash", "prefix").get())
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get(f"{API}/me/").status_code == 200
    token.refresh_from_db()
    assert token.last_used is not None
    # A member's token may not score.
    assert api.get(night_path(running_night)).status_code == 403
    assert tokens.token_revoke(member, token.pk)
    assert api.get(f"{API}/me/").status_code == 401
    api.credentials(HTTP_AUTHORIZATION="Token cw_not-a-key")
    assert api.get(f"{API}/clubs/").status_code == 401


def test_tokens_are_made_shown_once_and_revoked_in_the_profile(client, member):
    client.force_login(member)
    page = client.post("/compte/cles-api/", {"name": "site du club"})
    assert page.status_code == 200
    key = page.context["made"]["key"]
    assert key.startswith("cw_") and key in page.content.decode()
    listing = client.get("/compte/cles-api/").content.decode()
    assert "site du club" in listing and key not in listing
    token = ApiToken.objects.get(user=member)
    assert client.post(f"/compte/cles-api/{token.pk}/retirer/").status_code == 302
    assert not ApiToken.objects.exists()
    assert client.post("/compte/cles-api/", {"name": " "}).status_code == 400


def test_another_members_token_cannot_be_revoked(client, member, scorer):
    token, _key = tokens.token_create(scorer, "outil")
    client.force_login(member)
    assert client.post(f"/compte/cles-api/{token.pk}/retirer/").status_code == 404
    assert ApiToken.objects.filter(pk=token.pk).exists()


def test_anonymous_and_token_requests_are_throttled(api, club, member, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "3/min", "token": "3/min"},
    }
    answers = [api.get(f"{API}/clubs/").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    # Each member has one budget, whatever the address it comes from and however many
    # tokens he makes: a second token is no second budget.
    _first, one = tokens.token_create(member, "site du club")
    _second, two = tokens.token_create(member, "tableur")
    api.credentials(HTTP_AUTHORIZATION=f"Token {one}")
    assert [api.get(f"{API}/clubs/").status_code for _ in range(4)] == [200, 200, 200, 429]
    api.credentials(HTTP_AUTHORIZATION=f"Token {two}")
    assert api.get(f"{API}/clubs/").status_code == 429


# --------------------------------------------------------------------------------------------
# Constant query counts and the schema


def queries(api: APIClient, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert api.get(path).status_code == 200
    return len(captured)


def test_list_endpoints_have_constant_query_counts(api, club, imported_night, night_document):
    """Measured as a club admin who plays (his results, every player, every night) and as the
    public, before and after the club grows by a whole night: a new season, new players,
    their standings, poules and deals, a published ranking, and other clubs."""
    player = imported_night.standings.order_by("rank").first().player
    Membership.objects.filter(player=player, club=club).update(role=Membership.Role.ADMIN)
    admin = persona_for(player)
    public = APIClient()
    paths = [
        f"{API}/clubs/",
        f"{API}/clubs/{club.slug}/seasons/",
        f"{API}/clubs/{club.slug}/nights/",
        f"{API}/clubs/{club.slug}/players/",
        f"{API}/me/results/",
        night_path(imported_night),
    ]
    public_paths = [p for p in paths if "/me/" not in p]
    scoring_services.tournament_publish(imported_night)
    scoring_services.ranking_publish(imported_night.season)
    signed(api, admin)
    before = {path: queries(api, path) for path in paths}
    public_before = {path: queries(public, path) for path in public_paths}
    members = [*night_document["players"], "Zoé Nouvelle", "Yves Neuf", "Xavier Autre"]
    assert player.display_name in members
    later = random_night(
        random.Random(7),
        club=club.name,
        season="2025",
        date=datetime.date(2025, 3, 13),
        members=members,
        present=len(members),
    )
    with transaction.atomic():
        grown = tournament_import(later)
    scoring_services.tournament_publish(grown)
    scoring_services.ranking_publish(grown.season)
    for n in range(3):
        ClubFactory(name=f"Club {n}")
    assert Player.objects.filter(display_name="Zoé Nouvelle").exists()
    assert club.seasons.count() == 2
    assert TournamentStanding.objects.filter(player=player).count() == 2
    assert Deal.objects.filter(poule__tournament=grown).count() > 0
    assert {path: queries(api, path) for path in paths} == before
    assert {path: queries(public, path) for path in public_paths} == public_before


def test_the_schema_and_its_docs_are_served(api):
    schema = api.get(f"{API}/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    assert b"/api/v1/clubs/{slug}/nights/" in schema.content
    docs = api.get(f"{API}/docs/")
    assert docs.status_code == 200
    assert b"cdn" not in docs.content.lower()
    # The site's CSP: scripts and styles from files only.
    assert b"<style" not in docs.content and b"<script>" not in docs.content
    assert b"/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in docs.content


def test_the_schema_is_valid_openapi_without_a_warning(tmp_path):
    # Every field documented, every view typed: drf-spectacular warns of anything it guesses.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))
    assert "/api/v1/clubs/{slug}/seasons/{season}/ranking/" in (tmp_path / "s.yml").read_text()


def test_a_nul_character_is_refused_before_the_database(
    api, running_night, poule, scorer, club_admin, club
):
    # PostgreSQL stores no NUL in text or JSON: refused in words, never a server error.
    signed(api, scorer)
    path = night_path(running_night, f"poules/{poule.pk}/deals/")
    response = api.post(path, {"deal": {**SOLO, "note": "a\u0000b"}}, format="json")
    assert response.status_code == 400
    assert response.json()["problems"][0]["place"] == "deal.note"
    signed(api, club_admin)
    doc = {"format": "club-night/1", "club": club.name, "players": ["A\u0000"]}
    imported = api.post(f"{API}/clubs/{club.slug}/nights/import/", doc, format="json")
    assert imported.status_code == 400


# The API's guards found wanting in review: throttling behind (or without) proxies and for
# refused keys, 404s that say nothing, an idempotency key reused with another deal, a retry
# after the night's close, If-Modified-Since, the deal's version required, the import a club
# admin's, tokens gone with a new password.


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
