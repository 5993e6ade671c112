"""A club admin writes « Le club » on a 390 px phone; a visitor finds it from the club's page,
and reads the point table on the same phone without the page running off the screen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import page_width

from .test_club_night import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE_390 = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_an_admin_writes_le_club_and_a_visitor_reads_it_from_the_club_page(
    live_server, new_context, club, season, club_admin
):
    base = live_server.url
    admin = new_context(locale="fr-BE", **PHONE_390).new_page()
    log_in(admin, base, club_admin.username)
    admin.goto(f"{base}/clubs/{club.slug}/")
    admin.click("text=Gestion du club")
    admin.click(".admin-index >> text=Pages du site du club")
    admin.click("text=Nouvelle page")
    admin.fill("#id_title", "Le club")
    admin.fill(
        "#id_text",
        "## Où et quand\n\nLe **deuxième jeudi** du mois, salle du Manège.\n\n"
        "<script>document.title='piraté'</script>",
    )
    admin.click("form.stacked button[type=submit]")
    expect(admin.locator(".messages")).to_contain_text("Page « Le club » enregistrée")

    visitor = new_context(locale="fr-BE", **PHONE_390).new_page()
    visitor.goto(f"{base}/clubs/{club.slug}/")
    visitor.click(".club-site-menu >> text=Le club")
    expect(visitor.locator(".site-page h1")).to_have_text("Le club")
    expect(visitor.locator(".site-page-text h2#ou-et-quand")).to_have_text("Où et quand")
    expect(visitor.locator(".site-page-text strong")).to_have_text("deuxième jeudi")
    # The script is shown as typed, never run.
    expect(visitor.locator(".site-page-text")).to_contain_text("<script>")
    assert visitor.title() != "piraté"
    assert page_width(visitor) <= 390

    # The point table on the phone: each contract on its own, its cells seven to a line.
    visitor.click(".club-site-menu >> text=Table des points")
    expect(visitor.locator("table.point-table")).to_be_hidden()
    expect(visitor.locator(".contract-cards h2").first).to_have_text("Emballage 8")
    assert page_width(visitor) <= 390


def test_the_point_table_prints_on_one_a4_sheet(live_server, new_context, club, season):
    page = new_context(locale="fr-BE").new_page()
    page.goto(f"{live_server.url}/clubs/{club.slug}/table-des-points/")
    expect(page.locator("table.point-table")).to_be_visible()
    pdf = page.pdf(prefer_css_page_size=True, print_background=True)
    # Each sheet of the PDF is one "/Type /Page" object (the tree's root is "/Type /Pages").
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 1
