"""The club-night file (night-format.md): scoring, refusing, re-reading, and the command line."""

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.engine.errors import DocumentRefused
from scoring.engine.night import read_night, score_night_document
from scoring.engine.ranking import RankingRules
from scoring.engine.season_file import rank_nights
from scoring.engine.tables import preset_data

ROOT = Path(__file__).resolve().parents[2]

# The example of night-format.md, as published.
EXAMPLE = {
    "format": "club-night/1",
    "club": "RCWhist La Chevalerie",
    "season": "2024",
    "date": "2024-03-14",
    "name": "Soirée du 14 mars",
    "game": "belgian_whist",
    "rules": "rcwhist",
    "tournament_points": "rcwhist",
    "players": ["Anne Dupont", "Bruno Lemaire", "Chloé Martin", "Didier Peeters", "Eva Janssens"],
    "poules": [
        {
            "round": 1,
            "table": 1,
            "seats": ["Anne Dupont", "Bruno Lemaire", "Chloé Martin", "Didier Peeters"],
            "deals": [
                {
                    "contract": "emballage",
                    "bid": 8,
                    "declarers": ["Anne Dupont", "Chloé Martin"],
                    "tricks": 9,
                },
                {"contract": "solo", "bid": 6, "declarers": ["Bruno Lemaire"], "tricks": 5},
                {"contract": "pass"},
                {
                    "contract": "petite_misere",
                    "declarers": ["Didier Peeters", "Anne Dupont"],
                    "tricks": {"Didier Peeters": 0, "Anne Dupont": 2},
                },
                {
                    "contract": "trou",
                    "bid": 9,
                    "declarers": ["Chloé Martin", "Bruno Lemaire"],
                    "tricks": 10,
                    "penalties": [{"player": "Anne Dupont", "points": 2}],
                },
            ],
        }
    ],
}

ANNE, BRUNO, CHLOE, DIDIER, EVA = EXAMPLE["players"]


def example():
    return copy.deepcopy(EXAMPLE)


def night_at_a_table_of_five():
    """Eva joins the table: the dealer of each deal is the mort; three players tie second."""
    doc = example()
    doc["date"] = "2024-03-21"
    doc["poules"] = [
        {
            "round": 1,
            "table": 1,
            "seats": [ANNE, BRUNO, CHLOE, DIDIER, EVA],
            "deals": [
                {"contract": "solo", "bid": 6, "declarers": [BRUNO], "tricks": 6},
                {"contract": "emballage", "bid": 8, "declarers": [DIDIER, EVA], "tricks": 9},
                {"contract": "solo", "bid": 6, "declarers": [ANNE], "tricks": 6},
            ],
        }
    ]
    return doc


def problems_of(doc):
    with pytest.raises(DocumentRefused) as refused:
        score_night_document(doc)
    return list(refused.value.problems)


def places(problems):
    return [problem.split(": ", 1)[0] for problem in problems]


# --------------------------------------------------------------------------------------------
# Scoring the published example


def test_the_example_night_scores_as_a_result_document():
    result = score_night_document(example())
    assert result["format"] == "club-night-result/1"
    assert result["club"] == "RCWhist La Chevalerie"
    assert result["poules"][0]["seats"] == EXAMPLE["poules"][0]["seats"]


def test_every_deal_of_the_example_has_points_for_every_seat():
    deals = score_night_document(example())["poules"][0]["deals"]
    assert [deal["points"] for deal in deals] == [
        {ANNE: 5, BRUNO: -5, CHLOE: 5, DIDIER: -5},
        {ANNE: 3, BRUNO: -9, CHLOE: 3, DIDIER: 3},
        {ANNE: 0, BRUNO: 0, CHLOE: 0, DIDIER: 0},
        {ANNE: -22, BRUNO: 2, CHLOE: 2, DIDIER: 18},
        {ANNE: -14, BRUNO: 10, CHLOE: 10, DIDIER: -6},
    ]


def test_every_deal_of_the_example_names_its_dealer():
    deals = score_night_document(example())["poules"][0]["deals"]
    # The passed deal does not move the dealer: Chloé deals again.
    assert [deal["dealer"] for deal in deals] == [ANNE, BRUNO, CHLOE, CHLOE, DIDIER]


def test_the_example_poule_has_its_standings_and_tournament_points():
    standings = score_night_document(example())["poules"][0]["standings"]
    assert standings == [
        {"player": CHLOE, "rank": 1, "tied": False, "game_points": 20, "tournament_points": "5"},
        {"player": DIDIER, "rank": 2, "tied": False, "game_points": 10, "tournament_points": "3"},
        # Bruno is third but not positive: no point.
        {"player": BRUNO, "rank": 3, "tied": False, "game_points": -2, "tournament_points": "0"},
        {"player": ANNE, "rank": 4, "tied": False, "game_points": -28, "tournament_points": "0"},
    ]


def test_the_example_night_has_its_tournament_standings():
    standings = score_night_document(example())["standings"]
    assert standings == [
        {
            "player": CHLOE,
            "rank": 1,
            "tied": False,
            "tournament_points": "5",
            "game_points": 20,
            "poules_played": 1,
            "poules_won": 1,
        },
        {
            "player": DIDIER,
            "rank": 2,
            "tied": False,
            "tournament_points": "3",
            "game_points": 10,
            "poules_played": 1,
            "poules_won": 0,
        },
        {
            "player": BRUNO,
            "rank": 3,
            "tied": False,
            "tournament_points": "0",
            "game_points": -2,
            "poules_played": 1,
            "poules_won": 0,
        },
        {
            "player": ANNE,
            "rank": 4,
            "tied": False,
            "tournament_points": "0",
            "game_points": -28,
            "poules_played": 1,
            "poules_won": 0,
        },
    ]


def test_the_example_night_warns_of_a_short_poule_and_an_absent_player():
    warnings = score_night_document(example())["warnings"]
    assert len(warnings) == 2
    short, absent = warnings
    assert "round 1, table 1" in short
    assert "4 deals played" in short
    assert "12" in short
    assert "round 1" in absent
    assert EVA in absent


def test_scoring_leaves_the_input_document_untouched():
    doc = example()
    score_night_document(doc)
    assert doc == EXAMPLE


def test_a_result_document_read_again_gives_the_same_standings():
    result = score_night_document(example())
    assert read_night(result).standings == read_night(example()).standings
    assert score_night_document(result) == result


def test_a_night_written_with_its_dealers_scores_the_same():
    result = score_night_document(example())
    doc = example()
    for raw, scored in zip(doc["poules"][0]["deals"], result["poules"][0]["deals"], strict=True):
        raw["dealer"] = scored["dealer"]
    assert score_night_document(doc)["standings"] == result["standings"]


def test_an_inline_point_table_scores_like_the_preset_it_copies():
    doc = example()
    doc["rules"] = preset_data("rcwhist")
    result = score_night_document(doc)
    assert result["standings"] == score_night_document(example())["standings"]


def test_an_inline_tournament_points_scheme_is_used():
    doc = example()
    doc["tournament_points"] = {"places": [90, 60, 30, 0]}
    points = [line["tournament_points"] for line in score_night_document(doc)["standings"]]
    assert points == ["90", "60", "30", "0"]


# --------------------------------------------------------------------------------------------
# A table of five


def test_at_a_table_of_five_the_mort_scores_zero_in_each_deal():
    deals = score_night_document(night_at_a_table_of_five())["poules"][0]["deals"]
    assert [deal["dealer"] for deal in deals] == [ANNE, BRUNO, CHLOE]
    for deal in deals:
        assert deal["points"][deal["dealer"]] == 0
        assert sum(deal["points"].values()) == 0
    assert deals[1]["points"] == {ANNE: -5, BRUNO: 0, CHLOE: -5, DIDIER: 5, EVA: 5}


def test_shared_tournament_points_are_written_as_decimal_strings():
    result = score_night_document(night_at_a_table_of_five())
    poule = [
        (line["player"], line["rank"], line["tied"], line["tournament_points"])
        for line in result["poules"][0]["standings"]
    ]
    # Game points: Bruno 4; Anne, Didier and Eva 1 each; Chloé −7. The three share 3 + 1 + 0.
    assert poule == [
        (BRUNO, 1, False, "5"),
        (ANNE, 2, True, "1.33"),
        (DIDIER, 2, True, "1.33"),
        (EVA, 2, True, "1.33"),
        (CHLOE, 5, False, "0"),
    ]
    night = [
        (line["player"], line["rank"], line["tournament_points"]) for line in result["standings"]
    ]
    assert night == [
        (BRUNO, 1, "5"),
        (ANNE, 2, "1.33"),
        (DIDIER, 2, "1.33"),
        (EVA, 2, "1.33"),
        (CHLOE, 5, "0"),
    ]
    assert result["warnings"] == [
        "round 1, table 1: 3 deals played, the club plays 15 at a table of 5"
    ]


# --------------------------------------------------------------------------------------------
# A bad document is refused whole


def document_with_many_problems():
    names = ["Anne", "Bruno", "Chloé", "Didier", "Frank", "Gina", "Hugo", "Iris", "Jules", "Karl"]
    solo = {"contract": "solo", "bid": 6, "declarers": ["Anne"], "tricks": 6}
    doc = example()
    doc["club"] = ""
    doc["date"] = "14/03/2024"
    doc["players"] = names
    doc["poules"] = [
        {
            "round": 1,
            "table": 1,
            "seats": ["Anne", "Bruno", "Chloé", "Didier"],
            "deals": [
                solo,
                {"contract": "solo", "bid": 6, "declarers": ["Anne"], "tricks": 14},
                {"contract": "emballage", "declarers": ["Anne", "Bruno"], "tricks": 8},
            ],
        },
        {"round": 1, "table": 2, "seats": ["Eva", "Frank", "Gina", "Hugo"], "deals": []},
        {"round": 1, "table": 3, "seats": ["Iris", "Jules", "Karl", "Anne"], "deals": []},
        {
            "round": 2,
            "table": 1,
            "seats": ["Anne", "Frank", "Iris", "Bruno"],
            "deals": [
                {"contract": "misere_royale", "declarers": ["Anne"], "tricks": 0},
                solo,
                {"contract": "pass", "dealer": "Zoé"},
            ],
        },
        {"round": 2, "table": 1, "seats": ["Chloé", "Didier", "Gina", "Hugo"], "deals": []},
    ]
    return doc


def test_a_bad_document_is_refused_listing_every_problem_in_place():
    problems = problems_of(document_with_many_problems())
    assert places(problems) == [
        "club",
        "date",
        "poules[0].deals[1].tricks",
        "poules[0].deals[2].bid",
        "poules[1].seats",
        "poules[2].seats",
        "poules[3].deals[0].contract",
        "poules[3].deals[2].dealer",
        "poules[4]",
    ]
    assert problems[2] == "poules[0].deals[1].tricks: 14 is outside 0..13"
    assert problems[3] == (
        'poules[0].deals[2].bid: contract "emballage" needs a bid: one of 8, 9, 10, 11, 12, 13'
    )
    assert problems[4] == 'poules[1].seats: "Eva" is not in players'
    assert problems[5] == 'poules[2].seats: "Anne" already sits at poules[0].seats in round 1'
    assert "misere_royale" in problems[6]
    assert problems[7] == 'poules[3].deals[2].dealer: "Zoé" is not at this table'
    assert problems[8] == "poules[4]: round 2 has two tables numbered 1"


def test_a_document_with_unknown_rules_is_refused_naming_them():
    doc = example()
    doc["rules"] = "rcwist"
    doc["tournament_points"] = "bogus"
    doc["players"] = [ANNE, BRUNO, CHLOE, DIDIER, ANNE]
    problems = problems_of(doc)
    assert places(problems) == ["rules", "tournament_points", "players[4]"]
    assert problems[0].startswith('rules: unknown preset "rcwist"; known: rcwhist')
    assert problems[1].startswith('tournament_points: unknown scheme "bogus"')
    assert problems[2] == f'players[4]: "{ANNE}" appears twice'


def test_an_inline_point_table_is_refused_at_its_row_and_value():
    doc = example()
    doc["rules"] = preset_data("rcwhist")
    doc["rules"]["rows"][3]["declarer"][5] = "x"
    assert problems_of(doc) == ['rules.rows[3].declarer[5]: expected an integer, got "x"']


def test_a_point_table_of_another_game_is_refused():
    doc = example()
    doc["game"] = "hearts"
    assert problems_of(doc) == ['rules: point table "rcwhist" is for belgian_whist, not hearts']


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        pytest.param(
            lambda doc: doc.__setitem__("format", "club-night/2"),
            'format: expected "club-night/1", got "club-night/2"',
            id="format",
        ),
        pytest.param(
            lambda doc: doc.__setitem__("game", "belote"),
            'game: unknown game "belote"; known: belgian_whist, whist, hearts, besigue',
            id="game",
        ),
        pytest.param(
            lambda doc: doc.__setitem__("poules", []),
            "poules: expected a non-empty list of poules",
            id="no poules",
        ),
        pytest.param(
            lambda doc: doc["poules"][0].__setitem__("round", 0),
            "poules[0].round: expected an integer ≥ 1, got 0",
            id="round 0",
        ),
        pytest.param(
            lambda doc: doc["poules"][0]["seats"].pop(),
            "poules[0].seats: belgian_whist is played by 4 to 5 players, not 3",
            id="a table of three",
        ),
        pytest.param(
            lambda doc: doc["poules"][0]["seats"].__setitem__(3, ANNE),
            f'poules[0].seats: "{ANNE}" sits twice at this table',
            id="a player seated twice",
        ),
        pytest.param(
            lambda doc: doc["poules"][0].__setitem__("deals", None),
            "poules[0].deals: expected a list of deals",
            id="no deals",
        ),
    ],
)
def test_a_document_problem_is_named_by_its_place(change, expected):
    doc = example()
    change(doc)
    assert problems_of(doc) == [expected]


def test_a_player_at_two_tables_in_one_round_is_refused():
    doc = night_at_a_table_of_five()
    doc["players"].append("Zoé")
    doc["poules"].append(
        {
            "round": 1,
            "table": 2,
            "seats": ["Zoé", EVA, ANNE, BRUNO],
            "deals": [{"contract": "pass"}],
        }
    )
    assert problems_of(doc) == [
        f'poules[1].seats: "{EVA}" already sits at poules[0].seats in round 1',
        f'poules[1].seats: "{ANNE}" already sits at poules[0].seats in round 1',
        f'poules[1].seats: "{BRUNO}" already sits at poules[0].seats in round 1',
    ]


def test_the_same_player_may_play_one_table_in_each_round():
    doc = example()
    second_round = copy.deepcopy(doc["poules"][0])
    second_round["round"] = 2
    doc["poules"].append(second_round)
    standings = score_night_document(doc)["standings"]
    assert [(line["player"], line["tournament_points"]) for line in standings][:2] == [
        (CHLOE, "10"),
        (DIDIER, "6"),
    ]
    assert standings[0]["poules_played"] == 2
    assert standings[0]["poules_won"] == 2


def test_the_mort_declaring_in_a_document_is_refused_at_the_deal():
    doc = night_at_a_table_of_five()
    doc["poules"][0]["deals"][1]["declarers"] = [BRUNO, EVA]
    (problem,) = problems_of(doc)
    assert problem.startswith("poules[0].deals[1].declarers: ")
    assert "mort" in problem


def test_every_deal_where_the_mort_declares_is_listed():
    doc = night_at_a_table_of_five()
    deals = doc["poules"][0]["deals"]
    deals[1]["declarers"] = [BRUNO, EVA]  # Bruno deals the second deal
    deals[2]["declarers"] = [CHLOE]  # Chloé deals the third deal
    assert places(problems_of(doc)) == [
        "poules[0].deals[1].declarers",
        "poules[0].deals[2].declarers",
    ]


def test_the_mort_declaring_is_listed_with_the_other_problems_of_the_poule():
    doc = night_at_a_table_of_five()
    deals = doc["poules"][0]["deals"]
    deals[1]["declarers"] = [BRUNO, EVA]
    deals[2]["tricks"] = 14
    assert places(problems_of(doc)) == [
        "poules[0].deals[1].declarers",
        "poules[0].deals[2].tricks",
    ]


def test_a_declarer_that_is_not_a_name_is_refused_in_place():
    doc = example()
    doc["poules"][0]["deals"][3]["declarers"] = [[DIDIER], ANNE]
    problems = problems_of(doc)
    assert places(problems)[0] == "poules[0].deals[3].declarers"


# --------------------------------------------------------------------------------------------
# Several nights: the season ranking


def test_nights_are_ranked_into_a_season():
    standings = rank_nights([example(), night_at_a_table_of_five()])
    assert [(s.player, s.rank) for s in standings] == [
        (CHLOE, 1),
        (BRUNO, 2),
        (DIDIER, 3),
        (EVA, 4),
        (ANNE, 5),
    ]


def test_a_refused_night_refuses_the_ranking_naming_the_night():
    bad = example()
    bad["poules"][0]["deals"][1]["tricks"] = 14
    with pytest.raises(DocumentRefused) as refused:
        rank_nights([example(), bad], RankingRules())
    assert refused.value.problems == ("nights[1].poules[0].deals[1].tricks: 14 is outside 0..13",)


# --------------------------------------------------------------------------------------------
# The command line


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "scoring.engine", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


def write(path, doc):
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def test_the_command_line_scores_a_night_to_stdout(tmp_path):
    done = run_cli("score", write(tmp_path / "night.json", example()))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert json.loads(done.stdout) == score_night_document(example())


def test_the_command_line_refuses_a_bad_night_with_located_problems(tmp_path):
    done = run_cli("score", write(tmp_path / "night.json", document_with_many_problems()))
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines == problems_of(document_with_many_problems())
    assert "poules[0].deals[1].tricks: 14 is outside 0..13" in lines


def test_the_command_line_refuses_a_file_that_is_not_json(tmp_path):
    path = tmp_path / "night.json"
    path.write_text("{not json", encoding="utf-8")
    done = run_cli("score", path)
    assert done.returncode == 1
    assert done.stderr.startswith(f"{path}: not JSON (line 1, column 2")


def test_the_command_line_ranks_a_season(tmp_path):
    first = write(tmp_path / "first.json", example())
    second = write(tmp_path / "second.json", night_at_a_table_of_five())
    done = run_cli("rank", first, second, "--best-n", 1, "--min-tournaments", 2)
    assert done.returncode == 0, done.stderr
    ranking = json.loads(done.stdout)
    assert ranking["format"] == "season-ranking/1"
    # Best night only: Chloé 5 (+20), Bruno 5 (+4), Didier 3, Anne 1.33; Eva played once.
    assert [
        (line["player"], line["rank"], line["tournament_points"], line["tournaments_played"])
        for line in ranking["standings"]
    ] == [
        (CHLOE, 1, "5", 2),
        (BRUNO, 2, "5", 2),
        (DIDIER, 3, "3", 2),
        (ANNE, 4, "1.33", 2),
        (EVA, None, "1.33", 1),
    ]


def test_the_command_line_refuses_a_season_with_a_bad_night(tmp_path):
    bad = example()
    bad["poules"][0]["deals"][1]["tricks"] = 14
    done = run_cli(
        "rank", write(tmp_path / "good.json", example()), write(tmp_path / "bad.json", bad)
    )
    assert done.returncode == 1
    assert done.stderr.splitlines() == ["nights[1].poules[0].deals[1].tricks: 14 is outside 0..13"]


def test_the_command_line_refuses_bad_ranking_rules(tmp_path):
    done = run_cli("rank", write(tmp_path / "night.json", example()), "--best-n", 0)
    assert done.returncode == 1
    assert done.stderr.startswith("best_n: ")
