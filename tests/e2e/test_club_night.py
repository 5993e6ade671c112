"""A club night in a real browser, on a scorer's phone: set-up, draw, a full poule, a
correction, and the room screen's standings."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import Page, expect

from club.models import Membership, Player
from games.models import Deal, DealChange, Tournament
from scoring.models import TournamentStanding
from tests.e2e.conftest import page_width
from tests.factories import PASSWORD, PlayerFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Twelve deals at the table of 4, as seat-number deals: (contract, bid, declarers, tricks).
DEALS = [
    ("emballage", 8, ["2", "4"], 9),
    ("solo", 6, ["3"], 7),
    ("pass", None, [], None),
    ("emballage", 9, ["1", "3"], 8),
    ("solo", 7, ["4"], 7),
    ("emballage", 8, ["1", "2"], 10),
    ("abondance", None, ["2"], 9),
    ("emballage", 8, ["3", "4"], 6),
    ("solo", 6, ["1"], 6),
    ("trou", 8, ["2", "3"], 8),
    ("emballage", 10, ["1", "4"], 10),
    ("solo", 8, ["3"], 9),
    ("emballage", 8, ["2", "3"], 9),
]


def snap(page: Page, name: str) -> None:
    """E2E_SCREENSHOTS=dir keeps a full-page picture of each step, to look at the phone UI."""
    folder = os.environ.get("E2E_SCREENSHOTS")
    if folder:
        page.screenshot(path=f"{folder}/{name}.png", full_page=True)


def log_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/compte/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("form[action$='/logout/']")).to_be_attached()


def record(page: Page, contract: str, bid: int | None, declarers: list[str], tricks: int | None):
    """The phone's buttons: the contract with its bid in one tap, the declarers, the tricks."""
    form = page.locator("form.deal-form")
    expect(form.locator(".calls")).to_be_visible()  # the buttons are built by dealform.js
    calls = form.locator(f".calls button[data-value='{contract}:{bid}']")
    if bid is None or not calls.count():
        calls = form.locator(f".calls button[data-value^='{contract}:']")
    calls.click()
    for seat in declarers:
        form.locator(f"label:has(input[name=declarers][value='{seat}'])").click()
    if tricks is not None:
        form.locator(f"[data-part=tricks] .tricks button[data-value='{tricks}']").click()
    form.locator("button[type=submit]").click()


def test_a_scorer_runs_a_night_on_a_phone(live_server, phone: Page, club, season, point_table):
    base = live_server.url
    members = [
        PlayerFactory(
            club=club, first_name=f"Joueur{n}", last_name="Test", display_name=f"Joueur {n}"
        )
        for n in range(1, 10)
    ]
    user = UserFactory(username="marqueur")
    PlayerFactory(
        user=user, club=club, club__role=Membership.Role.SCORER, display_name="Marc Queur"
    )
    page = phone

    log_in(page, base, "marqueur")
    page.goto(f"{base}/clubs/{club.slug}/soirees/nouvelle/")
    page.fill("input[name=date]", "2024-03-14")
    page.fill("input[name=name]", "Soirée de mars")
    page.click("button:has-text('Créer la soirée')")

    # Tick the nine present members, finding one with the search box.
    expect(page.locator("h1")).to_contain_text("Joueurs présents")
    page.fill("#member-search", "joueur 9")
    expect(page.locator("#member-list li:visible")).to_have_count(1)
    page.fill("#member-search", "")
    for player in members:
        page.get_by_label(player.display_name, exact=True).check()
    expect(page.locator("[data-present-count]")).to_have_text("9")
    snap(page, "1-presence")
    page.click("button:has-text('Enregistrer les présents')")

    # Round 1: a table of 5 and a table of 4.
    page.click("#tour-1 button:has-text('Tirer les tables')")
    expect(page.locator("#tour-1 .card")).to_have_count(2)
    tournament = Tournament.objects.get(name="Soirée de mars")
    sizes = sorted(p.seats.count() for p in tournament.poules.all())
    assert sizes == [4, 5]
    snap(page, "2-night")
    table_of_4 = next(p for p in tournament.poules.all() if p.seats.count() == 4)

    # A full poule of 12 counted deals (and one all-pass) on the phone, through htmx.
    page.click(f"#tour-1 .card:has-text('Table {table_of_4.table}') a")
    expect(page.locator("[data-deal-count]")).to_have_text("0/12")
    counted = 0
    for number, (contract, bid, declarers, tricks) in enumerate(DEALS, start=1):
        record(page, contract, bid, declarers, tricks)
        # Wait for the swapped sheet (a pass leaves the count as it was).
        expect(page.locator(f"#donne-{number}")).to_be_visible()
        counted += contract != "pass"
        expect(page.locator("[data-deal-count]")).to_have_text(f"{counted}/12")
    assert page_width(page) <= 360 + 1
    expect(page.locator("h2:has-text('Classement de la poule')")).to_be_visible()
    assert Deal.objects.filter(poule=table_of_4).count() == 13
    snap(page, "3-sheet")

    # A 13th deal at 12/12 is refused (the poule is over) and nothing is recorded.
    form = page.locator("form.deal-form")
    expect(form).to_be_hidden()  # folded: the poule has its deals
    page.locator("details.longer > summary").click()
    record(page, "solo", 6, ["1"], 7)
    expect(page.locator(".dealform-errors")).to_contain_text("plus longue ce soir")
    assert Deal.objects.filter(poule=table_of_4).count() == 13
    # The poule is longer tonight, but an impossible deal is refused in the page's language
    # and nothing is recorded: 13 tricks in a petite misère (played on 12).
    form.locator("input[name=longer]").check()
    form.locator(".calls button[data-value^='petite_misere:']").click()
    # The refused form kept what was typed: seat 1 is still ticked.
    expect(form.locator("input[name=declarers][value='1']")).to_be_checked()
    form.locator("[data-seat='1'] .tricks button[data-value='13']").click()
    form.locator("button[type=submit]").click()
    expect(page.locator(".dealform-errors")).to_contain_text("13")
    # In the page's language, not the engine's English.
    expect(page.locator(".dealform-errors")).not_to_contain_text("trick")
    assert Deal.objects.filter(poule=table_of_4).count() == 13
    snap(page, "4-refused")

    # Correct deal 2: the solo was made with 8 tricks, not 7.
    page.locator("#donne-2 summary").click()
    page.locator("#donne-2 a.edit").click()
    page.locator("[data-part=tricks] .tricks button[data-value='8']").click()
    page.click("button:has-text('Enregistrer la correction')")
    expect(page.locator("#donne-2 details.history")).to_contain_text("corrigée")
    change = DealChange.objects.get()
    assert (change.before["tricks"], change.after["tricks"]) == (7, 8)

    # The room screen shows tonight's standings as stored.
    page.goto(f"{base}/clubs/{club.slug}/soirees/{tournament.pk}/salle/")
    rows = page.locator(".room-standings tbody tr")
    snap(page, "5-room")
    expect(rows).to_have_count(4)
    first = TournamentStanding.objects.filter(tournament=tournament).order_by("rank").first()
    expect(rows.first).to_contain_text(first.player.display_name)
    expect(rows.first).to_contain_text(re.sub(r"\.0+$", "", f"{float(first.tournament_points):g}"))
    assert Player.objects.count() == 10
