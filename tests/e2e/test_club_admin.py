"""The club admin runs his club from the site, in a real browser, on a 390×844 phone and on a
desktop: he adds a player, makes him scorer, creates a season ranked on the best 2 of 3
nights, changes one cell of the RCWhist table (a new version: old nights keep theirs, the next
night is scored with the new value) — and never opens /admin/ (he is not staff)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from club.models import Membership, Player
from games import services as games_services
from games.models import PointTable, Tournament
from scoring.services import deal_record
from tests.e2e.conftest import page_width

from .test_club_night import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
LAYOUTS = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
# An emballage 8 made with 9 tricks: RCWhist's table gives each declarer 5.
EMBALLAGE_9 = {"contract": "emballage", "bid": 8, "declarers": ["1", "3"], "tricks": 9}


def shot(page: Page, layout: str, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"club-admin-{layout}-{name}.png"), full_page=True)


def usable(page: Page, layout: str) -> None:
    """Nothing runs off the side of the screen (a wide grid scrolls inside its own box)."""
    width = page_width(page)
    assert width <= LAYOUTS[layout]["viewport"]["width"], f"{page.url} is {width}px wide"


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_club_admin_runs_his_club_without_djangos_admin(
    live_server, new_context, club, season, club_admin, imported_night, layout
):
    assert not club_admin.is_staff
    base = live_server.url
    page = new_context(locale="fr-BE", **LAYOUTS[layout]).new_page()
    visited: list[str] = []
    page.on("request", lambda request: visited.append(request.url))
    log_in(page, base, club_admin.username)

    # Members: add a player, then make him scorer.
    page.goto(f"{base}/clubs/{club.slug}/")
    page.click("text=Gestion du club")
    page.click(".admin-index >> text=Membres et invitations")
    page.click("summary:has-text('Ajouter un joueur')")
    page.fill("#id_display_name", "Zoé Lambert")
    page.click(".member-add button[type=submit]")
    expect(page.locator(".messages")).to_contain_text("Zoé Lambert est membre du club")
    usable(page, layout)
    zoe = Player.objects.get(display_name="Zoé Lambert")
    page.fill("#member-q", "zoé")
    page.click(".member-search button[type=submit]")
    row = page.locator(f"#member-{zoe.pk}")
    row.locator("select[name=role]").select_option("scorer")
    row.locator("button:has-text('Changer le rôle')").click()
    expect(page.locator(".messages")).to_contain_text("Marqueur")
    assert Membership.objects.get(player=zoe).role == Membership.Role.SCORER
    shot(page, layout, "members")

    # A new season: the best 2 of 3 nights count.
    page.click(".admin-nav >> text=Saisons")
    assert page.input_value("#id_name") == "2025"  # follows the 2024 season
    page.fill("#id_ranking_best_n", "2")
    page.click("text=Créer la saison")
    expect(page.locator(".messages")).to_contain_text("Saison 2025 créée")
    new_season = club.seasons.get(name="2025")
    assert new_season.ranking_best_n == 2
    assert (new_season.start.isoformat(), new_season.end.isoformat()) == (
        "2025-01-01",
        "2025-12-31",
    )
    usable(page, layout)
    shot(page, layout, "season")

    # The RCWhist table: one cell, previewed (the last night scored again), then saved.
    page.click(".admin-nav >> text=Tableaux des points")
    page.click("text=RCWhist La Chevalerie (tableau des clubs wallons)")
    page.fill("input[name=d-0-9]", "6")
    page.fill("input[name=f-0-9]", "-6")
    page.click("text=Voir les changements")
    expect(page.locator(".changes")).to_contain_text("1 case change")
    expect(page.locator(".changes")).to_contain_text("5 / -5 → 6 / -6")
    expect(page.locator("table.rescored")).to_be_visible()
    usable(page, layout)
    shot(page, layout, "point-table-preview")
    page.click("button[name=save]")
    expect(page.locator(".messages")).to_contain_text("version 2")
    shot(page, layout, "point-table-saved")

    old_table = imported_night.point_table
    imported_night.refresh_from_db()
    assert imported_night.point_table == old_table and old_table.version == 1
    assert old_table.data["rows"][0]["declarer"][9] == 5
    mine = PointTable.objects.get(club=club, name="rcwhist")
    assert mine.version == 2

    # The next night, created from the site, plays the new version and scores with it.
    page.goto(f"{base}/clubs/{club.slug}/soirees/nouvelle/")
    page.click("form button[type=submit].primary")
    expect(page.locator(".messages")).to_contain_text("Soirée créée")
    night = Tournament.objects.exclude(pk=imported_night.pk).get(club=club)
    assert night.point_table == mine
    poule_players = list(Player.objects.in_club(club).exclude(pk=zoe.pk)[:4])
    poule = games_services.poule_create(night, round=1, table=1, players=poule_players)
    assert deal_record(poule, EMBALLAGE_9).points[0] == 6

    assert not [url for url in visited if "/admin/" in url]
