"""The « cote » beside the official ranking, never instead of it: the club's page per game, a
player's statistics with his rating history, a night's expected and actual results, the
club's season statistics. Every figure is read as stored (``scoring.services.ratings``).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.utils.formats import date_format, get_format
from django.utils.translation import gettext as _

from games.labels import CONTRACT_LABELS
from games.models import GAME_CHOICES, Tournament
from games.visibility import require_sheet_reader
from scoring.models import PlayerRating
from scoring.statistics import player_statistics, season_statistics

from ..models import Club, Player
from ..names import viewer_of
from ..published import published_page
from .merged import merged_player_redirect

GAMES = dict(GAME_CHOICES)


def rating_history(ratings: list[dict[str, Any]]) -> tuple[dict[str, list[Any]], list[list[str]]]:
    """A player's ratings after each night: the chart's numbers and its table's rows, written
    out once here (a decade is hundreds of rows: a template filter per number is most of the
    page's time)."""
    point = get_format("DECIMAL_SEPARATOR")
    rows = [
        [
            date_format(row["tournament__date"], "SHORT_DATE_FORMAT"),
            *(f"{row[key]:.2f}".replace(".", point) for key in ("conservative", "mu", "sigma")),
            str(row["deals"]),
        ]
        for row in ratings
    ]
    chart = {
        "labels": [row[0] for row in rows],
        "cote": [round(row["conservative"], 2) for row in ratings],
        "mu": [round(row["mu"], 2) for row in ratings],
    }
    return chart, rows


def _role_labels() -> dict[str, str]:
    return {
        "declarer": _("Déclarant seul"),
        "partner": _("Partenaire (à deux)"),
        "defender": _("Défenseur"),
    }


def club_ratings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's « cote » in one game (``?jeu=``): each player's conservative figure
    (μ − 3σ), his μ and σ, the deals behind it."""
    club = get_object_or_404(Club, slug=slug)
    game = request.GET.get("jeu") or club.default_game
    if game not in GAMES:
        raise Http404("no such game")

    def build() -> TemplateResponse:
        played = sorted(
            set(
                PlayerRating.objects.filter(tournament__club=club, current=True).values_list(
                    "game", flat=True
                )
            )
        )
        lines = list(
            PlayerRating.objects.current(club, game).only(
                "mu",
                "sigma",
                "conservative",
                "deals",
                "game",
                "player_id",
                "tournament_id",
                *(f"player__{f}" for f in Player.PUBLIC_NAME_FIELDS),
            )
        )
        context = {
            "club": club,
            "game": game,
            "game_label": GAMES[game],
            "games": [(code, GAMES[code]) for code in played],
            "lines": lines,
        }
        return TemplateResponse(request, "club/ratings.html", context)

    return published_page(request, club, build, "cote", game)


def player_stats(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A player's statistics and rating history: the public reads his published nights, under
    everybody's public names; the member himself all his nights that count."""
    club = get_object_or_404(Club, slug=slug)
    player = (
        Player.objects.in_club(club)
        .only(*Player.PUBLIC_NAME_FIELDS, "user_id")
        .filter(pk=pk)
        .first()
    )
    if player is None:
        return merged_player_redirect(club, pk, "player-statistics")
    own = request.user.is_authenticated and player.user_id == request.user.pk

    def build() -> TemplateResponse:
        stats = player_statistics(player, club, own=own, viewer=viewer_of(request.user))
        chart, rating_rows = rating_history(stats.ratings)
        labels = _role_labels()
        context = {
            "club": club,
            "player": player,
            "own": own,
            "stats": stats,
            "chart": chart,
            "rating_rows": rating_rows,
            "roles": [(labels[r], d, p) for r, d, p in stats.role_lines()],
            "contracts": [
                (str(CONTRACT_LABELS.get(code, code)), played, made, rate)
                for code, played, made, rate in stats.contract_lines()
            ],
        }
        return TemplateResponse(request, "club/player_stats.html", context)

    return published_page(request, club, build, "player-stats", player.pk)


def night_ratings(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A night's expected and actual result per player: how many opponents of his poules he
    was expected to finish above (from the ratings before the night), and how many he did."""
    tournament = get_object_or_404(
        Tournament.objects.select_related("club"), club__slug=slug, pk=pk
    )
    require_sheet_reader(request.user, tournament)
    lines = list(
        PlayerRating.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("-actual", "player__display_name")
    )
    for line in lines:
        line.difference = line.actual - line.expected
    context = {"club": tournament.club, "tournament": tournament, "lines": lines}
    return TemplateResponse(request, "club/night_ratings.html", context)


def club_statistics(request: HttpRequest, slug: str) -> HttpResponse:
    """Per club and season (``?saison=``): attendance, contracts played and made, records."""
    club = get_object_or_404(Club, slug=slug)
    seasons = list(club.seasons.order_by("-start"))
    wanted = request.GET.get("saison")
    season = next((s for s in seasons if s.name == wanted), seasons[0] if seasons else None)
    if wanted and (season is None or season.name != wanted):
        raise Http404("no such season")

    def build() -> TemplateResponse:
        stats = season_statistics(season, viewer_of(request.user)) if season else None
        contracts = (
            [
                (str(CONTRACT_LABELS.get(code, code)), played, made, 100 * made / played)
                for code, played, made in stats.contracts
            ]
            if stats
            else []
        )
        context = {
            "club": club,
            "seasons": seasons,
            "season": season,
            "stats": stats,
            "contracts": contracts,
        }
        return TemplateResponse(request, "club/club_statistics.html", context)

    return published_page(request, club, build, "club-stats", season.pk if season else 0)
