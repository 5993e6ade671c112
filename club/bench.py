"""Benchmark: the server time of the public ranking pages and of a player page.

Ten seasons of a 40-player club (50 nights a season, 3 rounds of 10 tables of four) are
generated in a throw-away database, then each page is requested N times through the whole
Django stack (middleware, view, template) and timed; its SQL queries are counted once.

Deals are not generated: the public pages read only stored standings. Each poule gets random
game points (zero-sum, as at whist) that the engine ranks and turns into tournament points,
so every stored number is one the site itself could have written.

    DJANGO_SECRET_KEY=bench python manage.py bench_public_pages
"""

from __future__ import annotations

import datetime
import random
import statistics
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from club.models import Club, Membership, Player, Season
from games.demo import FIRST_NAMES, LAST_NAMES
from games.models import Poule, Seat, Tournament
from games.services import point_table_for_preset
from scoring.engine.base import PouleScore
from scoring.engine.standings import poule_standings, scheme
from scoring.models import PouleStanding
from scoring.services import (
    ranking_publish,
    season_ranking_update,
    tournament_standings_update,
)

SEASONS = 10
TOURNAMENTS = 50
PLAYERS = 40
ROUNDS = 3
TABLE = 4
GOAL_MS = 100


def _players(club: Club) -> list[Player]:
    players = Player.objects.bulk_create(
        Player(
            first_name=FIRST_NAMES[n % len(FIRST_NAMES)],
            last_name=LAST_NAMES[(n + n // len(FIRST_NAMES)) % len(LAST_NAMES)],
            display_name=(
                f"{FIRST_NAMES[n % len(FIRST_NAMES)]} "
                f"{LAST_NAMES[(n + n // len(FIRST_NAMES)) % len(LAST_NAMES)]}"
            ),
            # Some members chose their initials, as at the real club.
            public_name=Player.PublicName.INITIALS if n % 7 == 3 else Player.PublicName.FULL,
        )
        for n in range(PLAYERS)
    )
    Membership.objects.bulk_create(
        Membership(club=club, player=player, start=datetime.date(2000, 1, 1)) for player in players
    )
    return players


def _seasons(club: Club, last_year: int) -> list[Season]:
    return Season.objects.bulk_create(
        Season(
            club=club,
            name=str(year),
            slug=str(year),
            start=datetime.date(year, 1, 1),
            end=datetime.date(year, 12, 31),
        )
        for year in range(last_year - SEASONS + 1, last_year + 1)
    )


def _random_score(rng: random.Random) -> PouleScore:
    """A poule's game points after twelve deals: zero-sum, a spread as at a club table."""
    points = [rng.randint(-40, 40) for _ in range(TABLE - 1)]
    points.append(-sum(points))
    return PouleScore(
        deal_points=(),
        dealers=(),
        game_points=tuple(points),
        net=tuple(Fraction(p) for p in points),
        counted_deals=12,
    )


def _tournaments(
    club: Club, seasons: list[Season], players: list[Player], rng: random.Random
) -> None:
    point_table = point_table_for_preset("rcwhist")
    points_scheme = scheme("rcwhist")
    tournaments = Tournament.objects.bulk_create(
        Tournament(
            club=club,
            season=season,
            # Thursday nights, weekly from the season's second week.
            date=season.start + datetime.timedelta(days=7 + 7 * n),
            name=f"Soirée {n + 1}",
            game="belgian_whist",
            point_table=point_table,
            tournament_points="rcwhist",
            rounds=ROUNDS,
            # Straight to published: closing through the service needs deals, and would
            # recompute the season ranking after every one of the 500 nights.
            status=Tournament.Status.PUBLISHED,
        )
        for season in seasons
        for n in range(TOURNAMENTS)
    )
    tables = PLAYERS // TABLE
    poules = Poule.objects.bulk_create(
        Poule(tournament=tournament, round=round, table=table, counted_deals=12)
        for tournament in tournaments
        for round in range(1, ROUNDS + 1)
        for table in range(1, tables + 1)
    )
    seats, standings = [], []
    for index in range(0, len(poules), tables):
        order = players[:]
        rng.shuffle(order)
        for table, poule in enumerate(poules[index : index + tables]):
            seated = order[table * TABLE : (table + 1) * TABLE]
            seats += [
                Seat(
                    poule=poule,
                    player=player,
                    number=number,
                    tournament_id=poule.tournament_id,
                    round=poule.round,
                )
                for number, player in enumerate(seated, start=1)
            ]
            standings += [
                PouleStanding(
                    poule=poule,
                    player=seated[line.seat],
                    seat=line.seat + 1,
                    rank=line.rank,
                    tied=line.tied,
                    game_points=line.game_points,
                    tournament_points=line.tournament_points,
                )
                for line in poule_standings(_random_score(rng), points_scheme)
            ]
    Seat.objects.bulk_create(seats, batch_size=5000)
    PouleStanding.objects.bulk_create(standings, batch_size=5000)
    for tournament in tournaments:
        tournament_standings_update(tournament)


def _rankings(seasons: list[Season]) -> None:
    """Each season published twice, at mid-season and at its end, as the club does; the live
    ranking stays beside them."""
    for season in seasons:
        later = Tournament.objects.filter(season=season, date__gt=season.start.replace(month=7))
        later.update(status=Tournament.Status.PLANNED)
        ranking_publish(season)
        later.update(status=Tournament.Status.PUBLISHED)
        ranking_publish(season)
        season_ranking_update(season)


def generate(seed: int, report: Callable[[str], None]) -> tuple[Club, list[Season], Player]:
    rng = random.Random(seed)
    start = time.perf_counter()
    with transaction.atomic():
        club = Club.objects.create(name="Banc d'essai des classements", slug="banc-classements")
        players = _players(club)
        seasons = _seasons(club, timezone.localdate().year)
        _tournaments(club, seasons, players, rng)
    _rankings(seasons)
    report(
        f"generated {len(seasons)} seasons × {TOURNAMENTS} nights × {PLAYERS} players "
        f"({Tournament.objects.count()} nights, {Seat.objects.count()} seats, "
        f"{PouleStanding.objects.count()} poule standings) in {time.perf_counter() - start:.1f} s"
    )
    # Seasons are ordered newest first.
    return club, list(club.seasons.all()), players[0]


def measure(client: Client, path: str, requests: int) -> dict[str, Any]:
    for _ in range(5):  # warm the template cache and the connection
        assert client.get(path).status_code == 200, path
    # The log keeps the last 9 000 queries only: once full, a count would read 0.
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as captured:
        client.get(path)
    # Counted now: every later request empties the log the count is read from.
    queries = len(captured)
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, path
    ordered = sorted(times)
    return {
        "path": path,
        "queries": queries,
        "p50_ms": statistics.median(ordered),
        "p95_ms": ordered[int(0.95 * (len(ordered) - 1))],
        "max_ms": ordered[-1],
    }


def run(
    report: Callable[[str], None] = print, seed: int = 2026, requests: int = 200
) -> dict[str, dict[str, Any]]:
    club, seasons, player = generate(seed, report)
    slug = club.slug
    pages = {
        "current ranking": reverse("ranking", args=[slug]),
        "past season ranking": reverse("ranking-season", args=[slug, seasons[5].slug]),
        "ranking archive": reverse("ranking-archive", args=[slug]),
        "player page": reverse("player", args=[slug, player.pk]),
        "player page, oldest season": reverse("player", args=[slug, player.pk])
        + f"?saison={seasons[-1].name}",
    }
    client = Client()
    results = {}
    report(f"database: {connection.vendor}; {requests} anonymous requests per page")
    for label, path in pages.items():
        result = results[label] = measure(client, path, requests)
        verdict = "ok" if result["p95_ms"] < GOAL_MS else f"MISSES the {GOAL_MS} ms goal"
        report(
            f"{label:28} p50 {result['p50_ms']:6.1f} ms  p95 {result['p95_ms']:6.1f} ms  "
            f"max {result['max_ms']:6.1f} ms  {result['queries']} queries  {verdict}  ({path})"
        )
    return results
