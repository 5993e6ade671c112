"""Words that mean one thing: the sheet's codes are the reader's language's, each meaning one
contract in it, and each is explained by the legend; French typography stays French; "won"
says what was won."""

from __future__ import annotations

import html
import re
import string

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games.dealforms import CONTRACT_SHORT, describe_deal, short_deal
from games.labels import contract_code
from games.presenters.legend import code_legend
from scoring import services as scoring_services
from scoring.engine.games.belgian_whist import PASS
from scoring.engine.tables import preset
from tests.club.test_language import ROOT, entries, unquote

LANGUAGES = ("fr", "en", "nl")
CATALOGUES_DIR = ROOT / "locale"
TABLES = {"belgian_whist": "rcwhist", "whist": "whist7", "hearts": "coeurs", "besigue": "besigue"}
TEAM = ["1", "3"]


def belgian_whist_deals() -> list[dict]:
    """Every contract, made and failed, alone and with several declarers; a pass; a
    penalty."""
    deals: list[dict] = [{"contract": PASS}]
    for contract in CONTRACT_SHORT:
        if contract == PASS:
            continue
        for bid in (None, 8):
            base = {"contract": contract, **({"bid": bid} if bid else {})}
            deals += [
                {**base, "declarers": ["1"], "tricks": 0},
                {**base, "declarers": ["1"], "tricks": 13},
                {**base, "declarers": TEAM, "tricks": 9},
                {**base, "declarers": TEAM, "tricks": {"1": 0, "3": 2}},
                {**base, "declarers": ["2"], "tricks": {"2": 0}},
            ]
    deals.append({**deals[-1], "penalties": [{"player": "1", "points": 2}]})
    return deals


SAMPLES = {
    "belgian_whist": belgian_whist_deals(),
    "whist": [
        {"tricks": {"team": TEAM, "tricks": 9}},
        {
            "tricks": {"team": TEAM, "tricks": 6},
            "honours": {"team": TEAM, "count": 4},
            "revokes": [{"team": ["2", "4"], "count": 2}],
        },
        {"not_played": True, "honours": {"team": TEAM, "count": 4}},
        {"tricks": {"team": TEAM, "tricks": 7}, "penalties": [{"player": "2", "points": 1}]},
    ],
    "hearts": [
        {"hearts": {"1": 13, "2": 0, "3": 0, "4": 0}, "queen_of_spades": "2"},
        {"hearts": {"1": 13, "2": 0, "3": 0, "4": 0}},
        {"hearts": {"1": 13, "2": 0, "3": 0, "4": 0}, "revoke": ["3"]},
        {"hearts": {"1": 13, "2": 0, "3": 0, "4": 0}, "mixed_tricks": "4"},
    ],
    "besigue": [
        {"last_trick": "1"},
        {"penalties": [{"player": "1", "points": 10}]},
        {"declarations": {"1": {"marriage": 2}}, "last_trick": "2"},
    ],
}
# Whole words, not codes: translated like any word (the legend says them too).
WORDS = {"belgian_whist": {PASS}}


def code_of(game: str, data: dict, language: str) -> str:
    with translation.override(language):
        return short_deal(game, data, preset(TABLES[game]))[0]


def symbols(code: str) -> set[str]:
    """A code's parts without their numbers: "E8 ✓9" → {"E", "✓"}, "PM 1/2" → {"PM", "/"}."""
    return {part.strip(string.digits) for part in code.split()} - {""}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_contract_code_means_one_contract_within_its_language(language):
    meanings: dict[str, set[str]] = {}
    for data in SAMPLES["belgian_whist"]:
        first = code_of("belgian_whist", data, language).split()[0].rstrip(string.digits)
        meanings.setdefault(first, set()).add(data["contract"])

    assert {code: contracts for code, contracts in meanings.items() if len(contracts) > 1} == {}


def test_the_sheet_writes_each_contract_as_the_readers_score_sheets_do():
    emballage = {"contract": "emballage", "bid": 8, "declarers": TEAM, "tricks": 9}
    misere = {"contract": "grande_misere_table", "declarers": ["1"], "tricks": 0}
    assert [code_of("belgian_whist", emballage, lang) for lang in LANGUAGES] == [
        "E8 ✓9",
        "PA8 ✓9",
        "V8 ✓9",
    ]
    assert code_of("belgian_whist", misere, "nl").startswith("OM ")
    assert code_of("belgian_whist", misere, "fr").startswith("GMT ")


@pytest.mark.parametrize("game", ["whist", "hearts"])
def test_the_other_games_marks_are_the_same_in_every_language(game):
    for data in SAMPLES[game]:
        assert {language: code_of(game, data, language) for language in LANGUAGES} == dict.fromkeys(
            LANGUAGES, code_of(game, data, "fr")
        ), data


def test_the_legend_lists_only_the_contracts_of_the_nights_point_table():
    table = preset("iwwa")
    played = {row.contract for row in table.rows.values()}
    with translation.override("nl"):
        legend = dict(code_legend("belgian_whist", frozenset(played)))
        every = dict(code_legend("belgian_whist"))
    assert set(every) - set(legend), "the IWWA table plays fewer contracts than all"
    assert "PM" not in legend and "GMT" not in legend and "E" not in legend


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", sorted(SAMPLES))
def test_every_code_the_sheet_can_write_is_in_the_legend(game, language):
    written = set().union(*(symbols(code_of(game, data, language)) for data in SAMPLES[game]))
    with translation.override(language):
        explained = set().union(*(symbols(code) for code, _meaning in code_legend(game)))

    assert written - explained == set()
    assert {"•", "–"} <= explained


def test_the_legend_names_each_code_in_the_readers_language():
    with translation.override("en"):
        legend = dict(code_legend("belgian_whist"))

    assert legend["SM"] == "Small misery"
    assert legend["SOM"] != legend["SM"]
    assert legend["SM 1/2"].startswith("misery by several players: 1 of the 2")
    assert legend["Pass"].startswith("everybody passed")


# French typography ------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "nl"])
def test_no_english_or_dutch_translation_keeps_a_space_before_colon_or_semicolon(language):
    spaced = [
        (msgid, msgstr)
        for _flags, msgid, msgstr in entries(language)
        if re.search(r"\s[:;]|«|»", msgstr)
    ]

    assert spaced == []


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "dealer"), [("fr", "Donneur :"), ("en", "Dealer:")])
def test_the_sheet_says_the_dealer_with_its_languages_colon(
    client, running_night, scorer, language, dealer
):
    poule = running_night.poules.filter(round=1).first()
    scoring_services.deal_record(
        poule, {"contract": "emballage", "bid": 8, "declarers": TEAM, "tricks": 9}
    )
    client.force_login(scorer)
    club = running_night.club
    path = reverse("games:sheet", args=[club.slug, running_night.pk, poule.pk])
    page = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    text = re.sub(r"<[^>]+>", "", page.content.decode())

    assert dealer in text
    if language != "fr":
        assert "Dealer :" not in text
        assert "PA8 ✓9" in text  # the English code on an English page


@pytest.mark.parametrize("language", ["en", "nl"])
@pytest.mark.parametrize("game", sorted(SAMPLES))
def test_a_deal_in_words_puts_its_colons_as_the_language_does(game, language):
    names = {"1": "Anne", "2": "Bruno", "3": "Chloé", "4": "Didier"}
    with translation.override(language):
        lines = [describe_deal(game, data, names) for data in SAMPLES[game]]

    assert [line for line in lines if re.search(r"\s[:;]", line)] == []


def page_text(page: str) -> str:
    """What a reader sees of a page: its text without scripts and tags."""
    text = re.sub(r"<script.*?</script>", "", page, flags=re.DOTALL)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_sheet_says_one_thing_with_one_word_and_the_languages_colon(
    client, running_night, scorer, language
):
    poule = next(p for p in running_night.poules.filter(round=1) if p.seats.count() == 5)
    scoring_services.deal_record(
        poule, {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 7}
    )
    scoring_services.deal_record(
        poule,
        {
            "contract": "petite_misere",
            "declarers": ["3", "4"],
            "tricks": {"3": 0, "4": 2},
            "penalties": [{"player": "1", "points": 2}],
        },
    )
    client.force_login(scorer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(
        reverse("games:sheet", args=[running_night.club.slug, running_night.pk, poule.pk])
    ).content.decode()
    legend = {
        html.unescape(code): html.unescape(meaning)
        for code, meaning in re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", page)
    }
    hint = page_text(re.search(r'<p class="grid-legend meta">(.*?)</p>', page, re.DOTALL)[1])

    # The hint under the grid calls the mort what the legend calls him ("the dummy").
    mort = re.search(r"– (\w+)", hint)[1]
    assert mort in legend["–"], (hint, legend["–"])
    # A misère by several players is named with the contract's own word ("Small misery").
    small_misery = contract_code("petite_misere", language)
    misery = legend[small_misery].split()[-1].lower()
    assert misery in legend[f"{small_misery} 1/2"].lower(), legend[small_misery]
    # No French space before a colon or a semicolon: the deal in words ("Anne: 7 tricks"),
    # its penalties, the hint, the legend.
    assert re.findall(r"\w+ [:;]", page_text(page)) == []
    solo = poule.seats.get(number=2).player.display_name
    assert f"— {solo}: 7 " in page_text(page)


def test_the_close_check_joins_its_parts_with_the_languages_semicolon():
    check = scoring_services.CloseCheck(
        unfinished=[scoring_services.UnfinishedTable(1, 1, 3, 12)], undrawn_rounds=[2]
    )
    with translation.override("en"):
        english = str(check)
    with translation.override("fr"):
        french = str(check)

    assert english.endswith("3/12; round 2 not drawn"), english
    assert " ; " in french


# "Won" says what was won ------------------------------------------------------------------


@pytest.mark.django_db
def test_the_ranking_says_nights_won_and_the_results_say_poules_won(client, club, imported_night):
    scoring_services.tournament_publish(imported_night)
    scoring_services.ranking_publish(imported_night.season)
    ranking = client.get(reverse("ranking", args=[club.slug])).content.decode()
    results = client.get(
        reverse("games:results", args=[club.slug, imported_night.pk])
    ).content.decode()

    assert "Soirées gagnées</th>" in ranking
    assert ">Gagnées<" not in ranking
    assert "Poules gagnées</th>" in results


# French plural at zero --------------------------------------------------------------------

PLURAL = re.compile(r'^msgid ((?:".*"\n)+)msgid_plural ((?:".*"\n)+)', re.MULTILINE)


def plurals(language: str) -> set[tuple[str, str]]:
    text = (CATALOGUES_DIR / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    return {(unquote(one), unquote(many)) for one, many in PLURAL.findall(text)}


def test_french_says_zero_in_the_singular():
    with translation.override("fr"):
        zero = translation.ngettext("%(count)s donne jouée", "%(count)s donnes jouées", 0)
        two = translation.ngettext("%(count)s donne jouée", "%(count)s donnes jouées", 2)

    assert (zero % {"count": 0}, two % {"count": 2}) == ("0 donne jouée", "2 donnes jouées")


def test_every_plural_message_has_its_french_forms():
    assert plurals("en") - plurals("fr") == set()
