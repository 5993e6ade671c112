"""A season's nights added up once, and seasons added up into a history: the same figures as
counting the nights one after the other, streaks across seasons included."""

from __future__ import annotations

import datetime
import json
import random

import orjson

from scoring.statistics.nights import ROLES
from scoring.statistics.seasons import season_summary, seasons_added


def night_line(rng: random.Random) -> dict:
    partner = str(rng.randint(1, 4))
    return {
        "deals": rng.randint(10, 14),
        "mort": rng.randint(0, 3),
        "roles": {role: [rng.randint(0, 5), rng.randint(-40, 40)] for role in ROLES},
        "contracts": {"solo": [1, rng.randint(0, 1)]},
        "sides": {"solo": [1, 1]},
        "partners": {partner: [1, 1, rng.randint(-9, 9)]},
        "opponents": {"7": [12, rng.randint(0, 50), rng.randint(0, 50)]},
        "game_points": rng.choice([-20, 0, 5, 30, 30]),
        "rank": rng.randint(1, 4),
        "best_deal": rng.randint(0, 40),
        "made": rng.randint(0, 3),
    }


def nights_of(rng: random.Random, count: int, first: int) -> list[tuple]:
    start = datetime.date(2025, 1, 6)
    return [
        (first + n, start + datetime.timedelta(days=7 * n), f"soirée {n}", night_line(rng))
        for n in range(count)
    ]


def counted_one_by_one(nights: list[tuple]) -> tuple[int, int, list | None]:
    """Longest and current streaks and the best night, as the page once counted them."""
    longest = streak = 0
    best = None
    for tournament, date, name, data in nights:
        if best is None or data["game_points"] > best[3]:
            best = [tournament, date.isoformat(), name, data["game_points"], data["rank"]]
        streak = streak + 1 if data["game_points"] > 0 else 0
        longest = max(longest, streak)
    return longest, streak, best


def test_seasons_added_count_as_the_nights_one_after_the_other():
    rng = random.Random(3)
    for _ in range(200):
        seasons = [nights_of(rng, rng.randint(1, 6), 100 * k) for k in range(rng.randint(1, 4))]
        every = [night for season in seasons for night in season]
        total = seasons_added([season_summary(season) for season in seasons])
        longest, current, best = counted_one_by_one(every)
        assert total["streak"] == [longest, current]
        assert total["best_night"] == best
        assert total["nights"] == len(every)
        assert total["deals"] == sum(data["deals"] for *_, data in every)
        assert total["roles"]["declarer"] == [
            sum(data["roles"]["declarer"][k] for *_, data in every) for k in (0, 1)
        ]


def test_a_season_keeps_its_records_and_its_streaks_from_its_start_and_its_end():
    rng = random.Random(5)
    nights = nights_of(rng, 5, 1)
    for night, points in zip(nights, [5, 30, -20, 5, 5], strict=True):
        night[3]["game_points"] = points
    summary = season_summary(nights)
    assert summary["streak"] == [2, 2, 2]
    assert summary["best_night"][0] == 2  # the first night with 30
    assert summary["best_deal"] == max(data["best_deal"] for *_, data in nights)
    assert summary["most_made"] == max(data["made"] for *_, data in nights)
    assert summary["sides"] == {"solo": [5, 5]}


def test_his_own_summary_lists_each_night_as_his_results_page_shows_it():
    nights = [
        (
            3,
            datetime.date(2025, 1, 6),
            "a",
            {
                **night_line(random.Random(1)),
                **{"tied": True, "units": 2100, "poules": [1, 3], "tournament_points": "5"},
            },
        ),
        (
            4,
            datetime.date(2025, 1, 13),
            "b",
            {
                **night_line(random.Random(2)),
                **{"tied": False, "units": 140, "poules": [0, 3], "tournament_points": "1/3"},
            },
        ),
    ]

    listed = season_summary(nights, listed=True)["listed"]

    assert listed == [
        [3, nights[0][3]["rank"], True, 2100, nights[0][3]["game_points"], 1, 3, "5"],
        [4, nights[1][3]["rank"], False, 140, nights[1][3]["game_points"], 0, 3, "1/3"],
    ]
    assert "listed" not in season_summary(nights)
    # A line stored before it held his poules: no list, his page reads his standings.
    del nights[1][3]["poules"]
    assert season_summary(nights, listed=True)["listed"] is None


def same_json(read: object, expected: object) -> None:
    """The same value of the same type throughout (``==`` alone takes 1 for 1.0 and True)."""
    assert type(read) is type(expected), (read, expected)
    if isinstance(expected, dict):
        assert list(read) == list(expected)
        for key, value in expected.items():
            same_json(read[key], value)
    elif isinstance(expected, list):
        assert len(read) == len(expected)
        for item, value in zip(read, expected, strict=True):
            same_json(item, value)
    else:
        assert read == expected


def test_a_stored_summary_reads_back_by_orjson_as_by_json():
    """Mes résultats and the statistics decode the stored summaries by orjson: the values json
    reads, of the same types (texts, whole numbers, floats, booleans, None, lists, objects)."""
    rng = random.Random(5)
    for n in range(100):
        nights = [
            (
                tournament,
                date,
                name + ' « l\'été » \\ "été" ☘',
                {
                    **data,
                    "tied": rng.random() < 0.2,
                    "units": rng.randint(-3000, 3000),
                    "poules": [rng.randint(0, 3), 3],
                    "tournament_points": rng.choice(["5", "1/3", "-2/7", "0"]),
                },
            )
            for tournament, date, name, data in nights_of(rng, rng.randint(1, 8), 100 * n)
        ]
        # As COTE_KEPT: the cote, its change, the night, its date.
        cote = [rng.uniform(0, 50), rng.uniform(-5, 5), nights[-1][0], nights[-1][1].isoformat()]
        summary = season_summary(nights, listed=True, cote=cote)
        # As the ORM stores it (Django's JSONField writes with json.dumps).
        text = json.dumps(summary)
        read = orjson.loads(text)
        same_json(read, json.loads(text))
        assert read == summary
