"""``manage.py bench decade``: a federation joining with its past — every club's decade of
nights imported from club-night files, as its secretaries would send them.

The nights have ``bench federation``'s shape (``federation_data``: 100 clubs × 10 seasons ×
40 nights, 8 players at two tables of 4, one round, 12 deals a poule), written as files by the
demo's ``random_night`` and imported club by club through ``tournaments_import`` (the site's
one importer: its batches, COPY and the cote's rewrite per batch, each season ranked at the
end). A club's files are made before its clock starts: the times are the imports' alone.
Printed, never asserted."""

from __future__ import annotations

import datetime
import random
import time
from collections.abc import Callable
from typing import Any

from django.core.management.base import CommandError
from django.utils import timezone

from games.demo import random_night
from games.models import Tournament
from games.nightfile import tournaments_import

from .federation_data import DEALS, TABLE, TABLES
from .report import names

PLAYERS = TABLE * TABLES


def club_decade(rng: random.Random, club: int, seasons: int, nights: int) -> list[dict[str, Any]]:
    """One club's seasons of weekly nights as club-night files, the last season last year's,
    oldest first (as a history is sent)."""
    last = timezone.localdate().year - 1
    members = names(PLAYERS)
    return [
        random_night(
            rng,
            club=f"Cercle de whist n° {club:03d}",
            season=str(year),
            date=datetime.date(year, 1, 1) + datetime.timedelta(days=7 * night),
            members=members,
            present=PLAYERS,
            rounds=1,
            deals_per_poule={TABLE: DEALS},
        )
        for year in range(last - seasons + 1, last + 1)
        for night in range(nights)
    ]


def decade(
    write: Callable[[str], None], *, clubs: int, seasons: int, nights: int, seed: int
) -> None:
    rng = random.Random(seed)
    wall = cpu = 0.0
    per_club: list[float] = []
    started = time.perf_counter()
    write(f"{clubs} clubs × {seasons} seasons × {nights} nights of {PLAYERS} players, imported")
    for club in range(1, clubs + 1):
        docs = club_decade(rng, club, seasons, nights)
        wall_start, cpu_start = time.perf_counter(), time.process_time()
        outcomes = tournaments_import(docs)
        took = time.perf_counter() - wall_start
        cpu += time.process_time() - cpu_start
        wall += took
        per_club.append(took)
        refused = [o for o in outcomes if not isinstance(o, Tournament)]
        if refused:
            raise CommandError(f"club {club}: a night refused: {refused[0]}")
        if club % 10 == 0 or club == clubs:
            write(
                f"[{time.perf_counter() - started:7.1f} s] {club} clubs, "
                f"{club * seasons * nights} nights imported in {wall:.1f} s"
            )
    total = clubs * seasons * nights
    per_club.sort()
    write("")
    write(
        f"imported: {total} nights in {wall:.1f} s ({wall / 60:.1f} min), "
        f"{total / wall:.1f} nights/s; this process's CPU {cpu:.1f} s (the rest is the server's "
        "and the round trips)"
    )
    write(
        f"a club's decade ({seasons * nights} nights): median {per_club[len(per_club) // 2]:.2f} s,"
        f" slowest {per_club[-1]:.2f} s; the whole run with the files made: "
        f"{time.perf_counter() - started:.1f} s"
    )
    write(f"stored: {Tournament.objects.count()} nights")
