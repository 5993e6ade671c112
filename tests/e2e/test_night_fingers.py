"""A club night on a 390 × 844 phone, every page a club admin or a scorer reaches on it (the
night, a table's sheet, a correction, the paper entry, the close, the results, the presence, the
placement, the room screen and its private link): every control and every link that is not a
word of a sentence is at least 44 × 44 CSS px (one rule, static/css/site.css); the site's header
is the same compact line on each of them; and on the sheet a long first name ("Geneviève") is
never broken inside a word.

One browser, one login; the pages are walked in turn and every offender of every page is named
in the failure, with its page, tag, text and size."""

from __future__ import annotations

import datetime
import itertools

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from club.models import Membership
from games import services as games_services
from games.models import Deal
from games.services import point_table_for_preset
from scoring import services as scoring
from tests.e2e.test_phone_sheet import phone_context, screenshot
from tests.factories import PlayerFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MIN_TARGET = 44  # CSS px, both ways
HEADER_MAX = 64  # CSS px: the folded header, brand and menu button on one line
# Ten players, two tables of 5 (the new user's night), names a club has.
PLAYERS = [
    ("Geneviève", "Maes"),
    ("Maximilien", "Vandenberghe"),
    ("Jean-Baptiste", "Claes"),
    ("Bernadette", "Lambert"),
    ("Françoise", "Verstraeten"),
    ("Anne", "Dupont"),
    ("Didier", "Peeters"),
    ("Chloé", "Martin"),
    ("Guillaume", "Delacroix"),
    ("Eva", "Janssens"),
]

# Every target a finger can tap on the page as it is drawn, with its box: links, buttons,
# fields, the summaries that open a <details>, and a checkbox or radio button by the label that
# holds it. A link inside an element marked .prose is a word of a sentence: not a target.
TARGETS = """() => {
  const chosen = 'a[href], button, input:not([type=hidden]), select, textarea, summary, label';
  const found = [];
  for (const element of document.querySelectorAll(chosen)) {
    const box = element.getBoundingClientRect();
    const tapped = 'input[type=checkbox], input[type=radio]';
    if (element.tagName === 'LABEL' && !element.querySelector(tapped)) continue;
    if (element.matches(tapped) && element.closest('label')) continue;
    if (element.matches('a') && element.closest('.prose')) continue;
    if (!box.width || !box.height || !element.checkVisibility({visibilityProperty: true})) continue;
    if (element.disabled) continue;
    const text = (element.innerText || element.value || element.getAttribute('aria-label') || '');
    found.push({
      tag: element.tagName.toLowerCase(),
      text: text.replace(/\\s+/g, ' ').trim().slice(0, 40),
      width: Math.round(box.width * 10) / 10,
      height: Math.round(box.height * 10) / 10,
    });
  }
  return found;
}"""

# Each name of the sheet's names row: where its text breaks lines (after which characters), its
# box and the row's, so that a name broken inside a word, cut or drawn over another is seen.
NAMES_ROW = """() => {
  const row = document.querySelector('.grid-names').getBoundingClientRect();
  return [...document.querySelectorAll('.grid-names .seat')].map(seat => {
    const walker = document.createTreeWalker(seat, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let text = '', breaks = [], top = null;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rects = range.getClientRects();
        if (!rects.length) continue;
        const y = Math.round(rects[0].top);
        if (top !== null && y !== top && !/[\\s-]$/.test(text)) breaks.push(text);
        top = y;
        text += node.data[i];
      }
    }
    range.selectNodeContents(seat);
    const box = range.getBoundingClientRect();
    return {name: text.trim(), breaks, left: box.left, right: box.right, top: box.top,
            bottom: box.bottom, rowLeft: row.left, rowRight: row.right};
  });
}"""


def a_night_of_ten(club, season):
    night = games_services.tournament_create(
        club=club,
        season=season,
        date=season.start + datetime.timedelta(days=30),
        game="belgian_whist",
        point_table=point_table_for_preset("rcwhist"),
        name="Soirée de dix",
    )
    players = [
        PlayerFactory(club=club, first_name=first, last_name=last, display_name=f"{first} {last}")
        for first, last in PLAYERS
    ]
    games_services.presence_set(night, players)
    scoring.round_draw(night, 1, seed=7)
    return night


def deals_corrected_and_removed(poule) -> Deal:
    """Three deals at the table, the first corrected once and the last removed: the sheet then
    shows "corrigée une fois" and "Donnes supprimées". Returns the corrected deal."""
    for seat in ("2", "3", "4"):  # seat 1 deals first: the mort
        scoring.deal_record(poule, {"contract": "solo", "bid": 6, "declarers": [seat], "tricks": 7})
    first, *_, last = poule.deals.order_by("position")
    scoring.deal_correct(first, {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 8})
    scoring.deal_delete(last)
    return first


# The results' deal tables wider than their box, and their players' headings cut short.
SHEETS_CUT = """() => {
  const cut = [];
  document.querySelectorAll("table.sheet").forEach((table, index) => {
    const room = table.parentElement.clientWidth;
    if (table.scrollWidth > room + 1) cut.push(`table ${index}: ${table.scrollWidth} > ${room}`);
    table.querySelectorAll("thead th.num").forEach((th) => {
      if (th.scrollWidth > th.clientWidth + 1) cut.push(`table ${index}: ${th.textContent}`);
    });
  });
  return cut;
}"""


def header_of(page: Page) -> dict | None:
    """The site's header as the phone shows it: its height, its menu button, its links (None
    on the room screen, made for the projector: it has none)."""
    if not page.locator(".site-header").count():
        return None
    box = page.locator(".site-header").bounding_box()
    return {
        "height": round(box["height"]) if box else None,
        "menu button": page.locator("[data-menu-toggle]").is_visible(),
        "links": page.locator(".site-nav").is_visible(),
    }


def test_every_page_of_a_night_is_made_for_fingers_under_one_compact_header(
    live_server, new_context, club, season
):
    admin = UserFactory(username="president")
    PlayerFactory(user=admin, club=club, club__role=Membership.Role.ADMIN)
    night = a_night_of_ten(club, season)
    genevieve = night.poules.get(seats__player__first_name="Geneviève")
    other = night.poules.exclude(pk=genevieve.pk).get()
    corrected = deals_corrected_and_removed(genevieve)
    slug, pk = club.slug, night.pk
    page = phone_context(new_context, live_server, admin).new_page()
    offenders: list[str] = []
    headers: dict[str, dict] = {}

    def walk(name: str, path: str | None = None) -> None:
        if path is not None:
            page.goto(live_server.url + path)
        headers[name] = header_of(page)
        screenshot(page, "night-390-" + "-".join(name.replace(",", "").split()))
        for target in page.evaluate(TARGETS):
            if target["width"] < MIN_TARGET or target["height"] < MIN_TARGET:
                offenders.append(
                    f"{name}: <{target['tag']}> {target['text']!r} "
                    f"{target['width']} × {target['height']}"
                )

    walk("night", reverse("games:tournament", args=[slug, pk]))
    # The menu opens on a tap; its links and language selector are targets too.
    toggle = page.locator("[data-menu-toggle]")
    if toggle.is_visible() and page.locator(".site-nav").is_hidden():
        toggle.click()
        expect(page.locator(".site-nav")).to_be_visible()
        walk("night, menu open")
        toggle.click()
        expect(page.locator(".site-nav")).to_be_hidden()

    walk("sheet", reverse("games:sheet", args=[slug, pk, genevieve.pk]))
    names = page.evaluate(NAMES_ROW)
    page.locator(f"#donne-{corrected.position} > summary").click()
    expect(page.get_by_text("corrigée une fois")).to_be_visible()
    page.locator("summary", has_text="Donnes supprimées").click()
    walk("sheet, a corrected deal and the removed ones open")
    walk("corriger", reverse("games:deal-edit", args=[slug, pk, corrected.pk]))
    walk("paper entry", reverse("games:sheet-entry", args=[slug, pk, other.pk]))
    walk("results", reverse("games:results", args=[slug, pk]))
    # Every deal table of the results fits the phone, and no player's name is cut.
    cut = page.evaluate(SHEETS_CUT)
    assert cut == [], cut
    walk("presence", reverse("games:presence", args=[slug, pk]))
    walk("placement", reverse("games:seating", args=[slug, pk, 1]))
    walk("room link", reverse("room-link", args=[slug]))
    walk("room screen", reverse("games:room", args=[slug, pk]))
    page.goto(live_server.url + reverse("games:tournament", args=[slug, pk]))
    page.locator("button", has_text="Clôturer la soirée").click()
    expect(page.locator("h1")).to_contain_text("Clôturer la soirée ?")
    walk("close")

    assert offenders == [], "targets under 44 × 44 px:\n" + "\n".join(offenders)

    # One header, one behaviour: folded to one compact line on every page.
    folded = {"menu button": True, "links": False}
    different = {
        name: header
        for name, header in headers.items()
        if header is not None
        and "menu open" not in name
        and ({k: header[k] for k in folded} != folded or header["height"] > HEADER_MAX)
    }
    assert different == {}, headers

    # "Geneviève" and every first name of the names row: whole, on one line or broken at a
    # space or a hyphen only, inside the row and clear of the others.
    assert [(n["name"], n["breaks"]) for n in names if n["breaks"]] == []
    cut = [n["name"] for n in names if n["left"] < n["rowLeft"] - 1 or n["right"] > n["rowRight"]]
    assert cut == []
    for one, two in itertools.pairwise(names):
        apart = (
            one["right"] <= two["left"]
            or one["bottom"] <= two["top"]
            or (two["bottom"] <= one["top"])
        )
        assert apart, (one, two)
    assert "Geneviève" in {n["name"] for n in names}
