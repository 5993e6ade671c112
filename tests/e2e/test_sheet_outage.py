"""The score sheet through an outage, on a 390 × 844 phone (issue 32, findings 1, 2 and 8): the
deals waiting on the phone count in the sticky header, their points marked provisional (the
phone scores them as the engine does: compared row by row), the offline message is never under
the header; an ordinary refusal reads as one, not as a waiting deal; a deal in the form
(the undone one, then the next one typed) survives a reload at a table of 5."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from games.models import Poule
from scoring.engine.base import Penalty
from scoring.engine.errors import EngineError
from scoring.engine.games.belgian_whist import Deal, score_deal
from scoring.engine.tables import preset
from tests.e2e.test_offline import controlled
from tests.e2e.test_phone_sheet import (
    PHONE,
    a_night,
    a_scorer,
    assert_totals_in_view,
    phone_context,
    record_belgian_whist,
    screenshot,
    sheet_url,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def a_table(
    live_server, new_context, club, season, seats: int
) -> tuple[Poule, BrowserContext, Page]:
    """A table of ``seats`` at tonight's RCWhist night, its sheet open on a scorer's phone."""
    poule = a_night(club, season, "rcwhist", seats).poules.get()
    context = phone_context(new_context, live_server, a_scorer(club))
    page = context.new_page()
    page.goto(sheet_url(live_server.url, poule))
    return poule, context, page


def totals(page: Page) -> list[str]:
    return page.locator("[data-totals] [data-total]").all_text_contents()


def pressed_calls(page: Page) -> list[str]:
    return page.locator(
        "form[data-sheet-form] .calls button[aria-pressed=true]"
    ).all_text_contents()


def assert_clear_of_the_header(page: Page, locator: Any) -> None:
    """The box is on the screen whole, below the sticky header (nothing of it hidden)."""
    box = locator.bounding_box()
    bar = page.locator(".sheet-bar").bounding_box()
    assert box is not None and bar is not None
    assert box["y"] >= bar["y"] + bar["height"] - 0.5, (box, bar)
    assert box["y"] + box["height"] <= PHONE["height"], box


def overlap(one: dict[str, float] | None, other: dict[str, float] | None) -> bool:
    assert one is not None and other is not None
    return not (
        one["x"] + one["width"] <= other["x"]
        or other["x"] + other["width"] <= one["x"]
        or one["y"] + one["height"] <= other["y"]
        or other["y"] + other["height"] <= one["y"]
    )


# -- 1. offline keeps the night going


def test_offline_the_header_counts_the_waiting_deals_with_provisional_totals(
    live_server, new_context, club, season
):
    poule, context, page = a_table(live_server, new_context, club, season, 5)
    record_belgian_whist(
        page, {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 7}, wait_for=1
    )
    record_belgian_whist(
        page, {"contract": "emballage", "bid": 8, "declarers": ["1", "3"], "tricks": 9}, wait_for=2
    )
    recorded = totals(page)
    count = page.locator("[data-deal-count]")
    expect(count).to_have_text("2/15")

    # The Wi-Fi drops while the scorer is down at the save button: three deals wait, a pass
    # among them (it takes no number), a misère at a table of 5 (seat 4 deals: the mort).
    context.set_offline(True)
    waiting = [
        {"contract": "abondance", "bid": 9, "declarers": ["5"], "tricks": 10},
        {"contract": "pass"},
        {"contract": "petite_misere", "declarers": ["1", "2"], "tricks": {"1": 0, "2": 1}},
    ]
    for deal in waiting:
        page.locator("[data-save]").scroll_into_view_if_needed()
        record_belgian_whist(page, deal, wait_for=None)
    alert = page.locator("[data-alert]")
    expect(alert).to_contain_text("Pas de réseau")
    assert_clear_of_the_header(page, alert)
    expect(page.locator("[data-queue]")).to_contain_text("3 donnes en attente")
    expect(page.locator("[data-queue]")).to_contain_text("totaux provisoires")

    # The header moved on with them: the deal count, the form's number, and the totals,
    # each marked "≈", in italics, and named provisional for screen readers.
    expect(count).to_have_text("4/15")
    expect(count).to_have_class("count provisional")
    expect(page.locator("[data-deal-title]")).to_have_text("Donne 5")
    cells = page.locator("[data-totals] [data-total]")
    provisional = totals(page)
    assert all(text.startswith("≈") for text in provisional), provisional
    assert provisional != ["≈" + text for text in recorded]
    assert cells.first.evaluate("e => getComputedStyle(e).fontStyle") == "italic"
    expect(page.locator("[data-provisional-words]")).to_have_text(
        " (provisoire : 3 donnes en attente comprises)"
    )
    expect(cells.first).to_have_attribute("title", "provisoire : 3 donnes en attente comprises")
    assert_totals_in_view(page, 5)
    screenshot(page, "offline-provisional-totals")

    # Back online: the server records them, and its totals are those the phone showed.
    context.set_offline(False)
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "5", timeout=15_000)
    expect(page.locator("[data-queue]")).to_be_hidden()
    assert totals(page) == [text[1:] for text in provisional]
    expect(count).to_have_text("4/15")
    expect(count).to_have_class("count")
    expect(page.locator("[data-provisional-words]")).to_have_text("")


def engine_points(table: Any, deal: dict[str, Any], seats: int, dealer: int) -> list[int] | None:
    """What the engine gives each seat for a deal written as the phone's form sends it."""
    declarers = tuple(int(seat) - 1 for seat in deal.get("declarers", ()))
    tricks = deal.get("tricks")
    if isinstance(tricks, dict):
        tricks = tuple(tricks[seat] for seat in deal["declarers"])
    penalties = tuple(
        Penalty(int(seat) - 1, points) for seat, points in deal.get("penalties", {}).items()
    )
    try:
        return list(
            score_deal(
                table,
                Deal(deal["contract"], deal.get("bid"), declarers, tricks, penalties),
                seats,
                dealer - 1,
            )
        )
    except EngineError:
        return None


def form_body(deal: dict[str, Any]) -> str:
    """The deal as the phone's form sends it (and its queue keeps it)."""
    pairs = [("contract", deal["contract"])]
    if deal.get("bid") is not None:
        pairs.append(("bid", str(deal["bid"])))
    pairs += [("declarers", seat) for seat in deal.get("declarers", ())]
    tricks = deal.get("tricks")
    if isinstance(tricks, dict):
        pairs += [(f"tricks_{seat}", str(count)) for seat, count in tricks.items()]
    elif tricks is not None:
        pairs.append(("tricks", str(tricks)))
    for index, (seat, points) in enumerate(deal.get("penalties", {}).items()):
        pairs += [(f"penalty_{index}_player", seat), (f"penalty_{index}_points", str(points))]
    return "&".join(f"{name}={value}" for name, value in pairs)


def every_row_deals(table: Any, seats: int, dealer: int) -> list[dict[str, Any]]:
    """Every row of the table at every trick count its deal has, its declarers among the
    players who play (and, for the misères, two declarers sharing the tricks); then what the
    engine refuses: the mort declaring, too many tricks, a declarer short, a penalty."""
    playing = [str(seat) for seat in range(1, seats + 1) if not (seats == 5 and seat == dealer)]
    deals: list[dict[str, Any]] = []
    for row in table.rows.values():
        for taken in range(row.deal_tricks + 1):
            deal: dict[str, Any] = {"contract": row.contract, "bid": row.bid}
            if row.side == "each":
                deal["declarers"] = playing[:1]
                deal["tricks"] = {playing[0]: taken}
                deals.append(deal)
                pair = {playing[1]: taken, playing[2]: row.deal_tricks - taken}
                deals.append({**deal, "declarers": list(pair), "tricks": pair})
            else:
                deal["declarers"] = playing[: 2 if row.side == "pair" else 1]
                deal["tricks"] = taken
                deals.append(deal)
        too_many = row.deal_tricks + 1
        if row.side == "each":
            deals.append({**deal, "declarers": playing[:1], "tricks": {playing[0]: too_many}})
        else:
            deals.append({**deal, "tricks": too_many})
        if seats == 5:  # the mort declares
            mort = str(dealer)
            if row.side == "each":
                deals.append({**deal, "declarers": [mort], "tricks": {mort: 0}})
            else:
                deals.append({**deal, "declarers": [mort, *playing[: len(deal["declarers"]) - 1]]})
    deals.append({"contract": "emballage", "bid": 8, "declarers": playing[:1], "tricks": 9})
    deals.append({"contract": "pass", "penalties": {playing[0]: 5}})
    deals.append(
        {
            "contract": "solo",
            "bid": 6,
            "declarers": playing[1:2],
            "tricks": 7,
            "penalties": {playing[2]: 3, playing[0]: 2},
        }
    )
    return deals


@pytest.mark.parametrize(("seats", "dealer"), [(4, 2), (5, 1), (5, 4)])
def test_the_phone_scores_every_row_of_rcwhist_as_the_engine_does(
    live_server, new_context, club, season, seats, dealer
):
    _poule, _context, page = a_table(live_server, new_context, club, season, seats)
    table = preset("rcwhist")
    deals = every_row_deals(table, seats, dealer)
    phone = page.evaluate(
        """([bodies, seats, dealer]) => {
          const rules = JSON.parse(document.getElementById("sheet-points").textContent);
          return bodies.map((body) => window.sheetPoints.score(rules, body, seats, dealer));
        }""",
        [[form_body(deal) for deal in deals], seats, dealer],
    )
    engine = [engine_points(table, deal, seats, dealer) for deal in deals]
    differ = [
        (deal, got, wanted)
        for deal, got, wanted in zip(deals, phone, engine, strict=True)
        if got != wanted
    ]
    assert not differ, differ[:5]
    assert sum(points is None for points in engine) >= len(table.rows)  # the refusals, too


# -- 2. a refused deal and a waiting deal read differently


def test_an_ordinary_refusal_is_said_beside_the_form_not_as_a_waiting_deal(
    live_server, new_context, club, season
):
    poule, context, page = a_table(live_server, new_context, club, season, 4)
    one_declarer = {"contract": "emballage", "bid": 8, "declarers": ["1"], "tricks": 9}
    record_belgian_whist(page, one_declarer, wait_for=None)

    # Online, refused at once: the server's words beside the form, nothing said as queued.
    errors = page.locator("form[data-sheet-form] .dealform-errors")
    expect(errors).to_contain_text("Donne 1")
    expect(page.locator("#sheet")).not_to_have_attribute("aria-busy", "true")
    expect(page.locator("[data-alert]")).to_be_hidden()
    expect(page.locator("[data-queue]")).to_be_hidden()
    expect(page.get_by_role("button", name="Retirer cette donne de la file")).to_have_count(0)
    assert page.evaluate(f"localStorage.getItem('sheet-queue-{poule.pk}')") is None
    # The deal's number is not drawn over the words.
    title = page.locator("[data-deal-title]")
    assert not overlap(title.bounding_box(), errors.bounding_box())
    assert not overlap(title.bounding_box(), errors.locator("li").first.bounding_box())
    screenshot(page, "refused-online")
    # The deal is still the form's after a reload, to be mended.
    page.reload()
    assert pressed_calls(page) == ["E8"]
    expect(page.locator("input[name=declarers][value='1']")).to_be_checked()
    expect(page.locator("[data-queue]")).to_be_hidden()

    # The same deal typed offline waits, and refused when it arrives it is said as a waiting
    # deal refused: first in the queue, with the button that takes it out.
    context.set_offline(True)
    page.locator("[data-save]").click()
    expect(page.locator("[data-queue]")).to_contain_text("1 donne en attente")
    context.set_offline(False)
    expect(page.locator("[data-queue]")).to_contain_text(
        "Donne refusée, à corriger", timeout=15_000
    )
    expect(page.locator("[data-alert]")).to_contain_text("Cette donne est revenue")
    page.get_by_role("button", name="Retirer cette donne de la file").click()
    expect(page.locator("[data-queue]")).to_be_hidden()
    assert poule.deals.count() == 0


# -- 8. an undone deal is not lost on reload


def test_at_a_table_of_5_the_deal_in_the_form_survives_a_reload(
    live_server, new_context, club, season
):
    poule, context, page = a_table(live_server, new_context, club, season, 5)
    controlled(page)
    first = {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 7}
    second = {"contract": "emballage", "bid": 9, "declarers": ["1", "3"], "tricks": 8}
    record_belgian_whist(page, first, wait_for=1)
    record_belgian_whist(page, second, wait_for=2)
    form = page.locator("form[data-sheet-form]")

    # "Annuler": the deal is back in the form, and stays there through reloads, online and
    # offline (the sheet the phone kept).
    page.locator("form[data-undo] button").click()
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "1")
    context.set_offline(True)
    for _reload in range(2):
        page.reload()
        assert pressed_calls(page) == ["E9"]
        for seat in "13":
            expect(form.locator(f"input[name=declarers][value='{seat}']")).to_be_checked()
        context.set_offline(False)

    # Mended offline (9 tricks), it waits; the next deal is half-typed (seat 3 deals it, the
    # mort, seat 2 declares) when the phone reloads the page: the waiting deal moves the
    # mort on, which must not wipe what the form holds.
    context.set_offline(True)
    form.locator("[data-part=tricks] .tricks button[data-value='9']").click()
    form.locator("[data-save]").click()
    expect(page.locator("[data-queue]")).to_contain_text("1 donne en attente")
    form.locator(".calls button[data-value='solo:7']").click()
    form.locator("label:has(input[name=declarers][value='2'])").click()
    page.reload()
    expect(page.locator("[data-queue]")).to_contain_text("1 donne en attente")
    assert pressed_calls(page) == ["S7"]
    expect(form.locator("input[name=declarers][value='2']")).to_be_checked()
    expect(form.locator("input[name=declarers][value='3']")).to_be_disabled()

    context.set_offline(False)
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "2", timeout=15_000)
    form.locator("[data-part=tricks] .tricks button[data-value='8']").click()
    form.locator("[data-save]").click()
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "3")
    assert [d.data for d in poule.deals.order_by("position")] == [
        first,
        {**second, "tricks": 9},
        {"contract": "solo", "bid": 7, "declarers": ["2"], "tricks": 8},
    ]
