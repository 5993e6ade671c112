"""Poule standings, tournament points and tournament standings (scoring-rules.md §5, §6)."""

from fractions import Fraction

import pytest

from scoring.engine.base import PouleScore
from scoring.engine.errors import EngineError
from scoring.engine.ranks import competition_ranks
from scoring.engine.standings import (
    SCHEMES,
    PouleResult,
    decimal_string,
    points_text,
    poule_standings,
    ratio_text,
    scheme,
    tournament_standings,
)

HALF = Fraction(1, 2)


def poule(*game_points, lower_is_better=False, net=None):
    return PouleScore(
        deal_points=(),
        dealers=(),
        game_points=tuple(game_points),
        net=tuple(Fraction(p) for p in (net or game_points)),
        lower_is_better=lower_is_better,
    )


def tournament_points(score, points_scheme):
    """Tournament points by seat."""
    by_seat = {line.seat: line.tournament_points for line in poule_standings(score, points_scheme)}
    return [by_seat[seat] for seat in range(len(score.game_points))]


# --------------------------------------------------------------------------------------------
# Scheme rcwhist (seed 003)


@pytest.mark.parametrize(
    ("game_points", "expected"),
    [
        pytest.param((30, 10, 5, -45), [5, 3, 1, 0], id="first, second and third positive"),
        pytest.param((-45, 5, 10, 30), [0, 1, 3, 5], id="the same in another seat order"),
        pytest.param((20, 20, -10, -30), [4, 4, 0, 0], id="two tied first get four each"),
        pytest.param((30, 5, 5, -40), [5, 2, 2, 0], id="two tied second get two each"),
        pytest.param((10, 10, 10, -30), [3, 3, 3, 0], id="three tied first positive get 3 each"),
        pytest.param(
            (40, 10, 5, 5, -60), [5, 3, HALF, HALF, 0], id="two tied third positive get half each"
        ),
        pytest.param(
            (40, 4, 4, 4, -52),
            [5, Fraction(4, 3), Fraction(4, 3), Fraction(4, 3), 0],
            id="three tied second positive share 3 + 1 + 0",
        ),
        pytest.param((30, 10, -15, -25), [5, 3, 0, 0], id="third not positive gets nothing"),
        pytest.param((10, 0, -5, -5), [5, 0, 0, 0], id="second at zero is not positive"),
        pytest.param((40, -5, -15, -20), [5, 0, 0, 0], id="second negative gets nothing"),
        pytest.param((20, -5, -5, -10), [5, 0, 0, 0], id="two tied second negative get nothing"),
        pytest.param((30, 10, 0, -40), [5, 3, 0, 0], id="third at zero gets nothing"),
        pytest.param(
            (0, 0, 0, 0), [Fraction(5, 4)] * 4, id="four tied at zero share only the first place"
        ),
        pytest.param((25, 15, 5, -5, -40), [5, 3, 1, 0, 0], id="a table of five"),
    ],
)
def test_rcwhist_tournament_points(game_points, expected):
    assert tournament_points(poule(*game_points), SCHEMES["rcwhist"]) == expected


def test_two_players_tied_first_get_four_each():
    assert tournament_points(poule(12, -4, 12, -20), SCHEMES["rcwhist"]) == [4, 0, 4, 0]


def test_two_players_tied_second_get_two_each():
    assert tournament_points(poule(-20, 6, 20, 6, -12), SCHEMES["rcwhist"]) == [0, 2, 5, 2, 0]


def test_the_first_place_pays_even_when_the_first_is_not_positive():
    # Only from the second place does a place need positive game points.
    assert tournament_points(poule(-1, -2, -3, -4), SCHEMES["rcwhist"]) == [5, 0, 0, 0]


def test_positivity_is_judged_on_the_net_not_the_game_points():
    # Hearts: game points are a total where less is better; the net decides "positive".
    score = poule(10, 20, 30, 40, lower_is_better=True, net=(15, 5, -5, -15))
    assert tournament_points(score, SCHEMES["rcwhist"]) == [5, 3, 0, 0]


# --------------------------------------------------------------------------------------------
# Scheme freewhist and inline schemes


@pytest.mark.parametrize(
    ("game_points", "expected"),
    [
        pytest.param((30, 10, -15, -25), [90, 60, 30, 0], id="no positivity condition"),
        pytest.param((50, -10, -15, -25), [90, 60, 30, 0], id="second negative still gets 60"),
        pytest.param((20, 20, -10, -30), [75, 75, 30, 0], id="two tied first"),
        pytest.param((30, -10, -10, -10), [90, 30, 30, 30], id="three tied second"),
        pytest.param((25, 15, 5, -5, -40), [90, 60, 30, 0, 0], id="a table of five"),
    ],
)
def test_freewhist_tournament_points(game_points, expected):
    assert tournament_points(poule(*game_points), SCHEMES["freewhist"]) == expected


def test_an_inline_scheme_like_rcwhist_awards_the_same_points():
    inline = scheme({"places": [5, 3, 1], "positive_from_place": 2, "ties": "average"})
    for game_points in [(30, 10, 5, -45), (20, 20, -10, -30), (40, 10, 5, 5, -60)]:
        score = poule(*game_points)
        assert tournament_points(score, inline) == tournament_points(score, SCHEMES["rcwhist"])


def test_an_inline_scheme_without_positivity_pays_every_listed_place():
    inline = scheme({"places": [10, 5]})
    assert inline.positive_from_place is None
    assert tournament_points(poule(30, -5, -10, -15), inline) == [10, 5, 0, 0]


def test_an_inline_scheme_with_positivity_from_the_first_place():
    inline = scheme({"places": [4, 2], "positive_from_place": 1})
    assert tournament_points(poule(0, 0, 0, 0), inline) == [0, 0, 0, 0]
    assert tournament_points(poule(9, 3, -5, -7), inline) == [4, 2, 0, 0]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param(
            "rcwist", 'tournament_points: unknown scheme "rcwist"; known: rcwhist, freewhist'
        ),
        pytest.param(42, "tournament_points: expected a scheme name or an object, got 42"),
        pytest.param(
            {"places": []},
            "tournament_points.places: expected a list of non-negative integers, got []",
        ),
        pytest.param(
            {"places": [5, -3]},
            "tournament_points.places: expected a list of non-negative integers, got [5, -3]",
        ),
        pytest.param(
            {"places": [5, "3"]},
            'tournament_points.places: expected a list of non-negative integers, got [5, "3"]',
        ),
        pytest.param(
            {"positive_from_place": 2},
            "tournament_points.places: expected a list of non-negative integers, got null",
        ),
        pytest.param(
            {"places": [5, 3], "positive_from_place": 0},
            "tournament_points.positive_from_place: expected null or a place ≥ 1, got 0",
        ),
        pytest.param(
            {"places": [5, 3], "positive_from_place": "2"},
            'tournament_points.positive_from_place: expected null or a place ≥ 1, got "2"',
        ),
        pytest.param(
            {"places": [5, 3], "ties": "random"},
            'tournament_points.ties: only "average" is supported, got "random"',
        ),
    ],
)
def test_a_bad_scheme_is_refused_at_its_place(value, expected):
    with pytest.raises(EngineError) as raised:
        scheme(value)
    assert str(raised.value) == expected


# --------------------------------------------------------------------------------------------
# Ranks


def test_competition_ranks_are_1_1_3_4():
    key = {"Anne": -20, "Bruno": -20, "Chloé": 10, "Didier": 30}
    ranked = competition_ranks(["Didier", "Bruno", "Chloé", "Anne"], key=key.__getitem__)
    assert ranked == [
        ("Bruno", 1, True),
        ("Anne", 1, True),
        ("Chloé", 3, False),
        ("Didier", 4, False),
    ]


def test_competition_ranks_are_1_2_2_4():
    ranked = competition_ranks([1, 2, 2, 3], key=lambda x: x)
    assert [(rank, tied) for _, rank, tied in ranked] == [
        (1, False),
        (2, True),
        (2, True),
        (4, False),
    ]


def test_poule_standings_list_the_best_first_and_ties_in_seat_order():
    standings = poule_standings(poule(-10, 20, -30, 20), SCHEMES["rcwhist"])
    assert [(line.seat, line.rank, line.tied) for line in standings] == [
        (1, 1, True),
        (3, 1, True),
        (0, 3, False),
        (2, 4, False),
    ]
    assert [line.game_points for line in standings] == [20, 20, -10, -30]


def test_poule_standings_rank_ascending_when_less_is_better():
    score = poule(60, 20, 40, 10, lower_is_better=True, net=(-28, 12, -8, 22))
    standings = poule_standings(score, SCHEMES["rcwhist"])
    assert [line.seat for line in standings] == [3, 1, 2, 0]
    assert [line.tournament_points for line in standings] == [5, 3, 0, 0]


# --------------------------------------------------------------------------------------------
# Tournament standings (§6)


def result(player, rank, game_points, points):
    return PouleResult(
        player=player, rank=rank, game_points=game_points, tournament_points=Fraction(points)
    )


NIGHT = [
    # round 1
    result("Anne", 1, 30, 5),
    result("Bruno", 2, 10, 3),
    result("Chloé", 3, -15, 0),
    result("Didier", 4, -25, 0),
    # round 2
    result("Chloé", 1, 20, 4),
    result("Didier", 1, 20, 4),
    result("Anne", 3, -10, 0),
    result("Bruno", 4, -30, 0),
    # round 3
    result("Bruno", 1, 40, 5),
    result("Didier", 2, 5, 1),
    result("Anne", 3, -5, 0),
    result("Chloé", 4, -40, 0),
]


def lines(standings):
    return [(s.player, s.rank, s.tied) for s in standings]


def test_tournament_standings_add_up_the_poules_of_each_player():
    standings = tournament_standings(NIGHT)
    by_player = {s.player: s for s in standings}
    assert by_player["Bruno"].tournament_points == 8
    assert by_player["Bruno"].game_points == 20
    assert by_player["Didier"].tournament_points == 5
    assert by_player["Didier"].poules_played == 3
    assert by_player["Didier"].poules_won == 1
    assert by_player["Chloé"].poules_won == 1
    assert by_player["Anne"].poules_won == 1


def test_tournament_standings_rank_by_tournament_points_then_game_points():
    # Bruno 8 pts; Anne 5 pts +15; Didier 5 pts 0; Chloé 4 pts.
    assert lines(tournament_standings(NIGHT)) == [
        ("Bruno", 1, False),
        ("Anne", 2, False),
        ("Didier", 3, False),
        ("Chloé", 4, False),
    ]


def test_players_equal_on_every_metric_share_the_rank():
    results = [
        result("Anne", 1, 20, 4),
        result("Bruno", 1, 20, 4),
        result("Chloé", 3, -10, 0),
        result("Didier", 4, -30, 0),
    ]
    assert lines(tournament_standings(results)) == [
        ("Anne", 1, True),
        ("Bruno", 1, True),
        ("Chloé", 3, False),
        ("Didier", 4, False),
    ]


def test_a_club_may_rank_by_game_points_first():
    assert lines(tournament_standings(NIGHT, precedence=["game_points"])) == [
        ("Bruno", 1, False),
        ("Anne", 2, False),
        ("Didier", 3, False),
        ("Chloé", 4, False),
    ]
    standings = tournament_standings(NIGHT, precedence=["game_points", "tournament_points"])
    assert [s.game_points for s in standings] == [20, 15, 0, -35]


def test_a_club_may_break_ties_by_poules_won():
    results = [
        result("Anne", 1, 10, 5),
        result("Bruno", 2, 30, 3),
        result("Bruno", 3, 30, 1),
        result("Chloé", 2, 30, 3),
        result("Chloé", 2, 30, 2),
    ]
    # Anne and Chloé have 5 points each: Anne won a poule, Chloé has more game points.
    assert lines(tournament_standings(results, precedence=["tournament_points", "poules_won"])) == [
        ("Anne", 1, False),
        ("Chloé", 2, False),
        ("Bruno", 3, False),
    ]
    assert lines(tournament_standings(results)) == [
        ("Chloé", 1, False),
        ("Anne", 2, False),
        ("Bruno", 3, False),
    ]


def test_shared_tournament_points_stay_exact():
    results = [result("Anne", 2, 4, Fraction(4, 3)), result("Anne", 3, 5, HALF)]
    (line,) = tournament_standings(results)
    assert line.tournament_points == Fraction(11, 6)


def test_lower_game_points_rank_first_when_less_is_better():
    results = [result("Anne", 1, 40, 5), result("Bruno", 1, 10, 5)]
    assert lines(tournament_standings(results, lower_game_points_better=True)) == [
        ("Bruno", 1, False),
        ("Anne", 2, False),
    ]


@pytest.mark.parametrize(
    ("precedence", "expected"),
    [
        pytest.param(["tournament_points", "luck"], 'precedence[1]: unknown metric "luck"'),
        pytest.param([], "precedence: needs at least one metric"),
    ],
)
def test_an_unknown_precedence_is_refused_at_its_place(precedence, expected):
    with pytest.raises(EngineError) as raised:
        tournament_standings(NIGHT, precedence=precedence)
    assert str(raised.value).startswith(expected)


# --------------------------------------------------------------------------------------------
# Writing tournament points


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(5), "5"),
        (Fraction(0), "0"),
        (Fraction(4, 3), "1.33"),
        (Fraction(1, 2), "0.5"),
        (Fraction(2, 3), "0.67"),
        (Fraction(5, 4), "1.25"),
        (Fraction(1, 8), "0.13"),
        (Fraction(81, 4), "20.25"),
        (Fraction(199, 200), "1"),
        (Fraction(-1, 2), "-0.5"),
        (Fraction(75), "75"),
        (5, "5"),
    ],
)
def test_decimal_string_writes_at_most_two_decimals(value, text):
    assert decimal_string(value) == text


@pytest.mark.parametrize(
    ("numerator", "denominator"),
    [
        (0, 420),
        (2100, 420),
        (-2100, 420),
        (630, 420),
        (-630, 420),
        (7, 840),
        (-2, 840 * 7),
        (1, 3 * 420),
        (-1, 6),
        (5, 8),
        (12345, 420 * 37),
    ],
)
def test_a_ratio_is_written_as_its_fraction_is(numerator, denominator):
    """``ratio_text`` of a pair not reduced (units over ``POINT_UNITS``) writes what
    ``points_text`` writes of the same value as a ``Fraction``, rounding included."""
    value = Fraction(numerator, denominator)
    for places_always in (False, True):
        assert ratio_text(numerator, denominator, ",", places_always=places_always) == (
            points_text(value, ",", places_always=places_always)
        )
