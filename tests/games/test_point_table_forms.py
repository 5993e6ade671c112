"""The point table page's POST read by a Django form (games/point_table_forms.py): a value not
sent keeps the table's, each wrong number is said where it was typed (one per cell, its
declarer's first), the formula's after the grid's; another game's values alike."""

import pytest
from django.core.exceptions import ValidationError

from games.point_table_forms import PointTableForm
from games.services import point_table_for_preset

pytestmark = pytest.mark.django_db


def refusals(form: PointTableForm) -> list[str]:
    with pytest.raises(ValidationError) as refused:
        form.table_data()
    return refused.value.messages


def test_a_cell_typed_changes_and_a_cell_not_sent_keeps_its_value():
    table = point_table_for_preset("rcwhist")
    data = PointTableForm({"d-0-9": " +6 ", "f-0-9": "−6"}, current=table).table_data()
    assert (data["rows"][0]["declarer"][9], data["rows"][0]["defender"][9]) == (6, -6)
    half = PointTableForm({"d-0-10": "7"}, current=table).table_data()
    assert half["rows"][0]["declarer"][10] == 7
    assert half["rows"][0]["defender"][10] == table.data["rows"][0]["defender"][10]
    assert half["rows"][1] == table.data["rows"][1]


def test_each_wrong_cell_is_said_once_where_it_was_typed():
    table = point_table_for_preset("rcwhist")
    form = PointTableForm({"d-0-9": "x", "f-0-9": "y", "f-1-5": "", "formula": "1"}, current=table)
    problems = refusals(form)
    assert len(problems) == 2  # the grid's first: the formula waits for a sound grid
    assert problems[0].endswith("9 plis : « x » n'est pas un nombre entier.")
    assert problems[1].endswith("5 plis : «  » n'est pas un nombre entier.")


def test_the_formula_says_its_first_missing_number():
    table = point_table_for_preset("rcwhist")
    form = PointTableForm({"formula": "1", "formula_row": "0", "made": "4"}, current=table)
    assert refusals(form) == ["par pli en plus : «  » n'est pas un nombre entier."]


def test_another_games_values_and_the_version_opened():
    table = point_table_for_preset("coeurs")
    form = PointTableForm({"v-queen_of_spades": "13", "table": "1", "checksum": "c"}, current=table)
    assert form.table_data()["queen_of_spades"] == 13
    assert form.opened_on() == ("1", "c")
    assert PointTableForm(current=table).opened_on() == (str(table.pk), table.checksum)
    assert refusals(PointTableForm({"v-queen_of_spades": "treize"}, current=table)) == [
        "queen_of_spades : « treize » n'est pas un nombre entier."
    ]
