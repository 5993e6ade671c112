"""A paper score sheet typed in after the night, with the keyboard alone (Tab from field to
field, Enter to the next row, Enter on the last row sends it), and the printed sheets of a
round, whose QR codes a phone's camera reads from the printed page."""

from __future__ import annotations

import io

import pytest
import zxingcpp
from django.urls import reverse
from PIL import Image
from playwright.sync_api import expect

from club.models import Membership
from games.models import Deal
from tests.e2e.conftest import page_width
from tests.factories import PlayerFactory, UserFactory

from .test_phone_sheet import a_night, phone_context, screenshot, sheet_url

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Twelve deals as a paper sheet has them: contract code, declarers' seats, tricks.
PAPER = [
    ("E8", "13", "9"),
    ("S6", "2", "7"),
    ("PM", "24", "0 2"),
    ("E9", "14", "8"),
    ("A9", "3", "10"),
    ("T8", "12", "8"),
    ("S7", "4", "5"),
    ("E8", "23", "10"),
    ("GM", "1", "0"),
    ("E10", "34", "11"),
    ("S6", "1", "6"),
    ("E8", "24", "7"),
]


def entry_page(live_server, new_context, club, season, players: int):
    """A scorer's phone on the paper entry of a night's one table of ``players``."""
    user = UserFactory(username="marqueur")
    PlayerFactory(user=user, club=club, club__role=Membership.Role.SCORER)
    tournament = a_night(club, season, "rcwhist", players)
    poule = tournament.poules.get()
    page = phone_context(new_context, live_server, user).new_page()
    entry = reverse("games:sheet-entry", args=[club.slug, tournament.pk, poule.pk])
    page.goto(live_server.url + entry)
    return page, poule


def test_a_12_deal_paper_sheet_typed_in_with_the_keyboard_alone(
    live_server, new_context, club, season
):
    page, poule = entry_page(live_server, new_context, club, season, 4)
    # The first field has the focus: no mouse, no tap from here on.
    expect(page.locator("input[name=contract-0]")).to_be_focused()
    for index, (code, declarers, tricks) in enumerate(PAPER):
        page.keyboard.type(code)
        page.keyboard.press("Tab")
        page.keyboard.type(declarers)
        page.keyboard.press("Tab")
        page.keyboard.type(tricks)
        if index < len(PAPER) - 1:
            page.keyboard.press("Enter")
            expect(page.locator(f"input[name=contract-{index + 1}]")).to_be_focused()
    screenshot(page, "paper-sheet-typed")
    page.keyboard.press("Enter")  # the last row: the sheet is sent
    page.wait_for_url(sheet_url(live_server.url, poule))
    deals = list(poule.deals.order_by("position"))
    assert len(deals) == 12
    assert deals[0].data == {
        "contract": "emballage",
        "bid": 8,
        "declarers": ["1", "3"],
        "tricks": 9,
    }
    assert deals[2].data["tricks"] == {"2": 0, "4": 2}
    poule.refresh_from_db()
    assert poule.counted_deals == 12


def test_the_printed_round_has_a_table_per_page_and_its_qr_code_reads_from_the_paper(
    live_server, new_context, club, season
):
    user = UserFactory(username="marqueur")
    PlayerFactory(user=user, club=club, club__role=Membership.Role.SCORER)
    tournament = a_night(club, season, "rcwhist", 9)
    page = phone_context(new_context, live_server, user).new_page()
    url = reverse("games:paper-sheets", args=[club.slug, tournament.pk, 1])
    page.set_viewport_size({"width": 800, "height": 3000})  # the round's sheets in one view
    page.goto(live_server.url + url)
    sheets = page.locator(".paper-sheet")
    expect(sheets).to_have_count(2)
    for index, poule in enumerate(tournament.poules.order_by("table")):
        shot = Image.open(
            io.BytesIO(sheets.nth(index).locator("svg.qr").screenshot(scale="device"))
        )
        paper = Image.new("RGBA", shot.size, "white")
        paper.alpha_composite(shot.convert("RGBA"))
        decoded = [r.text for r in zxingcpp.read_barcodes(paper.convert("L"))]
        assert decoded == [sheet_url(live_server.url, poule)]
    page.emulate_media(media="print")
    # A table per page, on A4 and on A5 (the print style sheet's named pages).
    pdf = page.pdf(prefer_css_page_size=True)
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == 2
    assert b"/MediaBox [0 0 594.9" in pdf  # A4: 595 × 842 points
    page.goto(live_server.url + url + "?format=a5")
    pdf = page.pdf(prefer_css_page_size=True)
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == 2
    assert b"/MediaBox [0 0 420 594.9" in pdf  # A5: 420 × 595 points


def test_a_paper_sheet_with_mistakes_is_flagged_row_by_row_and_a_pass_moves_the_rows_after_it(
    live_server, new_context, club, season
):
    """At 390 px, a table of 5 typed in: every mistake on the first submit, each on its row,
    nothing recorded; a pass typed in a row renumbers the rows after it in the page (same
    dealer, same mort) as the site then records them; the confirmation counts the pass apart."""
    page, poule = entry_page(live_server, new_context, club, season, 5)
    assert page.viewport_size["width"] == 390

    def row(index):
        return page.locator("tr[data-row]").nth(index)

    def cells(index):
        line = row(index)
        return [
            line.locator(f"[data-{part}]").inner_text() for part in ("number", "dealer", "mort")
        ]

    # Row 1: 14 tricks; row 2: a solo without its declarer.
    page.fill("input[name=contract-0]", "E8 23 14")
    page.fill("input[name=contract-1]", "S6")
    page.fill("input[name=tricks-1]", "7")
    page.fill("input[name=contract-2]", "A9 4 9")
    page.get_by_role("button", name="Enregistrer la feuille").click()
    problems = page.locator("tr.row-problems")
    expect(problems).to_have_count(2)
    expect(problems.nth(0)).to_contain_text("14 plis")
    expect(problems.nth(1)).to_contain_text("Déclarants")
    expect(page.get_by_role("alert")).to_contain_text("Rien n'est enregistré")
    assert not Deal.objects.filter(poule=poule).exists()
    # Every field of a row on the screen: nothing scrolls sideways (measured once loaded).
    assert page_width(page) <= 390
    screenshot(page, "paper-entry-every-mistake")

    # Row 2 becomes a pass: it takes no number and seat 2 deals again, the mort again.
    assert cells(2) == ["3", "3", "3"]
    page.fill("input[name=contract-1]", "P")
    page.fill("input[name=tricks-1]", "")
    assert cells(1) == ["–", "2", "2"]
    assert cells(2) == ["2", "2", "2"]
    assert cells(3) == ["3", "3", "3"]
    rows = page.locator("tr[data-row]")
    expect(rows).to_have_count(club.deals_per_poule_5 + 1)  # a row more: the pass takes one
    # Row 3 is now deal 2, dealt by seat 2 who sits it out.
    # The row typed whole came back in its three fields: its tricks are mended alone.
    expect(page.locator("input[name=tricks-0]")).to_have_value("14")
    page.fill("input[name=tricks-0]", "9")
    page.get_by_role("button", name="Enregistrer la feuille").click()
    page.wait_for_url(sheet_url(live_server.url, poule))
    expect(page.get_by_text("2 donnes et 1 passe enregistrées à la table 1.")).to_be_visible()
    stored = list(Deal.objects.filter(poule=poule).order_by("position"))
    assert [(deal.data["contract"], deal.dealer) for deal in stored] == [
        ("emballage", 1), ("pass", 2), ("abondance", 2)
    ]  # fmt: skip
