"""The deal-entry forms: what the scorer taps becomes the deal JSON the engine scores, and a
stored deal opens filled in and gives back the same JSON."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils.datastructures import MultiValueDict

from games.dealforms import DealForm, deal_form_class, deal_post_data, describe_deal
from games.demo import random_deal
from scoring.engine.errors import DocumentRefused
from scoring.engine.night import score_poule_deals
from scoring.engine.tables import preset

FOUR = [(1, "Anne"), (2, "Bruno"), (3, "Chloé"), (4, "Didier")]
FIVE = [*FOUR, (5, "Eva")]
NAMES = {str(seat): name for seat, name in FIVE}
SEAT_CODES = ["1", "2", "3", "4"]


def form_for(
    game: str,
    rules: str,
    data: dict[str, Any] | None = None,
    seats: list[tuple[int, str]] = FOUR,
    **kwargs: Any,
) -> DealForm:
    return deal_form_class(game)(data, seats=seats, point_table=preset(rules), **kwargs)


def typed(
    game: str, rules: str, data: dict[str, Any], seats: list[tuple[int, str]] = FOUR
) -> dict[str, Any]:
    """The deal JSON of a form filled in with ``data`` (field name → value or list)."""
    form = form_for(game, rules, MultiValueDict(_lists(data)), seats)
    assert form.is_valid(), form.errors
    return form.deal_data()


def _lists(data: dict[str, Any]) -> dict[str, list[str]]:
    return {
        key: [str(v) for v in value] if isinstance(value, list) else [str(value)]
        for key, value in data.items()
    }


def reopened(
    game: str, rules: str, deal: dict[str, Any], seats: list[tuple[int, str]] = FOUR
) -> dict[str, Any]:
    """Open a stored deal for correction and save it untouched."""
    shown = form_for(game, rules, seats=seats, initial_deal=deal)
    form = form_for(
        game, rules, MultiValueDict(_lists(deal_post_data(shown))), seats, initial_deal=deal
    )
    assert form.is_valid(), form.errors
    return form.deal_data()


def points(rules: str, deals: list[dict[str, Any]], seats: list[str] = SEAT_CODES) -> tuple:
    return score_poule_deals(preset(rules), seats, deals).deal_points[-1]


# --------------------------------------------------------------------------------------------
# Belgian whist


def test_an_emballage_typed_on_the_form_is_scored_by_the_engine():
    deal = typed(
        "belgian_whist",
        "rcwhist",
        {"contract": "emballage", "bid": 8, "declarers": ["1", "3"], "tricks": 9},
    )
    assert deal == {"contract": "emballage", "bid": 8, "declarers": ["1", "3"], "tricks": 9}
    assert points("rcwhist", [deal]) == (5, -5, 5, -5)


def test_a_petite_misere_records_each_declarers_own_tricks():
    deal = typed(
        "belgian_whist",
        "rcwhist",
        {"contract": "petite_misere", "declarers": ["1", "4"], "tricks_1": 2, "tricks_4": 0},
    )
    assert deal == {
        "contract": "petite_misere",
        "declarers": ["1", "4"],
        "tricks": {"1": 2, "4": 0},
    }
    assert points("rcwhist", [deal]) == (-18 - 4, 6 - 4, 6 - 4, 12 + 6)


def test_the_tricks_typed_for_players_who_are_not_ticked_are_ignored():
    deal = typed(
        "belgian_whist",
        "rcwhist",
        {"contract": "grande_misere", "declarers": ["4"], "tricks_4": 0, "tricks_2": 5},
    )
    assert deal == {"contract": "grande_misere", "declarers": ["4"], "tricks": {"4": 0}}


def test_all_pass_needs_nothing_else_and_drops_what_was_left_in_other_fields():
    deal = typed(
        "belgian_whist",
        "rcwhist",
        {"contract": "pass", "bid": 9, "declarers": ["1"], "tricks": 7, "tricks_1": 3},
    )
    assert deal == {"contract": "pass"}
    assert points("rcwhist", [deal]) == (0, 0, 0, 0)


def test_a_pair_contract_without_tricks_asks_for_them_and_keeps_what_was_typed():
    form = form_for(
        "belgian_whist",
        "rcwhist",
        MultiValueDict(_lists({"contract": "emballage", "bid": 9, "declarers": ["1", "2"]})),
    )
    assert not form.is_valid()
    assert form.errors == {"tricks": ["Choisissez le nombre de plis."]}
    assert form["bid"].value() == "9"
    assert form["declarers"].value() == ["1", "2"]


def test_an_each_contract_asks_for_the_tricks_of_the_ticked_declarer_by_name():
    form = form_for(
        "belgian_whist",
        "rcwhist",
        MultiValueDict(
            _lists({"contract": "petite_misere", "declarers": ["1", "4"], "tricks_1": 0})
        ),
    )
    assert not form.is_valid()
    assert form.errors == {"tricks_4": ["Indiquez les plis de Didier."]}


def test_a_contract_with_several_bids_asks_for_the_bid():
    form = form_for(
        "belgian_whist",
        "rcwhist",
        MultiValueDict(_lists({"contract": "solo", "declarers": ["2"], "tricks": 6})),
    )
    assert form.errors == {"bid": ["Choisissez l'enchère."]}


def test_a_deal_without_contract_or_declarers_is_refused_in_words():
    assert form_for("belgian_whist", "rcwhist", MultiValueDict()).errors == {
        "contract": ["Choisissez le contrat."]
    }
    form = form_for(
        "belgian_whist", "rcwhist", MultiValueDict(_lists({"contract": "chelem", "tricks": 13}))
    )
    assert form.errors == {"declarers": ["Cochez le ou les déclarants."]}


def test_a_contract_with_a_single_bid_in_the_table_needs_no_bid_from_the_scorer():
    deal = typed(
        "belgian_whist", "rcwhist", {"contract": "abondance", "declarers": ["3"], "tricks": 9}
    )
    assert deal == {"contract": "abondance", "bid": 9, "declarers": ["3"], "tricks": 9}
    assert points("rcwhist", [deal]) == (-6, -6, 18, -6)


def test_a_bid_left_in_the_select_is_dropped_for_a_contract_without_bid():
    deal = typed(
        "belgian_whist",
        "rcwhist",
        {"contract": "grande_misere_table", "bid": 8, "declarers": ["2"], "tricks": 0},
    )
    assert deal == {"contract": "grande_misere_table", "declarers": ["2"], "tricks": 0}
    assert points("rcwhist", [deal]) == (-16, 48, -16, -16)


def test_the_contracts_and_bids_offered_are_those_of_the_point_table():
    rcwhist = form_for("belgian_whist", "rcwhist")
    contracts = [code for code, _label in rcwhist.fields["contract"].choices]
    assert contracts[0] == "emballage"
    assert contracts[-1] == "pass"
    assert "piccolo" not in contracts
    assert "piccolo" in [
        code for code, _ in form_for("belgian_whist", "whisthub").fields["contract"].choices
    ]
    iwwa = form_for("belgian_whist", "iwwa")
    assert "petite_misere" not in [code for code, _ in iwwa.fields["contract"].choices]
    iwwa_config, rcwhist_config = (json.loads(f.contract_config) for f in (iwwa, rcwhist))
    assert (iwwa_config["solo"]["side"], iwwa_config["solo"]["bids"]) == ("solo", [5])
    assert (rcwhist_config["emballage"]["side"], rcwhist_config["emballage"]["bids"]) == (
        "pair",
        [8, 9, 10, 11, 12, 13],
    )
    # The one-tap buttons' names: "E8" … "E13", "S6", "PM".
    assert (rcwhist_config["emballage"]["short"], rcwhist_config["emballage"]["bidInName"]) == (
        "E",
        True,
    )
    assert rcwhist_config["petite_misere"]["short"] == "PM"


def test_the_grande_misere_sur_table_is_a_solo_at_rcwhist_and_each_for_himself_at_whisthub():
    data = {"contract": "grande_misere_table", "declarers": ["1"], "tricks": 0, "tricks_1": 1}
    assert typed("belgian_whist", "rcwhist", data)["tricks"] == 0
    assert typed("belgian_whist", "whisthub", data)["tricks"] == {"1": 1}


def test_the_number_of_declarers_is_the_engines_check_not_the_forms():
    deal = typed(
        "belgian_whist",
        "rcwhist",
        {"contract": "solo", "bid": 6, "declarers": ["1", "2"], "tricks": 6},
    )
    with pytest.raises(DocumentRefused) as refused:
        points("rcwhist", [deal])
    assert "needs exactly 1 declarer, got 2" in str(refused.value)


def test_at_a_table_of_five_every_player_can_be_ticked_and_the_engine_refuses_the_mort():
    form = form_for("belgian_whist", "rcwhist", seats=FIVE)
    assert [seat for seat, _name in form.fields["declarers"].choices] == ["1", "2", "3", "4", "5"]
    deal = typed(
        "belgian_whist",
        "rcwhist",
        {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 6},
        seats=FIVE,
    )
    with pytest.raises(DocumentRefused) as refused:
        points("rcwhist", [deal], ["1", "2", "3", "4", "5"])
    assert "is the mort" in str(refused.value)


def test_a_penalty_is_added_to_the_deal_and_scored():
    deal = typed(
        "belgian_whist",
        "rcwhist",
        {
            "contract": "trou",
            "bid": 9,
            "declarers": ["3", "2"],
            "tricks": 10,
            "penalty_0_player": "1",
            "penalty_0_points": 2,
        },
    )
    assert deal == {
        "contract": "trou",
        "bid": 9,
        "declarers": ["2", "3"],
        "tricks": 10,
        "penalties": [{"player": "1", "points": 2}],
    }
    assert points("rcwhist", [deal]) == (-8 - 6, 8 + 2, 8 + 2, -8 + 2)


def test_half_a_penalty_row_asks_for_the_other_half():
    form = form_for(
        "belgian_whist",
        "rcwhist",
        MultiValueDict(
            _lists({"contract": "pass", "penalty_0_player": "2", "penalty_1_points": 3})
        ),
    )
    assert form.errors == {
        "penalty_0_points": ["Indiquez les points de la pénalité."],
        "penalty_1_player": ["Choisissez le joueur pénalisé."],
    }


def test_a_deal_with_more_penalties_than_rows_opens_with_a_row_each():
    deal = {
        "contract": "pass",
        "penalties": [
            {"player": "1", "points": 2},
            {"player": "2", "points": 1},
            {"player": "4", "points": 3},
        ],
    }
    assert reopened("belgian_whist", "rcwhist", deal) == deal


def test_random_club_night_deals_come_back_unchanged_when_reopened():
    rng = random.Random(2024)
    for _ in range(400):
        deal = random_deal(rng, SEAT_CODES)
        assert reopened("belgian_whist", "rcwhist", deal) == deal
        points("rcwhist", [deal])


def test_random_deals_typed_anew_give_the_same_deal_with_declarers_in_seat_order():
    rng = random.Random(7)
    for _ in range(200):
        deal = random_deal(rng, SEAT_CODES)
        shown = form_for("belgian_whist", "rcwhist", initial_deal=deal, prefix="deal")
        form = form_for(
            "belgian_whist", "rcwhist", MultiValueDict(_lists(deal_post_data(shown))), prefix="deal"
        )
        assert form.is_valid(), form.errors
        if "declarers" in deal:
            deal["declarers"] = sorted(deal["declarers"])
        assert form.deal_data() == deal


def test_deals_at_a_table_of_five_come_back_unchanged_when_reopened():
    rng = random.Random(5)
    for _ in range(100):
        deal = random_deal(rng, ["1", "2", "4", "5"])
        assert reopened("belgian_whist", "rcwhist", deal, seats=FIVE) == deal


def test_a_corrected_deal_keeps_its_declarers_order_and_its_dealer():
    deal = {
        "contract": "petite_misere",
        "declarers": ["4", "1"],
        "tricks": {"4": 0, "1": 2},
        "dealer": "2",
    }
    assert reopened("belgian_whist", "rcwhist", deal) == deal
    changed = typed(
        "belgian_whist",
        "rcwhist",
        {
            "contract": "petite_misere",
            "declarers": ["1", "2", "4"],
            "tricks_1": 2,
            "tricks_2": 0,
            "tricks_4": 0,
        },
    )
    assert changed["declarers"] == ["1", "2", "4"]
    form = form_for(
        "belgian_whist",
        "rcwhist",
        MultiValueDict(
            _lists(
                {
                    "contract": "petite_misere",
                    "declarers": ["1", "2", "4"],
                    "tricks_1": 2,
                    "tricks_2": 0,
                    "tricks_4": 0,
                    "dealer": "2",
                }
            )
        ),
        initial_deal=deal,
    )
    assert form.is_valid()
    assert form.deal_data()["declarers"] == ["4", "1", "2"]
    assert form.deal_data()["dealer"] == "2"


# --------------------------------------------------------------------------------------------
# Classic whist


def test_a_whist_deal_typed_on_the_form_is_scored_by_the_engine():
    deal = typed(
        "whist",
        "simple10",
        {"team": "1+3", "tricks": 9, "honours": "2+4:4", "revoke_0_team": "2+4"},
    )
    assert deal == {
        "tricks": {"team": ["1", "3"], "tricks": 9},
        "honours": {"team": ["2", "4"], "count": 4},
        "revokes": [{"team": ["2", "4"], "count": 1}],
    }
    # 2 tricks move to 1+3 (11 tricks: 10 points, the manche); 2+4 revoked and scores nothing.
    assert points("simple10", [deal]) == (10, 0, 10, 0)


def test_the_whist_teams_are_named_after_the_players_pairing_by_pairing():
    form = form_for("whist", "whist7")
    assert form.fields["team"].choices == [
        ("1+3", "Anne + Chloé"),
        ("2+4", "Bruno + Didier"),
        ("1+2", "Anne + Bruno"),
        ("3+4", "Chloé + Didier"),
        ("1+4", "Anne + Didier"),
        ("2+3", "Bruno + Chloé"),
    ]
    # whist7 counts no honours and has no "je chante".
    assert "honours" not in form.fields
    assert "not_played" not in form.fields


def test_a_whist_deal_without_team_or_tricks_is_refused_in_words():
    form = form_for("whist", "whist7", MultiValueDict())
    assert form.errors == {
        "team": ["Choisissez l'équipe dont vous comptez les plis."],
        "tricks": ["Choisissez le nombre de plis."],
    }


def test_je_chante_records_the_honours_only():
    chante = typed(
        "whist",
        "simple10",
        {
            "not_played": "on",
            "honours": "1+3:3",
            "team": "1+3",
            "tricks": 7,
            "revoke_0_team": "2+4",
        },
    )
    assert chante == {"honours": {"team": ["1", "3"], "count": 3}, "not_played": True}
    eight = {"tricks": {"team": ["1", "3"], "tricks": 10}}
    assert points("simple10", [eight, chante]) == (2, 0, 2, 0)
    form = form_for("whist", "simple10", MultiValueDict({"not_played": ["on"]}))
    assert form.errors == {"honours": ["Indiquez l'équipe qui chante et ses honneurs."]}


def test_whist_deals_come_back_unchanged_when_reopened():
    deals = [
        {"tricks": {"team": ["1", "3"], "tricks": 9}},
        {"tricks": {"team": ["2", "4"], "tricks": 0}},
        {
            "tricks": {"team": ["1", "2"], "tricks": 7},
            "honours": {"team": ["3", "4"], "count": 3},
            "revokes": [{"team": ["1", "2"], "count": 2}, {"team": ["3", "4"], "count": 1}],
            "penalties": [{"player": "4", "points": 1}],
        },
        {"honours": {"team": ["1", "4"], "count": 4}, "not_played": True},
    ]
    for deal in deals:
        assert reopened("whist", "simple10", deal) == deal


# --------------------------------------------------------------------------------------------
# Hearts


def test_a_hearts_deal_typed_on_the_form_is_scored_by_the_engine():
    deal = typed("hearts", "coeurs", {"hearts_1": 3, "hearts_2": 10, "queen_of_spades": "2"})
    assert deal == {"hearts": {"1": 3, "2": 10, "3": 0, "4": 0}, "queen_of_spades": "2"}
    assert points("coeurs", [deal]) == (3, 22, 0, 0)


def test_a_revoke_needs_neither_hearts_nor_the_queen():
    deal = typed("hearts", "coeurs", {"revoke": "3"})
    assert deal == {"revoke": "3"}
    assert points("coeurs", [deal]) == (0, 0, 25, 0)


def test_a_hearts_deal_without_the_queen_of_spades_asks_who_took_it():
    form = form_for("hearts", "coeurs", MultiValueDict(_lists({"hearts_1": 13})))
    assert form.errors == {"queen_of_spades": ["Choisissez qui a pris la dame de pique."]}


def test_hearts_deals_come_back_unchanged_when_reopened():
    deals = [
        {"hearts": {"1": 13, "2": 0, "3": 0, "4": 0, "5": 0}, "queen_of_spades": "1"},
        {"hearts": {"1": 2, "2": 4, "3": 1, "4": 6, "5": 0}, "queen_of_spades": "5"},
        {"mixed_tricks": "2", "penalties": [{"player": "1", "points": 5}]},
        {"hearts": {"1": 5, "2": 0, "3": 0, "4": 0, "5": 0}, "revoke": "4"},
    ]
    for deal in deals:
        assert reopened("hearts", "coeurs13", deal, seats=FIVE) == deal
        points("coeurs13", [deal], ["1", "2", "3", "4", "5"])


# --------------------------------------------------------------------------------------------
# Bésigue


def test_a_besigue_coup_typed_on_the_form_is_scored_by_the_engine():
    deal = typed(
        "besigue",
        "besigue",
        {
            "decl_1_marriage": 2,
            "decl_2_four_aces": 0,
            "brisques_1": 5,
            "brisques_2": 11,
            "last_trick": "1",
        },
        seats=FOUR[:2],
    )
    assert deal == {
        "declarations": {"1": {"marriage": 2}},
        "brisques": {"1": 5, "2": 11},
        "last_trick": "1",
    }
    assert points("besigue", [deal], ["1", "2"]) == (40 + 50 + 10, 110)


def test_the_besigue_form_offers_the_tables_combinations_and_brisques_only_where_they_count():
    besigue = form_for("besigue", "besigue", seats=FOUR[:2])
    assert "decl_1_seven_of_trump" in besigue.fields
    assert "decl_1_carte_blanche" not in besigue.fields
    assert "brisques_2" in besigue.fields
    chinois = form_for("besigue", "chinois", seats=FOUR[:2])
    assert "decl_2_carte_blanche" in chinois.fields
    assert "brisques_1" not in chinois.fields
    assert "brisques_1" in form_for("besigue", "rubicon", seats=FOUR[:2]).fields
    deal = typed("besigue", "chinois", {"decl_2_carte_blanche": 1, "last_trick": "2"}, FOUR[:2])
    assert deal == {"declarations": {"2": {"carte_blanche": 1}}, "last_trick": "2"}
    points("chinois", [deal], ["1", "2"])


def test_a_besigue_coup_without_the_last_trick_asks_who_won_it():
    form = form_for("besigue", "besigue", MultiValueDict(), seats=FOUR[:2])
    assert form.errors == {"last_trick": ["Choisissez qui a fait le dernier pli."]}


def test_besigue_coups_come_back_unchanged_when_reopened():
    deals = [
        {
            "declarations": {"1": {"besigue": 1, "double_besigue": 1}, "3": {"four_kings": 1}},
            "brisques": {"1": 12, "2": 12, "3": 0, "4": 8},
            "last_trick": "4",
        },
        {"declarations": {}, "brisques": {"1": 8, "2": 8, "3": 8, "4": 8}, "last_trick": "2"},
    ]
    for deal in deals:
        assert reopened("besigue", "a_quatre", deal) == deal
        points("a_quatre", [deal])


# --------------------------------------------------------------------------------------------
# Templates


@pytest.mark.parametrize(
    ("game", "rules", "seats", "shown"),
    [
        ("belgian_whist", "rcwhist", FIVE, ["Emballage", "Tous passent", "data-contracts"]),
        ("whist", "simple10", FOUR, ["Anne + Chloé", "Non jouée (je chante)", "Honneurs"]),
        ("hearts", "coeurs", FOUR, ["Dame de pique", "Plis mélangés"]),
        ("besigue", "a_quatre", FOUR, ["Quatre as", "Brisques", "Dernier pli"]),
    ],
)
def test_each_form_renders_with_the_players_names(game, rules, seats, shown):
    form = form_for(game, rules, seats=seats)
    html = render_to_string(f"games/dealform/{game}.html", {"form": form})
    for _seat, name in seats:
        assert name in html
    for text in shown:
        assert text in html
    assert "<form" not in html
    assert str(form) == html  # {{ form }} renders the same fragment


def test_a_refused_deal_shows_its_errors_and_what_was_typed():
    data = {"contract": "petite_misere", "declarers": ["2"], "tricks_3": 4}
    form = form_for(
        "belgian_whist",
        "rcwhist",
        MultiValueDict(_lists({f"deal-{key}": value for key, value in data.items()})),
        prefix="deal",
    )
    assert not form.is_valid()
    # The view adds the engine's refusal the same way.
    form.add_error(None, "deals[0].declarers: seat 2 is the mort")
    html = render_to_string("games/dealform/belgian_whist.html", {"form": form})
    assert "Indiquez les plis de Bruno." in html
    assert "seat 2 is the mort" in html
    assert 'value="petite_misere" id="id_deal-contract_2" required checked' in html
    assert 'value="2" id="id_deal-declarers_1" checked' in html
    assert '<option value="4" selected>4</option>' in html.split('name="deal-tricks_3"')[1]


def test_what_the_chosen_contract_does_not_use_is_ignored_not_refused():
    # The misère's tricks left at 14 in a hidden field, the scorer having picked a solo.
    data = {"contract": "solo", "bid": 7, "declarers": ["2"], "tricks": 8, "tricks_2": 14}
    assert typed("belgian_whist", "rcwhist", data) == {
        "contract": "solo",
        "bid": 7,
        "declarers": ["2"],
        "tricks": 8,
    }
    # A misère reads each declarer's own tricks, not the solo's count; a pass reads nothing.
    misere = {"contract": "petite_misere", "declarers": ["4"], "tricks_4": 0, "tricks": 99}
    assert typed("belgian_whist", "rcwhist", misere)["tricks"] == {"4": 0}
    passed = {"contract": "pass", "bid": 99, "declarers": ["1"], "tricks": 77, "tricks_3": -4}
    assert typed("belgian_whist", "rcwhist", passed) == {"contract": "pass"}


def test_a_number_out_of_range_is_said_with_the_contract_and_the_player():
    data = {"contract": "petite_misere", "declarers": ["2"], "tricks_2": 14}
    form = form_for("belgian_whist", "rcwhist", MultiValueDict(_lists(data)))
    assert not form.is_valid()
    assert form.errors["tricks_2"] == [
        "Petite misère, plis de Bruno : 14 ? C'est un nombre de 0 à 13."
    ]
    solo = {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 14}
    form = form_for("belgian_whist", "rcwhist", MultiValueDict(_lists(solo)))
    assert not form.is_valid()
    assert form.errors["tricks"] == [
        "Solo 6, Plis des déclarants : 14 ? C'est un nombre de 0 à 13."
    ]
    hearts = {"hearts_1": 20, "hearts_2": 0, "hearts_3": 0, "hearts_4": 0, "queen_of_spades": "1"}
    form = form_for("hearts", "coeurs", MultiValueDict(_lists(hearts)))
    assert not form.is_valid()
    assert "Assurez-vous" not in str(form.errors)
    assert "Anne : 20 ? C'est un nombre de 0 à 13." in form.errors["hearts_1"]


def test_a_deal_with_a_penalty_opens_with_the_penalties_unfolded():
    deal = {"contract": "pass", "penalties": [{"player": "1", "points": 2}]}
    form = form_for("belgian_whist", "rcwhist", initial_deal=deal)
    assert form.has_penalties
    assert not form_for("belgian_whist", "rcwhist").has_penalties
    assert '<details class="dealform-extra" open>' in str(form)


# --------------------------------------------------------------------------------------------
# One line per deal on the sheet


def test_describe_deal_says_a_belgian_whist_deal_in_one_line():
    line = describe_deal  # short alias for the table below
    assert (
        line(
            "belgian_whist",
            {"contract": "emballage", "bid": 8, "declarers": ["1", "3"], "tricks": 9},
            NAMES,
        )
        == "Emballage 8 — Anne, Chloé : 9 plis"
    )
    assert (
        line(
            "belgian_whist",
            {"contract": "petite_misere", "declarers": ["4", "1"], "tricks": {"4": 0, "1": 2}},
            NAMES,
        )
        == "Petite misère — Didier 0, Anne 2"
    )
    assert line("belgian_whist", {"contract": "pass"}, NAMES) == "Tous passent"
    assert (
        line(
            "belgian_whist",
            {
                "contract": "trou",
                "bid": 9,
                "declarers": ["3", "2"],
                "tricks": 10,
                "penalties": [{"player": "1", "points": 2}],
            },
            NAMES,
        )
        == "Trou 9 — Chloé, Bruno : 10 plis · pénalité : Anne 2"
    )
    assert (
        line(
            "belgian_whist",
            {"contract": "chelem", "bid": 13, "declarers": ["5"], "tricks": 1},
            NAMES,
        )
        == "Solo chelem — Eva : 1 pli"
    )


def test_describe_deal_says_whist_hearts_and_besigue_deals_in_one_line():
    assert (
        describe_deal(
            "whist",
            {
                "tricks": {"team": ["1", "3"], "tricks": 9},
                "honours": {"team": ["1", "3"], "count": 4},
                "revokes": [{"team": ["2", "4"], "count": 1}],
            },
            NAMES,
        )
        == "Anne + Chloé : 9 plis · honneurs Anne + Chloé : 4 · 1 renonce Bruno + Didier"
    )
    assert (
        describe_deal(
            "whist", {"honours": {"team": ["1", "4"], "count": 3}, "not_played": True}, NAMES
        )
        == "Non jouée (je chante) · honneurs Anne + Didier : 3"
    )
    assert (
        describe_deal(
            "hearts", {"hearts": {"1": 3, "2": 10, "3": 0, "4": 0}, "queen_of_spades": "2"}, NAMES
        )
        == "Anne 3, Bruno 10 · dame de pique : Bruno"
    )
    assert describe_deal("hearts", {"revoke": "3"}, NAMES) == "Renonce : Chloé"
    assert (
        describe_deal(
            "besigue",
            {
                "declarations": {"1": {"marriage": 2, "besigue": 1}},
                "brisques": {"1": 5, "2": 3},
                "last_trick": "1",
            },
            NAMES,
        )
        == "Anne : Mariage ×2, Bésigue · brisques Anne 5, Bruno 3 · dernier pli : Anne"
    )
