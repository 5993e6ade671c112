"""A player's season added up once from his nights' lines (``nights.night_statistics``), and
his seasons added up into his whole history: the summary stored as ``PlayerSeasonStats``
(written by ``scoring.services.season_stats``), read by his statistics page, the club's season
statistics and « Mes résultats » a row a season instead of a row a night.

A streak (nights in a row with more than zero game points) crosses seasons: a season keeps
its streak from its first night, its longest and the one it ends with, and ``seasons_added``
joins them in the seasons' order, as counting the nights one after the other would."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import Any

from .nights import ROLES


def _added(total: dict[str, list[int]], lines: Mapping[str, list[int]]) -> None:
    for key, values in lines.items():
        line = total.setdefault(key, [0] * len(values))
        for k, value in enumerate(values):
            line[k] += value


# A night of his season as « Mes résultats » lists it (``season_summary``'s ``listed``): the
# night, his rank and whether tied, his tournament points in whole units (``POINT_UNITS``,
# for the chart), his game points, his poules won and played, his tournament points exactly
# (a fraction's text, for the table).
NIGHT_LISTED = (
    "tournament",
    "rank",
    "tied",
    "units",
    "game_points",
    "poules",
    "tournament_points",
)


# His cote as his own summary keeps it (``season_summary``'s ``cote``): after his latest rated
# night of the season, the cote, its change at that night, the night and its date (ISO).
COTE_KEPT = ("mu", "change", "tournament", "date")


def season_summary(
    nights: Iterable[tuple[int, datetime.date, str, Mapping[str, Any]]],
    *,
    listed: bool = False,
    cote: list[Any] | None = None,
) -> dict:
    """A season's nights of one player (tournament id, date, name, his stored line), in the
    order they were played, added up into one line. ``listed``: with each night's figures as
    « Mes résultats » lists them (``NIGHT_LISTED``; None while a line predates them), so that
    the page's first view reads one row instead of his standings (his own summary: the
    public's, which a club's season statistics read by the dozen, goes without); and his
    ``cote`` after his latest rated night of the season (``COTE_KEPT``; None: none rated),
    which the page gives instead of asking for his latest rating."""
    summary: dict[str, Any] = {
        "nights": 0,
        "deals": 0,
        "mort": 0,
        "roles": {role: [0, 0] for role in ROLES},
        "contracts": {},
        "sides": {},
        "partners": {},
        "opponents": {},
        "best_night": None,
        "best_deal": None,
        "most_made": None,
        # Nights in a row above zero: from the season's first night, the longest, at its end.
        "streak": [0, 0, 0],
    }
    leading, longest, streak = 0, 0, 0
    lines: list[list[Any]] | None = []
    for tournament_id, date, name, data in nights:
        summary["nights"] += 1
        if lines is not None and "poules" in data:
            won, played = data["poules"]
            figures = (data[key] for key in NIGHT_LISTED[1:5])
            lines.append([tournament_id, *figures, won, played, data["tournament_points"]])
        else:
            # A line stored before it held his poules: the page reads his standings instead.
            lines = None
        summary["deals"] += data["deals"]
        summary["mort"] += data["mort"]
        _added(summary["roles"], data["roles"])
        for key in ("contracts", "sides", "partners", "opponents"):
            _added(summary[key], data[key])
        best = summary["best_night"]
        if best is None or data["game_points"] > best[3]:
            summary["best_night"] = [
                tournament_id,
                date.isoformat(),
                name,
                data["game_points"],
                data["rank"],
            ]
        for key, value in (("best_deal", data["best_deal"]), ("most_made", data["made"])):
            if value is not None and (summary[key] is None or value > summary[key]):
                summary[key] = value
        streak = streak + 1 if data["game_points"] > 0 else 0
        if streak == summary["nights"]:
            leading = streak
        longest = max(longest, streak)
    summary["streak"] = [leading, longest, streak]
    if listed:
        summary["listed"] = lines
        summary["cote"] = cote
    return summary


def seasons_added(seasons: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """A player's seasons (``season_summary``'s lines, in the seasons' order) added up; the
    streaks joined across seasons: ``streak`` is then [longest, current]."""
    total: dict[str, Any] = {
        "nights": 0,
        "deals": 0,
        "mort": 0,
        "roles": {role: [0, 0] for role in ROLES},
        "contracts": {},
        "partners": {},
        "opponents": {},
        "best_night": None,
    }
    longest, streak = 0, 0
    for season in seasons:
        total["nights"] += season["nights"]
        total["deals"] += season["deals"]
        total["mort"] += season["mort"]
        for key in ("roles", "contracts", "partners", "opponents"):
            _added(total[key], season[key])
        best = season["best_night"]
        if best is not None and (total["best_night"] is None or best[3] > total["best_night"][3]):
            total["best_night"] = best
        leading, season_longest, ending = season["streak"]
        if leading == season["nights"]:
            streak += leading  # every night of the season above zero: the streak goes on
        else:
            longest = max(longest, streak + leading)
            streak = ending
        longest = max(longest, season_longest, streak)
    total["streak"] = [longest, streak]
    return total
