"""The bésigue family: coups, games and poules on the presets (scoring-rules.md §4, seed 002)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.errors import EngineError
from scoring.engine.games import besigue
from scoring.engine.tables import preset, preset_data

TWO = ("Pierre", "Jean")
THREE = ("Pierre", "Jean", "Jacques")
FOUR = ("Pierre", "Jean", "Jacques", "Paul")


def coup(declarations, last_trick, brisques=None):
    raw = {"declarations": declarations, "last_trick": last_trick}
    if brisques is not None:
        raw["brisques"] = brisques
    return raw


def parse(table, raw_deals, seats):
    problems = []
    deals = [
        besigue.parse_deal(table, raw, seats, f"deals[{i}]", problems)
        for i, raw in enumerate(raw_deals)
    ]
    assert problems == []
    return deals


def poule(table_name, raw_deals, seats=TWO, table=None):
    table = table or preset(table_name)
    return besigue.score_poule(table, len(seats), parse(table, raw_deals, seats))


def problems_of(table_name, raw, seats=TWO):
    problems = []
    assert besigue.parse_deal(preset(table_name), raw, seats, "deals[3]", problems) is None
    return [str(p) for p in problems]


# --------------------------------------------------------------------------------------------
# Seed 002 worked examples


@pytest.mark.parametrize(
    ("table_name", "counts", "points"),
    [
        pytest.param(
            "besigue", {"besigue": 1, "double_besigue": 1}, 540, id="double in two steps: 540"
        ),
        pytest.param("besigue", {"double_besigue": 1}, 500, id="double at once: 500"),
        pytest.param(
            "chinois", {"besigue": 1, "double_besigue": 1}, 540, id="chinois double in two steps"
        ),
        pytest.param(
            "chinois",
            {"besigue": 1, "double_besigue": 1, "triple_besigue": 1},
            2040,
            id="triple in three steps: 2040",
        ),
        pytest.param("chinois", {"triple_besigue": 1}, 1500, id="triple at once: 1500"),
        pytest.param(
            "a_trois",
            {"besigue": 1, "double_besigue": 1, "triple_besigue": 1},
            2040,
            id="a trois triple",
        ),
        pytest.param(
            "huit_paquets",
            {"besigue": 1, "double_besigue": 1},
            550,
            id="huit paquets besigue is 50",
        ),
        pytest.param(
            "huit_paquets",
            {"quintuple_besigue": 1, "five_trump_aces": 1},
            11000,
            id="huit paquets fives",
        ),
        pytest.param(
            "rubicon",
            {"four_trump_aces": 1, "other_quinte": 1},
            150,
            id="rubicon trump fours are 0",
        ),
    ],
)
def test_declarations_add_up_count_times_value(table_name, counts, points):
    assert besigue.declared(preset(table_name), counts) == points


def test_a_coup_scores_declarations_brisques_and_the_last_trick():
    score = poule(
        "besigue",
        [
            coup(
                {"Pierre": {"besigue": 1, "double_besigue": 1}}, "Pierre", {"Pierre": 10, "Jean": 6}
            )
        ],
    )
    assert score.deal_points == ((540 + 100 + 10, 60),)


def test_the_seven_of_trump_scores_ten_each():
    score = poule(
        "besigue",
        [coup({"Jean": {"seven_of_trump": 2, "marriage": 1}}, "Pierre", {"Pierre": 8, "Jean": 8})],
    )
    assert score.deal_points == ((90, 120),)


CHINOIS_2950 = {"triple_besigue": 1, "four_trump_aces": 1, "four_aces": 2}  # + 250 last trick
CHINOIS_2500 = {"four_trump_tens": 1, "four_trump_kings": 1, "four_trump_queens": 1, "four_aces": 2}


def test_chinois_rubicon_2900_against_2500_is_worth_6400():
    score = poule("chinois", [coup({"Pierre": CHINOIS_2950, "Jean": CHINOIS_2500}, "Pierre")])
    assert score.deal_points == ((2950, 2500),)  # the tens are dropped: 2 950 counts as 2 900
    assert score.game_points == (6400, -6400)


def test_the_game_value_says_who_won_and_whether_the_loser_is_rubicon():
    table = preset("chinois")
    (deal,) = parse(table, [coup({"Pierre": CHINOIS_2950, "Jean": CHINOIS_2500}, "Pierre")], TWO)
    assert besigue.game_value(table, deal) == besigue.GameResult(
        winner=0, loser=1, value=6400, rubicon=True
    )


def test_chinois_without_a_rubicon_pays_the_difference_and_the_bonus():
    pierre = {"four_trump_aces": 4}  # 4 000 + 250
    jean = {"four_trump_tens": 4}  # 3 600
    score = poule("chinois", [coup({"Pierre": pierre, "Jean": jean}, "Pierre")])
    assert score.game_points == (4200 - 3600 + 1000, -1600)


def test_huit_paquets_makes_a_rubicon_below_5000():
    pierre = {"five_trump_aces": 3}  # 6 000
    jean = {"five_trump_tens": 2, "four_trump_kings": 1}  # 4 400 + 250
    score = poule("huit_paquets", [coup({"Pierre": pierre, "Jean": jean}, "Jean")])
    assert score.game_points == (6000 + 4600 + 1000, -11600)


def test_rubicon_tens_break_a_tie_after_they_are_dropped():
    # Seed 002: 9 570 against 9 530 — both 9 500 without the tens; Pierre wins on them.
    pierre = {"quadruple_besigue": 2, "quinte_majeure": 2, "marriage": 1}  # + 50 last trick
    jean = {"quadruple_besigue": 2, "other_quinte": 3, "four_kings": 1}
    score = poule(
        "rubicon", [coup({"Pierre": pierre, "Jean": jean}, "Pierre", {"Pierre": 16, "Jean": 16})]
    )
    assert score.deal_points == ((9570, 9530),)  # brisques do not score in rubicon
    assert score.game_points == (500, -500)


def test_rubicon_brisques_break_a_tie_the_tens_leave():
    pierre = {"double_besigue": 1}  # + 50 last trick: 550
    jean = {"double_besigue": 1, "carte_blanche": 1}  # 550
    score = poule(
        "rubicon", [coup({"Pierre": pierre, "Jean": jean}, "Pierre", {"Pierre": 12, "Jean": 20})]
    )
    assert score.deal_points == ((550, 550),)
    # Jean wins on the brisques; Pierre, 550 + 120 of brisques, is rubicon all the same.
    value = 500 + 500 + 1000 + 320
    assert score.game_points == (-value, value)


@pytest.mark.parametrize(
    ("jean_brisques", "value"),
    [
        pytest.param(10, 2000 + 800 + 1000 + 320, id="800 + 100 of brisques: rubicon"),
        pytest.param(22, 2000 - 800 + 500, id="800 + 220 of brisques: saved"),
    ],
)
def test_rubicon_brisques_can_save_the_loser(jean_brisques, value):
    pierre = {"triple_besigue": 1, "double_besigue": 1}  # 2 000 + 50 last trick
    jean = {"four_kings": 10}  # 800
    brisques = {"Pierre": 32 - jean_brisques, "Jean": jean_brisques}
    score = poule("rubicon", [coup({"Pierre": pierre, "Jean": jean}, "Pierre", brisques)])
    assert score.game_points == (value, -value)


def test_a_complete_tie_in_a_one_coup_game_goes_to_the_last_trick():
    # §4 decision: equal totals (tens and brisques alike) → the winner of the last trick.
    same = {"four_trump_aces": 3}
    score = poule("chinois", [coup({"Pierre": same, "Jean": same}, "Jean")])
    assert score.deal_points == ((3000, 3250),)
    tie = {"four_trump_aces": 3, "four_aces": 2}  # 3 200 each, the last trick to nobody's tens
    table = preset("rubicon")
    (deal,) = parse(
        table, [coup({"Pierre": tie, "Jean": tie}, "Jean", {"Pierre": 16, "Jean": 16})], TWO
    )
    result = besigue.game_value(table, deal)
    assert (result.winner, result.loser) == (1, 0)


@pytest.mark.parametrize("table_name", ["chinois", "huit_paquets", "rubicon"])
def test_a_one_coup_game_settles_as_a_chouette(table_name):
    # §4: chouette is played with chinois, huit paquets and rubicon rules; the box (Pierre)
    # wins the game's value from each of his opponents.
    table = preset(table_name)
    pierre, jean = {"four_kings": 6}, {"four_jacks": 1}
    (deal,) = parse(
        table, [coup({"Pierre": pierre, "Jean": jean}, "Pierre", _brisques(table))], TWO
    )
    result = besigue.game_value(table, deal)
    assert result.winner == 0
    settled = besigue.chouette(result.value, box_won=True, opponents=2)
    assert settled == besigue.ChouetteSettlement(box=2 * result.value, each_opponent=-result.value)


def _brisques(table):
    return None if table.brisques == "ignored" else {"Pierre": 16, "Jean": 16}


def test_chouette_box_winning_collects_from_each_opponent():
    assert besigue.chouette(9000, box_won=True, opponents=3) == besigue.ChouetteSettlement(
        27000, -9000
    )


def test_chouette_box_losing_pays_each_opponent():
    assert besigue.chouette(6400, box_won=False, opponents=2) == besigue.ChouetteSettlement(
        -12800, 6400
    )


@pytest.mark.parametrize(
    ("box_won", "expected"),
    [
        (False, ("Jean", "Jacques", "Paul", "Pierre")),  # the seed's example
        (True, ("Pierre", "Jacques", "Paul", "Jean")),
    ],
)
def test_chouette_order_follows_the_result(box_won, expected):
    assert besigue.chouette_next(("Pierre", "Jean", "Jacques", "Paul"), box_won) == expected


# --------------------------------------------------------------------------------------------
# Games to a target


def _eight_each():
    return {"Pierre": 8, "Jean": 8}


def test_a_game_to_1500_ends_at_the_end_of_the_coup_that_reaches_it():
    score = poule(
        "besigue",
        [
            coup({"Pierre": {"double_besigue": 2}}, "Pierre", _eight_each()),  # 1090 – 80
            coup({"Pierre": {"double_besigue": 1}}, "Pierre", _eight_each()),  # 1680 – 160
        ],
    )
    assert score.game_points == (1680 - 160, -(1680 - 160))
    assert score.warnings == ()


def test_both_past_the_target_the_higher_total_wins():
    score = poule(
        "besigue",
        [
            coup(
                {"Pierre": {"double_besigue": 3}, "Jean": {"double_besigue": 4}},
                "Pierre",
                _eight_each(),
            )
        ],
    )
    assert score.game_points == (-(2080 - 1590), 2080 - 1590)


def test_equal_totals_past_the_target_go_to_the_winner_of_the_last_trick():
    equal = coup(
        {"Pierre": {"double_besigue": 3}, "Jean": {"double_besigue": 3, "seven_of_trump": 1}},
        "Jean",
        {"Pierre": 9, "Jean": 7},  # 1 590 each
    )
    score = poule(
        "besigue", [equal, coup({"Pierre": {"double_besigue": 3}}, "Pierre", _eight_each())]
    )
    # Jean won the first game by 0; the second game is Pierre's by 1 590 − 80.
    assert score.game_points == (1510, -1510)
    assert score.warnings == ()


def test_an_unfinished_game_is_not_counted():
    score = poule("besigue", [coup({"Pierre": {"double_besigue": 1}}, "Pierre", _eight_each())])
    assert score.game_points == (0, 0)
    assert score.warnings == (
        "the last game is unfinished after 1 coup (totals 590, 80) and is not counted",
    )


def test_at_three_the_winner_collects_the_difference_from_each_loser():
    brisques = {"Pierre": 8, "Jean": 8, "Jacques": 8}
    score = poule(
        "a_trois",
        [
            coup(
                {"Pierre": {"triple_besigue": 1, "double_besigue": 1}, "Jean": {"four_aces": 1}},
                "Jacques",
                brisques,
            )
        ],
        THREE,
    )
    assert score.deal_points == ((2080, 180, 90),)
    assert score.game_points == ((2080 - 180) + (2080 - 90), -(2080 - 180), -(2080 - 90))


def test_tied_leaders_who_did_not_win_the_last_trick_play_on():
    brisques = {"Pierre": 8, "Jean": 8, "Jacques": 8}
    tie = coup(
        {
            "Pierre": {"triple_besigue": 1, "double_besigue": 1},
            "Jean": {"triple_besigue": 1, "double_besigue": 1},
        },
        "Jacques",
        brisques,
    )
    score = poule("a_trois", [tie], THREE)
    assert score.game_points == (0, 0, 0)
    assert score.warnings == (
        "the last game is unfinished after 1 coup (totals 2080, 2080, 90) and is not counted",
    )


def test_a_quatre_in_teams_pools_the_partners_points():
    table = besigue.load_table({**preset_data("a_quatre"), "teams": True}, "a_quatre")
    brisques = {"Pierre": 8, "Jean": 8, "Jacques": 8, "Paul": 8}
    score = poule(
        None,
        [
            coup(
                {"Pierre": {"triple_besigue": 1}, "Jacques": {"double_besigue": 1}},
                "Jean",
                brisques,
            )
        ],
        FOUR,
        table=table,
    )
    assert score.deal_points == ((1580, 90, 580, 80),)
    value = (1580 + 580) - (90 + 80)
    assert score.game_points == (value, -value, value, -value)


def test_a_penalty_is_paid_to_each_other_player():
    raw = coup({"Pierre": {"four_trump_aces": 4}}, "Pierre")
    raw["penalties"] = [{"player": "Pierre", "points": 100}]
    score = poule("chinois", [raw])
    assert score.deal_points == ((4150, 100),)
    assert score.game_points == (4200 + 1000 - 100, -(4200 + 1000) + 100)


def test_a_table_for_two_refuses_three_seats():
    with pytest.raises(EngineError) as error:
        besigue.score_poule(preset("chinois"), 3, [])
    assert str(error.value) == 'seats: point table "chinois" is for 2 players, not 3'


# --------------------------------------------------------------------------------------------
# Refused coups name the place


@pytest.mark.parametrize(
    ("table_name", "raw", "expected"),
    [
        (
            "besigue",
            coup({}, "Pierre", {"Pierre": 8, "Jean": 6}),
            "deals[3].brisques: brisques add up to 14, expected 16 (8 per deck × 2 decks)",
        ),
        (
            "besigue",
            coup({}, "Pierre"),
            "deals[3].brisques: expected an object player name → brisques taken (16 in all), "
            "got null",
        ),
        (
            "chinois",
            coup({}, "Pierre", {"Pierre": 8, "Jean": 8}),
            "deals[3].brisques: brisques add up to 16, expected 48 (8 per deck × 6 decks)",
        ),
        (
            "besigue",
            coup({}, "Pierre", {"Pierre": 17, "Jean": -1}),
            "deals[3].brisques.Pierre: expected 0 … 16 brisques, got 17",
        ),
        (
            "besigue",
            coup({"Pierre": {"marriage": "x"}}, "Pierre", {"Pierre": 8, "Jean": 8}),
            'deals[3].declarations.Pierre.marriage: expected a non-negative integer, got "x"',
        ),
        (
            "besigue",
            coup({"Pierre": {"triple_besigue": 1}}, "Pierre", {"Pierre": 8, "Jean": 8}),
            "deals[3].declarations.Pierre.triple_besigue: "
            'not a combination of point table "besigue"',
        ),
        (
            "sans_retourne",
            coup({"Jean": {"seven_of_trump": 1}}, "Pierre", {"Pierre": 8, "Jean": 8}),
            "deals[3].declarations.Jean.seven_of_trump: "
            'not a combination of point table "sans_retourne"',
        ),
        (
            "besigue",
            coup(
                {"Pierre": {"seven_of_trump": 2}, "Jean": {"seven_of_trump": 1}},
                "Pierre",
                {"Pierre": 8, "Jean": 8},
            ),
            "deals[3].declarations: seven_of_trump declared 3 times in the coup, "
            "expected at most 2",
        ),
        (
            "chinois",
            coup({"Pierre": {"cut_guess": 1}, "Jean": {"cut_guess": 1}}, "Pierre"),
            "deals[3].declarations: cut_guess declared 2 times in the coup, expected at most 1",
        ),
        (
            "chinois",
            coup({"Zoé": {"marriage": 1}}, "Pierre"),
            'deals[3].declarations: "Zoé" is not at this table',
        ),
        (
            "chinois",
            coup({"Jean": [1]}, "Pierre"),
            "deals[3].declarations.Jean: expected an object combination code → count, got [1]",
        ),
        (
            "chinois",
            coup({}, None),
            "deals[3].last_trick: expected the player who won the last trick, got nothing",
        ),
        (
            "chinois",
            coup({}, "Zoé"),
            "deals[3].last_trick: expected the player who won the last trick, "
            'got "Zoé", who is not at this table',
        ),
    ],
)
def test_a_wrong_coup_is_refused_naming_the_place(table_name, raw, expected):
    assert any(problem.startswith(expected) for problem in problems_of(table_name, raw)), (
        problems_of(table_name, raw)
    )


# --------------------------------------------------------------------------------------------
# Point tables


PRESETS = ["besigue", "sans_retourne", "a_trois", "a_quatre", "chinois", "huit_paquets", "rubicon"]


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_loads_under_its_own_name(name):
    table = preset(name)
    assert (table.game, table.name) == ("besigue", name)


@pytest.mark.parametrize(
    ("name", "players", "decks", "end"),
    [
        ("besigue", 2, 2, besigue.TargetEnd(1500)),
        ("a_trois", 3, 3, besigue.TargetEnd(2000)),
        ("a_quatre", 4, 4, besigue.TargetEnd(2000)),
        ("chinois", 2, 6, besigue.OneCoupEnd(1000, 3000, 1000, 0, True)),
        ("huit_paquets", 2, 8, besigue.OneCoupEnd(1000, 5000, 1000, 0, True)),
        ("rubicon", 2, 4, besigue.OneCoupEnd(500, 1000, 1000, 320, True)),
    ],
)
def test_the_presets_follow_the_spec(name, players, decks, end):
    table = preset(name)
    assert (table.players, table.decks, table.end) == (players, decks, end)


def _table_error(change, name="besigue", place=""):
    with pytest.raises(EngineError) as error:
        besigue.load_table({**preset_data(name), **change}, place)
    return str(error.value)


def test_a_wrong_combination_value_is_refused_naming_it():
    combinations = {**preset_data("besigue")["combinations"], "besigue": "x"}
    assert _table_error({"combinations": combinations}) == (
        'combinations.besigue: expected a non-negative integer, got "x"'
    )


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            {"combinations": {"bezique": 40}},
            'besigue.combinations.bezique: unknown combination "bezique"; known: marriage',
        ),
        ({"decks": 0}, "besigue.decks: expected an integer ≥ 1, got 0"),
        ({"players": 5}, "besigue.players: expected 2, 3 or 4, got 5"),
        (
            {"brisques": "yes"},
            'besigue.brisques: expected "score" or "ignored" or "tie_break", got "yes"',
        ),
        ({"teams": True}, "besigue.teams: teams need 4 players, the table has 2"),
        (
            {"end": {"kind": "forever"}},
            'besigue.end.kind: expected "target" or "one_coup", got "forever"',
        ),
        (
            {"end": {"kind": "target", "target": -5}},
            "besigue.end.target: expected an integer ≥ 1, got -5",
        ),
        ({"last_trick": None}, "besigue.last_trick: expected a non-negative integer, got null"),
    ],
)
def test_a_wrong_table_is_refused_naming_the_value(change, expected):
    assert _table_error(change, place="besigue").startswith(expected)


def test_a_one_coup_game_is_for_two_players():
    assert _table_error({"players": 3}, name="chinois", place="chinois") == (
        "chinois.players: a one-coup game is for 2 players, got 3"
    )


# --------------------------------------------------------------------------------------------
# Properties

LIMITED = {"seven_of_trump", "cut_guess", "cut_24"}


@st.composite
def coups(draw, table_name, seats):
    table = preset(table_name)
    codes = sorted(set(table.combinations) - LIMITED)
    raws = []
    for _ in range(draw(st.integers(0, 8))):
        declarations = {
            name: draw(st.dictionaries(st.sampled_from(codes), st.integers(0, 3), max_size=4))
            for name in seats
        }
        cuts = sorted(
            draw(
                st.lists(
                    st.integers(0, table.deck_brisques),
                    min_size=len(seats) - 1,
                    max_size=len(seats) - 1,
                )
            )
        )
        counts = [b - a for a, b in zip([0, *cuts], [*cuts, table.deck_brisques], strict=True)]
        raw = coup(
            declarations, draw(st.sampled_from(seats)), dict(zip(seats, counts, strict=True))
        )
        if draw(st.booleans()):
            raw["penalties"] = [
                {"player": draw(st.sampled_from(seats)), "points": draw(st.integers(0, 50))}
            ]
        raws.append(raw)
    return raws


SEATS_OF = {
    "besigue": TWO,
    "sans_retourne": TWO,
    "a_trois": THREE,
    "a_quatre": FOUR,
    "chinois": TWO,
    "huit_paquets": TWO,
    "rubicon": TWO,
}


@st.composite
def poules(draw):
    name = draw(st.sampled_from(PRESETS))
    return name, draw(coups(name, SEATS_OF[name]))


@settings(max_examples=100, deadline=None)
@given(poules())
def test_game_points_are_zero_sum(drawn):
    name, raws = drawn
    assert sum(poule(name, raws, SEATS_OF[name]).game_points) == 0


@settings(max_examples=100, deadline=None)
@given(poules(), st.randoms(use_true_random=False))
def test_seating_the_players_differently_gives_everyone_the_same_points(drawn, random):
    name, raws = drawn
    seats = SEATS_OF[name]
    shuffled = list(seats)
    random.shuffle(shuffled)
    original = poule(name, raws, seats)
    reseated = poule(name, raws, tuple(shuffled))
    for seat, player in enumerate(seats):
        assert reseated.game_points[shuffled.index(player)] == original.game_points[seat]
