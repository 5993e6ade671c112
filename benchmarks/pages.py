"""The server time of the pages members and visitors read, through the whole Django stack
(middleware, view, template).

- ``pages``: ``manage.py bench pages``, the public ranking pages and a player page on ten
  seasons of a 40-player club (50 nights a season, 3 rounds of 10 tables of four), each page
  requested N times and its queries counted once.
- ``results_page``, ``my_results``, ``statistics_page``, ``public_pages``: the measures of
  ``manage.py bench``,
  each next to a bare one-query view requested through the same client and login.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse

from club.models import Player
from games.demo import random_night
from games.nightfile import tournament_import
from scoring.services import tournament_publish

from . import data
from .report import Row, count, names
from .timing import caches_cleared, measure_page, page, side_by_side

GOAL_MS = 100  # p95 of a public page, and of an API endpoint


def results_page(players: int, requests: int, rng: random.Random) -> list[Row]:
    """A published night's results, every poule with its deals; the cache emptied before each
    request (the goal is for the page as first built)."""
    date = datetime.date(data.last_year(), 3, 14)
    doc = random_night(
        rng,
        club=f"Banc d'essai des résultats ({players})",
        season=str(date.year),
        date=date,
        members=names(players),
        present=players,
    )
    tournament = tournament_publish(tournament_import(doc))
    address = reverse("games:results", kwargs={"slug": tournament.club.slug, "pk": tournament.pk})
    client = Client()
    results, bare = page(client, address), page(client, reverse("bench-bare"))
    return [
        side_by_side(
            Row("results page (games:results)", f"{players} players"),
            results,
            bare,
            requests,
            before=caches_cleared,
        ),
        # Another visitor of the published night: the page comes from the cache.
        side_by_side(Row("results page, cached", f"{players} players"), results, bare, requests),
    ]


def my_results(player: Player, nights: int, requests: int) -> list[Row]:
    """A member's own page for a season in which he played every night: as he opens it again
    (the club's results unchanged), then its first view after a change (cache emptied)."""
    user = get_user_model().objects.create_user(f"membre-banc-{nights}")
    Player.objects.filter(pk=player.pk).update(user=user)
    client = Client()
    client.force_login(user)
    mine, bare = page(client, reverse("my-results")), page(client, reverse("bench-bare"))
    return [
        side_by_side(
            Row("Mes résultats (my-results)", count(nights, "night")), mine, bare, requests
        ),
        side_by_side(
            Row("Mes résultats, first view", count(nights, "night")),
            mine,
            bare,
            max(3, requests // 5),
            before=caches_cleared,
        ),
    ]


def statistics_page(player: Player, nights: int, requests: int) -> Row:
    """A player's statistics page as the public first reads it after a change (cache emptied):
    his season's nights added up, his cote's history and its moves."""
    club = player.memberships.values_list("club__slug", flat=True).first()
    client = Client()
    address = reverse("player-statistics", kwargs={"slug": club, "pk": player.pk})
    return side_by_side(
        Row("player statistics, first view", count(nights, "night")),
        page(client, address),
        page(client, reverse("bench-bare")),
        max(3, requests // 5),
        before=caches_cleared,
    )


def public_pages(
    seasons: int,
    season_length: int,
    players: int,
    requests: int,
    seed: int,
    report: Callable[[str], None],
) -> list[Row]:
    club, club_seasons, player = data.generate(
        seed,
        report,
        seasons=seasons,
        nights=season_length,
        players=players,
        slug=f"banc-classements-{seasons}",
    )
    size = count(seasons, "season")
    addresses = {
        "current ranking (ranking)": reverse("ranking", args=[club.slug]),
        # The oldest season: the only one when the club has one.
        "past season (ranking-season)": reverse(
            "ranking-season", args=[club.slug, club_seasons[-1].slug]
        ),
        "player page (player)": reverse("player", args=[club.slug, player.pk]),
    }
    client = Client()
    bare = page(client, reverse("bench-bare"))
    return [
        side_by_side(Row(label, size), page(client, address), bare, requests)
        for label, address in addresses.items()
    ]


def pages(
    report: Callable[[str], None],
    *,
    seed: int = 2026,
    requests: int = 200,
    seasons: int = data.SEASONS,
    nights: int = data.TOURNAMENTS,
    players: int = data.PLAYERS,
) -> dict[str, dict[str, Any]]:
    club, club_seasons, player = data.generate(
        seed, report, seasons=seasons, nights=nights, players=players
    )
    slug = club.slug
    addresses = {
        "current ranking": reverse("ranking", args=[slug]),
        # The sixth season back (of ten), or the oldest of fewer.
        "past season ranking": reverse(
            "ranking-season", args=[slug, club_seasons[min(5, len(club_seasons) - 1)].slug]
        ),
        "ranking archive": reverse("ranking-archive", args=[slug]),
        "player page": reverse("player", args=[slug, player.pk]),
        "player page, oldest season": reverse("player", args=[slug, player.pk])
        + f"?saison={club_seasons[-1].name}",
    }
    client = Client()
    results = {}
    report(f"database: {connection.vendor}; {requests} anonymous requests per page")
    for label, path in addresses.items():
        result = results[label] = measure_page(client, path, requests)
        verdict = "ok" if result["p95_ms"] < GOAL_MS else f"MISSES the {GOAL_MS} ms goal"
        report(
            f"{label:28} p50 {result['p50_ms']:6.1f} ms  p95 {result['p95_ms']:6.1f} ms  "
            f"max {result['max_ms']:6.1f} ms  {result['queries']} queries  {verdict}  ({path})"
        )
    return results
