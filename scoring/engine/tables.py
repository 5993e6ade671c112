"""Point tables: the presets shipped as JSON in ``scoring/tables/`` and clubs' own tables.

A table is data; the engine only reads it. ``load_table`` validates any table (a preset or one a
club brings) and hands it to its game's loader, whose errors name the row and the value.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from .errors import EngineError
from .games import GAME_CODES, game_module
from .parsing import shown, table_error

TABLES_DIR = Path(__file__).resolve().parent.parent / "tables"
FORMAT = "point-table/1"

# Every preset of scoring-rules.md, by game; the first of each game is its default.
PRESETS: dict[str, tuple[str, ...]] = {
    "belgian_whist": ("rcwhist", "whisthub", "iwwa"),
    "whist": ("whist7", "simple10", "robre10", "robre5"),
    "hearts": ("coeurs", "coeurs13"),
    "besigue": (
        "besigue",
        "sans_retourne",
        "a_trois",
        "a_quatre",
        "chinois",
        "huit_paquets",
        "rubicon",
    ),
}
PRESET_GAME = {name: game for game, names in PRESETS.items() for name in names}


def load_table(data: Any, place: str = "") -> Any:
    """Validate a point table of any game and return the game's frozen table."""
    if not isinstance(data, Mapping):
        raise table_error(place, "a point table must be a JSON object")
    if data.get("format") != FORMAT:
        raise table_error(
            f"{place}.format" if place else "format",
            f'expected "{FORMAT}", got {shown(data.get("format"))}',
        )
    game = data.get("game")
    if game not in GAME_CODES:
        raise table_error(
            f"{place}.game" if place else "game",
            f"unknown game {shown(game)}; known: {', '.join(GAME_CODES)}",
        )
    return game_module(game).load_table(data, place)


def preset_data(name: str) -> dict[str, Any]:
    """The JSON data of a preset (a fresh copy: callers may store or edit it)."""
    if name not in PRESET_GAME:
        raise EngineError(
            "rules",
            f'unknown preset "{name}"; known: {", ".join(PRESET_GAME)}',
            "preset_unknown",
            {"got": name},
        )
    with (TABLES_DIR / f"{name}.json").open(encoding="utf-8") as handle:
        return json.load(handle)


@cache
def preset(name: str) -> Any:
    """A preset, loaded and validated once per process (tables are immutable)."""
    return load_table(preset_data(name), name)
