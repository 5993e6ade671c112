"""The game facts the site reads through the game registry instead of testing a game's code."""

from __future__ import annotations

import pytest

from scoring.engine.base import next_dealer
from scoring.engine.errors import EngineError
from scoring.engine.games import GAME_CODES, game_module, mort
from scoring.engine.games.belgian_whist import contract_made, is_partner_contract
from scoring.engine.night import rename_players, score_poule_deals, short_poule_warnings
from scoring.engine.tables import preset

SEATS = ["1", "2", "3", "4"]


@pytest.mark.parametrize("game", GAME_CODES)
def test_every_game_states_its_facts(game):
    module = game_module(game)
    assert isinstance(module.LOWER_IS_BETTER, bool)
    assert isinstance(module.RECORDS_DEALER, bool)
    assert module.MORT_AT is None or module.MORT_AT in module.PLAYERS
    assert isinstance(module.FIXED_DEALS_PER_POULE, bool)


def test_only_hearts_ranks_the_lowest_total_first():
    assert [g for g in GAME_CODES if game_module(g).LOWER_IS_BETTER] == ["hearts"]


def test_the_dealer_is_the_mort_at_a_belgian_whist_table_of_five_only():
    assert mort("belgian_whist", 5, 2) == 2
    assert mort("belgian_whist", 4, 2) is None
    assert mort("hearts", 5, 2) is None
    assert mort("belgian_whist", 5, None) is None


def test_the_next_dealer_moves_after_a_counted_deal_and_stays_after_a_pass():
    assert next_dealer([], [], 4) == 0
    assert next_dealer([0], [True], 4) == 1
    assert next_dealer([0, 1], [True, False], 4) == 1
    assert next_dealer([3], [True], 4) == 0
    assert next_dealer([None], [True], 4) is None


def test_a_passed_belgian_whist_deal_does_not_count():
    deals = [
        {"contract": "pass"},
        {"contract": "solo", "bid": 6, "declarers": ["2"], "tricks": 6},
    ]
    score = score_poule_deals(preset("rcwhist"), SEATS, deals)
    assert score.counted == (False, True)
    assert score.counted_deals == 1
    assert score.dealers == (0, 0)


def test_every_hearts_deal_counts():
    deals = [{"hearts": {"1": 13}, "queen_of_spades": "2"}] * 2
    assert score_poule_deals(preset("coeurs"), SEATS, deals).counted == (True, True)


def test_a_contract_is_made_when_the_table_gives_the_declarers_positive_points():
    table = preset("rcwhist")
    made = {"contract": "emballage", "bid": 8, "declarers": ["1", "3"], "tricks": 8}
    down = {**made, "tricks": 7}
    assert contract_made(table, made, "1")
    assert not contract_made(table, down, "3")


def test_in_a_misere_each_declarer_makes_it_with_his_own_tricks():
    table = preset("rcwhist")
    deal = {"contract": "petite_misere", "declarers": ["1", "2"], "tricks": {"1": 0, "2": 1}}
    assert contract_made(table, deal, "1")
    assert not contract_made(table, deal, "2")


def test_a_deal_the_table_cannot_read_is_an_engine_error():
    with pytest.raises(EngineError):
        contract_made(preset("rcwhist"), {"contract": "emballage", "bid": 8}, "1")


def test_emballage_and_trou_are_the_partner_contracts():
    table = preset("rcwhist")
    assert is_partner_contract(table, "emballage", 8)
    assert is_partner_contract(table, "trou", 9)
    assert not is_partner_contract(table, "solo", 6)


def test_short_poules_are_warned_about_only_where_the_deals_per_poule_are_fixed():
    poules = [(1, 1, 4, 12), (1, 2, 5, 11)]
    assert short_poule_warnings("belgian_whist", poules, {4: 12, 5: 15}) == [
        "round 1, table 2: 11 deals played, the club plays 15 at a table of 5"
    ]
    assert short_poule_warnings("hearts", poules, {4: 12, 5: 15}) == []


def test_renaming_the_players_of_a_deal_reaches_every_field_that_names_one():
    deal = {
        "contract": "petite_misere",
        "declarers": ["Anne", "Bruno"],
        "tricks": {"Anne": 0, "Bruno": 1},
        "penalties": [{"player": "Chloé", "points": 10}],
    }
    seat = {"Anne": "1", "Bruno": "2", "Chloé": "3"}.get
    assert rename_players(deal, seat) == {
        "contract": "petite_misere",
        "declarers": ["1", "2"],
        "tricks": {"1": 0, "2": 1},
        "penalties": [{"player": "3", "points": 10}],
    }
