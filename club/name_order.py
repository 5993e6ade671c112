"""The one order of every list of players: their names as a French reader sorts them
(``Player.sort_key``: « Éloïse » before « Raphaël », « Van den Broeck » under V), or past the
opening particles for a club that asked (``Club.sort_ignores_particles``: under B).

The key is compared character by character (the database's binary collation, named here for
each engine): PostgreSQL's language collations pass over spaces, so « Van den Broeck » and
« Vandamme » would change places between SQLite and PostgreSQL; with the key already folded,
binary order is the reader's order, the same on both.
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.models import F, OrderBy
from django.db.models.functions import Collate

from .models import sort_key

# Each engine's name for comparing text code point by code point.
BINARY = {"postgresql": "C", "sqlite": "BINARY", "mysql": "utf8mb4_bin"}


def key_field(club: Any = None) -> str:
    """The player's field a list of ``club`` is sorted by."""
    return "sort_key_bare" if getattr(club, "sort_ignores_particles", False) else "sort_key"


def by_name(path: str = "", club: Any = None) -> list[OrderBy]:
    """``order_by(*by_name(...))``: players by name, then by record (two namesakes keep one
    order). ``path``: from the rows ordered to the player ("player__", "" for players)."""
    key = F(f"{path}{key_field(club)}")
    collation = BINARY.get(connection.vendor)
    ordered = Collate(key, collation) if collation else key
    return [ordered.asc(), F(f"{path}pk").asc()]


def name_sorted(name: str, club: Any = None) -> str:
    """The key a list sorted in Python orders ``name`` by, as ``by_name`` in the database."""
    return sort_key(name, particles=not getattr(club, "sort_ignores_particles", False))
