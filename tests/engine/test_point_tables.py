"""Point tables: the presets load, and a bad table is refused at its row and value (§1.2)."""

import importlib.util
from pathlib import Path

import pytest

from scoring.engine.errors import EngineError
from scoring.engine.games.belgian_whist import Deal, score_deal
from scoring.engine.tables import PRESET_GAME, PRESETS, load_table, preset, preset_data

BELGIAN_WHIST_ROWS = {
    "rcwhist": {
        *(("emballage", b) for b in range(8, 14)),
        *(("solo", b) for b in (6, 7, 8)),
        ("petite_misere", None),
        ("solo_sur_misere", 8),
        ("abondance", 9),
        ("trou", 8),
        ("trou", 9),
        ("grande_misere", None),
        ("grande_misere_table", None),
        ("petit_chelem", 11),
        ("chelem", 13),
    },
    "whisthub": {
        *(("emballage", b) for b in range(8, 14)),
        *(("solo", b) for b in (5, 6, 7, 8)),
        *(("abondance", b) for b in (9, 10, 11, 12)),
        ("petite_misere", None),
        ("piccolo", None),
        ("grande_misere", None),
        ("grande_misere_table", None),
        ("trou", 8),
        ("trou", 9),
        ("chelem", 13),
    },
    "iwwa": {
        ("emballage", 8),
        ("solo", 5),
        ("trou", 8),
        ("trou", 9),
        *(("abondance", b) for b in (9, 10, 11, 12)),
        ("grande_misere", None),
        ("grande_misere_table", None),
        ("chelem", 13),
    },
}


@pytest.mark.parametrize("name", sorted(PRESET_GAME))
def test_every_preset_loads(name):
    table = preset(name)
    assert table.name == name
    assert table.game == PRESET_GAME[name]


@pytest.mark.parametrize("name", PRESETS["belgian_whist"])
def test_belgian_whist_presets_have_the_rows_of_the_rules(name):
    table = preset(name)
    assert set(table.rows) == BELGIAN_WHIST_ROWS[name]
    assert table.zero_sum is True
    for row in table.rows.values():
        assert len(row.declarer) == len(row.defender) == 14


def test_the_default_belgian_whist_preset_is_rcwhist():
    assert PRESETS["belgian_whist"][0] == "rcwhist"


def test_a_preset_is_loaded_once_and_its_data_is_a_fresh_copy():
    assert preset("rcwhist") is preset("rcwhist")
    data = preset_data("rcwhist")
    data["rows"].clear()
    assert preset_data("rcwhist")["rows"]


def test_an_unknown_preset_is_refused_naming_the_rules():
    with pytest.raises(EngineError) as raised:
        preset_data("rcwist")
    assert str(raised.value).startswith('rules: unknown preset "rcwist"; known: rcwhist')


def test_a_club_table_copied_from_a_preset_scores_with_its_own_values():
    data = preset_data("rcwhist")
    data["name"] = "our club"
    solo6 = next(r for r in data["rows"] if r["contract"] == "solo" and r["bid"] == 6)
    solo6["declarer"][6] = 9
    solo6["defender"][6] = -3
    table = load_table(data)
    assert table.name == "our club"
    assert score_deal(table, Deal("solo", 6, (0,), 6)) == (9, -3, -3, -3)
    assert score_deal(preset("rcwhist"), Deal("solo", 6, (0,), 6)) == (6, -2, -2, -2)


def test_a_contract_with_a_single_row_needs_no_bid():
    # IWWA has one emballage row (8) and one solo row (5): the scorer need not write the bid.
    assert score_deal(preset("iwwa"), Deal("emballage", None, (0, 2), 8)) == (2, -2, 2, -2)
    assert score_deal(preset("iwwa"), Deal("solo", None, (1,), 5)) == (-2, 6, -2, -2)


def build_belgian_whist():
    """scoring/tables/build_belgian_whist.py, the script that writes the Belgian whist grids
    from the formulas of scoring-rules.md §1.3–1.5 (a script, not a package module)."""
    path = Path(__file__).resolve().parents[2] / "scoring" / "tables" / "build_belgian_whist.py"
    spec = importlib.util.spec_from_file_location("build_belgian_whist", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", PRESETS["belgian_whist"])
def test_the_shipped_belgian_whist_grids_are_what_their_formulas_write(name):
    assert preset_data(name)["rows"] == getattr(build_belgian_whist(), name)()["rows"]


def test_the_iwwa_troela_made_with_all_13_tricks_doubles_its_own_formula():
    """§1.5: troela (trou 9) at 13 tricks is 2·(4 + 2·(13 − 9)) = 24, troel (trou 8) 28."""
    trou = {row["bid"]: row for row in preset_data("iwwa")["rows"] if row["contract"] == "trou"}
    assert (trou[9]["declarer"][13], trou[9]["defender"][13]) == (24, -24)
    assert (trou[8]["declarer"][13], trou[8]["defender"][13]) == (28, -28)


# --------------------------------------------------------------------------------------------
# Bad tables


def rcwhist_with(change):
    data = preset_data("rcwhist")
    change(data)
    return data


def set_value(row, key, index, value):
    def change(data):
        data["rows"][row][key][index] = value

    return change


def set_field(row, key, value):
    def change(data):
        data["rows"][row][key] = value

    return change


def refusal(data, place=""):
    with pytest.raises(EngineError) as raised:
        load_table(data, place) if place else load_table(data)
    return str(raised.value)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        pytest.param(
            set_value(3, "declarer", 5, "x"),
            'rows[3].declarer[5]: expected an integer, got "x"',
            id="text in the grid",
        ),
        pytest.param(
            set_value(3, "declarer", 5, 2.5),
            "rows[3].declarer[5]: expected an integer, got 2.5",
            id="a float in the grid",
        ),
        pytest.param(
            set_value(7, "defender", 0, True),
            "rows[7].defender[0]: expected an integer, got true",
            id="a boolean in the grid",
        ),
        pytest.param(
            lambda data: data["rows"][2]["defender"].pop(),
            "rows[2].defender: expected a list of 14 integers (tricks 0 … 13), got 13 values",
            id="a grid one value short",
        ),
        pytest.param(
            lambda data: data["rows"][2]["declarer"].append(0),
            "rows[2].declarer: expected a list of 14 integers (tricks 0 … 13), got 15 values",
            id="a grid one value long",
        ),
        pytest.param(
            set_field(0, "declarer", "4, 5, 6"),
            "rows[0].declarer: expected a list of 14 integers (tricks 0 … 13), got str",
            id="a grid that is not a list",
        ),
        pytest.param(
            lambda data: data["rows"][1].pop("defender"),
            "rows[1].defender: expected a list of 14 integers (tricks 0 … 13), got NoneType",
            id="a missing grid",
        ),
        pytest.param(
            set_value(6, "defender", 7, -4),
            "rows[6].defender[7]: the table is zero-sum but 1 × 9 + 3 × -4 = -3 at 7 tricks",
            id="zero-sum violated in a solo row",
        ),
        pytest.param(
            set_value(0, "declarer", 8, 5),
            "rows[0].defender[8]: the table is zero-sum but 2 × 5 + 2 × -4 = 2 at 8 tricks",
            id="zero-sum violated in a pair row",
        ),
        pytest.param(
            set_field(5, "side", "trio"),
            'rows[5].side: expected one of pair, solo, each, got "trio"',
            id="unknown side",
        ),
        pytest.param(
            set_field(6, "bid", 14),
            "rows[6].bid: expected null or an integer 1 … 13, got 14",
            id="bid out of range",
        ),
        pytest.param(
            set_field(6, "needed", 14),
            "rows[6].needed: expected 0 … 13, got 14",
            id="needed out of range",
        ),
        pytest.param(
            set_field(6, "needed", "6"),
            'rows[6].needed: expected int, got "6"',
            id="needed as text",
        ),
        pytest.param(
            set_field(9, "deal_tricks", 11),
            "rows[9].deal_tricks: expected 12 or 13, got 11",
            id="a deal of 11 tricks",
        ),
        pytest.param(
            lambda data: data["rows"][4].pop("contract"),
            "rows[4].contract: is missing",
            id="a row without a contract",
        ),
        pytest.param(
            lambda data: data["rows"].__setitem__(2, ["emballage"]),
            "rows[2]: expected an object",
            id="a row that is not an object",
        ),
        pytest.param(
            lambda data: data.pop("name"),
            "name: is missing",
            id="a table without a name",
        ),
        pytest.param(
            lambda data: data["rows"].clear(),
            "rows: a point table needs at least one row",
            id="a table without rows",
        ),
        pytest.param(
            lambda data: data.__setitem__("zero_sum", "yes"),
            'zero_sum: expected bool, got "yes"',
            id="zero_sum as text",
        ),
    ],
)
def test_a_bad_table_is_refused_naming_the_row_and_the_value(change, expected):
    assert refusal(rcwhist_with(change)) == expected


def test_an_unknown_contract_code_is_refused_naming_the_row():
    text = refusal(rcwhist_with(set_field(4, "contract", "misere_royale")))
    assert text.startswith('rows[4].contract: unknown contract "misere_royale"; known: emballage')


def test_a_duplicate_row_is_refused_naming_the_second_one():
    def duplicate(data):
        data["rows"].append(dict(data["rows"][6]))

    data = rcwhist_with(duplicate)
    last = len(data["rows"]) - 1
    assert refusal(data) == f"rows[{last}]: solo 6 appears twice"


def test_a_table_that_is_not_zero_sum_may_have_any_values():
    def change(data):
        data["zero_sum"] = False
        data["rows"][6]["defender"][7] = -4

    table = load_table(rcwhist_with(change))
    assert score_deal(table, Deal("solo", 6, (0,), 7)) == (9, -4, -4, -4)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        pytest.param(
            lambda data: data.__setitem__("format", "point-table/2"),
            'format: expected "point-table/1", got "point-table/2"',
            id="a later format",
        ),
        pytest.param(
            lambda data: data.pop("format"),
            'format: expected "point-table/1", got null',
            id="no format",
        ),
        pytest.param(
            lambda data: data.__setitem__("game", "poker"),
            'game: unknown game "poker"; known: belgian_whist, whist, hearts, besigue',
            id="an unknown game",
        ),
    ],
)
def test_a_table_of_the_wrong_format_or_game_is_refused(change, expected):
    assert refusal(rcwhist_with(change)) == expected


def test_a_table_that_is_not_an_object_is_refused():
    assert refusal(["rows"]) == "a point table must be a JSON object"


def test_an_inline_table_is_refused_at_its_place_in_the_document():
    data = rcwhist_with(set_value(3, "declarer", 5, "x"))
    assert refusal(data, "rules") == 'rules.rows[3].declarer[5]: expected an integer, got "x"'
    data = rcwhist_with(lambda data: data.__setitem__("game", "poker"))
    assert refusal(data, "rules").startswith('rules.game: unknown game "poker"')
