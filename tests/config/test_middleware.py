"""A dropped database connection is invisible (config.middleware.DatabaseDropRetried and
``CONN_HEALTH_CHECKS``): PostgreSQL dropping the site's connection, between two requests or in
the middle of one, costs the reader nothing; while the database does not answer at all, pages
and /healthz answer 503 with ``Retry-After``, never 500."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any
from unittest import mock

import psycopg
import pytest
from django.db import OperationalError, close_old_connections, connection
from django.http import HttpResponse
from django.test import Client
from django.urls import path, reverse

from club.models import Club
from config import urls as site_urls
from games.dealforms import deal_post
from games.models import Deal

pytestmark = pytest.mark.urls(__name__)

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL drops connections; SQLite has none"
)


def club_count(request):
    return HttpResponse(str(Club.objects.count()))


def broken_statement(request):
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM pas_une_table")


urlpatterns = [
    *site_urls.urlpatterns,
    path("clubs-comptes/", club_count),
    path("requete-cassee/", broken_statement),
]
handler500 = site_urls.handler500


@pytest.fixture(autouse=True)
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
def test_a_connection_dropped_between_two_requests_is_replaced_before_the_second(club):
    reader = Client(raise_request_exception=False)
    assert reader.get(reverse("club-detail", args=[club.slug])).status_code == 200

    terminated(backend_pid())
    close_old_connections()  # what the server does as each request starts

    assert reader.get(reverse("club-detail", args=[club.slug])).status_code == 200


@on_postgresql
@pytest.mark.django_db(transaction=True)
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
def test_a_statement_that_fails_while_the_database_answers_stays_a_500(db):
    reader = Client(raise_request_exception=False)

    response = reader.get("/requete-cassee/")

    assert response.status_code == 500
    assert "Retry-After" not in response


@pytest.mark.django_db
def test_healthz_says_the_database_is_unreachable_with_retry_after(client):
    with mock.patch("front.views.health.connection.cursor", side_effect=OperationalError):
        response = client.get(reverse("healthz"))

    assert response.status_code == 503
    assert response["Retry-After"] == "10"
    assert response.json()["status"] == "error"
    assert response.json()["database"] == "error: OperationalError"
