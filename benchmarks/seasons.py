"""A season's ranking and a club's history imported, as measures of ``manage.py bench``.

Baselines: for the ranking task, one GROUP BY over the same standings; for the
import, the engine alone reading the same documents."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

from django.db.models import Count, Sum

from club.models import Player, Season
from games.models import COUNTED_STATUSES, Tournament
from games.nightfile import tournaments_import
from scoring.engine.night import read_night
from scoring.models import TournamentStanding
from scoring.services import season_ranking_update, season_totals

from . import data
from .report import Row, count
from .timing import side_by_side, timed


def ranking_group_by(season: Season) -> list[tuple[Any, ...]]:
    """The baseline of the ranking task: the season's standings summed per player in one
    GROUP BY (game points: tournament points are stored as text, "7/2"), nothing else."""
    return list(
        TournamentStanding.objects.filter(
            tournament__season=season, tournament__status__in=COUNTED_STATUSES
        )
        .order_by()
        .values_list("player_id")
        .annotate(points=Sum("game_points"), nights=Count("pk"))
    )


def season_club(
    nights: int, players: int, seed: int, report: Callable[[str], None]
) -> tuple[Season, Player]:
    """One season of ``nights`` nights, all played by every player, with their deals and
    their cote (the statistics page tells its history, night after night)."""
    _club, seasons, player = data.generate(
        seed,
        report,
        seasons=1,
        nights=nights,
        players=players,
        deals=True,
        cote=True,
        slug=f"banc-saison-{nights}",
    )
    return seasons[0], player


def season_ranking(season: Season, nights: int, requests: int) -> list[Row]:
    """The ranking task as a worker runs it (the season locked, its live snapshot written),
    then its reading alone: the season's standings summed by the database, next to the same
    rows summed in one GROUP BY."""
    rules = season.ranking_rules()
    return [
        side_by_side(
            Row("season ranking task", count(nights, "night")),
            lambda: season_ranking_update(season),
            lambda: ranking_group_by(season),
            requests,
        ),
        side_by_side(
            Row("season ranking, its sums", count(nights, "night")),
            lambda: season_totals(season, rules),
            lambda: ranking_group_by(season),
            requests,
        ),
    ]


# The engine's runs over the import's files, the median kept: one run of it moved between
# 0.45 and 0.82 s on a shared machine (50 nights), and reading the same files again is the
# same work each time, unlike the import, which can run only once.
ENGINE_RUNS = 3


def night_import(nights: int, players: int, rng: random.Random) -> Row:
    """The nights imported in one batch as a club's history is (each closed, each season
    ranked once at the end), once: the same files cannot be imported twice. The baseline is
    the engine reading the same files, the median of ``ENGINE_RUNS`` runs."""
    docs = data.night_documents(nights, players, rng)
    row = Row("import nights (tournaments_import)", count(nights, "night"), items=nights)
    runs = sorted(
        (timed(lambda: [read_night(doc) for doc in docs]) for _ in range(ENGINE_RUNS)),
        key=lambda run: run[0],
    )
    baseline = runs[len(runs) // 2]
    measured = timed(partial(tournaments_import, docs))
    refused = [outcome for outcome in measured[2] if not isinstance(outcome, Tournament)]
    if refused:
        raise RuntimeError(f"nights refused: {refused[0]}")
    row.add(measured, baseline)
    return row
