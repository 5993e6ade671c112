import datetime
from fractions import Fraction

from scoring.fields import POINT_UNITS
from scoring.statistics.chart import chart_points, stored_nights

DAY = datetime.date(2024, 1, 10)
NIGHTS = [(1, DAY, "Un"), (2, DAY + datetime.timedelta(days=7), "Deux")]


def test_the_stored_figures_go_with_the_very_nights_published_in_their_order():
    stored = [[1, 8 * POINT_UNITS, 4], [2, 5 * POINT_UNITS, 1]]

    assert stored_nights(stored, NIGHTS) == [
        (1, DAY, "Un", 8 * POINT_UNITS, 4),
        (2, NIGHTS[1][1], "Deux", 5 * POINT_UNITS, 1),
    ]


def test_figures_of_other_nights_or_of_another_order_are_not_used():
    assert stored_nights(None, NIGHTS) is None
    assert stored_nights([[1, 8, 4]], NIGHTS) is None
    assert stored_nights([[2, 5, 1], [1, 8, 4]], NIGHTS) is None


def test_the_chart_adds_up_my_points_and_the_club_average_night_after_night():
    nights = [
        (1, DAY, "Un", 8 * POINT_UNITS, 4),
        (3, DAY, "Sans classement", None, 0),
        (2, NIGHTS[1][1], "Deux", 5 * POINT_UNITS, 1),
    ]

    chart = chart_points(nights, {1: 5 * POINT_UNITS})

    assert [(p.played, p.mine, p.average) for p in chart] == [
        (True, Fraction(5), Fraction(8, 4)),
        (False, Fraction(5), Fraction(13, 5)),
    ]
