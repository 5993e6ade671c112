"""The score sheet made for fingers, on a 390 × 844 phone: the deal that used to get stuck ends
recorded; every control of each game's sheet is at least 44 × 44 CSS px and nothing covers
it; the page never scrolls sideways in FR, EN or NL; a deal is recorded with the keyboard
alone; the taps per kind of contract are counted (docs/running-a-club.md's table).

Each game's sheet is saved as a picture under build/screenshots/ (git-ignored)."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from infra.typography import of_name
from scoring import services as scoring
from tests.e2e.conftest import page_width
from tests.e2e.test_phone_sheet import (
    PHONE,
    a_night,
    a_scorer,
    besigue_deal,
    hearts_deal,
    phone_context,
    record_belgian_whist,
    screenshot,
    sheet_url,
    sign_in,
    whist_deals,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MIN_TARGET = 44  # CSS px, both ways

# Every control the scorer can reach on the sheet, its box and whether something else lies on
# its centre (each is scrolled into view first: a control is judged where it is used).
CONTROLS = """() => {
  const chosen = 'a[href], button, input:not([type=hidden]), select, textarea, summary';
  const found = [];
  for (const element of document.querySelectorAll(chosen)) {
    let box = element.getBoundingClientRect();
    // Not drawn: in a closed <details>, in a hidden part, folded away.
    if (!box.width || !box.height || !element.checkVisibility({visibilityProperty: true})) continue;
    if (element.disabled) continue;  // not a target: the mort, a declarer too many
    element.scrollIntoView({block: 'center', inline: 'center'});
    box = element.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, y);
    const covered = !hit || !(element === hit || element.contains(hit) || hit.contains(element)
      && hit.closest('label') === element.closest('label'));
    found.push({
      what: element.outerHTML.slice(0, 90),
      width: Math.round(box.width * 10) / 10,
      height: Math.round(box.height * 10) / 10,
      covered: covered ? (hit ? hit.outerHTML.slice(0, 90) : 'nothing') : '',
    });
  }
  window.scrollTo(0, 0);
  return found;
}"""


def assert_made_for_fingers(page: Page) -> int:
    controls = page.evaluate(CONTROLS)
    small = [c for c in controls if c["width"] < MIN_TARGET or c["height"] < MIN_TARGET]
    covered = [c for c in controls if c["covered"]]
    assert not small, "\n".join(map(str, small))
    assert not covered, "\n".join(map(str, covered))
    assert page_width(page) <= PHONE["width"]
    return len(controls)


def assert_no_scroll_between_tricks_and_save(page: Page, tricks: str) -> None:
    """At the top of the page, the tricks' buttons and the save button are all on the screen:
    nothing to scroll between the last choice and saving (and nothing covers them, above)."""
    page.evaluate("window.scrollTo(0, 0)")
    for locator in (page.locator(tricks).last, page.locator("[data-save]")):
        box = locator.bounding_box()
        assert box is not None
        assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], box


# -- the deal that got stuck


def test_a_refused_misere_then_a_solo_is_recorded_and_said_in_the_sites_words(
    live_server, new_context, club, season
):
    poule = a_night(club, season, "rcwhist", 4).poules.get()
    names = {str(s.number): s.player.display_name.split()[0] for s in poule.seats.all()}
    page = phone_context(new_context, live_server, a_scorer(club)).new_page()
    page.goto(sheet_url(live_server.url, poule))
    form = page.locator("form[data-sheet-form]")
    # A petite misère with 14 tricks: the buttons stop at 13, so 14 comes as an older page or
    # a typed value would send it (the field is a list: an option is added to it).
    form.locator(".calls button[data-value^='petite_misere:']").click()
    form.locator("label:has(input[name=declarers][value='2'])").click()
    page.evaluate(
        """() => {
          const select = document.querySelector("select[name=tricks_2]");
          select.add(new Option("14", "14"));
          select.value = "14";
        }"""
    )
    form.locator("[data-save]").click()
    error = form.locator("[data-seat='2'] .errorlist")
    # « de » elided before a vowel (infra/typography.py): « plis d'Anne ».
    tricks_of = f"plis {of_name('de', names['2'])}"
    expected = f"Donne 1 : Petite misère, {tricks_of} : 14 ? C'est un nombre de 0 à 13."
    expect(error).to_have_text(expected)
    expect(page.locator("#sheet")).not_to_contain_text("Assurez-vous")
    # Readable: the sentence runs across the phone, not a word per line.
    box = error.bounding_box()
    assert box is not None and box["width"] >= 300, box
    line = error.evaluate("e => parseFloat(getComputedStyle(e).lineHeight) || 20")
    assert box["height"] <= 3 * line, (box, line)
    # Refused at once, online: an ordinary refusal, not a deal waiting on the phone.
    queue = page.locator("[data-queue]")
    expect(queue).to_be_hidden()
    assert poule.deals.count() == 0

    # A reload keeps the refused deal in the form, to be mended.
    page.reload()
    expect(form.locator(".calls button[data-value^='petite_misere:']")).to_have_attribute(
        "aria-pressed", "true"
    )
    # The scorer picks a solo 7, 8 tricks, and saves: recorded (the misère's tricks, hidden,
    # are neither sent nor read).
    form.locator(".calls button[data-value='solo:7']").click()
    expect(form.locator("input[name=declarers][value='2']")).to_be_checked()
    form.locator("[data-part=tricks] .tricks button[data-value='8']").click()
    form.locator("[data-save]").click()
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "1")
    expect(queue).to_be_hidden()
    assert [d.data for d in poule.deals.all()] == [
        {"contract": "solo", "bid": 7, "declarers": ["2"], "tricks": 8}
    ]


def test_the_undone_deal_stays_in_the_form_after_a_reload(live_server, new_context, club, season):
    poule = a_night(club, season, "rcwhist", 4).poules.get()
    page = phone_context(new_context, live_server, a_scorer(club)).new_page()
    page.goto(sheet_url(live_server.url, poule))
    deal = {"contract": "emballage", "bid": 9, "declarers": ["1", "3"], "tricks": 10}
    record_belgian_whist(page, deal, wait_for=1)
    page.locator("form[data-undo] button").click()
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "0")
    page.reload()
    form = page.locator("form[data-sheet-form]")
    expect(form.locator(".calls button[data-value='emballage:9']")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(form.locator("input[name=declarers][value='3']")).to_be_checked()
    expect(form.locator("[data-part=tricks] .tricks button[data-value='10']")).to_have_attribute(
        "aria-pressed", "true"
    )
    form.locator("[data-save]").click()
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "1")
    assert [d.data for d in poule.deals.all()] == [deal]


# -- 44 px, uncovered, no sideways scrolling


@pytest.mark.parametrize(
    ("rules", "players"), [("rcwhist", 5), ("whist7", 4), ("coeurs", 4), ("a_quatre", 4)]
)
def test_every_control_of_each_games_sheet_is_44px_and_uncovered(
    live_server, new_context, club, season, rules, players
):
    tournament = a_night(club, season, rules, players)
    poule = tournament.poules.get()
    seats = poule.seats.count()
    if tournament.game == "whist":
        whist_deals(poule, 2)
    elif tournament.game == "hearts":
        scoring.deals_record(poule, [hearts_deal(seats, i) for i in range(2)])
    elif tournament.game == "besigue":
        deck = 8 * tournament.point_table.engine_table().decks
        scoring.deals_record(poule, [besigue_deal(seats, i, deck) for i in range(2)])
    page = phone_context(new_context, live_server, a_scorer(club)).new_page()
    page.goto(sheet_url(live_server.url, poule))
    if tournament.game == "belgian_whist":
        record_belgian_whist(
            page, {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 7}, wait_for=1
        )
    # The site's menu is folded away behind one button.
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] <= 56, header
    expect(page.locator(".site-nav")).to_be_hidden()
    form = page.locator("form[data-sheet-form]")
    counted = assert_made_for_fingers(page)
    assert counted >= 10
    if tournament.game == "belgian_whist":
        # Each contract's shape in turn: a pair with its tricks, a misère with his own.
        form.locator(".calls button[data-value='emballage:8']").click()
        form.locator("label:has(input[name=declarers][value='3'])").click()
        form.locator("label:has(input[name=declarers][value='4'])").click()
        assert_made_for_fingers(page)
        assert_no_scroll_between_tricks_and_save(page, "[data-part=tricks] .tricks button")
        form.locator(".calls button[data-value^='petite_misere:']").click()
        form.locator("label:has(input[name=declarers][value='4'])").click()
        assert_made_for_fingers(page)
        assert_no_scroll_between_tricks_and_save(page, "[data-seat='3'] .tricks button")
    elif tournament.game == "whist":
        assert_no_scroll_between_tricks_and_save(page, ".tricks button")
    # The menu opens on a tap, and its links are made for fingers too.
    page.locator("[data-menu-toggle]").click()
    expect(page.locator(".site-nav")).to_be_visible()
    assert_made_for_fingers(page)
    page.locator("[data-menu-toggle]").click()
    screenshot(page, f"sheet-{tournament.game}-{seats}")


@pytest.mark.parametrize("language", ["fr", "en", "nl"])
def test_the_sheet_fits_390px_in_each_language(live_server, new_context, club, season, language):
    poule = a_night(club, season, "rcwhist", 5).poules.get()
    context = phone_context(new_context, live_server, a_scorer(club))
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page = context.new_page()
    page.goto(sheet_url(live_server.url, poule))
    expect(page.locator("html")).to_have_attribute("lang", language)
    form = page.locator("form[data-sheet-form]")
    for call in ("emballage:8", "petite_misere:", "pass:"):
        form.locator(f".calls button[data-value^='{call}']").click()
        if call != "pass:":
            form.locator("label:has(input[name=declarers][value='3'])").click()
        assert page_width(page) <= PHONE["width"]
        # Every button's word fits it ("Passe" included).
        cut = page.evaluate(
            """() => [...document.querySelectorAll('#sheet button, #sheet .choice span')]
                 .filter(e => e.offsetWidth && e.scrollWidth > e.clientWidth + 1)
                 .map(e => e.textContent.trim())"""
        )
        assert not cut, (language, call, cut)
        # Whole first names on the seats' buttons and columns.
        expect(form.locator(".choices-players")).to_contain_text("Maximilien")
        if call != "pass:":
            form.locator("label:has(input[name=declarers][value='3'])").click()
    names = page.locator(".grid-names .seat")
    for index in range(5):
        assert names.nth(index).evaluate("e => e.scrollWidth <= e.clientWidth"), index
    screenshot(page, f"sheet-belgian_whist-5-{language}")


# -- the keyboard alone


def test_a_deal_is_recorded_with_the_keyboard_alone(live_server, new_context, club, season):
    poule = a_night(club, season, "rcwhist", 4).poules.get()
    page = phone_context(new_context, live_server, a_scorer(club)).new_page()
    page.goto(sheet_url(live_server.url, poule))

    def tab_to(selector: str) -> None:
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate(f"document.activeElement.matches({selector!r})"):
                return
        raise AssertionError(f"Tab never reached {selector}")

    tab_to(".calls button[data-value='solo:6']")
    page.keyboard.press("Space")
    tab_to("input[name=declarers][value='2']")
    page.keyboard.press("Space")
    tab_to("[data-part=tricks] .tricks button[data-value='7']")
    page.keyboard.press("Enter")
    tab_to("[data-save]")
    page.keyboard.press("Enter")
    expect(page.locator("#sheet")).to_have_attribute("data-deals", "1")
    assert [d.data for d in poule.deals.all()] == [
        {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 7}
    ]


# -- the taps, per kind of contract (docs/running-a-club.md's table)

TAPS = [
    # (kind, deal, taps: the contract's button … save)
    ("emballage", {"contract": "emballage", "bid": 8, "declarers": ["1", "3"], "tricks": 9}, 5),
    ("trou", {"contract": "trou", "bid": 8, "declarers": ["2", "4"], "tricks": 9}, 5),
    ("solo", {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 7}, 4),
    ("abondance", {"contract": "abondance", "bid": 9, "declarers": ["3"], "tricks": 9}, 4),
    ("petite misère", {"contract": "petite_misere", "declarers": ["4"], "tricks": {"4": 0}}, 4),
    ("grande misère", {"contract": "grande_misere", "declarers": ["1"], "tricks": {"1": 0}}, 4),
    ("passe", {"contract": "pass"}, 2),
]


def test_the_taps_per_kind_of_contract(live_server, new_context, club, season):
    poule = a_night(club, season, "rcwhist", 4).poules.get()
    page = phone_context(new_context, live_server, a_scorer(club)).new_page()
    page.goto(sheet_url(live_server.url, poule))
    measured = {}
    for number, (kind, deal, _taps) in enumerate(TAPS, start=1):
        measured[kind] = record_belgian_whist(page, deal, wait_for=number)
    print("\ntaps per kind of contract (rcwhist, contract's button … Enregistrer):")
    for kind, taps in measured.items():
        print(f"  {kind:<14} {taps}")
    assert measured == {kind: taps for kind, _deal, taps in TAPS}
    assert [d.data for d in poule.deals.order_by("position")] == [deal for _k, deal, _t in TAPS]


# -- drawn as the script shows it

# Every layout shift the page made, summed (Lighthouse's CLS counts the same entries).
LAYOUT_SHIFT = """() => new Promise((done) => {
  new PerformanceObserver((list) => {
    done(list.getEntries().filter((e) => !e.hadRecentInput).reduce((s, e) => s + e.value, 0));
  }).observe({ type: "layout-shift", buffered: true });
  setTimeout(() => done(0), 500);
})"""


@pytest.mark.parametrize("rules", ["rcwhist", "whist7"])
def test_the_deal_form_is_drawn_folded_and_nothing_moves_when_its_script_runs(
    live_server, new_context, club, season, rules
):
    poule = a_night(club, season, rules, 4).poules.get()
    scorer = a_scorer(club)
    page = phone_context(new_context, live_server, scorer).new_page()

    # The script comes late, as on a slow phone: the page is painted before it runs.
    page.route("**/dealform*.js", lambda route: (time.sleep(0.5), route.continue_()))
    page.goto(sheet_url(live_server.url, poule))
    form = page.locator("form[data-sheet-form]")
    expect(form.locator("[data-dealform]")).to_have_attribute("data-dealform-ready", "1")
    page.wait_for_load_state("load")
    assert page.evaluate(LAYOUT_SHIFT) < 0.01
    # The one-tap buttons, drawn by the server, wired by the script.
    expect(form.locator(".tricks button").first).to_be_attached()
    if rules == "rcwhist":
        expect(form.locator(".choices-contract .choice-grid")).to_be_hidden()
        form.locator(".calls button[data-value='solo:6']").click()
        expect(form.locator("[data-part=declarers]")).to_be_visible()
        expect(form.locator("[data-part=tricks] .tricks")).to_be_visible()

    # Without script the form is the radios and lists, its buttons out of the way.
    bare = new_context(viewport=PHONE, locale="fr-BE", java_script_enabled=False)
    sign_in(bare, live_server, scorer)
    page = bare.new_page()
    page.goto(sheet_url(live_server.url, poule))
    form = page.locator("form[data-sheet-form]")
    expect(form.locator("select[name=tricks]")).to_be_visible()
    assert form.locator(".chip-grid").count() >= 1
    for grid in form.locator(".chip-grid").all():
        expect(grid).to_be_hidden()
    if rules == "rcwhist":
        expect(form.locator(".choices-contract .choice-grid")).to_be_visible()
        expect(form.locator("[data-part=declarers]")).to_be_visible()
