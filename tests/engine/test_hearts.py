"""Hearts (Les Cœurs) deals, poules and settlements (scoring-rules.md §3, seed 001)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.errors import EngineError
from scoring.engine.games import hearts
from scoring.engine.night import score_poule_deals
from scoring.engine.tables import preset, preset_data

SEATS = ("Pierre", "Jean", "Jacques", "Paul")


def parse(table_name, raw_deals, seats=SEATS):
    table = preset(table_name)
    problems = []
    deals = [
        hearts.parse_deal(table, raw, seats, f"deals[{i}]", problems)
        for i, raw in enumerate(raw_deals)
    ]
    assert problems == []
    return deals


def poule(table_name, raw_deals, seats=SEATS):
    return hearts.score_poule(preset(table_name), len(seats), parse(table_name, raw_deals, seats))


def problems_of(raw, table_name="coeurs", seats=SEATS):
    problems = []
    assert hearts.parse_deal(preset(table_name), raw, seats, "deals[3]", problems) is None
    return [str(p) for p in problems]


def deal(pierre, jean, jacques, paul, queen):
    return {
        "hearts": {"Pierre": pierre, "Jean": jean, "Jacques": jacques, "Paul": paul},
        "queen_of_spades": queen,
    }


# --------------------------------------------------------------------------------------------
# Deals


@pytest.mark.parametrize(
    ("table_name", "raw", "expected"),
    [
        pytest.param(
            "coeurs", deal(1, 5, 5, 2, "Jacques"), (1, 5, 17, 2), id="the seed's one-deal partie"
        ),
        pytest.param("coeurs13", deal(1, 5, 5, 2, "Jacques"), (1, 5, 18, 2), id="queen at 13"),
        pytest.param(
            "coeurs", deal(13, 0, 0, 0, "Pierre"), (0, 25, 25, 25), id="taking all: 25 each"
        ),
        pytest.param(
            "coeurs13", deal(0, 13, 0, 0, "Jean"), (26, 0, 26, 26), id="taking all, queen at 13"
        ),
        pytest.param(
            "coeurs", deal(13, 0, 0, 0, "Jean"), (13, 12, 0, 0), id="13 hearts without the queen"
        ),
        pytest.param("coeurs", {"revoke": "Paul"}, (0, 0, 0, 25), id="revoke: 25, others 0"),
        pytest.param(
            "coeurs",
            {"mixed_tricks": "Jean", **deal(3, 3, 3, 4, "Paul")},
            (0, 25, 0, 0),
            id="mixed tricks",
        ),
        pytest.param(
            "coeurs", {"revoke": ["Pierre", "Paul"]}, (25, 0, 0, 25), id="two revokes: 25 each"
        ),
    ],
)
def test_a_deal_scores_the_hearts_and_the_queen(table_name, raw, expected):
    assert poule(table_name, [raw]).deal_points == (expected,)


def test_a_player_left_out_of_the_hearts_took_none():
    score = poule("coeurs", [{"hearts": {"Pierre": 10, "Paul": 3}, "queen_of_spades": "Jean"}])
    assert score.deal_points == ((10, 12, 0, 3),)


def test_hearts_is_played_by_three_to_seven():
    seven = ("A", "B", "C", "D", "E", "F", "G")
    raw = {"hearts": {"A": 7, "G": 6}, "queen_of_spades": "C"}
    assert poule("coeurs", [raw], seven).game_points == (7, 0, 12, 0, 0, 0, 6)
    with pytest.raises(EngineError) as error:
        hearts.score_poule(preset("coeurs"), 8, [])
    assert str(error.value) == "seats: hearts is played by 3 to 7 players, not 8"


# --------------------------------------------------------------------------------------------
# Poules


def test_lowest_total_is_best_and_net_is_average_minus_total():
    score = poule("coeurs", [deal(1, 5, 5, 2, "Jacques"), deal(0, 13, 0, 0, "Jean")])
    assert score.game_points == (26, 5, 42, 27)
    assert score.lower_is_better is True
    assert score.net == (-1, 20, -17, -2)  # average 25
    assert sum(score.net) == 0
    assert all(isinstance(net, Fraction) for net in score.net)


def test_the_dealer_moves_one_seat_clockwise_each_deal():
    score = poule("coeurs", [deal(13, 0, 0, 0, "Jean")] * 5)
    assert score.dealers == (0, 1, 2, 3, 0)


def test_a_penalty_raises_the_offenders_total():
    score = poule(
        "coeurs", [{**deal(4, 3, 3, 3, "Paul"), "penalties": [{"player": "Pierre", "points": 2}]}]
    )
    assert score.deal_points == ((10, 1, 1, 13),)


def test_at_a_table_of_five_a_penalty_costs_four_times_and_gives_each_other_one():
    # §1.6: in hearts "pays" turns the signs: the offender's total goes up by p·(n − 1), each
    # other player's goes down by p.
    five = (*SEATS, "Anne")
    raw = {
        "hearts": {"Pierre": 4, "Jean": 3, "Jacques": 3, "Paul": 3},
        "queen_of_spades": "Anne",
        "penalties": [{"player": "Jean", "points": 3}],
    }
    score = poule("coeurs", [raw], five)
    assert score.deal_points == ((1, 15, 0, 0, 9),)
    assert score.game_points == (1, 15, 0, 0, 9)


def test_several_revokers_in_one_deal_each_score_the_revoke():
    # night-format.md: "revoke" is a name or a list of names; mixed tricks stop the deal too.
    score = poule(
        "coeurs",
        [{"revoke": ["Pierre", "Jean", "Paul"]}, {"revoke": "Jacques", "mixed_tricks": "Paul"}],
    )
    assert score.deal_points == ((25, 25, 0, 25), (0, 0, 25, 25))


def test_the_night_file_reads_several_revokers_in_one_deal():
    score = score_poule_deals(preset("coeurs"), SEATS, [{"revoke": ["Jean", "Jacques"]}])
    assert score.deal_points == ((0, 25, 25, 0),)


def test_five_deal_parties_are_totalled_and_a_short_one_is_flagged():
    deals = [deal(13, 0, 0, 0, "Jean")] * 5 + [deal(0, 0, 13, 0, "Paul")]
    table = preset("coeurs13")
    score = poule("coeurs13", deals)
    assert hearts.parties(table, score) == ((65, 65, 0, 0),)
    assert score.warnings == (
        "the last partie has 1 of 5 deals: the poule is scored on all its deals all the same",
    )


# --------------------------------------------------------------------------------------------
# Settlements


def test_the_others_pay_the_winner_their_difference():
    # Seed 001: Pierre 1, Jean 5, Jacques 17, Paul 2 → Jean pays 4, Jacques 16, Paul 1.
    assert hearts.settle_winner_takes([1, 5, 17, 2]) == (21, -4, -16, -1)


def test_tied_winners_share_the_stakes_exactly():
    assert hearts.settle_winner_takes([1, 1, 3, 4]) == (Fraction(5, 2), Fraction(5, 2), -2, -3)


def test_taking_all_makes_each_other_player_pay_twenty_five():
    assert hearts.settle_winner_takes([0, 25, 25, 25]) == (75, -25, -25, -25)


def test_the_average_settlement_truncates_toward_zero():
    # Seed 001: 66, 59, 23, 34 → average 45.5 → pays 20, pays 13, receives 22, receives 11.
    assert hearts.settle_average([66, 59, 23, 34]) == (-20, -13, 22, 11)


def test_a_player_at_zero_takes_the_pot():
    pot = hearts.settle_pot([0, 5, 17, 4], carried_over=10)
    assert pot.paid == (0, 5, 17, 4)
    assert pot.taken == (36, 0, 0, 0)
    assert pot.carried_over == 0


def test_the_pot_carries_over_when_nobody_is_at_zero():
    pot = hearts.settle_pot([1, 5, 16, 4], carried_over=26)
    assert pot.taken == (0, 0, 0, 0)
    assert pot.carried_over == 52


def test_players_at_zero_share_the_pot():
    assert hearts.settle_pot([0, 0, 13, 13]).taken == (13, 13, 0, 0)


# --------------------------------------------------------------------------------------------
# Refused deals name the place


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (deal(1, 5, 4, 2, "Paul"), "deals[3].hearts: hearts add up to 12, expected 13"),
        (deal(14, 0, 0, 0, "Paul"), "deals[3].hearts.Pierre: expected 0 … 13 hearts, got 14"),
        (deal(1, 5, "x", 2, "Paul"), 'deals[3].hearts.Jacques: expected 0 … 13 hearts, got "x"'),
        (
            {"hearts": {"Zoé": 13}, "queen_of_spades": "Paul"},
            'deals[3].hearts: "Zoé" is not at this table',
        ),
        (
            {"hearts": {"Paul": 13}},
            "deals[3].queen_of_spades: expected the name of the player who took it",
        ),
        (deal(13, 0, 0, 0, "Zoé"), 'deals[3].queen_of_spades: "Zoé" is not at this table'),
        (
            {"queen_of_spades": "Paul"},
            "deals[3].hearts: expected an object player name → hearts taken, got null",
        ),
        ({"revoke": "Zoé"}, 'deals[3].revoke: "Zoé" is not at this table'),
        (
            {"mixed_tricks": []},
            "deals[3].mixed_tricks: expected a player name or a list of names, got []",
        ),
        (
            {**deal(13, 0, 0, 0, "Paul"), "penalties": [{"player": "Paul", "points": -1}]},
            "deals[3].penalties[0].points: expected a non-negative integer, got -1",
        ),
        ([], "deals[3]: a deal must be an object, got []"),
    ],
)
def test_a_wrong_deal_is_refused_naming_the_place(raw, expected):
    assert expected in problems_of(raw)


# --------------------------------------------------------------------------------------------
# Point tables


def test_the_presets_differ_by_the_queen_and_the_partie():
    coeurs, coeurs13 = preset("coeurs"), preset("coeurs13")
    assert (coeurs.queen_of_spades, coeurs.taking_all, coeurs.partie_deals) == (12, 25, 1)
    assert (coeurs13.queen_of_spades, coeurs13.taking_all, coeurs13.partie_deals) == (13, 26, 5)
    assert (coeurs.game, coeurs13.game) == ("hearts", "hearts")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            {"queen_of_spades": "x"},
            'coeurs.queen_of_spades: expected a non-negative integer, got "x"',
        ),
        ({"heart": -1}, "coeurs.heart: expected a non-negative integer, got -1"),
        ({"partie_deals": 0}, "coeurs.partie_deals: expected an integer ≥ 1, got 0"),
        (
            {"settlement": "dice"},
            'coeurs.settlement: expected "winner" or "average" or "pot", got "dice"',
        ),
        ({"name": ""}, 'coeurs.name: expected a non-empty string, got ""'),
    ],
)
def test_a_wrong_table_is_refused_naming_the_value(change, expected):
    with pytest.raises(EngineError) as error:
        hearts.load_table({**preset_data("coeurs"), **change}, "coeurs")
    assert str(error.value) == expected


def test_a_revoke_value_is_required():
    data = preset_data("coeurs")
    del data["revoke"]
    with pytest.raises(EngineError) as error:
        hearts.load_table(data, "coeurs")
    assert str(error.value) == "coeurs.revoke: expected a non-negative integer, got nothing"


# --------------------------------------------------------------------------------------------
# Properties

NAMES = ("A", "B", "C", "D", "E", "F", "G")


@st.composite
def poules(draw):
    players = draw(st.integers(3, 7))
    seats = NAMES[:players]
    raws = []
    for _ in range(draw(st.integers(0, 10))):
        kind = draw(st.sampled_from(["play", "play", "play", "revoke", "mixed"]))
        if kind != "play":
            raws.append(
                {"revoke" if kind == "revoke" else "mixed_tricks": draw(st.sampled_from(seats))}
            )
            continue
        cuts = sorted(
            draw(st.lists(st.integers(0, 13), min_size=players - 1, max_size=players - 1))
        )
        counts = [b - a for a, b in zip([0, *cuts], [*cuts, 13], strict=True)]
        raws.append(
            {
                "hearts": dict(zip(seats, counts, strict=True)),
                "queen_of_spades": draw(st.sampled_from(seats)),
            }
        )
    return seats, raws


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["coeurs", "coeurs13"]), poules())
def test_every_played_deal_shares_out_the_hearts_and_the_queen(table_name, drawn):
    seats, raws = drawn
    table = preset(table_name)
    for raw, points in zip(raws, poule(table_name, raws, seats).deal_points, strict=True):
        if "hearts" in raw:
            assert sum(points) in (
                13 * table.heart + table.queen_of_spades,
                (len(seats) - 1) * table.taking_all,
            )
        else:
            assert sorted(points) == [0] * (len(seats) - 1) + [table.revoke]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["coeurs", "coeurs13"]), poules(), st.randoms(use_true_random=False))
def test_seating_the_players_differently_gives_everyone_the_same_points(table_name, drawn, random):
    seats, raws = drawn
    shuffled = list(seats)
    random.shuffle(shuffled)
    original = poule(table_name, raws, seats)
    reseated = poule(table_name, raws, tuple(shuffled))
    for seat, name in enumerate(seats):
        moved = shuffled.index(name)
        assert reseated.game_points[moved] == original.game_points[seat]
        assert reseated.net[moved] == original.net[seat]
