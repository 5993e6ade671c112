"""The error pages (403, 404, 500) with DEBUG off: in the site's layout and the reader's
language, each with a way back; the 500 page renders even when nothing else does."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import path, reverse

from config import urls as site_urls
from front.views import errors
from games.dealforms import deal_post
from scoring import services as scoring_services

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]

SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 7}


def broken_page(request):
    raise RuntimeError("a bug in a page")


# A page that breaks, then the site's addresses and handlers (this module is the URLconf). The
# broken page comes first: a club's own pages take every other word under its address.
urlpatterns = [
    path("casse/", broken_page),
    path("clubs/<slug:slug>/casse/", broken_page),
    *site_urls.urlpatterns,
]
handler403 = site_urls.handler403
handler404 = site_urls.handler404
handler500 = site_urls.handler500


@pytest.fixture(autouse=True)
def no_debug(settings):
    settings.DEBUG = False


def test_an_unknown_address_is_a_404_in_the_sites_layout_with_a_way_home(client):
    response = client.get("/pas-une-page/")

    assert response.status_code == 404
    page = response.content.decode()
    assert 'class="site-header' in page
    assert "Page introuvable" in page
    assert f'href="{reverse("home")}"' in page
    assert "data-error-message" in page


@pytest.mark.parametrize("address", ["soirees/999/", "pas-une-page/"])
def test_a_404_inside_a_club_leads_back_to_the_club(client, club, address):
    response = client.get(f"/clubs/{club.slug}/{address}")

    assert response.status_code == 404
    assert f'href="{reverse("club-detail", args=[club.slug])}"' in response.content.decode()


def test_a_404_for_a_club_that_does_not_exist_leads_home_only(client, club):
    response = client.get("/clubs/pas-un-club/")

    assert response.status_code == 404
    assert 'href="/clubs/' not in response.content.decode()


@pytest.mark.parametrize("language", ["fr", "en", "nl"])
def test_the_404_page_speaks_the_readers_language(client, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    page = client.get("/pas-une-page/").content.decode()

    assert f'<html lang="{language}"' in page


def test_a_member_refused_a_page_gets_a_403_with_the_way_back_to_his_club(
    client, running_night, member
):
    client.force_login(member)
    poule = running_night.poules.first()

    response = client.get(
        reverse("games:sheet", args=[running_night.club.slug, running_night.pk, poule.pk])
    )

    assert response.status_code == 403
    page = response.content.decode()
    assert "Accès refusé" in page
    assert f'href="{reverse("club-detail", args=[running_night.club.slug])}"' in page
    assert "scorers" not in page  # the developer's reason is not the reader's


def test_a_deal_sent_to_a_closed_night_is_refused_saying_the_night_is_closed(
    client, running_night, scorer
):
    poule = running_night.poules.first()
    scoring_services.deal_record(poule, SOLO)
    scoring_services.tournament_close(running_night, unfinished_ok=True)
    client.force_login(scorer)

    response = client.post(
        reverse("games:sheet", args=[running_night.club.slug, running_night.pk, poule.pk]),
        deal_post(poule, SOLO),
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 403
    assert "Cette soirée est clôturée" in response.content.decode()


def test_a_broken_page_answers_the_500_page_in_the_sites_layout():
    client = Client(raise_request_exception=False)

    response = client.get("/casse/")

    assert response.status_code == 500
    page = response.content.decode()
    assert 'class="site-header' in page
    assert "Erreur du serveur" in page
    assert f'href="{reverse("home")}"' in page
    assert 'class="site-nav"' not in page  # the menu depends on the user: not on this page


def test_a_broken_club_page_leads_back_to_the_club(club):
    client = Client(raise_request_exception=False)

    response = client.get(f"/clubs/{club.slug}/casse/")

    assert response.status_code == 500
    assert f'href="{reverse("club-detail", args=[club.slug])}"' in response.content.decode()


def test_the_500_page_never_raises_even_when_its_template_cannot_render(monkeypatch, rf):
    def cannot_render(name):
        raise RuntimeError("the template engine is broken too")

    monkeypatch.setattr(errors.loader, "get_template", cannot_render)

    response = errors.server_error(rf.get("/casse/"))

    assert response.status_code == 500
    assert "Erreur du serveur" in response.content.decode()
