"""The score sheet at the table, on a 390 × 844 phone: every game's grid keeps each seat's total
in view after 12 deals at tables of 4 and 5 (bounding boxes), a Belgian whist night recorded
with its taps counted per contract, and no deal lost or doubled on bad Wi-Fi.

Each game's grid is saved as a picture under build/screenshots/ (git-ignored)."""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.test import Client
from playwright.sync_api import BrowserContext, Page, expect

from club.models import Membership
from games import services as games_services
from games.models import Deal, Poule, Tournament
from games.services import point_table_for_preset
from scoring import services as scoring
from scoring.engine.tables import PRESET_GAME
from tests.e2e.conftest import page_width
from tests.factories import PlayerFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(settings.BASE_DIR) / "build" / "screenshots"

# Players with long names, as a club has them: the columns must still fit.
NAMES = [
    ("Béatrice", "Masson"),
    ("Anne", "Dupont"),
    ("Didier", "Peeters"),
    ("Maximilien", "Vandenberghe"),
    ("Chloé", "Lambert"),
    ("Guillaume", "Delacroix"),
    ("Françoise", "Verstraeten"),
    ("Anne", "Janssens"),
    ("Jean-Baptiste", "Claes"),
]


def phone_context(new_context: Callable[..., BrowserContext], live_server, user) -> BrowserContext:
    """A phone whose scorer is already signed in."""
    context = new_context(viewport=PHONE, locale="fr-BE", is_mobile=True, has_touch=True)
    sign_in(context, live_server, user)
    return context


def sign_in(context: BrowserContext, live_server, user) -> None:
    """``user`` signs in on this phone: his session cookie (made by the test client) takes the
    place of the one it had. The sign-in page has its own test."""
    client = Client()
    client.force_login(user)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )


def saves_fail(page: Page) -> None:
    """The sheet's saves fail (the server answers 500) until ``page.unroute("**/poules/*/")``:
    the deals wait on the phone."""

    def fail(route) -> None:
        if route.request.method == "POST":
            route.fulfill(status=500, body="boom")
        else:
            route.continue_()

    page.route("**/poules/*/", fail)


def a_night(club, season, rules: str, players: int) -> Tournament:
    tournament = games_services.tournament_create(
        club=club,
        season=season,
        date=season.start + datetime.timedelta(days=30),
        game=PRESET_GAME[rules],
        point_table=point_table_for_preset(rules),
        name=f"Soirée {rules} {players}",
    )
    members = [
        PlayerFactory(club=club, first_name=first, last_name=last, display_name=f"{first} {last}")
        for first, last in NAMES[:players]
    ]
    games_services.presence_set(tournament, members)
    scoring.round_draw(tournament, 1, seed=7)
    return tournament


def sheet_url(base: str, poule: Poule) -> str:
    tournament = poule.tournament
    return f"{base}/clubs/{tournament.club.slug}/soirees/{tournament.pk}/poules/{poule.pk}/"


# Resolves once the browser has drawn a frame after the present one.
NEXT_FRAME = (
    "() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)))"
)


def screenshot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def assert_totals_in_view(page: Page, seats: int) -> None:
    """Every seat's running total is on the screen, whole (not cut by an ellipsis), wherever
    the scorer has scrolled to: the top, the deal form, the last deals."""
    totals = page.locator("[data-totals] [data-total]")
    expect(totals).to_have_count(seats)
    for where in ("0", "document.body.scrollHeight / 2", "document.body.scrollHeight"):
        page.evaluate(f"window.scrollTo(0, {where})")
        page.evaluate(NEXT_FRAME)  # drawn where it scrolled to
        for index in range(seats):
            total = totals.nth(index)
            box = total.bounding_box()
            assert box is not None, (where, index)
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (where, box)
            assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (where, box)
            assert total.evaluate("e => e.scrollWidth <= e.clientWidth"), (where, index)
    assert page_width(page) <= PHONE["width"]
    page.evaluate("window.scrollTo(0, 0)")


def assert_save_on_first_screen(page: Page) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    form = page.locator("form[data-sheet-form]").bounding_box()
    save = page.locator("[data-save]").bounding_box()
    assert form is not None and save is not None
    assert 0 <= form["y"] < PHONE["height"], form
    assert 0 <= save["y"] and save["y"] + save["height"] <= PHONE["height"], save


# -- recording a deal with the buttons, taps counted


class Taps:
    def __init__(self) -> None:
        self.count = 0

    def click(self, locator) -> None:
        locator.click()
        self.count += 1

    def fill(self, locator, value: str) -> None:
        locator.fill(value)
        self.count += 1


def record_belgian_whist(page: Page, deal: dict[str, Any], *, wait_for: int | None) -> int:
    """Record a deal as a scorer does it: the contract's button (with its bid), the
    declarers, the tricks, save. Returns the taps it took."""
    taps = Taps()
    form = page.locator("form[data-sheet-form]")
    contract, bid = deal["contract"], deal.get("bid")
    value = f"{contract}:{bid}" if bid is not None else f"{contract}:"
    expect(form.locator(".calls")).to_be_visible()  # the buttons are built by dealform.js
    chip = form.locator(f".calls button[data-value='{value}']")
    if not chip.count():
        chip = form.locator(f".calls button[data-value^='{contract}:']")
    taps.click(chip)
    for seat in deal.get("declarers", []):
        taps.click(form.locator(f"label:has(input[name=declarers][value='{seat}'])"))
    tricks = deal.get("tricks")
    if isinstance(tricks, dict):
        for seat, count in tricks.items():
            # A misère's tricks are buttons too: one tap per declarer.
            taps.click(form.locator(f"[data-seat='{seat}'] .tricks button[data-value='{count}']"))
    elif tricks is not None:
        taps.click(form.locator(f"[data-part=tricks] .tricks button[data-value='{tricks}']"))
    taps.click(form.locator("[data-save]"))
    if wait_for is not None:
        expect(page.locator("#sheet")).to_have_attribute("data-deals", str(wait_for))
        expect(page.locator("#sheet")).not_to_have_attribute("aria-busy", "true")
    return taps.count


def belgian_deals(seats: int, count: int) -> list[dict[str, Any]]:
    """``count`` counted deals (and two passes) of every kind of contract, none declared by
    the mort at a table of 5 (the dealer of the deal sits out)."""
    kinds = [
        ("emballage", 8, 2, 9),
        ("solo", 6, 1, 7),
        ("emballage", 9, 2, 8),
        ("abondance", 9, 1, 9),
        ("petite_misere", None, 1, {"x": 0}),
        ("emballage", 8, 2, 7),
        ("trou", 8, 2, 9),
        ("solo", 7, 1, 6),
        ("grande_misere", None, 1, {"x": 0}),
        ("emballage", 10, 2, 10),
        ("solo", 8, 1, 8),
        ("emballage", 8, 2, 8),
        ("solo", 6, 1, 6),
        ("emballage", 9, 2, 9),
    ]
    deals: list[dict[str, Any]] = []
    dealer = 0
    for index in range(count):
        if index in (3, 8):
            deals.append({"contract": "pass"})  # the same dealer deals again
        contract, bid, how_many, tricks = kinds[index % len(kinds)]
        playing = [str(s + 1) for s in range(seats) if not (seats == 5 and s == dealer)]
        declarers = sorted((playing[(index + k) % len(playing)] for k in range(how_many)), key=int)
        deal: dict[str, Any] = {"contract": contract, "declarers": declarers}
        if bid is not None:
            deal["bid"] = bid
        deal["tricks"] = dict.fromkeys(declarers, 0) if isinstance(tricks, dict) else tricks
        deals.append(deal)
        dealer = (dealer + 1) % seats
    return deals


def test_a_belgian_whist_night_on_a_phone_taps_counted_and_totals_in_view(
    live_server, new_context, club, season
):
    user = UserFactory(username="marqueur")
    PlayerFactory(user=user, club=club, club__role=Membership.Role.SCORER)
    tournament = a_night(club, season, "rcwhist", 9)
    page = phone_context(new_context, live_server, user).new_page()
    taps_per_contract: dict[str, list[int]] = defaultdict(list)
    for poule in tournament.poules.order_by("table"):
        seats = poule.seats.count()
        page.goto(sheet_url(live_server.url, poule))
        # The deal form is on the first screen, its save button too (it stays at the
        # bottom of the screen while the form is in view): no scrolling to save.
        assert_save_on_first_screen(page)
        deals = belgian_deals(seats, 12)
        for number, deal in enumerate(deals, start=1):
            taps = record_belgian_whist(page, deal, wait_for=number)
            name = deal["contract"] + (f" {deal['bid']}" if "bid" in deal else "")
            taps_per_contract[name].append(taps)
        stored = list(Deal.objects.filter(poule=poule).order_by("position"))
        assert [d.data for d in stored] == deals
        # Passed deals take no number: the last deal is "12" at "12/12" (or "12/15").
        expected = tournament.deals_per_poule(seats)
        expect(page.locator("[data-deal-count]")).to_have_text(f"12/{expected}")
        expect(page.locator(f"#donne-{len(deals)} .code .n")).to_have_text("12")
        expect(page.locator("#donne-4 .code .n")).to_have_text("–")
        # The mort is marked in the grid at a table of 5, the dealer at every table.
        if seats == 5:
            expect(page.locator("#donne-1 .pts.mort")).to_have_count(1)
        expect(page.locator("#donne-1 .pts.dealer")).to_have_count(1)
        assert_totals_in_view(page, seats)
        # Details and "corriger" on a tap.
        page.locator("#donne-1 summary").click()
        expect(page.locator("#donne-1 a.edit")).to_be_visible()
        page.locator("#donne-1 summary").click()
        screenshot(page, f"belgian_whist-{seats}")
        page.locator("#donnes").scroll_into_view_if_needed()
        screenshot(page, f"belgian_whist-{seats}-grid")

    # The taps, per contract: what docs/running-a-club.md's table says.
    print("\ntaps per contract (Belgian whist, rcwhist table, one deal = button … save):")
    for name, counts in sorted(taps_per_contract.items()):
        print(f"  {name:<16} {min(counts)}–{max(counts)} taps ({len(counts)} deals)")
    for name in ("emballage 8", "emballage 9", "solo 6", "solo 7"):
        assert max(taps_per_contract[name]) <= 5, (name, taps_per_contract[name])


def test_impossible_choices_are_disabled_before_anything_is_sent(
    live_server, new_context, club, season
):
    user = UserFactory(username="marqueur")
    PlayerFactory(user=user, club=club, club__role=Membership.Role.SCORER)
    tournament = a_night(club, season, "rcwhist", 9)
    poule = next(p for p in tournament.poules.all() if p.seats.count() == 5)
    page = phone_context(new_context, live_server, user).new_page()
    page.goto(sheet_url(live_server.url, poule))
    form = page.locator("form[data-sheet-form]")
    # Seat 1 deals the first deal at a table of 5: he is the mort.
    expect(form.locator("input[name=declarers][value='1']")).to_be_disabled()
    form.locator(".calls button[data-value='solo:6']").click()
    form.locator("label:has(input[name=declarers][value='2'])").click()
    for seat in "345":
        expect(form.locator(f"input[name=declarers][value='{seat}']")).to_be_disabled()
    # An emballage takes two declarers, and a bid the table does not have is not offered.
    form.locator(".calls button[data-value='emballage:8']").click()
    expect(form.locator("input[name=declarers][value='3']")).to_be_enabled()
    # The form grown by the contract's choices: saving still needs no scrolling.
    assert_save_on_first_screen(page)
    assert not form.locator(".calls button[data-value='solo:9']").count()
    assert not form.locator(".calls button[data-value^='piccolo']").count()


# -- the other games' grids


def whist_deals(poule: Poule, count: int) -> None:
    """``count`` deals of classic whist, each team in the partie générale's turn."""
    teams = [["1", "3"], ["1", "2"], ["1", "4"]]
    for index in range(count):
        for team in teams:
            try:
                scoring.deal_record(poule, {"tricks": {"team": team, "tricks": 7 + index % 4}})
                break
            except ValidationError:
                continue


def hearts_deal(seats: int, index: int) -> dict[str, Any]:
    hearts = {str(s + 1): 0 for s in range(seats)}
    for card in range(13):
        hearts[str((card * 3 + index) % seats + 1)] += 1
    return {"hearts": hearts, "queen_of_spades": str(index % seats + 1)}


def besigue_deal(seats: int, index: int, deck_brisques: int) -> dict[str, Any]:
    brisques = {str(s + 1): 0 for s in range(seats)}
    for card in range(deck_brisques):
        brisques[str((card + index) % seats + 1)] += 1
    return {
        "declarations": {str(index % seats + 1): {"marriage": 1, "four_kings": 1}},
        "brisques": brisques,
        "last_trick": str((index + 1) % seats + 1),
    }


@pytest.mark.parametrize(
    ("rules", "players"),
    # Classic whist and bésigue à quatre are played at tables of 4 only.
    [("coeurs", 9), ("whist7", 4), ("a_quatre", 4)],
)
def test_each_games_grid_keeps_every_total_in_view_after_12_deals(
    live_server, new_context, club, season, rules, players
):
    user = UserFactory(username="marqueur")
    PlayerFactory(user=user, club=club, club__role=Membership.Role.SCORER)
    tournament = a_night(club, season, rules, players)
    page = phone_context(new_context, live_server, user).new_page()
    for poule in tournament.poules.order_by("table"):
        seats = poule.seats.count()
        if tournament.game == "whist":
            whist_deals(poule, 11)
        elif tournament.game == "hearts":
            scoring.deals_record(poule, [hearts_deal(seats, i) for i in range(11)])
        else:
            deck = 8 * tournament.point_table.engine_table().decks
            scoring.deals_record(poule, [besigue_deal(seats, i, deck) for i in range(11)])
        page.goto(sheet_url(live_server.url, poule))
        form = page.locator("form[data-sheet-form]")
        # The twelfth deal through the phone's form.
        if tournament.game == "hearts":
            deal = hearts_deal(seats, 11)
            for seat, count in deal["hearts"].items():
                form.locator(f"input[name=hearts_{seat}]").fill(str(count))
            form.locator(f"label:has(input[name=queen_of_spades][value='{seat}'])").click()
            deal["queen_of_spades"] = seat
        elif tournament.game == "whist":
            progress = page.locator(".sheet-status")
            expect(progress).to_contain_text("Partie")
            expect(progress).to_contain_text("manches")
            expect(progress).not_to_contain_text("/12")
            last = poule.deals.order_by("position").last().data["tricks"]["team"]
            form.locator(f"label:has(input[name=team][value='{'+'.join(last)}'])").click()
            form.locator(".tricks button[data-value='6']").click()
        else:
            expect(page.locator(".sheet-status")).to_contain_text("2000")
            form.locator("input[name=decl_1_marriage]").fill("1")
            deck = 8 * tournament.point_table.engine_table().decks
            form.locator("input[name=brisques_1]").fill(str(deck))
            form.locator("label:has(input[name=last_trick][value='1'])").click()
        form.locator("[data-save]").click()
        expect(page.locator("#sheet")).to_have_attribute("data-deals", "12")
        expect(page.locator(".dealform-errors")).to_have_count(0)
        assert poule.deals.count() == 12
        assert_totals_in_view(page, seats)
        # A bésigue coup is its total in the grid; the declarations on a tap.
        page.locator(f"#donne-{poule.deals.last().position} summary").click()
        expect(page.locator(f"#donne-{poule.deals.last().position} .deal-detail")).to_be_visible()
        screenshot(page, f"{tournament.game}-{rules}-{seats}")
        page.locator("#donnes").scroll_into_view_if_needed()
        screenshot(page, f"{tournament.game}-{rules}-{seats}-grid")


# -- bad Wi-Fi


def test_deals_recorded_offline_wait_on_the_phone_and_leave_in_order(
    live_server, new_context, club, season
):
    user = UserFactory(username="marqueur")
    PlayerFactory(user=user, club=club, club__role=Membership.Role.SCORER)
    tournament = a_night(club, season, "rcwhist", 4)
    poule = tournament.poules.get()
    context = phone_context(new_context, live_server, user)
    page = context.new_page()
    page.goto(sheet_url(live_server.url, poule))
    first, *offline = belgian_deals(4, 4)[:4]  # the third one offline is a pass
    record_belgian_whist(page, first, wait_for=1)

    context.set_offline(True)
    for deal in offline:
        record_belgian_whist(page, deal, wait_for=None)
    badge = page.locator("[data-queue]")
    expect(badge).to_contain_text("3 donnes en attente")
    expect(page.locator("[data-alert]")).to_contain_text("Pas de réseau")
    screenshot(page, "offline-queue")
    assert poule.deals.count() == 1

    context.set_offline(False)
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "4", timeout=15_000)
    expect(badge).to_be_hidden()
    stored = list(poule.deals.order_by("position"))
    assert [d.data for d in stored] == [first, *offline]
    assert len({d.client_key for d in stored}) == 4


def test_a_deal_whose_answer_is_lost_is_sent_again_and_stored_once(
    live_server, new_context, club, season
):
    user = UserFactory(username="marqueur")
    PlayerFactory(user=user, club=club, club__role=Membership.Role.SCORER)
    tournament = a_night(club, season, "rcwhist", 4)
    poule = tournament.poules.get()
    page = phone_context(new_context, live_server, user).new_page()
    lost = []

    def lose_first_answer(route) -> None:
        # The server records the deal, then the Wi-Fi drops before the answer arrives.
        if route.request.method == "POST" and not lost:
            route.fetch()
            lost.append(route.request.post_data)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route("**/poules/*/", lose_first_answer)
    page.goto(sheet_url(live_server.url, poule))
    deal = belgian_deals(4, 1)[0]
    record_belgian_whist(page, deal, wait_for=None)
    expect(page.locator("[data-alert]")).to_contain_text("Pas de réseau")
    assert poule.deals.count() == 1  # recorded, though the phone did not hear it
    # The phone tries again (every 10 s, or when the connection comes back): same key.
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "1")
    assert poule.deals.count() == 1
    assert Deal.objects.get(poule=poule).data == deal


def test_undo_the_last_deal_in_one_tap(live_server, new_context, club, season):
    user = UserFactory(username="marqueur")
    PlayerFactory(user=user, club=club, club__role=Membership.Role.SCORER)
    tournament = a_night(club, season, "rcwhist", 4)
    poule = tournament.poules.get()
    page = phone_context(new_context, live_server, user).new_page()
    page.goto(sheet_url(live_server.url, poule))
    deals = belgian_deals(4, 2)
    record_belgian_whist(page, deals[0], wait_for=1)
    record_belgian_whist(page, deals[1], wait_for=2)
    page.locator("form[data-undo] button").click()
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "1")
    # The form takes the undone deal back: one choice changed and it is saved again.
    form = page.locator("form[data-sheet-form]")
    expect(
        form.locator(f".calls button[data-value='{deals[1]['contract']}:{deals[1]['bid']}']")
    ).to_have_attribute("aria-pressed", "true")
    assert [d.data for d in poule.deals.order_by("position")] == [deals[0]]
    assert poule.changes.get().before == deals[1]


def test_a_deal_half_typed_survives_a_reload(live_server, new_context, club, season):
    user = UserFactory(username="marqueur")
    PlayerFactory(user=user, club=club, club__role=Membership.Role.SCORER)
    poule = a_night(club, season, "rcwhist", 4).poules.get()
    page = phone_context(new_context, live_server, user).new_page()
    page.goto(sheet_url(live_server.url, poule))
    form = page.locator("form[data-sheet-form]")
    form.locator(".calls button[data-value='emballage:9']").click()
    form.locator("label:has(input[name=declarers][value='3'])").click()
    page.reload()  # the phone slept, the browser reloaded the page
    expect(form.locator(".calls button[data-value='emballage:9']")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(form.locator("input[name=declarers][value='3']")).to_be_checked()
    # Brought back, it is said unsaved; « Effacer » starts afresh, and a reload stays empty.
    note = form.locator("[data-draft-note]")
    expect(note).to_be_visible()
    note.locator("[data-draft-clear]").click()
    expect(form.locator(".calls button[aria-pressed=true]")).to_have_count(0)
    expect(note).to_be_hidden()
    page.reload()
    expect(form.locator(".calls button[aria-pressed=true]")).to_have_count(0)
    expect(form.locator("[data-draft-note]")).to_be_hidden()
    form.locator(".calls button[data-value='emballage:9']").click()
    form.locator("label:has(input[name=declarers][value='3'])").click()
    # Saved, the deal leaves nothing behind for the next one.
    form.locator("label:has(input[name=declarers][value='1'])").click()
    form.locator("[data-part=tricks] .tricks button[data-value='9']").click()
    form.locator("[data-save]").click()
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "1")
    page.reload()
    expect(form.locator(".calls button[aria-pressed=true]")).to_have_count(0)


def test_a_refused_or_failed_deal_is_said_in_words_and_waits_on_the_phone(
    live_server, new_context, club, season
):
    user = UserFactory(username="marqueur")
    PlayerFactory(user=user, club=club, club__role=Membership.Role.SCORER)
    tournament = a_night(club, season, "rcwhist", 4)
    poule = tournament.poules.get()
    page = phone_context(new_context, live_server, user).new_page()
    page.goto(sheet_url(live_server.url, poule))
    first, second = belgian_deals(4, 2)

    # The server fails (500): said with what to do; the deal waits and leaves on "Réessayer".
    saves_fail(page)
    record_belgian_whist(page, first, wait_for=None)
    alert = page.locator("[data-alert]")
    expect(alert).to_contain_text("erreur 500")
    expect(page.locator("[data-queue]")).to_contain_text("1 donne en attente")
    page.unroute("**/poules/*/")
    alert.locator("button", has_text="Réessayer").click()
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "1")

    # The night is closed meanwhile (403): said in words; nothing is recorded.
    scoring.tournament_close(tournament, unfinished_ok=True)
    record_belgian_whist(page, second, wait_for=None)
    expect(page.locator("[data-alert]")).to_contain_text("clôturée")
    expect(page.locator("[data-queue]")).to_contain_text("1 donne en attente")
    screenshot(page, "refused-closed-night")
    assert poule.deals.count() == 1


def test_without_javascript_the_form_still_posts_and_works(live_server, new_context, club, season):
    user = UserFactory(username="marqueur")
    PlayerFactory(user=user, club=club, club__role=Membership.Role.SCORER)
    tournament = a_night(club, season, "rcwhist", 4)
    poule = tournament.poules.get()
    client = Client()
    client.force_login(user)
    context = new_context(viewport=PHONE, locale="fr-BE", java_script_enabled=False)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    page.goto(sheet_url(live_server.url, poule))
    form = page.locator("form[data-sheet-form]")
    form.locator("input[name=contract][value=emballage]").check()
    form.locator("select[name=bid]").select_option("8")
    form.locator("input[name=declarers][value='2']").check()
    form.locator("input[name=declarers][value='4']").check()
    form.locator("select[name=tricks]").select_option("9")
    form.locator("[data-save]").click()
    expect(page.locator("#donne-1")).to_be_attached()
    expect(page.locator("[data-deal-count]")).to_have_text("1/12")
    # The plain post was answered with the page, the deal recorded as typed.
    assert poule.deals.get().data == {
        "contract": "emballage",
        "bid": 8,
        "declarers": ["2", "4"],
        "tricks": 9,
    }


# -- what the review found: a refusal inside the queue, a table of 5 offline, two tabs, a
# hung save, a changed session, an expired one, waiting deals seen from every page


def a_scorer(club):
    user = UserFactory(username="marqueur")
    PlayerFactory(user=user, club=club, club__role=Membership.Role.SCORER)
    return user


def pressed_calls(page: Page) -> list[str]:
    return page.locator(
        "form[data-sheet-form] .calls button[aria-pressed=true]"
    ).all_text_contents()


def test_a_refused_deal_in_the_queue_stays_first_and_the_others_wait_behind_it(
    live_server, new_context, club, season
):
    poule = a_night(club, season, "rcwhist", 4).poules.get()
    context = phone_context(new_context, live_server, a_scorer(club))
    page = context.new_page()
    page.goto(sheet_url(live_server.url, poule))
    refused = {"contract": "emballage", "bid": 8, "declarers": ["1"], "tricks": 9}  # one declarer
    second = {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 7}
    third = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 8}
    context.set_offline(True)
    for deal in (refused, second, third):
        record_belgian_whist(page, deal, wait_for=None)
    expect(page.locator("[data-queue]")).to_contain_text("3 donnes en attente")

    context.set_offline(False)
    alert = page.locator("[data-alert]")
    expect(alert).to_contain_text("corrigez-la", timeout=15_000)
    expect(alert).to_contain_text("Les 2 donne(s) qui la suivent attendent")
    # The refused deal is in the form; nothing behind it left (their order sets the dealer).
    assert pressed_calls(page) == ["E8"]
    # Said as refused, to correct (not as waiting); the two behind it wait.
    expect(page.locator("[data-queue]")).to_contain_text("Donne refusée, à corriger : E8")
    expect(page.locator("[data-queue]")).to_contain_text("2 donnes en attente")
    assert poule.deals.count() == 0

    # Mended (a second declarer) and saved: it leaves first, then the others, in order.
    form = page.locator("form[data-sheet-form]")
    form.locator("label:has(input[name=declarers][value='3'])").click()
    form.locator("[data-save]").click()
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "3", timeout=15_000)
    expect(page.locator("[data-queue]")).to_be_hidden()
    expect(alert).to_be_hidden()
    mended = {**refused, "declarers": ["1", "3"]}
    assert [d.data for d in poule.deals.order_by("position")] == [mended, second, third]


def test_offline_at_a_table_of_5_the_dealer_and_the_mort_move_on_with_each_waiting_deal(
    live_server, new_context, club, season
):
    poule = a_night(club, season, "rcwhist", 5).poules.get()
    names = [seat.player.display_name for seat in poule.seats.order_by("number")]
    context = phone_context(new_context, live_server, a_scorer(club))
    page = context.new_page()
    page.goto(sheet_url(live_server.url, poule))
    form = page.locator("form[data-sheet-form]")
    dealer = page.locator("[data-next-dealer]")
    first = {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 7}
    record_belgian_whist(page, first, wait_for=1)
    expect(dealer).to_have_text(names[1])

    context.set_offline(True)
    second = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 7}  # seat 2 deals
    record_belgian_whist(page, second, wait_for=None)
    # Deal 3 is dealt by seat 3, who sits out: he cannot declare, seat 2 plays again.
    expect(dealer).to_have_text(names[2])
    expect(form.locator("[data-deal-title]")).to_have_text("Donne 3")
    form.locator(".calls button[data-value='solo:6']").click()
    expect(form.locator("input[name=declarers][value='3']")).to_be_disabled()
    expect(form.locator("input[name=declarers][value='2']")).to_be_enabled()
    # A pass: the same dealer deals again, the deal takes no number.
    form.locator(".calls button[data-value='pass:']").click()
    form.locator("[data-save]").click()
    expect(page.locator("[data-queue]")).to_contain_text("2 donnes en attente")
    expect(dealer).to_have_text(names[2])
    expect(form.locator("[data-deal-title]")).to_have_text("Donne 3")
    third = {"contract": "solo", "bid": 6, "declarers": ["4"], "tricks": 8}
    record_belgian_whist(page, third, wait_for=None)
    expect(dealer).to_have_text(names[3])
    form.locator(".calls button[data-value='solo:6']").click()
    expect(form.locator("input[name=declarers][value='4']")).to_be_disabled()

    context.set_offline(False)
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "4", timeout=15_000)
    stored = list(poule.deals.order_by("position"))
    assert [d.data for d in stored] == [first, second, {"contract": "pass"}, third]
    assert [d.dealer for d in stored] == [1, 2, 3, 3]
    # The server agrees with what the phone showed.
    expect(dealer).to_have_text(names[3])


def test_two_tabs_of_the_same_table_send_each_waiting_deal_once(
    live_server, one_request_at_a_time_on_sqlite, new_context, club, season
):
    poule = a_night(club, season, "rcwhist", 4).poules.get()
    context = phone_context(new_context, live_server, a_scorer(club))
    first_tab, second_tab = context.new_page(), context.new_page()
    for page in (first_tab, second_tab):
        page.goto(sheet_url(live_server.url, poule))
    deals = belgian_deals(4, 3)
    first_tab.bring_to_front()  # a tab behind another draws slowly: the taps would wait
    context.set_offline(True)
    for deal in deals:
        record_belgian_whist(first_tab, deal, wait_for=None)
    # The other tab sees the deals waiting (the queue is the phone's, not the tab's).
    expect(second_tab.locator("[data-queue]")).to_contain_text("3 donnes en attente")

    # Both tabs send when the connection returns: every answer removes its own deal, a deal
    # the other tab sent already is answered "replayed".
    context.set_offline(False)
    for page in (first_tab, second_tab):
        expect(page.locator("[data-queue]")).to_be_hidden(timeout=45_000)
    expect(first_tab.locator("#sheet")).to_have_attribute("data-deals", "3")
    assert [d.data for d in poule.deals.order_by("position")] == deals


def test_a_save_that_hangs_is_given_up_and_sent_again_once(live_server, new_context, club, season):
    poule = a_night(club, season, "rcwhist", 4).poules.get()
    page = phone_context(new_context, live_server, a_scorer(club)).new_page()
    page.clock.install()
    hung = []

    def hang_the_first_save(route) -> None:
        # The Wi-Fi takes the request and never answers.
        if route.request.method == "POST" and not hung:
            hung.append(route)
        else:
            route.continue_()

    page.route("**/poules/*/", hang_the_first_save)
    page.goto(sheet_url(live_server.url, poule))
    deal = belgian_deals(4, 1)[0]
    record_belgian_whist(page, deal, wait_for=None)
    expect(page.locator("[data-save]")).to_contain_text("Enregistrement")
    page.clock.run_for(16_000)  # no answer within 15 s: treated as offline
    expect(page.locator("[data-alert]")).to_contain_text("Pas de réseau")
    expect(page.locator("[data-save]")).not_to_contain_text("Enregistrement")
    expect(page.locator("[data-queue]")).to_contain_text("1 donne en attente")
    page.clock.run_for(10_000)  # the next try, every 10 s
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "1")
    assert [d.data for d in poule.deals.all()] == [deal]


def test_a_changed_session_is_no_refusal_and_a_bad_one_is_said_in_words(
    live_server, new_context, club, season
):
    poule = a_night(club, season, "rcwhist", 4).poules.get()
    context = phone_context(new_context, live_server, a_scorer(club))
    page = context.new_page()
    page.goto(sheet_url(live_server.url, poule))
    first, second = belgian_deals(4, 2)
    # Signed in again in another tab: the CSRF cookie changed, the page's copy did not.
    context.add_cookies([{"name": "csrftoken", "value": "A" * 32, "url": live_server.url}])
    record_belgian_whist(page, first, wait_for=1)
    # A cookie the server cannot read: said as a changed session, not a closed night.
    context.add_cookies([{"name": "csrftoken", "value": "bad", "url": live_server.url}])
    record_belgian_whist(page, second, wait_for=None)
    alert = page.locator("[data-alert]")
    expect(alert).to_contain_text("Votre session a changé")
    expect(alert).not_to_contain_text("clôturée")
    expect(page.locator("[data-queue]")).to_contain_text("1 donne en attente")
    assert poule.deals.count() == 1


def test_undo_with_an_expired_session_says_so_and_is_one_request(
    live_server, new_context, club, season
):
    poule = a_night(club, season, "rcwhist", 4).poules.get()
    context = phone_context(new_context, live_server, a_scorer(club))
    page = context.new_page()
    page.goto(sheet_url(live_server.url, poule))
    record_belgian_whist(page, belgian_deals(4, 1)[0], wait_for=1)
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    context.clear_cookies(name=settings.SESSION_COOKIE_NAME)  # the session expired
    page.locator("form[data-undo] button").dblclick()
    expect(page.locator("[data-alert]")).to_contain_text("Vous n'êtes plus connecté")
    assert len(posts) == 1
    assert poule.deals.count() == 1


def test_deals_waiting_for_a_table_are_named_on_every_page(live_server, new_context, club, season):
    tournament = a_night(club, season, "rcwhist", 4)
    poule = tournament.poules.get()
    page = phone_context(new_context, live_server, a_scorer(club)).new_page()
    saves_fail(page)
    page.goto(sheet_url(live_server.url, poule))
    deal = belgian_deals(4, 1)[0]
    record_belgian_whist(page, deal, wait_for=None)
    expect(page.locator("[data-alert]")).to_contain_text("erreur 500")
    # The sheet shows its own queue; the banner is for the other pages.
    expect(page.locator("#waiting-deals")).to_be_hidden()
    page.goto(f"{live_server.url}/clubs/{club.slug}/soirees/{tournament.pk}/")
    banner = page.locator("#waiting-deals")
    expect(banner).to_contain_text("Donnes en attente sur ce téléphone")
    expect(banner).to_contain_text("table 1 (1)")
    page.unroute("**/poules/*/")
    banner.locator("a").click()
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "1")
    assert [d.data for d in poule.deals.all()] == [deal]


def test_the_next_deal_typed_during_a_slow_save_keeps_its_declarers(
    live_server, new_context, club, season
):
    """At a table of 5 the next deal is typed while the last one is still being saved: the
    mort is already the next dealer's seat, and what was ticked survives the answer."""
    poule = a_night(club, season, "rcwhist", 5).poules.get()
    page = phone_context(new_context, live_server, a_scorer(club)).new_page()
    held = []

    def hold_the_first_save(route) -> None:
        if route.request.method == "POST" and not held:
            held.append(route)  # answered below, once the next deal is typed
        else:
            route.continue_()

    page.route("**/poules/*/", hold_the_first_save)
    page.goto(sheet_url(live_server.url, poule))
    first = {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 7}
    record_belgian_whist(page, first, wait_for=None)
    form = page.locator("form[data-sheet-form]")
    form.locator(".calls button[data-value='emballage:8']").click()
    # Seat 2 deals the second deal: he sits out, seat 1 plays again.
    expect(form.locator("input[name=declarers][value='2']")).to_be_disabled()
    form.locator("label:has(input[name=declarers][value='1'])").click()
    form.locator("label:has(input[name=declarers][value='3'])").click()
    held[0].continue_()
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "1")
    for seat in "13":
        expect(form.locator(f"input[name=declarers][value='{seat}']")).to_be_checked()
    expect(form.locator(".calls button[data-value='emballage:8']")).to_have_attribute(
        "aria-pressed", "true"
    )
