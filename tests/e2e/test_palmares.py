"""The palmarès on a 390 px phone: the club admin publishes a night in which a solo chelem was
made; a visitor finds it on the club's palmarès with its night, follows the link to the night's
results, whose page names its podium picture for the messaging apps."""

from __future__ import annotations

import pytest
from django.core.files.storage import default_storage
from django.urls import reverse
from playwright.sync_api import expect

from club.models import Membership
from clubsite.share import night_picture_name
from scoring import services as scoring
from tests.e2e.conftest import page_width
from tests.factories import PlayerFactory, UserFactory

from .test_phone_sheet import PHONE, a_night, belgian_deals, phone_context, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CHELEM = {"contract": "chelem", "bid": 13, "declarers": ["1"], "tricks": 13}


def test_a_visitor_finds_the_chelem_of_a_night_just_published_on_the_palmares(
    live_server, new_context, club, season
):
    admin = UserFactory(username="presidente")
    PlayerFactory(user=admin, club=club, club__role=Membership.Role.ADMIN)
    night = a_night(club, season, "rcwhist", 4)
    poule = night.poules.get()
    scoring.deals_record(poule, [CHELEM, *belgian_deals(4, 3)])
    scoring.tournament_close(night, unfinished_ok=True)
    declarer = poule.seats.get(number=1).player.display_name
    palmares = live_server.url + reverse("palmares", args=[club.slug])

    phone = phone_context(new_context, live_server, admin).new_page()
    phone.goto(live_server.url + reverse("games:tournament", args=[club.slug, night.pk]))
    phone.get_by_role("button", name="Publier les feuilles").click()
    expect(phone.get_by_text("Soirée publiée")).to_be_visible()
    assert default_storage.exists(night_picture_name(night))

    public = new_context(viewport=PHONE, locale="fr-BE", is_mobile=True, has_touch=True)
    visitor = public.new_page()
    visitor.goto(palmares)
    expect(visitor.get_by_role("heading", name="Palmarès", exact=True)).to_be_visible()
    made = visitor.locator("#contracts-made + ul li")
    expect(made).to_have_count(1)
    expect(made).to_contain_text("Solo chelem")
    expect(made).to_contain_text(declarer)
    assert page_width(visitor) <= PHONE["width"]
    screenshot(visitor, "palmares-phone")

    made.get_by_role("link").first.click()
    expect(visitor).to_have_url(
        live_server.url + reverse("games:results", args=[club.slug, night.pk])
    )
    image = visitor.locator('meta[property="og:image"]').get_attribute("content")
    assert image.startswith(live_server.url) and night_picture_name(night) in image
