"""Properties every point table and every poule must keep, whatever the deals (hypothesis)."""

from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.base import Penalty, PouleScore
from scoring.engine.games.belgian_whist import Deal, active_seats, score_deal, score_poule
from scoring.engine.standings import SCHEMES, Scheme, poule_standings, scheme
from scoring.engine.tables import PRESETS, preset

BELGIAN_WHIST_PRESETS = PRESETS["belgian_whist"]
# Misères and piccolo are made at exactly their number of tricks; every other contract is made
# at its number or more.
EXACT_CONTRACTS = {"petite_misere", "grande_misere", "grande_misere_table", "piccolo"}


def rows_of(table):
    return [table.rows[key] for key in sorted(table.rows, key=lambda k: (k[0], k[1] or 0))]


def is_made(row, tricks):
    return tricks == row.needed if row.contract in EXACT_CONTRACTS else tricks >= row.needed


@st.composite
def deals(draw, table, seat_count, dealer):
    """A deal that could have happened at this table with this dealer (explicit dealer)."""
    active = active_seats(seat_count, dealer)
    if draw(st.integers(0, 9)) == 0:
        contract, bid, declarers, tricks = "pass", None, (), None
    else:
        row = draw(st.sampled_from(rows_of(table)))
        contract, bid = row.contract, row.bid
        order = draw(st.permutations(active))
        if row.side == "each":
            declarers = tuple(order[: draw(st.integers(1, len(active)))])
            counts = []
            left = row.deal_tricks
            for _ in declarers:
                counts.append(draw(st.integers(0, left)))
                left -= counts[-1]
            if len(declarers) == len(active):
                counts[-1] += left  # every player declares: every trick went to one of them
            tricks = tuple(counts)
        else:
            declarers = tuple(order[: 2 if row.side == "pair" else 1])
            tricks = draw(st.integers(0, row.deal_tricks))
    penalties = tuple(
        Penalty(seat, points)
        for seat, points in draw(
            st.lists(st.tuples(st.sampled_from(active), st.integers(0, 20)), max_size=2)
        )
    )
    return Deal(contract, bid, declarers, tricks, penalties, dealer=dealer)


@st.composite
def poules(draw):
    """A preset, a table size and a sequence of deals, each naming its dealer."""
    table = preset(draw(st.sampled_from(BELGIAN_WHIST_PRESETS)))
    seat_count = draw(st.sampled_from((4, 5)))
    dealers = draw(st.lists(st.integers(0, seat_count - 1), min_size=1, max_size=15))
    return table, seat_count, [draw(deals(table, seat_count, dealer)) for dealer in dealers]


@given(data=st.data())
def test_zero_sum_tables_give_zero_sum_deals(data):
    table = preset(data.draw(st.sampled_from(BELGIAN_WHIST_PRESETS)))
    seat_count = data.draw(st.sampled_from((4, 5)))
    dealer = data.draw(st.integers(0, seat_count - 1))
    deal = data.draw(deals(table, seat_count, dealer))
    points = score_deal(table, deal, seat_count, dealer)
    assert table.zero_sum
    assert sum(points) == 0
    if seat_count == 5:
        assert points[dealer] == 0


@given(poule=poules())
def test_zero_sum_tables_give_zero_sum_poules(poule):
    table, seat_count, played = poule
    score = score_poule(table, seat_count, played)
    assert sum(score.game_points) == 0
    assert all(sum(points) == 0 for points in score.deal_points)


@pytest.mark.parametrize("name", BELGIAN_WHIST_PRESETS)
def test_more_tricks_never_give_the_declarers_of_a_made_contract_fewer_points(name):
    # The grids are small: every row and every pair of trick counts is checked.
    table = preset(name)
    for row in rows_of(table):
        declarers = (0, 1) if row.side == "pair" else (0,)

        def declarer_points(tricks, row=row, declarers=declarers):
            spread = tricks if row.side != "each" else (tricks,)
            return score_deal(table, Deal(row.contract, row.bid, declarers, spread))[0]

        made = [t for t in range(row.deal_tricks + 1) if is_made(row, t)]
        assert made, f"{name} {row.contract} {row.bid} can never be made"
        for fewer, more in pairwise(made):
            assert declarer_points(more) >= declarer_points(fewer), (row.contract, row.bid, more)


@pytest.mark.parametrize("name", BELGIAN_WHIST_PRESETS)
def test_more_tricks_never_cost_the_declarers_points_made_or_failed(name):
    table = preset(name)
    for row in rows_of(table):
        if row.contract in EXACT_CONTRACTS:
            continue
        declarers = (0, 1) if row.side == "pair" else (0,)
        points = [
            score_deal(table, Deal(row.contract, row.bid, declarers, t))[0]
            for t in range(row.deal_tricks + 1)
        ]
        assert points == sorted(points), (row.contract, row.bid, points)


@pytest.mark.parametrize("name", BELGIAN_WHIST_PRESETS)
def test_a_made_contract_pays_its_declarers_and_a_failed_one_costs_them(name):
    table = preset(name)
    for row in rows_of(table):
        declarers = (0, 1) if row.side == "pair" else (0,)
        for t in range(row.deal_tricks + 1):
            spread = t if row.side != "each" else (t,)
            points = score_deal(table, Deal(row.contract, row.bid, declarers, spread))
            if is_made(row, t):
                assert points[0] > 0 > points[3], (row.contract, row.bid, t)
            else:
                assert points[0] < 0 < points[3], (row.contract, row.bid, t)


@st.composite
def relabelled_poules(draw):
    table, seat_count, played = draw(poules())
    new_seat = draw(st.permutations(range(seat_count)))
    return table, seat_count, played, new_seat


def relabel(deal, new_seat):
    return Deal(
        deal.contract,
        deal.bid,
        tuple(new_seat[s] for s in deal.declarers),
        deal.tricks,
        tuple(Penalty(new_seat[p.seat], p.points) for p in deal.penalties),
        dealer=new_seat[deal.dealer],
    )


@given(poule=relabelled_poules())
def test_permuting_the_seats_permutes_the_points(poule):
    table, seat_count, played, new_seat = poule
    before = score_poule(table, seat_count, played)
    after = score_poule(table, seat_count, [relabel(deal, new_seat) for deal in played])
    for seat in range(seat_count):
        assert after.game_points[new_seat[seat]] == before.game_points[seat]
        for old_deal, new_deal in zip(before.deal_points, after.deal_points, strict=True):
            assert new_deal[new_seat[seat]] == old_deal[seat]
    assert after.dealers == tuple(new_seat[d] for d in before.dealers)
    for points_scheme in SCHEMES.values():
        old = {line.seat: line.tournament_points for line in poule_standings(before, points_scheme)}
        new = {line.seat: line.tournament_points for line in poule_standings(after, points_scheme)}
        assert all(new[new_seat[seat]] == old[seat] for seat in range(seat_count))


# --------------------------------------------------------------------------------------------
# Tournament points

inline_schemes = st.builds(
    lambda places, positive: scheme({"places": places, "positive_from_place": positive}),
    st.lists(st.integers(0, 100), min_size=1, max_size=6),
    st.none() | st.integers(1, 7),
)
schemes = st.sampled_from(list(SCHEMES.values())) | inline_schemes
# A few values only, so that ties are frequent.
game_points = st.lists(st.integers(-3, 3).map(lambda p: p * 5), min_size=4, max_size=5)


def poule_of(points):
    return PouleScore(
        deal_points=(),
        dealers=(),
        game_points=tuple(points),
        net=tuple(Fraction(p) for p in points),
    )


@given(points_scheme=schemes, points=game_points)
def test_a_poules_tournament_points_never_exceed_the_schemes_total(points_scheme, points):
    standings = poule_standings(poule_of(points), points_scheme)
    awarded = [line.tournament_points for line in standings]
    assert sum(awarded) <= points_scheme.total
    assert all(p >= 0 for p in awarded)
    assert sorted(line.seat for line in standings) == list(range(len(points)))


@given(points_scheme=schemes, points=game_points)
def test_tied_players_get_the_same_tournament_points(points_scheme, points):
    standings = poule_standings(poule_of(points), points_scheme)
    by_game_points = {}
    for line in standings:
        by_game_points.setdefault(line.game_points, set()).add(line.tournament_points)
        assert line.tied == (points.count(line.game_points) > 1)
    assert all(len(shares) == 1 for shares in by_game_points.values())


# Schemes that never pay a later place more than an earlier one (every published scheme).
decreasing_schemes = st.sampled_from(list(SCHEMES.values())) | st.builds(
    lambda places, positive: scheme({"places": places, "positive_from_place": positive}),
    st.lists(st.integers(0, 100), min_size=1, max_size=6).map(lambda p: sorted(p, reverse=True)),
    st.none() | st.integers(1, 7),
)


@given(points_scheme=decreasing_schemes, points=game_points)
def test_a_better_player_never_gets_fewer_tournament_points(points_scheme, points):
    standings = poule_standings(poule_of(points), points_scheme)
    awarded = [line.tournament_points for line in standings]
    assert awarded == sorted(awarded, reverse=True)


@given(
    places=st.lists(st.integers(0, 100), min_size=1, max_size=4).map(tuple),
    points=game_points,
)
def test_without_positivity_the_schemes_total_is_shared_out_exactly(places, points):
    points_scheme = Scheme(places=places, positive_from_place=None)
    awarded = [line.tournament_points for line in poule_standings(poule_of(points), points_scheme)]
    assert sum(awarded) == points_scheme.total
