"""The club's « cote » and a player's statistics, as the public pages show them."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from club.models import GAME_CHOICES, Player
from club.names import name_reader_of, name_shown
from scoring.models import PlayerRating
from scoring.statistics.totals import player_statistics

from .. import serializers as s
from .common import NOT_YOURS, ClubEndpoint
from .players import club_players

GAMES = dict(GAME_CHOICES)


def _rating(line: Any, name: str) -> dict[str, Any]:
    return {
        "player": {"id": line["player_id"], "name": name},
        "game": line["game"],
        "rating": line["conservative"],
        "mu": line["mu"],
        "sigma": line["sigma"],
        "change": line["change"],
        "deals": line["deals"],
        "night": line["tournament_id"],
        "date": line["tournament__date"],
    }


@extend_schema(
    summary="A club's « cote »",
    description=(
        "Each player's latest rating in one game (``?game=``, the club's game by default), "
        "best first: the conservative figure μ − 3σ, μ (the cote: everybody starts at 25, the "
        "club's mean stays at 25), σ, how much μ moved over his latest night and the deals "
        "behind it. Beside the yearly ranking, never instead of it."
    ),
    parameters=[OpenApiParameter("game", str, enum=list(GAMES))],
    responses={200: s.RatingSerializer(many=True), 404: NOT_YOURS[404]},
    tags=["ratings"],
)
class ClubRatings(ClubEndpoint, APIView):
    permission_classes = [AllowAny]

    def get(self, request: Request, slug: str) -> Response:
        club = self.club
        game = request.query_params.get("game") or club.default_game
        if game not in GAMES:
            raise Http404("no such game")
        lines = PlayerRating.objects.current(club, game)
        name_of = name_reader_of(request.user).name
        rows = [
            _rating(
                {
                    "player_id": line.player_id,
                    "game": line.game,
                    "conservative": line.conservative,
                    "mu": line.mu,
                    "sigma": line.sigma,
                    "change": line.change,
                    "deals": line.deals,
                    "tournament_id": line.tournament_id,
                    "tournament__date": line.tournament.date,
                },
                name_of(line.player),
            )
            for line in lines.select_related("tournament")
        ]
        return Response(s.RatingSerializer(rows, many=True).data)


@extend_schema(
    summary="A player's statistics and rating history",
    description=(
        "As his public page shows them: his published nights, everybody named by his public "
        "name; the member himself (his own token) gets every night of his that counts."
    ),
    responses={200: s.PlayerStatisticsSerializer, **NOT_YOURS},
    tags=["ratings"],
)
class PlayerStatistics(ClubEndpoint, APIView):
    permission_classes = [AllowAny]

    def get(self, request: Request, slug: str, pk: int) -> Response:
        club = self.club
        player: Player = get_object_or_404(club_players(self.viewer), pk=pk)
        own = request.user.is_authenticated and player.user_id == request.user.pk
        stats = player_statistics(player, club, own=own, reader=name_reader_of(request.user))
        name = name_shown(player, name_reader_of(request.user))
        body = {
            "nights": stats.nights,
            "deals": stats.deals,
            "mort": stats.mort,
            "roles": [
                {"role": role, "deals": deals, "points_per_deal": float(per_deal)}
                for role, deals, per_deal in stats.role_lines()
            ],
            "contracts": [
                {"contract": code, "declared": played, "made": made}
                for code, played, made, _rate in stats.contract_lines()
            ],
            "best_partners": [_partner(line) for line in stats.best_partners],
            "worst_partners": [_partner(line) for line in stats.worst_partners],
            "opponents": [
                {
                    "player": {"id": line.player_id, "name": line.name},
                    "deals": line.deals,
                    "points": line.mine,
                    "opponent_points": line.theirs,
                }
                for line in stats.opponents
            ],
            "longest_streak": stats.longest_streak,
            "ratings": [_rating({**row, "player_id": player.pk}, name) for row in stats.ratings],
        }
        return Response(s.PlayerStatisticsSerializer(body).data)


def _partner(line: Any) -> dict[str, Any]:
    return {
        "player": {"id": line.player_id, "name": line.name},
        "deals": line.deals,
        "made": line.made,
        "points": line.points,
    }
