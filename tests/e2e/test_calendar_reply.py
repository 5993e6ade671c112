"""A member answers from the reminder e-mail's link on a 390 × 844 phone, without signing in:
the link, then "Je viens" — two taps, counted — and the answer is stored and shown."""

from __future__ import annotations

import datetime

import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from games import calendar
from games.calendar.mailing import reminders_send
from games.models import Reply
from tests.e2e.test_phone_sheet import PHONE, Taps, screenshot
from tests.factories import PlayerFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_member_answers_from_the_emails_link_in_two_taps(
    new_context, live_server, club, settings
):
    settings.SITE_URL = live_server.url
    player = PlayerFactory(club=club, email="anne@example.org")
    night = calendar.night_plan(
        club,
        timezone.localdate() + datetime.timedelta(days=2),
        calendar.NightPlan(place="Salle Saint-Roch", cap=16),
    )
    assert reminders_send(night.pk) == 1
    (message,) = mail.outbox
    html = message.alternatives[0][0]

    page = new_context(viewport=PHONE, locale="fr-BE", is_mobile=True, has_touch=True).new_page()
    page.set_content(html)  # the e-mail, as the phone's mail application shows it
    taps = Taps()
    taps.click(page.get_by_role("link", name="Répondre"))
    page.wait_for_url(f"{live_server.url}/**/calendrier/reponse/**")
    yes = page.get_by_role("button", name="Je viens")
    box = yes.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"]  # first screen
    assert box["height"] >= 44  # a thumb's target
    taps.click(yes)
    expect(page.locator(".my-answer")).to_contain_text("Je viens")
    screenshot(page, "calendar-reply")

    assert taps.count <= 2
    print(f"\nanswer from the e-mail's link: {taps.count} taps")
    assert Reply.objects.get(night=night, player=player).answer == Reply.Answer.YES
