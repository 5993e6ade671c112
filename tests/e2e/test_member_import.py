"""A club admin brings his forty members from an Excel file on a 390 px phone: the file, its
columns as the headings propose them, the lines to check, then the members listed, each with
his invitation on its way."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from club.models import Club, Membership, Player
from tests.club.views.test_member_import import members_rows, xlsx_of

from .test_club_admin import LAYOUTS, shot, usable
from .test_club_night import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def forty_members_imported(page: Page, base: str, club: Club, tmp_path: Path) -> None:
    """The club's admin, signed in on a phone, brings forty members from an Excel file: the
    file, the columns the headings propose, the lines to check, the import; the members page
    then lists them beside whoever was there."""
    workbook = tmp_path / "membres.xlsx"
    workbook.write_bytes(xlsx_of(members_rows(40)))
    listed = Membership.objects.filter(club=club, end=None).count()

    page.goto(f"{base}/clubs/{club.slug}/membres/")
    page.click("text=Importer des membres d'un tableur")
    page.set_input_files("#id_file", str(workbook))
    page.click("button:has-text('Lire le tableau')")

    # The headings proposed each column: Prénom, Nom, E-mail, GSM, Initiales seulement.
    expect(page.locator("#id_first_name")).to_have_value("0")
    expect(page.locator("#id_last_name")).to_have_value("1")
    expect(page.locator("#id_email")).to_have_value("2")
    usable(page, "phone")
    page.click("button:has-text('Continuer')")

    expect(page.locator(".import-counts")).to_contain_text("40 nouveaux membres")
    expect(page.locator(".import-counts")).to_contain_text("32 invitations partiront par e-mail")
    usable(page, "phone")
    shot(page, "phone", "member-import-review")
    # Without a broker (as here) the request itself sends the 32 invitations: a few seconds.
    page.click("button:has-text('Importer les membres')", timeout=60_000)

    expect(page.locator(".messages")).to_contain_text(
        "40 membres importés. 32 invitations partent par e-mail."
    )
    expect(page.locator("ul.members > li")).to_have_count(listed + 40)
    usable(page, "phone")
    assert Membership.objects.filter(club=club, end=None).count() == listed + 40


def test_forty_members_come_from_an_excel_file_on_a_phone(
    live_server, new_context, club, club_admin, tmp_path: Path
):
    base = live_server.url
    page = new_context(locale="fr-BE", **LAYOUTS["phone"]).new_page()
    log_in(page, base, club_admin.username)
    forty_members_imported(page, base, club, tmp_path)
    imported = Player.objects.exclude(user=club_admin)
    assert Membership.objects.filter(club=club, player__in=imported, end=None).count() == 40
