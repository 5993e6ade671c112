"""Belgian whist deals and poules on the preset point tables (scoring-rules.md §1)."""

import pytest

from scoring.engine.base import Penalty
from scoring.engine.errors import DocumentRefused, EngineError
from scoring.engine.games.belgian_whist import Deal, parse_deal, score_deal, score_poule
from scoring.engine.tables import preset

# Seats as the engine numbers them: 0 is seat 1, the first dealer.
A, B, C, D, E = range(5)


def points(table_name, deal, seat_count=4, dealer=A):
    return score_deal(preset(table_name), deal, seat_count, dealer)


# --------------------------------------------------------------------------------------------
# Published examples


@pytest.mark.parametrize(
    ("deal", "expected"),
    [
        pytest.param(Deal("solo", 6, (A,), 7), (15, -5, -5, -5), id="solo 6 with 7 tricks"),
        pytest.param(
            Deal("emballage", 12, (A, C), 10), (-26, 26, -26, 26), id="emballage 12 with 10 tricks"
        ),
        pytest.param(Deal("solo", 7, (D,), 10), (-6, -6, -6, 18), id="solo 7 with 10 tricks"),
        pytest.param(
            Deal("abondance", 9, (B,), 11), (-20, 60, -20, -20), id="abondance 9 with 11 tricks"
        ),
        pytest.param(
            Deal("abondance", 11, (B,), 9), (20, -60, 20, 20), id="abondance 11 with 9 tricks"
        ),
        pytest.param(Deal("trou", 9, (A, B), 8), (-16, -16, 16, 16), id="trou 9 with 8 tricks"),
        pytest.param(Deal("trou", 9, (C, D), 13), (-30, -30, 30, 30), id="trou 9 with 13 tricks"),
        pytest.param(Deal("trou", 8, (C, D), 13), (-30, -30, 30, 30), id="trou 8 with 13 tricks"),
        pytest.param(
            Deal("grande_misere", None, (A, B), (0, 1)),
            (48, -48, 0, 0),
            id="grande misere by A with 0 tricks and B with 1 trick",
        ),
    ],
)
def test_whisthub_published_examples_hold(deal, expected):
    assert points("whisthub", deal) == expected


@pytest.mark.parametrize(
    ("deal", "expected"),
    [
        pytest.param(Deal("solo", 5, (B,), 8), (-5, 15, -5, -5), id="alleen with 8 tricks"),
        pytest.param(Deal("solo", 5, (C,), 4), (4, 4, -12, 4), id="alleen with 4 tricks"),
        pytest.param(
            Deal("emballage", 8, (A, C), 5), (-10, 10, -10, 10), id="vraag en mee with 5 tricks"
        ),
        pytest.param(Deal("abondance", 12, (A,), 11), (-27, 9, 9, 9), id="abondance 12 failed"),
        pytest.param(Deal("abondance", 12, (A,), 0), (-27, 9, 9, 9), id="abondance 12 no trick"),
        pytest.param(Deal("chelem", 13, (D,), 13), (-30, -30, -30, 90), id="solo slim made"),
        pytest.param(
            Deal("grande_misere", None, (A, B, C), (0, 0, 2)),
            (21, 21, -35, -7),
            id="miserie by three players, two made and one failed",
        ),
        # §1.5's decision: all 13 tricks double the row's own formula at 13.
        pytest.param(Deal("trou", 8, (A, C), 13), (28, -28, 28, -28), id="troel with 13 tricks"),
        pytest.param(Deal("trou", 9, (A, C), 13), (24, -24, 24, -24), id="troela with 13 tricks"),
        pytest.param(Deal("trou", 9, (B, D), 12), (-10, 10, -10, 10), id="troela with 12 tricks"),
    ],
)
def test_iwwa_published_examples_hold(deal, expected):
    assert points("iwwa", deal) == expected


@pytest.mark.parametrize(
    ("deal", "expected"),
    [
        pytest.param(Deal("solo", 6, (A,), 6), (6, -2, -2, -2), id="solo 6 exact"),
        pytest.param(Deal("solo", 6, (A,), 7), (9, -3, -3, -3), id="solo 6 one over"),
        pytest.param(Deal("solo", 6, (A,), 5), (-9, 3, 3, 3), id="solo 6 one down"),
        pytest.param(Deal("solo", 7, (B,), 7), (-2, 6, -2, -2), id="solo 7 exact"),
        pytest.param(Deal("solo", 8, (C,), 10), (-4, -4, 12, -4), id="solo 8 two over"),
        pytest.param(Deal("solo", 8, (C,), 5), (5, 5, -15, 5), id="solo 8 three down"),
        pytest.param(Deal("emballage", 8, (A, C), 8), (4, -4, 4, -4), id="emballage 8 exact"),
        pytest.param(Deal("emballage", 8, (A, C), 9), (5, -5, 5, -5), id="emballage 8 one over"),
        pytest.param(Deal("emballage", 10, (B, D), 12), (-6, 6, -6, 6), id="emballage 10 with 12"),
        pytest.param(Deal("emballage", 8, (A, C), 13), (13, -13, 13, -13), id="emballage 8 all"),
        pytest.param(Deal("emballage", 13, (A, C), 13), (13, -13, 13, -13), id="emballage 13"),
        pytest.param(Deal("emballage", 8, (A, C), 7), (-6, 6, -6, 6), id="emballage 8 one down"),
        pytest.param(Deal("emballage", 8, (A, C), 5), (-10, 10, -10, 10), id="emballage 8 3 down"),
        pytest.param(Deal("emballage", 13, (A, C), 12), (-6, 6, -6, 6), id="emballage 13 failed"),
        pytest.param(
            Deal("petite_misere", None, (A,), (0,)), (12, -4, -4, -4), id="petite misere made"
        ),
        pytest.param(
            Deal("petite_misere", None, (A,), (1,)), (-18, 6, 6, 6), id="petite misere failed"
        ),
        pytest.param(
            Deal("petite_misere", None, (A, B), (0, 3)),
            (12 + 6, -18 - 4, 6 - 4, 6 - 4),
            id="petite misere by two, one made and one failed",
        ),
        pytest.param(
            Deal("solo_sur_misere", 8, (D,), 8), (-5, -5, -5, 15), id="solo 8 sur misere made"
        ),
        pytest.param(
            Deal("solo_sur_misere", 8, (D,), 7), (7, 7, 7, -21), id="solo 8 sur misere failed"
        ),
        pytest.param(Deal("abondance", None, (B,), 9), (-6, 18, -6, -6), id="abondance made"),
        pytest.param(Deal("abondance", 9, (B,), 8), (9, -27, 9, 9), id="abondance 9 failed"),
        pytest.param(Deal("trou", 8, (A, B), 8), (8, 8, -8, -8), id="trou 8 made"),
        pytest.param(Deal("trou", 9, (A, B), 9), (8, 8, -8, -8), id="trou 9 made"),
        pytest.param(Deal("trou", 9, (A, B), 8), (-8, -8, 8, 8), id="trou 9 failed"),
        pytest.param(Deal("trou", 9, (A, B), 13), (16, 16, -16, -16), id="trou with 13 tricks"),
        pytest.param(
            Deal("grande_misere", None, (C,), (0,)), (-8, -8, 24, -8), id="grande misere made"
        ),
        pytest.param(
            Deal("grande_misere", None, (C,), (2,)), (12, 12, -36, 12), id="grande misere failed"
        ),
        pytest.param(
            Deal("grande_misere_table", None, (A,), 0),
            (48, -16, -16, -16),
            id="grande misere sur table made (a solo at RCWhist)",
        ),
        pytest.param(
            Deal("grande_misere_table", None, (A,), 1),
            (-48, 16, 16, 16),
            id="grande misere sur table failed",
        ),
        pytest.param(Deal("petit_chelem", 11, (A,), 11), (60, -20, -20, -20), id="petit chelem"),
        pytest.param(Deal("petit_chelem", 11, (A,), 10), (-60, 20, 20, 20), id="petit chelem 10"),
        pytest.param(Deal("chelem", 13, (A,), 13), (90, -30, -30, -30), id="chelem made"),
        pytest.param(Deal("chelem", 13, (A,), 12), (-90, 30, 30, 30), id="chelem failed"),
    ],
)
def test_rcwhist_table_gives_the_points_of_its_rows(deal, expected):
    assert points("rcwhist", deal) == expected


def test_an_all_pass_deal_scores_nothing():
    assert points("rcwhist", Deal("pass")) == (0, 0, 0, 0)
    assert points("rcwhist", Deal("pass"), seat_count=5) == (0, 0, 0, 0, 0)


# --------------------------------------------------------------------------------------------
# A table of five: the dealer is the mort


@pytest.mark.parametrize(
    ("deal", "dealer", "expected"),
    [
        pytest.param(Deal("solo", 6, (B,), 6), A, (0, 6, -2, -2, -2), id="solo, seat 1 deals"),
        pytest.param(Deal("solo", 6, (A,), 6), E, (6, -2, -2, -2, 0), id="solo, seat 5 deals"),
        pytest.param(
            Deal("emballage", 8, (A, E), 9), C, (5, -5, 0, -5, 5), id="emballage, seat 3 deals"
        ),
        pytest.param(
            Deal("grande_misere", None, (B,), (0,)),
            A,
            (0, 24, -8, -8, -8),
            id="grande misere, seat 1 deals",
        ),
    ],
)
def test_the_dealer_at_a_table_of_five_is_the_mort_and_scores_zero(deal, dealer, expected):
    assert points("rcwhist", deal, seat_count=5, dealer=dealer) == expected


def test_the_mort_cannot_declare():
    with pytest.raises(EngineError) as raised:
        points("rcwhist", Deal("solo", 6, (B,), 6), seat_count=5, dealer=B)
    assert raised.value.place == "declarers"
    assert "seat 2 is the mort" in str(raised.value)


def test_the_mort_cannot_be_the_partner_of_an_emballage():
    with pytest.raises(EngineError, match=r"^declarers: seat 3 is the mort"):
        points("rcwhist", Deal("emballage", 8, (A, C), 8), seat_count=5, dealer=C)


def test_at_a_table_of_four_the_dealer_plays():
    assert points("rcwhist", Deal("solo", 6, (B,), 6), seat_count=4, dealer=B) == (-2, 6, -2, -2)


# --------------------------------------------------------------------------------------------
# The dealer rotation


def test_the_dealer_moves_one_seat_clockwise_per_deal_from_seat_one():
    deals = [Deal("solo", 6, (A,), 6)] * 5
    score = score_poule(preset("rcwhist"), 4, deals)
    assert score.dealers == (A, B, C, D, A)
    assert score.counted_deals == 5


def test_a_passed_deal_keeps_the_dealer_and_does_not_count():
    deals = [Deal("solo", 6, (A,), 6), Deal("pass"), Deal("pass"), Deal("solo", 6, (A,), 6)]
    score = score_poule(preset("rcwhist"), 4, deals)
    assert score.dealers == (A, B, B, B)
    assert score.counted_deals == 2
    assert score.deal_points[1] == (0, 0, 0, 0)
    assert score.game_points == (12, -4, -4, -4)


def test_a_deal_that_names_its_dealer_continues_the_rotation_from_him():
    deals = [
        Deal("solo", 6, (A,), 6),
        Deal("solo", 6, (A,), 6, dealer=D),
        Deal("solo", 6, (B,), 6),
        Deal("pass"),
        Deal("solo", 6, (B,), 6, dealer=C),
        Deal("solo", 6, (B,), 6),
    ]
    score = score_poule(preset("rcwhist"), 4, deals)
    assert score.dealers == (A, D, A, B, C, D)


def test_at_a_table_of_five_the_mort_follows_the_rotation():
    deals = [Deal("solo", 6, (seat,), 6) for seat in (B, C, D, E, A, B)]
    score = score_poule(preset("rcwhist"), 5, deals)
    assert score.dealers == (A, B, C, D, E, A)
    for dealer, deal_points in zip(score.dealers, score.deal_points, strict=True):
        assert deal_points[dealer] == 0
        assert sum(deal_points) == 0
    assert score.game_points == (0, 6, -2, -2, -2)


def test_at_a_table_of_five_the_declarer_who_deals_next_is_refused_in_place():
    deals = [Deal("solo", 6, (B,), 6), Deal("solo", 6, (B,), 6)]
    with pytest.raises(DocumentRefused) as raised:
        score_poule(preset("rcwhist"), 5, deals)
    [problem] = raised.value.problems
    assert problem.startswith("deals[1].declarers: ")
    assert "mort" in problem


def test_a_poule_adds_up_its_deals():
    deals = [
        Deal("emballage", 8, (A, C), 9),
        Deal("solo", 6, (B,), 5),
        Deal("pass"),
        Deal("petite_misere", None, (D, A), (0, 2)),
        Deal("trou", 9, (C, B), 10, penalties=(Penalty(A, 2),)),
    ]
    score = score_poule(preset("rcwhist"), 4, deals)
    assert score.deal_points == (
        (5, -5, 5, -5),
        (3, -9, 3, 3),
        (0, 0, 0, 0),
        (-22, 2, 2, 18),
        (-14, 10, 10, -6),
    )
    assert score.game_points == (-28, -2, 20, 10)
    assert score.net == (-28, -2, 20, 10)
    assert score.lower_is_better is False


# --------------------------------------------------------------------------------------------
# Penalties


@pytest.mark.parametrize(
    ("deal", "seat_count", "dealer", "expected"),
    [
        pytest.param(
            Deal("pass", penalties=(Penalty(C, 2),)), 4, A, (2, 2, -6, 2), id="on a passed deal"
        ),
        pytest.param(
            Deal("solo", 6, (A,), 6, penalties=(Penalty(C, 3),)),
            4,
            A,
            (9, 1, -11, 1),
            id="on top of a solo",
        ),
        pytest.param(
            Deal("solo", 6, (A,), 6, penalties=(Penalty(C, 3), Penalty(A, 1))),
            4,
            A,
            (6, 2, -10, 2),
            id="two penalties",
        ),
        pytest.param(
            Deal("pass", penalties=(Penalty(B, 2),)),
            5,
            A,
            (0, -6, 2, 2, 2),
            id="at a table of five the mort neither pays nor receives",
        ),
    ],
)
def test_a_penalised_player_pays_each_other_active_player(deal, seat_count, dealer, expected):
    assert points("rcwhist", deal, seat_count, dealer) == expected


def test_the_mort_cannot_be_penalised():
    with pytest.raises(EngineError) as raised:
        points("rcwhist", Deal("pass", penalties=(Penalty(A, 2),)), seat_count=5, dealer=A)
    assert raised.value.place == "penalties"


# --------------------------------------------------------------------------------------------
# Deals that cannot have happened


@pytest.mark.parametrize(
    ("deal", "place", "words"),
    [
        pytest.param(Deal("solo", 6, (A,), 14), "tricks", ["14", "0..13"], id="tricks 14"),
        pytest.param(Deal("solo", 6, (A,), -1), "tricks", ["-1", "0..13"], id="tricks -1"),
        pytest.param(
            Deal("emballage", 8, (A, B), 14), "tricks", ["14", "0..13"], id="pair tricks 14"
        ),
        pytest.param(
            Deal("petite_misere", None, (A,), (13,)),
            "tricks",
            ["13", "of 12"],
            id="petite misere is played on 12 tricks",
        ),
        pytest.param(
            Deal("grande_misere", None, (A, B), (0, -1)),
            "tricks",
            ["-1", "0..13"],
            id="misere declarer with -1 tricks",
        ),
        pytest.param(
            Deal("grande_misere", None, (A, B), (7, 7)),
            "tricks",
            ["14", "13"],
            id="misere declarers took more tricks than the deal has",
        ),
        pytest.param(
            Deal("grande_misere", None, (A, B), (0,)),
            "tricks",
            ["one trick count per declarer"],
            id="misere without a trick count per declarer",
        ),
        pytest.param(
            Deal("solo", 6, (A,), (6,)), "tricks", ["one integer"], id="solo tricks per player"
        ),
        pytest.param(Deal("solo", 6, (A,), None), "tricks", ["one integer"], id="no tricks"),
        pytest.param(
            Deal("emballage", 8, (A,), 8),
            "declarers",
            ["emballage", "exactly 2 declarers, got 1"],
            id="pair contract with one declarer",
        ),
        pytest.param(
            Deal("solo", 6, (A, B), 8),
            "declarers",
            ["solo", "exactly 1 declarer, got 2"],
            id="solo with two declarers",
        ),
        pytest.param(
            Deal("grande_misere", None, (), ()),
            "declarers",
            ["1 to 4 declarers, got 0"],
            id="misere without declarer",
        ),
        pytest.param(
            Deal("emballage", 8, (A, A), 8), "declarers", ["named twice"], id="same declarer twice"
        ),
        pytest.param(
            Deal("solo", 6, (E,), 6), "declarers", ["seat 5 is not at this table"], id="seat 5 of 4"
        ),
        pytest.param(
            Deal("solo", 6, (-1,), 6), "declarers", ["not at this table"], id="negative seat"
        ),
        pytest.param(
            Deal("piccolo", None, (A,), (1,)),
            "contract",
            ['"piccolo"', '"rcwhist"'],
            id="a contract the table does not have",
        ),
        pytest.param(
            Deal("misere_royale", None, (A,), 0),
            "contract",
            ['"misere_royale"', '"rcwhist"'],
            id="unknown contract",
        ),
        pytest.param(
            Deal("emballage", None, (A, B), 8),
            "bid",
            ["needs a bid", "8, 9, 10, 11, 12, 13"],
            id="emballage without its bid",
        ),
        pytest.param(
            Deal("solo", 9, (A,), 9), "bid", ["solo 9", "6, 7, 8"], id="a bid the table lacks"
        ),
        pytest.param(
            Deal("solo", 6, (A,), 6, penalties=(Penalty(E, 1),)),
            "penalties",
            ["seat 5"],
            id="penalty for a seat not at the table",
        ),
    ],
)
def test_an_impossible_deal_is_refused_naming_the_field(deal, place, words):
    with pytest.raises(EngineError) as raised:
        points("rcwhist", deal)
    assert raised.value.place == place
    text = str(raised.value)
    assert text.startswith(f"{place}: ")
    for word in words:
        assert word in text


# When every active player declares a misère, every trick went to one of them (§1.1).


@pytest.mark.parametrize(
    ("deal", "seat_count", "dealer", "got", "expected"),
    [
        pytest.param(
            Deal("petite_misere", None, (A, B, C, D), (0, 0, 0, 0)), 4, A, 0, 12, id="0+0+0+0 of 12"
        ),
        pytest.param(
            Deal("grande_misere", None, (A, B, C, D), (0, 0, 0, 0)), 4, A, 0, 13, id="0+0+0+0 of 13"
        ),
        pytest.param(
            Deal("grande_misere", None, (D, C, B, A), (3, 0, 5, 1)), 4, B, 9, 13, id="9 of 13"
        ),
        pytest.param(
            Deal("grande_misere", None, (A, B, D, E), (0, 0, 0, 0)),
            5,
            C,
            0,
            13,
            id="the four active players at a table of 5",
        ),
    ],
)
def test_a_misere_declared_by_every_active_player_must_share_out_all_the_tricks(
    deal, seat_count, dealer, got, expected
):
    with pytest.raises(EngineError) as raised:
        points("rcwhist", deal, seat_count, dealer)
    assert raised.value.place == "tricks"
    assert raised.value.code == "tricks_total_all_declare"
    assert dict(raised.value.params) == {
        "contract": deal.contract,
        "got": got,
        "expected": expected,
    }


@pytest.mark.parametrize(
    ("deal", "expected"),
    [
        pytest.param(
            Deal("grande_misere", None, (A, B, C, D), (0, 0, 0, 13)),
            (20, 20, 20, -60),
            id="three made it, the fourth took all 13 tricks",
        ),
        pytest.param(
            Deal("grande_misere", None, (A, B, C), (0, 0, 0)),
            (8, 8, 8, -24),
            id="three of four declare and take none: the fourth took them all",
        ),
    ],
)
def test_a_misere_that_could_have_been_played_is_scored(deal, expected):
    assert points("rcwhist", deal) == expected


def test_a_poule_locates_the_misere_nobody_could_have_played():
    deals = [Deal("solo", 6, (A,), 6), Deal("petite_misere", None, (A, B, C, D), (0, 0, 0, 0))]
    with pytest.raises(DocumentRefused) as raised:
        score_poule(preset("rcwhist"), 4, deals)
    [error] = raised.value.errors
    assert (error.place, error.code) == ("deals[1].tricks", "tricks_total_all_declare")
    assert raised.value.problems == (
        "deals[1].tricks: every active player declares petite_misere: their tricks add up to 0, "
        "not the deal's 12",
    )


@pytest.mark.parametrize("seat_count", [3, 6])
def test_belgian_whist_is_played_at_tables_of_four_or_five(seat_count):
    with pytest.raises(EngineError, match=r"^seats: .*4 or 5"):
        points("rcwhist", Deal("pass"), seat_count=seat_count)
    with pytest.raises(EngineError, match=r"^seats: "):
        score_poule(preset("rcwhist"), seat_count, [])


def test_a_poule_names_the_deal_that_cannot_be_scored():
    deals = [Deal("solo", 6, (A,), 6), Deal("solo", 6, (A,), 14)]
    with pytest.raises(DocumentRefused) as raised:
        score_poule(preset("rcwhist"), 4, deals)
    assert raised.value.problems == ("deals[1].tricks: 14 is outside 0..13",)


def test_a_poule_refuses_a_named_dealer_not_at_the_table():
    with pytest.raises(DocumentRefused, match=r"deals\[0\]\.dealer: seat 5"):
        score_poule(preset("rcwhist"), 4, [Deal("pass", dealer=E)])


# --------------------------------------------------------------------------------------------
# Deals as written in the club-night file (players by name)

SEATS = ("Anne", "Bruno", "Chloé", "Didier")


def read(raw, table_name="rcwhist", seats=SEATS):
    problems = []
    deal = parse_deal(preset(table_name), raw, seats, "deals[4]", problems)
    return deal, [str(p) for p in problems]


def test_a_deal_written_with_names_scores_like_the_same_deal_by_seat():
    deal, problems = read(
        {
            "contract": "petite_misere",
            "declarers": ["Didier", "Anne"],
            "tricks": {"Anne": 2, "Didier": 0},
        }
    )
    assert problems == []
    assert points("rcwhist", deal) == (-22, 2, 2, 18)


def test_a_deal_written_with_names_keeps_its_dealer_and_penalties():
    deal, problems = read(
        {
            "contract": "solo",
            "bid": 6,
            "declarers": ["Bruno"],
            "tricks": 6,
            "dealer": "Didier",
            "penalties": [{"player": "Chloé", "points": 1}],
        }
    )
    assert problems == []
    assert deal.dealer == D
    assert points("rcwhist", deal) == (-1, 7, -5, -1)


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        pytest.param(
            {"contract": "solo", "bid": 6, "declarers": ["Anne"], "tricks": 14},
            "deals[4].tricks: 14 is outside 0..13",
            id="tricks 14",
        ),
        pytest.param(
            {"contract": "solo", "bid": 6, "declarers": ["Zoé"], "tricks": 6},
            'deals[4].declarers: "Zoé" is not at this table',
            id="unknown declarer",
        ),
        pytest.param(
            {"contract": "emballage", "bid": 8, "declarers": ["Anne"], "tricks": 8},
            'deals[4].declarers: contract "emballage" needs exactly 2 declarers, got 1',
            id="pair contract with one declarer",
        ),
        pytest.param(
            {"contract": "emballage", "declarers": ["Anne", "Bruno"], "tricks": 8},
            'deals[4].bid: contract "emballage" needs a bid: one of 8, 9, 10, 11, 12, 13',
            id="missing bid",
        ),
        pytest.param(
            {"contract": "trou", "bid": "9", "declarers": ["Anne", "Bruno"], "tricks": 9},
            'deals[4].bid: expected an integer, got "9"',
            id="bid as text",
        ),
        pytest.param(
            {"contract": "grande_misere", "declarers": ["Anne"], "tricks": 0},
            "deals[4].tricks: grande_misere needs an object player → tricks",
            id="each contract with one number",
        ),
        pytest.param(
            {"contract": "grande_misere", "declarers": ["Anne"], "tricks": {"Bruno": 0}},
            "deals[4].tricks: give the tricks of each declarer, and only theirs",
            id="tricks of someone else",
        ),
        pytest.param(
            {"contract": "solo", "bid": 6, "declarers": ["Anne"], "tricks": True},
            "deals[4].tricks: solo needs the declaring side's tricks as an integer",
            id="tricks true",
        ),
        pytest.param(
            {"contract": "solo", "bid": 6, "declarers": "Anne", "tricks": 6},
            "deals[4].declarers: expected a list of player names",
            id="declarers as text",
        ),
        pytest.param(
            {"contract": "pass", "dealer": "Zoé"},
            'deals[4].dealer: "Zoé" is not at this table',
            id="unknown dealer",
        ),
        pytest.param(
            {"contract": "pass", "penalties": [{"player": "Anne", "points": -2}]},
            "deals[4].penalties[0].points: expected a non-negative integer, got -2",
            id="negative penalty",
        ),
    ],
)
def test_a_deal_written_with_names_is_refused_with_its_place(raw, problem):
    deal, problems = read(raw)
    assert deal is None
    assert problems == [problem]


def test_a_deal_written_with_an_unknown_contract_names_the_contract():
    deal, problems = read({"contract": "misere_royale", "declarers": ["Anne"], "tricks": 0})
    assert deal is None
    assert len(problems) == 1
    assert problems[0].startswith('deals[4].contract: unknown contract "misere_royale"')


def test_a_deal_written_with_names_lists_each_of_its_problems():
    _, problems = read(
        {
            "contract": "pass",
            "dealer": "Zoé",
            "penalties": [{"player": "Yves", "points": 1}, {"player": "Anne", "points": "x"}],
        }
    )
    assert problems == [
        'deals[4].dealer: "Zoé" is not at this table',
        'deals[4].penalties[0].player: "Yves" is not at this table',
        'deals[4].penalties[1].points: expected a non-negative integer, got "x"',
    ]
