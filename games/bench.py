"""Benchmark: the server time of recording a deal on a score sheet during a club night.

A 40-player night of 3 rounds (10 tables of 4 a round, 12 deals each: 360 deals) is run
through the real view, as a scorer's phone does it: an htmx POST of the deal form that gets
the updated sheet back. Every request is timed and its SQL queries counted. Runs in a
throw-away test database (SQLite by default, PostgreSQL with DATABASE_URL). ``manage.py bench``
runs smaller and larger nights through the same builders (``scorer_club``, ``night``,
``sheet_posts``).

    DJANGO_SECRET_KEY=bench python manage.py bench_score_sheet
"""

from __future__ import annotations

import datetime
import random
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club import services as club_services
from club.models import Club, Membership, Player
from games import services
from games.dealforms import deal_form_class, deal_post_data
from games.demo import random_deal
from games.models import Poule, Tournament
from scoring import services as scoring
from scoring.engine.games.belgian_whist import counts_toward_poule

PLAYERS = 40
ROUNDS = 3


def scorer_club(players: int = PLAYERS, slug: str = "banc-essai") -> tuple[Club, Any, list[Player]]:
    """A club of ``players`` members; the first one's account is the scorer's."""
    name = "Banc d'essai"
    club = Club.objects.create(name=name if slug == "banc-essai" else f"{name} ({slug})", slug=slug)
    username = "marqueur-banc" if slug == "banc-essai" else f"marqueur-{slug}"
    user = get_user_model().objects.create_user(username, password="x")
    members = [Player.objects.create(display_name=f"Joueur {n:02d}") for n in range(players)]
    for player in members:
        Membership.objects.create(club=club, player=player, start=datetime.date(2026, 1, 1))
    Player.objects.filter(pk=members[0].pk).update(user=user)
    Membership.objects.filter(player=members[0]).update(role=Membership.Role.SCORER)
    return club, user, members


def night(club: Club, players: list[Player], rounds: int = ROUNDS) -> Tournament:
    """Tonight at the club, every member present, no round drawn yet."""
    tournament = services.tournament_create(
        club=club,
        season=club_services.season_for_date(club, datetime.date(2026, 11, 19)),
        date=datetime.date(2026, 11, 19),
        game="belgian_whist",
        point_table=services.point_table_for_preset("rcwhist"),
        rounds=rounds,
    )
    services.presence_set(tournament, players)
    return tournament


def deal_post(poule: Poule, deal: dict[str, Any]) -> dict[str, Any]:
    """What a scorer's phone posts to record ``deal`` on the poule's sheet."""
    seats = [(s.number, s.player.display_name) for s in poule.seats.select_related("player")]
    form = deal_form_class(poule.tournament.game)(
        seats=seats, point_table=poule.tournament.point_table.engine_table(), initial_deal=deal
    )
    return deal_post_data(form)


def sheet_posts(
    tournament: Tournament, rng: random.Random, seed: int
) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """The night played table by table: each round drawn, then every deal of each poule as
    the score-sheet address, the deal, and what the scorer's phone posts there, until each
    poule has its counted deals. Each deal must be recorded before the next is asked for (a
    round is drawn once the previous one is complete)."""
    for round in range(1, tournament.rounds + 1):
        scoring.round_draw(tournament, round, seed=seed + round)
        for poule in tournament.poules.filter(round=round).order_by("table"):
            path = reverse(
                "games:sheet",
                kwargs={"slug": tournament.club.slug, "pk": tournament.pk, "poule_pk": poule.pk},
            )
            seat_names = [str(n) for n in range(1, poule.seats.count() + 1)]
            counted = 0
            while counted < tournament.deals_per_poule(len(seat_names)):
                deal = random_deal(rng, seat_names)
                yield path, deal, deal_post(poule, deal)
                counted += counts_toward_poule(deal["contract"])


def run(report: Callable[[str], None] = print, seed: int = 2026) -> dict[str, Any]:
    rng = random.Random(seed)
    club, user, players = scorer_club()
    tournament = night(club, players)
    client = Client()
    client.force_login(user)
    times: list[float] = []
    queries: list[int] = []
    for path, deal, data in sheet_posts(tournament, rng, seed):
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = client.post(path, data, HTTP_HX_REQUEST="true")
            elapsed = time.perf_counter() - start
        # A refused deal comes back as the sheet with the engine's message.
        if response.status_code != 200 or b"dealform-errors" in response.content:
            raise RuntimeError(f"deal refused or failed: {deal}")
        times.append(elapsed * 1000)
        queries.append(len(captured))
    ordered = sorted(times)
    result = {
        "requests": len(times),
        "p50_ms": statistics.median(ordered),
        "p95_ms": ordered[int(0.95 * (len(ordered) - 1))],
        "max_ms": ordered[-1],
        "queries_first_table": queries[0:12],
        "queries_min": min(queries),
        "queries_max": max(queries),
        "queries_last_10": queries[-10:],
    }
    report(f"database: {connection.vendor}")
    report(f"deals recorded through the sheet view: {result['requests']}")
    report(
        f"server time per deal: p50 {result['p50_ms']:.1f} ms, p95 {result['p95_ms']:.1f} ms, "
        f"max {result['max_ms']:.1f} ms (goal: p95 < 50 ms)"
    )
    report(
        f"queries per deal: min {result['queries_min']}, max {result['queries_max']}; "
        f"first deals {result['queries_first_table'][:5]}, "
        f"last deals {result['queries_last_10'][-5:]}"
    )
    return result
