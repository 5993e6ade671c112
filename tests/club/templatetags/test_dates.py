import datetime

from django.template import Context, Template
from django.template.loader import render_to_string
from django.utils import translation


def test_every_template_writes_the_first_of_the_month_as_an_ordinal():
    template = Template('{{ night|date:"l j F" }} · {{ other|date:"j F" }} · {{ night|date }}')
    context = Context({"night": datetime.date(2026, 4, 1), "other": datetime.date(2026, 4, 9)})
    with translation.override("fr"):
        assert template.render(context) == "mercredi 1er avril · 9 avril · 1er avril 2026"
    with translation.override("nl"):
        assert template.render(context).startswith("woensdag 1 april")


def test_a_missing_date_writes_nothing():
    assert Template('{{ nothing|date:"j F" }}').render(Context({"nothing": None})) == ""


class _Tables:
    def __init__(self, fours: int, fives: int) -> None:
        self.count, self.fours, self.fives, self.refusal = fours + fives, fours, fives, ""


def _tables(fours: int, fives: int, language: str = "fr") -> str:
    with translation.override(language):
        entry = {"tables": _Tables(fours, fives)}
        return render_to_string("games/calendar/_tables.html", {"entry": entry}).strip()


def test_the_calendar_names_only_the_table_sizes_there_are():
    assert _tables(0, 2) == "2 tables de 5"
    assert _tables(1, 0) == "1 table de 4"
    assert _tables(2, 1) == "2 tables de 4, 1 table de 5"
    assert _tables(0, 1, "en") == "1 table of 5"
