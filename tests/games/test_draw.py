"""The table draw of a round: tables of 4 with tables of 5 only as needed, everyone seated once,
replayable from its seed, and, from round 2, players kept from meeting again or seated by
standings."""

import random
from collections import Counter

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from games.draw import (
    DRAW_METHODS,
    DrawRefused,
    draw_round,
    pairs_met,
    repeat_count,
    table_sizes,
)

UNSEATABLE = [1, 2, 3, 6, 7, 11]
METHODS = ["random", *DRAW_METHODS]


def players(count: int) -> list[int]:
    return list(range(101, 101 + count))


def tournament(count: int, rounds: int, seed: int) -> list[list[list[int]]]:
    """A night drawn as the site draws it: round 1 at random, then avoiding repeats."""
    present = players(count)
    drawn: list[list[list[int]]] = []
    for round_no in range(rounds):
        earlier = [table for tables in drawn for table in tables]
        drawn.append(
            draw_round(
                present,
                seed=seed * 100 + round_no,
                method="random" if round_no == 0 else "avoid_repeats",
                met=pairs_met(earlier),
            )
        )
    return drawn


def repeats_by_round(drawn: list[list[list[int]]]) -> list[int]:
    return [
        repeat_count(tables, pairs_met(table for earlier in drawn[:n] for table in earlier))
        for n, tables in enumerate(drawn)
    ]


def assert_everyone_seated_once(tables: list[list[int]], present: list[int]) -> None:
    seated = [player for table in tables for player in table]
    assert sorted(seated) == sorted(present)


# Table sizes


def test_every_count_from_4_to_40_but_6_7_and_11_can_be_seated() -> None:
    for count in range(4, 41):
        if count in UNSEATABLE:
            continue
        sizes = table_sizes(count)
        assert sum(sizes) == count
        assert set(sizes) <= {4, 5}


def test_there_are_only_as_many_tables_of_5_as_needed() -> None:
    for count in range(4, 41):
        if count not in UNSEATABLE:
            assert table_sizes(count).count(5) == count % 4


@pytest.mark.parametrize(
    ("count", "sizes"),
    [(4, [4]), (5, [5]), (8, [4, 4]), (9, [4, 5]), (10, [5, 5]), (13, [4, 4, 5])],
)
def test_tables_of_4_come_first_and_tables_of_5_last(count: int, sizes: list[int]) -> None:
    assert table_sizes(count) == sizes


@pytest.mark.parametrize("count", UNSEATABLE)
def test_counts_that_leave_a_table_of_3_are_refused(count: int) -> None:
    with pytest.raises(DrawRefused):
        table_sizes(count)


@pytest.mark.parametrize(
    ("count", "message"),
    [
        (1, "1 joueur ne peut pas être réparti en tables de 4 ou 5 : ajoutez trois joueurs (4)."),
        (
            2,
            "2 joueurs ne peuvent pas être répartis en tables de 4 ou 5 : "
            "ajoutez deux joueurs (4).",
        ),
        (3, "3 joueurs ne peuvent pas être répartis en tables de 4 ou 5 : ajoutez un joueur (4)."),
        (
            6,
            "6 joueurs ne peuvent pas être répartis en tables de 4 ou 5 : "
            "ajoutez deux joueurs (8) ou retirez-en un (5).",
        ),
        (
            7,
            "7 joueurs ne peuvent pas être répartis en tables de 4 ou 5 : "
            "ajoutez un joueur (8) ou retirez-en deux (5).",
        ),
        (
            11,
            "11 joueurs ne peuvent pas être répartis en tables de 4 ou 5 : "
            "ajoutez un joueur (12) ou retirez-en un (10).",
        ),
    ],
)
def test_a_refusal_suggests_the_nearest_counts_that_can_be_seated(count: int, message: str) -> None:
    with translation.override("fr"), pytest.raises(DrawRefused) as refused:
        table_sizes(count)
    assert refused.value.message == message
    assert str(refused.value) == message


def test_a_refused_draw_is_a_value_error_with_the_same_reason() -> None:
    with translation.override("fr"), pytest.raises(ValueError, match="ajoutez un joueur \\(8\\)"):
        draw_round(players(7), seed=1)


# Every method


@pytest.mark.parametrize("method", METHODS)
def test_every_present_player_is_seated_exactly_once(method: str) -> None:
    present = players(23)
    met = pairs_met(draw_round(present, seed=1))
    tables = draw_round(present, seed=2, method=method, met=met)
    assert_everyone_seated_once(tables, present)
    assert [len(table) for table in tables] == table_sizes(23)


@pytest.mark.parametrize("method", METHODS)
def test_the_same_seed_draws_the_same_tables(method: str) -> None:
    present = players(18)
    met = pairs_met(draw_round(present, seed=1))
    first = draw_round(present, seed=42, method=method, met=met)
    again = draw_round(present, seed=42, method=method, met=met)
    assert first == again


@pytest.mark.parametrize("method", METHODS)
def test_another_seed_usually_draws_other_tables(method: str) -> None:
    present = players(18)
    met = pairs_met(draw_round(present, seed=1))
    draws = {repr(draw_round(present, seed=seed, method=method, met=met)) for seed in range(10)}
    assert len(draws) >= 9


@pytest.mark.parametrize("method", ["random", "avoid_repeats"])
def test_the_order_the_present_players_are_listed_in_does_not_change_the_draw(
    method: str,
) -> None:
    present = players(17)
    met = pairs_met(draw_round(present, seed=1))
    listed_backwards = list(reversed(present))
    assert draw_round(present, seed=5, method=method, met=met) == draw_round(
        listed_backwards, seed=5, method=method, met=met
    )


def test_an_unknown_method_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown draw method"):
        draw_round(players(8), seed=1, method="swiss")


def test_a_player_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        draw_round([1, 2, 3, 4, 5, 6, 7, 1], seed=1)


def test_the_draw_uses_only_its_own_seeded_generator() -> None:
    random.seed(1)
    first = draw_round(players(16), seed=9, method="avoid_repeats")
    random.seed(2)
    assert draw_round(players(16), seed=9, method="avoid_repeats") == first


# Pairs met and repeats


def test_pairs_met_counts_the_tables_each_pair_shared() -> None:
    met = pairs_met([[1, 2, 3, 4], [5, 6, 7, 8], [1, 2, 5, 6]])
    assert met[frozenset({1, 2})] == 2
    assert met[frozenset({3, 4})] == 1
    assert frozenset({1, 5}) in met
    assert frozenset({3, 5}) not in met
    assert len(met) == 6 + 6 + 6 - 2


def test_repeat_count_adds_up_how_often_each_seated_pair_already_met() -> None:
    met = {frozenset({1, 2}): 2, frozenset({3, 4}): 1, frozenset({1, 5}): 1}
    assert repeat_count([[1, 2, 3, 4], [5, 6, 7, 8]], met) == 3
    assert repeat_count([[1, 3, 5, 7], [2, 4, 6, 8]], met) == 1
    assert repeat_count([[1, 3, 6, 7], [2, 4, 5, 8]], met) == 0


# Avoiding repeats


def test_16_players_meet_nobody_twice_in_rounds_2_and_3() -> None:
    # Round 2 can always take one player from each table of round 1, and round 3 then follows a
    # Latin square of the 4 x 4 grid that rounds 1 and 2 make: a perfect draw always exists.
    for seed in range(20):
        assert repeats_by_round(tournament(16, 3, seed)) == [0, 0, 0]


def test_40_players_meet_nobody_twice_in_three_rounds() -> None:
    for seed in range(5):
        assert repeats_by_round(tournament(40, 3, seed)) == [0, 0, 0]


def test_9_players_in_round_2_get_the_fewest_repeats_possible() -> None:
    # The table of 5 takes x players of round 1's table of 4 and 5 - x of its table of 5; the
    # table of 4 the rest. Repeats: C(x,2) + C(5-x,2) + C(4-x,2) + C(x,2), at least 6 (x = 2).
    for seed in range(10):
        assert repeats_by_round(tournament(9, 2, seed)) == [0, 6]


@pytest.mark.parametrize(("count", "rounds"), [(9, 3), (13, 4), (16, 5), (21, 6)])
def test_avoiding_repeats_is_never_worse_than_the_random_draw_of_the_same_seed(
    count: int, rounds: int
) -> None:
    present = players(count)
    for seed in range(3):
        met = pairs_met(table for tables in tournament(count, rounds - 1, seed) for table in tables)
        for draw_seed in range(3):
            random_draw = draw_round(present, seed=draw_seed, met=met)
            avoiding = draw_round(present, seed=draw_seed, method="avoid_repeats", met=met)
            assert repeat_count(avoiding, met) <= repeat_count(random_draw, met)


def test_pairs_of_players_absent_tonight_do_not_matter() -> None:
    present = players(8)
    met = pairs_met([[1, 2, 3, 4], [101, 999]])
    tables = draw_round(present, seed=3, method="avoid_repeats", met=met)
    assert_everyone_seated_once(tables, present)


# By standings


def test_standings_seat_the_four_best_at_table_1() -> None:
    standings = players(12)
    for seed in range(5):
        tables = draw_round(standings, seed=seed, method="standings")
        assert sorted(tables[0]) == standings[:4]
        assert sorted(tables[1]) == standings[4:8]
        assert sorted(tables[2]) == standings[8:]


def test_standings_give_the_last_table_of_5_to_the_five_last() -> None:
    standings = [7, 3, 12, 1, 9, 4, 8, 11, 2, 6, 5, 10, 13]
    tables = draw_round(standings, seed=1, method="standings")
    assert [sorted(table) for table in tables] == [
        sorted(standings[:4]),
        sorted(standings[4:8]),
        sorted(standings[8:]),
    ]


def test_standings_do_not_always_let_the_leader_deal_first() -> None:
    standings = players(8)
    leader_seats = Counter(
        draw_round(standings, seed=seed, method="standings")[0].index(standings[0])
        for seed in range(40)
    )
    assert len(leader_seats) > 1


# Properties

seatable_counts = st.integers(min_value=4, max_value=60).filter(lambda n: n not in UNSEATABLE)


@settings(deadline=None)
@given(
    count=seatable_counts,
    seed=st.integers(min_value=0, max_value=2**32),
    method=st.sampled_from(METHODS),
)
def test_any_seatable_count_seats_everyone_once_at_tables_of_4_or_5(
    count: int, seed: int, method: str
) -> None:
    present = players(count)
    met = pairs_met(draw_round(present, seed=seed + 1))
    tables = draw_round(present, seed=seed, method=method, met=met)
    assert_everyone_seated_once(tables, present)
    assert {len(table) for table in tables} <= {4, 5}
