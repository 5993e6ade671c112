import datetime

from django.utils import formats, translation

from infra.dates import date_written, day_written, ordinal_format

FIRST = datetime.date(2026, 4, 1)
SECOND = datetime.date(2026, 4, 2)


def test_the_first_of_the_month_is_an_ordinal_in_french():
    with translation.override("fr"):
        assert date_written(FIRST, "j F Y") == "1er avril 2026"
        assert date_written(FIRST, "l j F") == "mercredi 1er avril"
        assert date_written(FIRST) == "1er avril 2026"
        assert day_written(FIRST) == "1er"


def test_the_other_days_and_languages_keep_their_number():
    with translation.override("fr"):
        assert date_written(SECOND, "j F Y") == "2 avril 2026"
        assert date_written(FIRST, "d/m/Y") == "01/04/2026"
    with translation.override("nl"):
        assert date_written(FIRST, "j F Y") == "1 april 2026"
    with translation.override("en"):
        assert day_written(FIRST) == "1"


def test_an_escaped_j_stays_a_letter():
    with translation.override("fr"):
        assert ordinal_format(FIRST, r"\j j") == r"\j j\e\r"


def test_a_date_in_figures_is_written_as_djangos_formatter_writes_it():
    days = [datetime.date(2025, 1, 1) + datetime.timedelta(days=n) for n in range(0, 400, 3)]
    for language in ("fr", "en", "nl"):
        with translation.override(language):
            for day in [*days, datetime.date(987, 6, 5)]:
                for format in (
                    "d/m/Y",
                    "d/m",
                    "j-n-Y",
                    "{m}",
                    "50% d",
                    "Y",
                    "--",
                    "SHORT_DATE_FORMAT",
                ):
                    written = formats.date_format(day, ordinal_format(day, format))
                    assert date_written(day, format) == written
