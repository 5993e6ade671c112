"""Classic whist deals, parties and poules on the preset tables (scoring-rules.md §2, seed 000)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.errors import EngineError
from scoring.engine.games import whist
from scoring.engine.night import parse_poule_deals
from scoring.engine.tables import preset, preset_data

# Seat 1 is Anne (the first dealer); partners sit opposite: Anne + Chloé vs Bruno + Didier.
SEATS = ("Anne", "Bruno", "Chloé", "Didier")
AC, BD = ["Anne", "Chloé"], ["Bruno", "Didier"]  # partie 1
AB, CD = ["Anne", "Bruno"], ["Chloé", "Didier"]  # partie 2
AD, BC = ["Anne", "Didier"], ["Bruno", "Chloé"]  # partie 3


def tricks(team, count, **extra):
    return {"tricks": {"team": team, "tricks": count}, **extra}


def parse(table_name, raw_deals, seats=SEATS):
    table = preset(table_name)
    problems = []
    deals = [
        whist.parse_deal(table, raw, seats, f"deals[{i}]", problems)
        for i, raw in enumerate(raw_deals)
    ]
    assert problems == []
    return deals


def poule(table_name, raw_deals):
    return whist.score_poule(preset(table_name), 4, parse(table_name, raw_deals))


def problems_of(table_name, raw, seats=SEATS):
    problems = []
    assert whist.parse_deal(preset(table_name), raw, seats, "deals[3]", problems) is None
    return [str(p) for p in problems]


# --------------------------------------------------------------------------------------------
# Seed 000 worked examples


def test_nine_tricks_to_four_score_three_points_for_team_a():
    (deal,) = parse("whist7", [tricks(AC, 9)])
    assert whist.score_deal(preset("whist7"), deal) == (3, 0)


def test_the_deal_points_give_each_partner_his_teams_points():
    score = poule("whist7", [tricks(AC, 9)])
    assert score.deal_points == ((3, 0, 3, 0),)


def test_a_team_recorded_with_four_tricks_gives_the_other_team_three_points():
    score = poule("whist7", [tricks(BD, 4)])
    assert score.deal_points == ((3, 0, 3, 0),)


def test_a_partie_won_eight_to_five_is_worth_three():
    score = poule(
        "whist7",
        [tricks(AC, 9), tricks(BD, 9), tricks(BD, 8), tricks(AC, 11)],  # 3–0, 3–3, 3–5, 8–5
    )
    assert score.game_points == (3, -3, 3, -3)
    assert score.net == (3, -3, 3, -3)
    assert score.warnings == ()


@pytest.mark.parametrize(
    ("table_name", "count", "expected"),
    [
        ("whist7", 6, 0),  # le Devoir is worth nothing
        ("whist7", 7, 1),
        ("whist7", 13, 7),
        ("simple10", 6, 0),
        ("simple10", 9, 6),  # two points per trick in 10-point manches
        ("robre5", 9, 3),
    ],
)
def test_only_tricks_over_six_score(table_name, count, expected):
    assert whist.trick_points(preset(table_name), count) == expected


# --------------------------------------------------------------------------------------------
# Honours and "je chante"


@pytest.mark.parametrize(
    ("deal", "expected"),
    [
        pytest.param(
            tricks(AC, 8, honours={"team": AC, "count": 4}),
            (8, 0),
            id="4 honours to the trick team",
        ),
        pytest.param(
            tricks(AC, 8, honours={"team": BD, "count": 3}),
            (4, 2),
            id="3 honours to the other team",
        ),
        pytest.param(
            tricks(AC, 6, honours={"team": BD, "count": 3}), (0, 4), id="6 to 7 and 3 honours"
        ),
    ],
)
def test_honours_are_scored_after_the_tricks(deal, expected):
    (parsed,) = parse("simple10", [deal])
    assert whist.score_deal(preset("simple10"), parsed) == expected


def test_honours_are_not_scored_once_the_tricks_have_ended_the_manche():
    (deal,) = parse("simple10", [tricks(AC, 7, honours={"team": BD, "count": 4})])
    assert whist.score_deal(preset("simple10"), deal, before=(8, 5)) == (2, 0)


def test_honours_can_end_the_manche_when_the_tricks_did_not():
    score = poule(
        "simple10",
        [tricks(AC, 10), tricks(BD, 7, honours={"team": AC, "count": 3})],  # 8–0, then 8–2 +2
    )
    assert score.deal_points[1] == (2, 2, 2, 2)
    assert score.warnings  # the second manche of the partie simple has not been played


def test_je_chante_scores_the_honours_before_play_and_ends_the_manche():
    score = poule(
        "simple10",
        [
            tricks(AC, 10),  # 8–0
            {"not_played": True, "honours": {"team": AC, "count": 3}},  # 10–0: manche, 3 fiches
            tricks(BD, 12),  # second manche: 0–12, Anne + Chloé at 0: 3 fiches the other way
        ],
    )
    assert score.deal_points[1] == (2, 0, 2, 0)
    assert score.game_points == (0, 0, 0, 0)  # 1–1: no partie bonus, fiches even


def test_je_chante_needs_the_team_at_eight_points():
    deals = parse(
        "simple10", [tricks(AC, 9), {"not_played": True, "honours": {"team": AC, "count": 3}}]
    )
    with pytest.raises(EngineError) as error:
        whist.score_poule(preset("simple10"), 4, deals)
    assert str(error.value) == (
        "deals[1].not_played: je chante needs the honours team at 8 points, seats 1 + 3 have 6"
    )


def test_je_chante_is_refused_in_a_table_without_it():
    problems = problems_of("whist7", {"not_played": True, "honours": {"team": AC, "count": 3}})
    assert 'deals[3].not_played: point table "whist7" has no "je chante"' in problems
    assert 'deals[3].honours: point table "whist7" does not count honours' in problems


# --------------------------------------------------------------------------------------------
# Revokes


@pytest.mark.parametrize(
    ("deal", "expected"),
    [
        pytest.param(
            tricks(AC, 7, revokes=[{"team": AC, "count": 1}]),
            (0, 2),
            id="7 tricks, 1 revoke: 5 to 8",
        ),
        pytest.param(
            tricks(AC, 10, revokes=[{"team": AC, "count": 1}]),
            (0, 0),
            id="the offender scores nothing",
        ),
        pytest.param(
            tricks(AC, 9, revokes=[{"team": BD, "count": 2}]),
            (7, 0),
            id="two revokes move 4 tricks",
        ),
        pytest.param(
            tricks(AC, 1, revokes=[{"team": AC, "count": 2}]),
            (0, 7),
            id="never more tricks than taken",
        ),
        pytest.param(
            tricks(AC, 9, revokes=[{"team": AC, "count": 1}, {"team": BD, "count": 1}]),
            (0, 0),
            id="both teams revoked: the deal is void",
        ),
    ],
)
def test_a_revoke_moves_two_tricks_and_the_offender_scores_nothing(deal, expected):
    (parsed,) = parse("whist7", [deal])
    assert whist.score_deal(preset("whist7"), parsed) == expected


def test_the_offending_team_keeps_no_honours():
    deal = tricks(AC, 9, honours={"team": AC, "count": 4}, revokes=[{"team": AC, "count": 1}])
    (parsed,) = parse("simple10", [deal])
    assert whist.score_deal(preset("simple10"), parsed, before=(9, 0)) == (0, 0)


# --------------------------------------------------------------------------------------------
# Fiches, manches, robres


@pytest.mark.parametrize(("loser_points", "fiches"), [(0, 3), (1, 2), (4, 2), (5, 1), (9, 1)])
def test_each_winner_of_a_manche_gets_fiches_by_the_losers_points(loser_points, fiches):
    assert whist.manche_fiches(preset("robre10"), loser_points) == fiches


def test_one_robre_is_not_yet_a_partie_simple_2():
    # §2, seed 000: a partie simple 2 is "deux ou trois robres"; one robre won 2–0 ends nothing.
    score = poule("robre10", [tricks(AC, 12), tricks(AC, 12)])
    assert score.game_points == (0, 0, 0, 0)
    assert score.warnings == (
        "partie 1 (seats 1 + 3 vs 2 + 4) is unfinished after the last deal and is not counted",
    )


def test_two_grand_robres_win_the_partie_with_the_manche_fiches_and_the_bonus():
    score = poule(
        "robre10",
        # Four manches won 12–0 (3 fiches each): two grand robres; +4 for the partie.
        [tricks(AC, 12), tricks(AC, 12), tricks(AC, 12), tricks(AC, 12)],
    )
    assert score.game_points == (16, -16, 16, -16)
    assert score.warnings == ()


def test_a_grand_robre_counts_the_fiches_of_each_manche():
    score = poule(
        "robre10",
        # 12–0 (3); 0–4 then 10–4 (2): robre 1; then 12–0 (3), 12–0 (3): robre 2; +4.
        [tricks(AC, 12), tricks(BD, 8), tricks(AC, 11), tricks(AC, 12), tricks(AC, 12)],
    )
    assert score.game_points == (15, -15, 15, -15)


def test_a_partie_of_three_robres_goes_to_the_first_team_with_two():
    score = poule(
        "robre10",
        [
            *(tricks(AC, 12), tricks(BD, 12), tricks(AC, 12)),  # petit robre to 1+3: +3 −3 +3
            *(tricks(BD, 12), tricks(BD, 12)),  # grand robre to 2+4: −3 −3
            *(tricks(AC, 12), tricks(AC, 12)),  # the third robre to 1+3: +3 +3, and +4
        ],
    )
    assert score.game_points == (7, -7, 7, -7)
    assert score.warnings == ()


def test_the_partie_is_over_with_its_second_robre_and_the_next_partie_follows():
    deals = [tricks(AC, 12)] * 4 + [tricks(AB, 12)]
    score = poule("robre10", deals)
    assert score.game_points == (16, -16, 16, -16)
    assert score.deal_points[-1] == (12, 12, 0, 0)  # partie 2: seats 1 + 2 vs 3 + 4


def test_a_partie_simple_of_two_manches_won_by_one_team_gets_the_bonus():
    score = poule("simple10", [tricks(AC, 12), tricks(AC, 12)])
    assert score.game_points == (10, -10, 10, -10)


def test_robre5_pays_a_partie_bonus_of_two():
    # 6–0 and 5–0 are worth 3 fiches each; two grand robres, then 2 for the partie.
    score = poule("robre5", [tricks(BD, 12), tricks(BD, 11), tricks(BD, 12), tricks(BD, 11)])
    assert score.game_points == (-14, 14, -14, 14)


def test_robres_need_a_partie_that_is_won():
    data = {**preset_data("robre10"), "partie_ends": "played"}
    with pytest.raises(EngineError) as error:
        whist.load_table(data, "robre10")
    assert str(error.value) == (
        'robre10.robres: robres are won, not played: set "partie_ends" to "won"'
    )


# --------------------------------------------------------------------------------------------
# The partie générale


def test_the_parties_follow_the_partie_generale_rotation():
    score = poule("whist7", [tricks(AC, 13), tricks(AB, 13), tricks(AD, 13)])
    # Anne wins all three parties 7–0 (with Chloé, then Bruno, then Didier).
    assert score.game_points == (21, -7, -7, -7)
    assert score.warnings == ()


def test_a_deal_after_the_third_partie_is_refused_at_its_place():
    deals = parse("whist7", [tricks(AC, 13), tricks(AB, 13), tricks(AD, 13), tricks(AC, 6)])
    with pytest.raises(EngineError) as error:
        whist.score_poule(preset("whist7"), 4, deals)
    assert str(error.value) == "deals[3]: the partie générale is over: its 3 parties are finished"
    assert (error.value.code, dict(error.value.params)) == ("partie_generale_over", {"parties": 3})


def test_a_deal_that_breaks_the_rotation_is_refused_at_its_team():
    deals = parse("whist7", [tricks(AC, 13), tricks(AC, 9)])
    with pytest.raises(EngineError) as error:
        whist.score_poule(preset("whist7"), 4, deals)
    assert error.value.place == "deals[1].tricks.team"
    assert "partie 2 of the partie générale is played by seats 1 + 2 vs 3 + 4" in str(error.value)


def test_an_unfinished_partie_counts_nothing():
    score = poule("whist7", [tricks(AC, 12)])
    assert score.game_points == (0, 0, 0, 0)
    assert score.deal_points == ((6, 0, 6, 0),)


def test_a_penalty_is_paid_in_game_points_and_shown_on_the_deal():
    score = poule("whist7", [tricks(AC, 13, penalties=[{"player": "Bruno", "points": 2}])])
    assert score.deal_points == ((9, -6, 9, 2),)
    assert score.game_points == (9, -13, 9, -5)


def test_whist_is_played_by_four_players():
    with pytest.raises(EngineError) as error:
        whist.score_poule(preset("whist7"), 5, [])
    assert str(error.value) == "seats: whist is played by 4 players, not 5"


# --------------------------------------------------------------------------------------------
# Where a poule stands (for the score sheet)


def progress(table_name, raw_deals):
    return whist.poule_progress(preset(table_name), parse(table_name, raw_deals))


def test_a_poule_without_deals_starts_the_first_partie():
    state = progress("robre10", [])
    assert state.current == 0 and not state.over
    (partie,) = state.parties
    assert partie.teams == ((0, 2), (1, 3))
    assert (partie.score, partie.manches, partie.robres) == ((0, 0), (0, 0), (0, 0))
    assert (partie.finished, partie.winner) == (False, None)


def test_the_progress_counts_manches_and_robres_of_the_partie_being_played():
    state = progress("robre10", [tricks(AC, 12), tricks(AC, 12), tricks(BD, 12), tricks(AC, 9)])
    (partie,) = state.parties
    assert partie.manches == (2, 1)
    assert partie.robres == (1, 0)
    assert partie.robre_manches == (0, 1)  # the second robre: 2+4 lead 1–0
    assert partie.score == (6, 0)  # the manche being played
    assert (partie.finished, partie.winner, state.current) == (False, None, 0)


def test_a_finished_partie_names_its_winner_and_the_next_one_is_current():
    state = progress("robre10", [tricks(BD, 12)] * 4)
    first, second = state.parties
    assert (first.finished, first.winner, first.robres) == (True, 1, (0, 2))
    assert first.value == -16  # what the first team (1 + 3) won: 4 × 3 fiches + 4, lost
    assert second.teams == ((0, 1), (2, 3))
    assert (second.number, second.finished, second.manches) == (2, False, (0, 0))
    assert state.current == 1


def test_tables_without_robres_give_no_robre_counts():
    state = progress("simple10", [tricks(AC, 12), tricks(BD, 12)])
    partie = state.parties[0]
    assert (partie.robres, partie.robre_manches) == (None, None)
    assert (partie.finished, partie.winner, partie.manches) == (True, None, (1, 1))  # 1–1


def test_the_progress_reads_the_deals_as_the_site_stores_them():
    raw = [
        {"tricks": {"team": ["1", "3"], "tricks": 12}},
        {"tricks": {"team": ["2", "4"], "tricks": 9}},
    ]
    deals = parse_poule_deals(preset("robre5"), ["1", "2", "3", "4"], raw)
    state = whist.poule_progress(preset("robre5"), deals)
    assert (state.parties[0].manches, state.parties[0].score) == ((1, 0), (0, 3))


def test_the_partie_generale_is_over_after_three_parties():
    state = progress("whist7", [tricks(AC, 13), tricks(AB, 13), tricks(AD, 13)])
    assert [p.winner for p in state.parties] == [0, 0, 0]
    assert (state.over, state.current) == (True, None)


# --------------------------------------------------------------------------------------------
# Refused deals name the place


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (tricks(AC, 14), "deals[3].tricks.tricks: expected the team's tricks, 0 … 13, got 14"),
        (tricks(["Anne", "Zoé"], 7), 'deals[3].tricks.team: "Zoé" is not at this table'),
        (
            tricks(["Anne", "Anne"], 7),
            'deals[3].tricks.team: "Anne" is named twice, expected two partners',
        ),
        (
            tricks(["Anne"], 7),
            'deals[3].tricks.team: expected a list of 2 player names, got ["Anne"]',
        ),
        ({}, 'deals[3].tricks: expected {"team": [name, name], "tricks": 0 … 13}, got null'),
        (
            tricks(AC, 7, honours={"team": AB, "count": 3}),
            "deals[3].honours.team: Anne + Bruno is not a team of this deal, "
            "expected Anne + Chloé or Bruno + Didier",
        ),
        (
            tricks(AC, 7, honours={"team": AC, "count": 2}),
            "deals[3].honours.count: expected 3 or 4 trump honours, got 2",
        ),
        (
            tricks(AC, 7, revokes=[{"team": AC, "count": 0}]),
            "deals[3].revokes[0].count: expected an integer ≥ 1, got 0",
        ),
        (
            tricks(
                AC, 7, revokes=[{"team": AC, "count": 1}, {"team": ["Chloé", "Anne"], "count": 1}]
            ),
            "deals[3].revokes[1].team: Anne + Chloé already has a revokes entry",
        ),
        (
            {
                "not_played": True,
                "tricks": {"team": AC, "tricks": 7},
                "honours": {"team": AC, "count": 3},
            },
            'deals[3].tricks: a deal not played ("je chante") records honours only',
        ),
        (tricks(AC, 7, not_played="yes"), 'deals[3].not_played: expected true or false, got "yes"'),
        (
            tricks(AC, 7, penalties=[{"player": "Zoé", "points": 2}]),
            'deals[3].penalties[0].player: "Zoé" is not at this table',
        ),
    ],
)
def test_a_wrong_deal_is_refused_naming_the_place(raw, expected):
    table_name = "whist7" if "honours" not in raw else "simple10"
    assert expected in problems_of(table_name, raw)


def test_honours_are_refused_where_the_table_does_not_count_them():
    problems = problems_of("whist7", tricks(AC, 7, honours={"team": AC, "count": 4}))
    assert problems == ['deals[3].honours: point table "whist7" does not count honours']


# --------------------------------------------------------------------------------------------
# Point tables


@pytest.mark.parametrize("name", ["whist7", "simple10", "robre10", "robre5"])
def test_every_preset_loads_under_its_own_name(name):
    table = preset(name)
    assert (table.game, table.name) == ("whist", name)


def test_whist7_is_a_seven_point_partie_worth_the_difference():
    table = preset("whist7")
    assert (table.trick_value, table.honours, table.target, table.partie_value) == (
        1,
        None,
        7,
        "difference",
    )


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"trick_value": "x"}, 'simple10.trick_value: expected an integer ≥ 1, got "x"'),
        ({"target": 0}, "simple10.target: expected an integer ≥ 1, got 0"),
        (
            {"honours": {"three": 2}},
            "simple10.honours.four: expected a non-negative integer, got nothing",
        ),
        ({"partie_ends": "never"}, 'simple10.partie_ends: expected "won" or "played", got "never"'),
        (
            {"partie_value": None},
            'simple10.partie_value: expected "difference" or "fiches", got null',
        ),
        (
            {
                "fiches": {
                    "per_manche": [
                        {"losers_from": 0, "fiches": 3},
                        {"losers_from": 0, "fiches": 2},
                    ],
                    "partie_bonus": 4,
                }
            },
            "simple10.fiches.per_manche[1].losers_from: expected more than 0 (steps go up), got 0",
        ),
        (
            {"chante_at": 7},
            "simple10.chante_at: expected a score below the target 10 "
            "from which 3 honours (2 points) reach it, got 7",
        ),
        ({"game": "hearts"}, 'simple10.game: expected "whist", got "hearts"'),
    ],
)
def test_a_wrong_table_is_refused_naming_the_value(change, expected):
    data = {**preset_data("simple10"), **change}
    with pytest.raises(EngineError) as error:
        whist.load_table(data, "simple10")
    assert str(error.value) == expected


# --------------------------------------------------------------------------------------------
# Properties

deal_specs = st.lists(
    st.tuples(
        st.integers(0, 13),  # tricks of the team holding seat 1
        st.sampled_from([None, (0, 3), (0, 4), (1, 3), (1, 4)]),  # honours: team, count
        st.sampled_from([(0, 0), (0, 0), (1, 0), (0, 1), (2, 0), (1, 1)]),  # revokes
        st.sampled_from([None, (0, 1), (3, 2)]),  # penalty: seat, points
    ),
    max_size=25,
)


def _raw(teams, spec, honours_counted):
    count, honours, revokes, penalty = spec
    names = [[SEATS[s] for s in team] for team in teams]
    raw = tricks(names[0], count)
    if honours and honours_counted:
        raw["honours"] = {"team": names[honours[0]], "count": honours[1]}
    raw["revokes"] = [{"team": names[side], "count": n} for side, n in enumerate(revokes) if n]
    if penalty:
        raw["penalties"] = [{"player": SEATS[penalty[0]], "points": penalty[1]}]
    return raw


def _build(table_name, specs):
    """Raw deals (players named) that follow the partie générale: each takes the teams the
    rotation expects at that point of the poule."""
    table = preset(table_name)
    raws, deals = [], []
    for spec in specs:
        for teams in whist.ROTATION:
            raw = _raw(teams, spec, table.honours is not None)
            deal = whist.parse_deal(table, raw, SEATS, "d", [])
            try:
                whist.score_poule(table, 4, [*deals, deal])
            except EngineError:
                continue
            raws.append(raw)
            deals.append(deal)
            break
    return raws


def _score(table_name, raws, seats=SEATS):
    return whist.score_poule(preset(table_name), 4, parse(table_name, raws, seats))


tables = st.sampled_from(["whist7", "simple10", "robre10", "robre5"])


@settings(max_examples=60, deadline=None)
@given(tables, deal_specs)
def test_game_points_are_zero_sum(table_name, specs):
    score = _score(table_name, _build(table_name, specs))
    assert sum(score.game_points) == 0


@settings(max_examples=60, deadline=None)
@given(tables, deal_specs)
def test_partners_always_score_the_same_deal_points_without_penalties(table_name, specs):
    raws = [{k: v for k, v in raw.items() if k != "penalties"} for raw in _build(table_name, specs)]
    deals = parse(table_name, raws)
    for deal, row in zip(deals, _score(table_name, raws).deal_points, strict=True):
        for first, second in deal.teams:
            assert row[first] == row[second]


@settings(max_examples=60, deadline=None)
@given(tables, deal_specs, st.sampled_from([(1, 0, 3, 2), (2, 3, 0, 1), (3, 2, 1, 0)]))
def test_a_seating_that_keeps_the_partnerships_gives_everyone_the_same_points(
    table_name, specs, moved
):
    """The player of seat s moves to seat moved[s]; every partnership of the rotation stays."""
    raws = _build(table_name, specs)
    moved_seats = tuple(SEATS[moved.index(s)] for s in range(4))
    original = _score(table_name, raws)
    reseated = _score(table_name, raws, moved_seats)
    assert tuple(reseated.game_points[moved[s]] for s in range(4)) == original.game_points
