"""The season ranking (classement annuel) — scoring-rules.md §7."""

from fractions import Fraction

import pytest

from scoring.engine.errors import EngineError
from scoring.engine.ranking import RankingRules, TournamentEntry, season_ranking


def entry(player, night, points, game_points, rank=2):
    return TournamentEntry(
        player=player,
        tournament=night,
        tournament_points=Fraction(points),
        game_points=game_points,
        rank=rank,
    )


def lines(standings):
    return [(s.player, s.rank, s.tied) for s in standings]


SEASON = [
    entry("Anne", 1, 13, 40, rank=1),
    entry("Bruno", 1, 9, 25),
    entry("Chloé", 1, 3, -20),
    entry("Didier", 1, 0, -45),
    entry("Anne", 2, 1, -30),
    entry("Bruno", 2, 11, 50, rank=1),
    entry("Chloé", 2, 7, 10),
    entry("Didier", 2, 5, -30),
    entry("Anne", 3, 3, -5),
    entry("Chloé", 3, 7, 35, rank=1),
    entry("Didier", 3, 6, -30),
]


def test_the_season_ranks_by_the_sum_of_tournament_points():
    standings = season_ranking(SEASON)
    assert lines(standings) == [
        ("Bruno", 1, False),
        ("Chloé", 2, False),
        ("Anne", 3, False),
        ("Didier", 4, False),
    ]
    by_player = {s.player: s for s in standings}
    assert by_player["Bruno"].tournament_points == 20
    assert by_player["Chloé"].tournament_points == 17
    assert by_player["Anne"].tournament_points == 17
    assert by_player["Anne"].game_points == 5
    assert by_player["Didier"].tournaments_played == 3
    assert by_player["Bruno"].tournaments_played == 2
    assert by_player["Anne"].tournaments_won == 1


def test_equal_tournament_points_are_ranked_by_game_points():
    # Chloé and Anne both have 17: Chloé +25 game points, Anne +5.
    standings = season_ranking(SEASON)
    assert [s.player for s in standings[1:3]] == ["Chloé", "Anne"]
    assert [s.game_points for s in standings[1:3]] == [25, 5]


def test_players_equal_on_every_metric_share_the_rank():
    entries = [
        entry("Anne", 1, 5, 10),
        entry("Bruno", 1, 5, 10),
        entry("Chloé", 1, 3, 10),
        entry("Didier", 1, 5, 10),
        entry("Eva", 1, 0, -40),
    ]
    assert lines(season_ranking(entries)) == [
        ("Anne", 1, True),
        ("Bruno", 1, True),
        ("Didier", 1, True),
        ("Chloé", 4, False),
        ("Eva", 5, False),
    ]


def test_the_precedence_is_the_clubs_data():
    by_game_points = season_ranking(SEASON, RankingRules(precedence=("game_points",)))
    assert lines(by_game_points) == [
        ("Bruno", 1, False),
        ("Chloé", 2, False),
        ("Anne", 3, False),
        ("Didier", 4, False),
    ]
    assert [s.game_points for s in by_game_points] == [75, 25, 5, -105]
    by_wins = season_ranking(
        SEASON, RankingRules(precedence=("tournaments_won", "tournament_points"))
    )
    # Without game points in the precedence, Anne and Chloé (1 win, 17 points) share the rank.
    assert lines(by_wins) == [
        ("Bruno", 1, False),
        ("Anne", 2, True),
        ("Chloé", 2, True),
        ("Didier", 4, False),
    ]
    by_presence = season_ranking(SEASON, RankingRules(precedence=("tournaments_played",)))
    assert lines(by_presence) == [
        ("Anne", 1, True),
        ("Chloé", 1, True),
        ("Didier", 1, True),
        ("Bruno", 4, False),
    ]


def test_best_n_counts_only_the_best_tournaments_of_each_player():
    standings = season_ranking(SEASON, RankingRules(best_n=2))
    by_player = {s.player: s for s in standings}
    # Anne keeps 13 and 3, drops 1; Didier keeps 6 and 5, drops 0.
    assert by_player["Anne"].tournament_points == 16
    assert by_player["Anne"].game_points == 35
    assert by_player["Anne"].tournaments_counted == 2
    assert by_player["Anne"].tournaments_played == 3
    assert by_player["Didier"].tournament_points == 11
    assert by_player["Bruno"].tournament_points == 20
    assert by_player["Bruno"].tournaments_counted == 2
    assert lines(standings) == [
        ("Bruno", 1, False),
        ("Anne", 2, False),
        ("Chloé", 3, False),
        ("Didier", 4, False),
    ]


def test_best_n_keeps_the_better_game_points_between_equal_tournament_points():
    entries = [
        entry("Anne", 1, 3, 10),
        entry("Anne", 2, 3, 40),
        entry("Anne", 3, 1, 100),
        entry("Anne", 4, 3, -20),
    ]
    (line,) = season_ranking(entries, RankingRules(best_n=2))
    assert line.tournament_points == 6
    assert line.game_points == 50


def test_best_n_does_not_change_a_player_with_fewer_tournaments():
    (line,) = season_ranking([entry("Anne", 1, 5, 10)], RankingRules(best_n=18))
    assert line.tournament_points == 5
    assert line.tournaments_counted == 1


def test_tournaments_won_counts_every_night_even_beyond_best_n():
    entries = [entry("Anne", 1, 5, 10, rank=1), entry("Anne", 2, 9, 30, rank=1)]
    (line,) = season_ranking(entries, RankingRules(best_n=1))
    assert line.tournaments_won == 2
    assert line.tournament_points == 9


def test_players_below_min_tournaments_are_listed_apart_without_a_rank():
    standings = season_ranking(SEASON, RankingRules(min_tournaments=3))
    assert lines(standings) == [
        ("Chloé", 1, False),
        ("Anne", 2, False),
        ("Didier", 3, False),
        ("Bruno", None, False),
    ]
    assert standings[-1].tournament_points == 20


def test_players_listed_apart_follow_the_precedence_among_themselves():
    entries = [
        entry("Anne", 1, 5, 10),
        entry("Anne", 2, 5, 10),
        entry("Bruno", 1, 1, 0),
        entry("Chloé", 2, 3, 5),
        entry("Didier", 2, 3, 9),
    ]
    standings = season_ranking(entries, RankingRules(min_tournaments=2))
    assert lines(standings) == [
        ("Anne", 1, False),
        ("Didier", None, False),
        ("Chloé", None, False),
        ("Bruno", None, False),
    ]


def test_shared_tournament_points_add_up_exactly():
    entries = [
        entry("Anne", 1, Fraction(4, 3), 3),
        entry("Anne", 2, Fraction(1, 2), 1),
        entry("Anne", 3, Fraction(1, 6), 1),
        entry("Bruno", 1, 2, 0),
    ]
    standings = season_ranking(entries)
    assert standings[0].tournament_points == 2
    assert lines(standings) == [("Anne", 1, False), ("Bruno", 2, False)]


def test_an_empty_season_has_an_empty_ranking():
    assert season_ranking([]) == ()


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        pytest.param({"best_n": 0}, "best_n: expected a number of tournaments ≥ 1, got 0"),
        pytest.param({"min_tournaments": -1}, "min_tournaments: expected 0 or more, got -1"),
        pytest.param(
            {"precedence": ("tournament_points", "poules_won")},
            'precedence[1]: unknown metric "poules_won"',
        ),
        pytest.param({"precedence": ()}, "precedence: needs at least one metric"),
    ],
)
def test_bad_ranking_rules_are_refused_at_their_place(rules, expected):
    with pytest.raises(EngineError) as raised:
        RankingRules(**rules)
    assert str(raised.value).startswith(expected)
