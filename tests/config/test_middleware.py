"""No dead ends: an address that answers a button, reached by a link or typed in, answers the
site's page with the way back (not a blank 405); the API keeps its JSON."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any
from unittest import mock

import psycopg
import pytest
from django.db import OperationalError, close_old_connections, connection
from django.test import Client
from django.urls import reverse

from club.models import ApiToken, FederationAdmin, Player
from club.services import federation_open
from games.dealforms import deal_post
from games.models import Deal, Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["close", "publish", "reopen"])
def test_a_get_of_a_nights_button_address_answers_a_page_back_to_the_night(
    client, running_night, club_admin, name
):
    client.force_login(club_admin)
    club = running_night.club
    response = client.get(reverse(f"games:{name}", args=[club.slug, running_night.pk]))
    assert response.status_code == 405
    assert "POST" in response["Allow"]
    page = response.content.decode()
    assert "Cette adresse répond à un bouton" in page
    assert reverse("games:tournament", args=[club.slug, running_night.pk]) in page


def test_the_undo_address_by_get_says_so_in_english_too(client, running_night, scorer):
    client.force_login(scorer)
    poule = running_night.poules.first()
    club = running_night.club
    response = client.get(
        reverse("games:sheet-undo", args=[club.slug, running_night.pk, poule.pk]),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 405
    assert "<html" in response.content.decode()


def test_the_api_keeps_its_json_405(client, club):
    response = client.delete(f"/api/v1/clubs/{club.slug}/")
    assert response.status_code == 405
    assert response["Content-Type"].startswith("application/json")


# A NUL character in an address's query — a search box, any parameter's name or value — is
# refused once for the whole site, before any view reads it: 400 in words, the site's page or the
# API's ``detail`` and ``problems`` (PostgreSQL refuses NUL in text: the federation's
# administrator search was a 500 there). CI runs this file on PostgreSQL too.


REFUSED = "Le caractère nul n’est pas autorisé dans l’adresse"
API = "/api/v1"


@pytest.fixture
def signed_in(client, club, club_admin, member, running_night):
    """The club's admin, who also runs a federation: he may open every page below."""
    federation = federation_open("Ligue du Brabant", clubs=[club])
    FederationAdmin.objects.create(federation=federation, player=club_admin.player)
    client.force_login(club_admin)
    return client


def pages(club, club_admin, member, night, federation_slug):
    """Every GET page that reads a search or a query parameter, with that parameter."""
    slug, own, other = club.slug, club_admin.player.pk, member.player.pk
    return [
        (reverse("members", args=[slug]), "q"),
        (reverse("members", args=[slug]), "filtre"),
        (reverse("member-merge", args=[slug, own]), "q"),
        (reverse("member-merge-propose", args=[slug, own, other]), "garder"),
        (reverse("federation-admin", args=[federation_slug]), "q"),
        (reverse("club-detail", args=[slug]), "saison"),
        (reverse("club-detail", args=[slug]), "season"),
        (reverse("player", args=[slug, other]), "saison"),
        (reverse("player-statistics", args=[slug, other]), "saison"),
        (reverse("ratings", args=[slug]), "jeu"),
        (reverse("my-results"), "saison"),
        (reverse("point-table-compare", args=[slug, night.point_table.name]), "a"),
        (reverse("games:blank-sheets", args=[slug, night.pk]), "format"),
        (reverse("games:blank-sheets", args=[slug, night.pk]), "tables"),
        (reverse("login"), "next"),
        (f"{API}/clubs/", "page"),
        (f"{API}/clubs/{slug}/nights/", "season"),
        (f"{API}/clubs/{slug}/nights/", "date"),
        (f"{API}/clubs/{slug}/nights/", "game"),
        (f"{API}/clubs/{slug}/players/", "page_size"),
        (f"{API}/clubs/{slug}/ratings/", "game"),
        (f"{API}/me/results/", "season"),
        (f"{API}/me/results/", "club"),
    ]


def test_every_search_and_query_parameter_with_a_nul_is_refused_in_words(
    signed_in, club, club_admin, member, running_night
):
    federation = FederationAdmin.objects.get().federation
    signed_in.raise_request_exception = False  # a 500 is listed with the others
    refused = []
    for path, name in pages(club, club_admin, member, running_night, federation.slug):
        response = signed_in.get(path, {name: "Anne\x00"})
        said = response.content.decode()
        if response.status_code != 400 or f"{REFUSED} : le paramètre « {name} »" not in said:
            refused.append((path, name, response.status_code))

    assert refused == []


def test_the_page_says_it_in_the_sites_layout_with_a_way_back(signed_in, club):
    response = signed_in.get(reverse("members", args=[club.slug]), {"q": "\x00"})

    assert response.status_code == 400
    assert "Demande refusée" in response.text
    assert f'href="{reverse("home")}"' in response.text
    assert response["Content-Language"] == "fr"


def test_the_api_says_it_with_the_parameter_as_the_place(signed_in, club):
    response = signed_in.get(f"{API}/clubs/{club.slug}/nights/", {"season": "2025\x00"})

    assert response.status_code == 400
    assert response.json()["problems"] == [
        {
            "code": "nul_character",
            "place": "season",
            "message": f"{REFUSED} : le paramètre « season » en contient un.",
        }
    ]


def test_a_parameters_name_with_a_nul_is_refused_too(client, club):
    response = client.get(f"/clubs/{club.slug}/?sai%00son=2025")

    assert response.status_code == 400
    assert "le paramètre « sai\u2400son »" in response.text


@pytest.mark.parametrize(
    "path", ["/compte/invitation/%00/", "/clubs/rcwhist/salle/%00/", "/api/v1/clubs/a%00b/"]
)
def test_a_path_with_a_nul_is_not_found(client, club, path):
    # The URL converters' answer: no slug nor number holds a NUL, and a link's token is
    # hashed before it is looked up (no NUL reaches the database).
    assert client.get(path).status_code == 404


def test_a_form_sent_with_a_nul_in_its_address_is_refused_before_it_is_read(signed_in, club):
    response = signed_in.post(
        reverse("member-add", args=[club.slug]) + "?next=%00", {"display_name": "Anne"}
    )

    assert response.status_code == 400


# What no name holds (a NUL character) typed in a page's free-text field is refused in words by
# a form field, never sent to the database (PostgreSQL refuses NUL in text: a 500 before); typed
# in a search box, it is in the address, refused before any page reads it (the tests above).


def test_a_members_search_with_a_nul_is_refused_and_says_why(client, club, club_admin):
    client.force_login(club_admin)
    response = client.get(reverse("members", args=[club.slug]), {"q": "Anne\x00"})
    assert response.status_code == 400
    assert "Le caractère nul n’est pas autorisé dans l’adresse" in response.text


def test_an_api_keys_name_with_a_nul_is_refused_and_no_key_is_made(client, member):
    client.force_login(member)
    response = client.post(reverse("api-tokens"), {"name": "outil\x00"})
    assert response.status_code == 400  # said on the page, as any refused name
    assert "Le caractère nul n’est pas autorisé." in response.text
    assert not ApiToken.objects.exists()


def test_a_guests_name_with_a_nul_is_refused_on_the_presence_page(
    client, running_night: Tournament, scorer
):
    client.force_login(scorer)
    before = Player.objects.count()
    response = client.post(
        reverse("games:player-add", args=[running_night.club.slug, running_night.pk]),
        {"display_name": "Invité\x00 Dubois", "guest": "on"},
        follow=True,
    )
    assert response.status_code == 200
    assert "caractère invisible" in response.text
    assert Player.objects.count() == before


# A dropped database connection is invisible (config.middleware.DatabaseDropRetried and
# ``CONN_HEALTH_CHECKS``): PostgreSQL dropping the site's connection, between two requests or in
# the middle of one, costs the reader nothing; while the database does not answer at all, pages
# and /healthz answer 503 with ``Retry-After``, never 500.

drop_urls = pytest.mark.urls("tests.config.database_drop_urls")
without_debug = pytest.mark.usefixtures("no_debug")


on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL drops connections; SQLite has none"
)


@pytest.fixture
def no_debug(settings):
    settings.DEBUG = False


def terminated(pid: int) -> None:
    """What a restart or a failover does to a connection: PostgreSQL ends it (another session's
    ``pg_terminate_backend``), and it is gone before the next statement."""
    db = connection.settings_dict
    with psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname=db["NAME"],
        autocommit=True,
    ) as side:
        side.execute("SELECT pg_terminate_backend(%s)", [pid])
        for _ in range(100):
            if not side.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone():
                return
            time.sleep(0.02)


def backend_pid() -> int:
    connection.ensure_connection()
    return connection.connection.info.backend_pid


@on_postgresql
@pytest.mark.django_db(transaction=True)
@drop_urls
@without_debug
def test_a_connection_dropped_between_two_requests_is_replaced_before_the_second(club):
    reader = Client(raise_request_exception=False)
    assert reader.get(reverse("club-detail", args=[club.slug])).status_code == 200

    terminated(backend_pid())
    close_old_connections()  # what the server does as each request starts

    assert reader.get(reverse("club-detail", args=[club.slug])).status_code == 200


@on_postgresql
@pytest.mark.django_db(transaction=True)
@drop_urls
@without_debug
def test_a_connection_dropped_during_a_deal_saves_the_deal_once(scorer, running_night):
    poule = running_night.poules.order_by("table").first()
    dropped: list[int] = []

    def drop_at_the_deals_insert(execute: Callable, sql: str, *args: Any) -> Any:
        if not dropped and str(sql).startswith('INSERT INTO "games_deal"'):
            dropped.append(backend_pid())
            terminated(dropped[0])
        return execute(sql, *args)

    phone = Client(raise_request_exception=False)
    phone.force_login(scorer)
    sheet = reverse(
        "games:sheet",
        kwargs={"slug": running_night.club.slug, "pk": running_night.pk, "poule_pk": poule.pk},
    )
    form = {
        **deal_post(poule, {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}),
        "client_key": "6f1c9a52-1d3e-4b7a-9a43-0c4a3f0d7e11",
    }
    with connection.execute_wrapper(drop_at_the_deals_insert):
        response = phone.post(sheet, form, headers={"HX-Request": "true"})

    assert dropped, "the connection was dropped in the middle of the request"
    assert response.status_code == 200
    assert Deal.objects.filter(poule=poule).count() == 1


@pytest.mark.django_db(transaction=True)
@drop_urls
@without_debug
def test_a_page_answers_503_with_retry_after_while_the_database_is_unreachable(db):
    reader = Client(raise_request_exception=False)
    connection.close()
    refused = connection.Database.OperationalError("connection refused")
    with mock.patch.object(connection, "get_new_connection", side_effect=refused):
        response = reader.get("/clubs-comptes/")

    assert response.status_code == 503
    assert response["Retry-After"] == "10"
    assert "ne joint plus sa base de données" in response.content.decode()


@pytest.mark.django_db(transaction=True)
@drop_urls
@without_debug
def test_a_statement_that_fails_while_the_database_answers_stays_a_500(db):
    reader = Client(raise_request_exception=False)

    response = reader.get("/requete-cassee/")

    assert response.status_code == 500
    assert "Retry-After" not in response


@pytest.mark.django_db
@drop_urls
@without_debug
def test_healthz_says_the_database_is_unreachable_with_retry_after(client):
    with mock.patch("front.views.health.connection.cursor", side_effect=OperationalError):
        response = client.get(reverse("healthz"))

    assert response.status_code == 503
    assert response["Retry-After"] == "10"
    assert response.json()["status"] == "error"
    assert response.json()["database"] == "error: OperationalError"
