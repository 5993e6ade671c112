"""The secretary on her phone (390 × 844), a night's replies open: she sees who has not
answered, records what Bruno (no e-mail address) told her at the bar in one tap, and copies
the message for the club's chat group with its button."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from games import calendar
from games.models import Reply
from tests.e2e.conftest import page_width
from tests.e2e.test_phone_sheet import screenshot
from tests.factories import PlayerFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def test_the_secretary_records_a_reply_by_hand_and_copies_the_groups_message(
    new_context, live_server, club, club_admin, settings
):
    settings.SITE_URL = live_server.url
    bruno = PlayerFactory(club=club, display_name="Bruno Sans-Adresse")
    PlayerFactory(club=club, display_name="Anne Dupont", email="anne@example.org")
    night = calendar.night_plan(
        club,
        timezone.localdate() + datetime.timedelta(days=5),
        calendar.NightPlan(place="Salle Saint-Roch", cap=16),
    )
    context = new_context(viewport=PHONE, locale="fr-BE", is_mobile=True, has_touch=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    client = Client()
    client.force_login(club_admin)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/clubs/{club.slug}/soirees/calendrier/{night.pk}/reponses/")

    silent = page.locator("#sans-reponse li", has_text="Bruno Sans-Adresse")
    expect(silent).to_contain_text("pas d'e-mail")
    screenshot(page, "calendar-replies")
    silent.get_by_role("button", name="Oui").click()
    expect(page.locator("body")).to_contain_text("Réponse de Bruno Sans-Adresse enregistrée.")
    assert Reply.objects.get(night=night, player=bruno).answer == Reply.Answer.YES

    copy = page.locator('[data-copy="group-message"]')
    copy.click()
    expect(copy).to_have_text("Copié")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert "Salle Saint-Roch" in copied and f"#soiree-{night.pk}" in copied

    # The planning table, with its venue, cap and « Modifier », scrolls inside its own box:
    # the page never scrolls sideways, and each row's action is finger-sized.
    page.goto(f"{live_server.url}/clubs/{club.slug}/soirees/calendrier/gestion/")
    assert page_width(page) <= PHONE["width"]
    change = page.get_by_role("link", name="Modifier").first.bounding_box()
    assert change["width"] >= 44 and change["height"] >= 44
    # So is the reply page's folded link to each silent member's answer.
    page.goto(f"{live_server.url}/clubs/{club.slug}/soirees/calendrier/{night.pk}/reponses/")
    summary = page.locator("details.share summary").first.bounding_box()
    assert summary["height"] >= 44
