"""A night published, then taken back, on a 390 px phone: the club admin does both from the
night's page; a visitor's phone finds it on the club's page once published, and no longer
once taken back (its results page is then the site's 404), while the admin still finds it."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from club.models import Membership
from scoring import services as scoring
from tests.e2e.conftest import page_width
from tests.factories import PlayerFactory, UserFactory

from .test_phone_sheet import PHONE, a_night, belgian_deals, phone_context, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_night_taken_back_leaves_the_clubs_public_page(live_server, new_context, club, season):
    admin = UserFactory(username="presidente")
    PlayerFactory(user=admin, club=club, club__role=Membership.Role.ADMIN)
    night = a_night(club, season, "rcwhist", 4)
    poule = night.poules.get()
    scoring.deals_record(poule, belgian_deals(4, 3))
    scoring.tournament_close(night, unfinished_ok=True)
    name = str(night)
    club_page = live_server.url + reverse("club-detail", args=[club.slug])
    results = live_server.url + reverse("games:results", args=[club.slug, night.pk])

    phone = phone_context(new_context, live_server, admin).new_page()
    visitor = new_context(viewport=PHONE, locale="fr-BE", is_mobile=True, has_touch=True)
    public = visitor.new_page()
    public.goto(club_page)
    expect(public.get_by_text(name)).to_have_count(0)

    phone.goto(live_server.url + reverse("games:tournament", args=[club.slug, night.pk]))
    phone.get_by_role("button", name="Publier les feuilles").click()
    expect(phone.get_by_text("Soirée publiée")).to_be_visible()
    public.reload()
    # In the season's nights (the club's home shows the latest podium too).
    expect(public.locator("#nights").get_by_role("link", name=name)).to_be_visible()
    screenshot(public, "club-page-night-published")

    phone.get_by_role("button", name="Dépublier les feuilles").click()
    phone.get_by_role("button", name="Dépublier la soirée").click()
    expect(phone.get_by_text("Soirée dépubliée")).to_be_visible()

    public.reload()
    expect(public.get_by_text(name)).to_have_count(0)
    assert page_width(public) <= PHONE["width"]
    screenshot(public, "club-page-night-taken-back")
    assert public.goto(results).status == 404
    phone.goto(club_page)
    expect(phone.locator("#nights").get_by_role("link", name=name)).to_be_visible()
