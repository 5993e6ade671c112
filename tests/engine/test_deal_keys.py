"""A deal holds what its game knows (dealkeys.py): every game declares its deal's keys, each with
its type and bounds, once; every parse_deal holds a deal against it, so an unknown key, a huge
text, a long list or a value nested deep is refused at its place, with a stable code, before
anything could store it."""

from __future__ import annotations

import copy
import json

import pytest

from scoring.engine.dealkeys import NAME_LENGTH, Fields
from scoring.engine.errors import DocumentRefused
from scoring.engine.games import GAME_CODES, game_module
from scoring.engine.night import read_night, score_night_document
from scoring.engine.parsing import SHOWN_LENGTH, shown
from scoring.engine.tables import preset
from tests.engine.test_night_file import EXAMPLE as NIGHT

SEATS = ("1", "2", "3", "4")
# One good deal of each game, as the score sheet records it (seats by number).
GOOD = {
    "belgian_whist": ("rcwhist", {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 6}),
    "whist": ("simple10", {"tricks": {"team": ["1", "3"], "tricks": 7}}),
    "hearts": ("coeurs", {"hearts": {"1": 13}, "queen_of_spades": "2"}),
    "besigue": (
        "a_quatre",
        {"declarations": {"1": {"marriage": 1}}, "brisques": {"1": 32}, "last_trick": "1"},
    ),
}
# The deal keys night-format.md gives each game (and every game: penalties).
FORMAT_KEYS = {
    "belgian_whist": {"contract", "bid", "declarers", "tricks", "dealer"},
    "whist": {"tricks", "honours", "revokes", "not_played"},
    "hearts": {"hearts", "queen_of_spades", "revoke", "mixed_tricks"},
    "besigue": {"declarations", "brisques", "last_trick"},
}


def nested(levels: int) -> list:
    value: list = []
    for _ in range(levels):
        value = [value]
    return value


def parse(game: str, raw):
    table, _ = GOOD[game]
    problems = []
    deal = game_module(game).parse_deal(preset(table), raw, SEATS, "deals[0]", problems)
    return deal, problems


@pytest.mark.parametrize("game", GAME_CODES)
def test_every_game_declares_the_keys_its_file_uses(game):
    keys = game_module(game).DEAL_KEYS
    assert isinstance(keys, Fields)
    assert FORMAT_KEYS[game] | {"penalties", "dealer"} == set(keys.fields)


@pytest.mark.parametrize("game", GAME_CODES)
def test_the_good_deal_of_each_game_is_read(game):
    deal, problems = parse(game, GOOD[game][1])
    assert problems == [] and deal is not None


@pytest.mark.parametrize("game", GAME_CODES)
def test_an_unknown_key_is_refused_naming_it_and_the_keys_allowed(game):
    deal, problems = parse(game, {**GOOD[game][1], "note": "x"})
    assert deal is None
    assert [(p.place, p.code, p.params["key"]) for p in problems] == [
        ("deals[0]", "deal_key_unknown", "note")
    ]
    assert "penalties" in problems[0].params["allowed"]
    assert f"a {game} deal may hold" in problems[0].message


@pytest.mark.parametrize("game", GAME_CODES)
def test_a_huge_text_is_refused_in_a_line(game):
    deal, problems = parse(game, {**GOOD[game][1], "dealer": "x" * 5_000_000})
    assert deal is None
    assert [(p.place, p.code) for p in problems] == [("deals[0].dealer", "text_too_long")]
    assert problems[0].params == {"maximum": NAME_LENGTH, "got": 5_000_000}
    assert len(str(problems[0])) < 200


@pytest.mark.parametrize("game", GAME_CODES)
@pytest.mark.parametrize("key", ["penalties", "junk"])
def test_a_value_nested_500_deep_is_refused_without_recursing(game, key):
    deal, problems = parse(game, {**GOOD[game][1], key: nested(500)})
    assert deal is None
    assert problems and all(len(str(p)) < 300 for p in problems)
    assert problems[0].code in {"value_kind", "deal_key_unknown"}


def test_an_unknown_key_inside_a_penalty_or_a_team_is_refused_at_its_place():
    penalty = {"player": "2", "points": 2, "why": "talked"}
    _, problems = parse("belgian_whist", {**GOOD["belgian_whist"][1], "penalties": [penalty]})
    assert [(p.place, p.code) for p in problems] == [("deals[0].penalties[0]", "deal_key_unknown")]
    _, problems = parse("whist", {"tricks": {"team": ["1", "3"], "tricks": 7, "x": 1}})
    assert [(p.place, p.code) for p in problems] == [("deals[0].tricks", "deal_key_unknown")]


def test_a_list_past_its_length_is_refused():
    penalties = [{"player": "2", "points": 1}] * 21
    _, problems = parse("hearts", {**GOOD["hearts"][1], "penalties": penalties})
    assert [(p.place, p.code, p.params["maximum"]) for p in problems] == [
        ("deals[0].penalties", "too_many_items", 20)
    ]
    _, problems = parse("whist", {"tricks": {"team": ["1", "3", "2", "4", "1"], "tricks": 7}})
    assert [(p.place, p.code) for p in problems] == [("deals[0].tricks.team", "too_many_items")]


def test_a_value_the_rules_leave_unread_must_still_be_of_its_type():
    # A pass has no bid: its rules never read one, its declaration still says what a bid is.
    _, problems = parse("belgian_whist", {"contract": "pass", "bid": "eight"})
    assert [(p.place, p.code) for p in problems] == [("deals[0].bid", "value_kind")]
    _, problems = parse("belgian_whist", {"contract": "pass", "bid": 40})
    assert [(p.place, p.code) for p in problems] == [("deals[0].bid", "integer_outside")]
    assert problems[0].params == {"minimum": 1, "maximum": 13, "got": "40"}
    _, problems = parse("hearts", {**GOOD["hearts"][1], "dealer": 3})
    assert [(p.place, p.code) for p in problems] == [("deals[0].dealer", "value_kind")]


def test_a_value_the_rules_read_is_named_in_their_words_first():
    _, problems = parse("belgian_whist", {**GOOD["belgian_whist"][1], "bid": "6"})
    assert [p.code for p in problems] == ["bid_not_integer"]
    _, problems = parse("belgian_whist", {**GOOD["belgian_whist"][1], "tricks": 14})
    assert [p.code for p in problems] == ["tricks_outside"]


def test_a_result_document_reads_back_with_its_points_an_input_one_does_not():
    result = score_night_document(NIGHT)
    assert read_night(result).standings == read_night(NIGHT).standings
    doc = copy.deepcopy(NIGHT)
    doc["poules"][0]["deals"][0]["points"] = {"Anne Dupont": 10}
    with pytest.raises(DocumentRefused) as refused:
        read_night(doc)
    assert [(e.place, e.code) for e in refused.value.errors] == [
        ("poules[0].deals[0]", "deal_key_unknown")
    ]


def test_a_value_in_a_message_is_cut_to_a_line_whatever_its_size():
    assert len(shown("x" * 5_000_000)) == SHOWN_LENGTH
    assert len(shown(nested(100_000))) <= SHOWN_LENGTH
    assert shown({"a": 1}) == json.dumps({"a": 1})
