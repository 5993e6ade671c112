"""A stranger signs her club up on her phone (390 × 844), as she would having heard of the site
from a neighbouring club: the home page's « Créer un club », her address, the e-mail's link,
her password, the club, its first season; then (approval mode) the operator approves it in
Django's admin; the club's page shows her its first steps, she brings its forty members from
an Excel file (the member import's own walk, tests/e2e/test_member_import.py) and plans its
first night on the calendar, each step ticked when done: issue 35's "Done when" walk. Once
for each mode that lets a club in (closed: a unit test, tests/club/views/test_signup.py)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core import mail
from django.test import Client
from playwright.sync_api import BrowserContext, Page, expect

from club.models import Club, ClubSignup, Membership
from games.models import PlannedNight
from tests.e2e.conftest import page_width
from tests.e2e.test_member_import import forty_members_imported
from tests.e2e.test_phone_sheet import screenshot
from tests.factories import ClubFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
PASSWORD = "trefle-carreau-pique-coeur"
LINK = re.compile(r"https?://\S+/inscription/confirmer/[^/\s]+/")


def never_sideways(page: Page) -> None:
    width = page_width(page)
    assert width <= PHONE["width"], f"{page.url} is {width}px wide"


def logged_in_context(new_context, live_server, settings, user) -> BrowserContext:
    client = Client()
    client.force_login(user)
    context = new_context(locale="fr-BE")
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    return context


def operator_approves(new_context, live_server, settings, superuser) -> None:
    """The operator, at his desk, ticks the waiting club in the admin's list and approves it."""
    desk = logged_in_context(new_context, live_server, settings, superuser).new_page()
    desk.goto(f"{live_server.url}/admin/club/clubsignup/")
    row = desk.locator("#result_list tr", has_text="Whist Club de Ciney")
    expect(row).to_contain_text("En attente d'approbation")
    row.locator("input.action-select").check()
    desk.select_option("select[name=action]", "approve")
    desk.locator("button[name=index], input[name=index]").first.click()
    expect(desk.locator(".messagelist")).to_contain_text("Whist Club de Ciney : fait.")


@pytest.mark.parametrize("mode", ["open", "approval"])
def test_a_stranger_signs_her_club_up_imports_its_members_and_plans_its_first_night(
    mode, new_context, live_server, settings, superuser, mailoutbox, tmp_path
):
    settings.CLUB_SIGNUP = mode
    settings.SITE_URL = live_server.url
    superuser.email = "operateur@example.org"
    superuser.save()
    ClubFactory(name="Cercle des Cœurs de Namur", town="Namur", default_rules="coeurs")
    phone = new_context(viewport=PHONE, locale="fr-BE", is_mobile=True, has_touch=True)
    page = phone.new_page()

    # The home page lists the clubs, and offers hers a place.
    page.goto(f"{live_server.url}/")
    expect(page.locator("main")).to_contain_text("Cercle des Cœurs de Namur")
    never_sideways(page)
    page.get_by_role("link", name="Créer un club").click()
    page.get_by_label("Votre adresse e-mail").fill("marie@example.org")
    page.get_by_label("Votre nom").fill("Marie Lambert")
    screenshot(page, f"signup-{mode}-1-address")
    page.get_by_role("button", name="Recevoir le lien de confirmation").click()
    expect(page.locator("h1")).to_have_text("Vérifiez votre boîte e-mail")

    # The e-mail's link: her password opens her account.
    (letter,) = [m for m in mail.outbox if m.to == ["marie@example.org"]]
    page.goto(LINK.search(letter.body).group(0))
    page.locator("#id_new_password1").fill(PASSWORD)
    page.locator("#id_new_password2").fill(PASSWORD)
    page.get_by_role("button", name="Ouvrir mon compte et continuer").click()

    # The club, then its first season and rules.
    expect(page.locator("h1")).to_have_text("Le club")
    page.get_by_label("Nom du club").fill("Whist Club de Ciney")
    page.locator("#id_town").fill("Ciney")
    page.get_by_label("Jeu et tableau des points").select_option("rcwhist")
    page.get_by_label("Montrer le club dans la liste").check()
    never_sideways(page)
    screenshot(page, f"signup-{mode}-3-club")
    page.get_by_role("button", name="Continuer : la première saison").click()
    expect(page.locator("h1")).to_have_text("La première saison")
    page.get_by_label("Meilleures soirées retenues").fill("18")
    page.get_by_role("button", name="Continuer : vérifier et envoyer").click()
    expect(page.locator("main")).to_contain_text("/clubs/whist-club-de-ciney/")
    never_sideways(page)
    screenshot(page, f"signup-{mode}-5-review")

    if mode == "approval":
        page.get_by_role("button", name="Envoyer la demande").click()
        expect(page.locator("h1")).to_have_text("Demande envoyée")
        assert not Club.objects.filter(name="Whist Club de Ciney").exists()
        assert any(m.to == ["operateur@example.org"] for m in mail.outbox)
        operator_approves(new_context, live_server, settings, superuser)
        (answer,) = [m for m in mail.outbox if "est ouvert" in m.subject]
        page.goto(re.search(r"https?://\S+/clubs/[^/\s]+/", answer.body).group(0))
    else:
        page.get_by_role("button", name="Créer le club").click()

    # The club's page: her first steps, none done but the table and colours to look at.
    club = Club.objects.get(name="Whist Club de Ciney")
    assert Membership.objects.get(club=club).role == Membership.Role.ADMIN
    assert ClubSignup.objects.get(club=club).status == ClubSignup.Status.OPENED
    steps = page.locator(".club-start-steps")
    expect(steps).to_be_visible()
    expect(page.locator("#step-calendar")).to_have_class("to-do")
    never_sideways(page)
    screenshot(page, f"signup-{mode}-6-checklist")

    # Her members from the club's Excel file; the step is ticked.
    expect(page.locator("#step-members")).to_have_class("to-do")
    forty_members_imported(page, live_server.url, club, tmp_path)
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    expect(page.locator("#step-members")).to_have_class("done")

    # Her first night on the calendar, a week from now: the step is ticked.
    page.get_by_role("link", name="Prévoir les prochaines soirées au calendrier").click()
    night = datetime.date.today() + datetime.timedelta(days=7)
    page.locator("#id_night-date").fill(night.isoformat())
    page.get_by_role("button", name="Ajouter la soirée").click()
    expect(page.locator(".messages")).to_be_visible()
    assert PlannedNight.objects.filter(club=club, date=night).exists()
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    expect(page.locator("#step-calendar")).to_have_class("done")
    # And the home page lists it, with that night.
    page.goto(f"{live_server.url}/")
    card = page.locator(".card", has_text="Whist Club de Ciney")
    expect(card).to_contain_text("Ciney")
    expect(card).to_contain_text("Prochaine soirée")
