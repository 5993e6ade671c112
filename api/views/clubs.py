"""Clubs, their seasons and a season's yearly ranking."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from club.models import Club, Player, Season
from club.permissions import require_club_admin
from scoring.engine.standings import decimal_string
from scoring.models import RankingSnapshot

from .. import serializers as s
from .common import NOT_YOURS, club_of, namer, player_ref, published_read


@extend_schema(summary="The site's clubs", tags=["clubs"])
class ClubList(generics.ListAPIView):
    permission_classes = [AllowAny]
    serializer_class = s.ClubSerializer
    # A closed club is gone from the list (club.services.closing).
    queryset = Club.objects.filter(closing=None).order_by("name")
    filter_backends: list[Any] = []


@extend_schema(summary="A club", tags=["clubs"], responses={200: s.ClubSerializer, **NOT_YOURS})
class ClubDetail(APIView):
    permission_classes = [AllowAny]

    def get(self, request: Request, slug: str) -> Response:
        return Response(s.ClubSerializer(club_of(slug)).data)


@extend_schema(summary="A club's seasons, newest first", tags=["seasons"])
class SeasonList(generics.ListAPIView):
    permission_classes = [AllowAny]
    serializer_class = s.SeasonSerializer
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[Season]:
        club = club_of(self.kwargs["slug"])
        latest = (
            RankingSnapshot.objects.published()
            .filter(season=OuterRef("pk"))
            .order_by("-published_at")
            .values("published_at")[:1]
        )
        imported = RankingSnapshot.objects.latest_published().filter(
            season=OuterRef("pk"), imported=True
        )
        return club.seasons.annotate(
            ranking_published_at=Subquery(latest), imported=Exists(imported)
        ).order_by("-start")


def _ranking(
    snapshot: RankingSnapshot, club: Club, name_of: Callable[[Player], str]
) -> dict[str, Any]:
    lines = snapshot.lines.in_order().select_related("player")
    return {
        "club": club.slug,
        "season": snapshot.season.slug,
        "provisional": snapshot.published_at is None,
        "published_at": snapshot.published_at,
        "computed_at": snapshot.computed_at,
        "tournaments": snapshot.tournaments,
        "rules": snapshot.rules,
        "imported": snapshot.imported,
        "lines": [
            {
                "rank": line.rank,
                "tied": line.tied,
                "player": player_ref(line.player, name_of),
                "tournament_points": decimal_string(line.tournament_points),
                "game_points": line.game_points,
                "tournaments_played": line.tournaments_played,
                "tournaments_counted": line.tournaments_counted,
                "tournaments_won": line.tournaments_won,
            }
            for line in lines
        ],
    }


@extend_schema(
    summary="A season's yearly ranking (classement annuel)",
    description=(
        "The latest published ranking, players named as the reader may see them. "
        "``?provisional=true``: "
        "the live ranking, recomputed as nights close (club admins only). Send the ETag back "
        "in If-None-Match: 304 until the club publishes or corrects something."
    ),
    tags=["rankings"],
    parameters=[
        OpenApiParameter(
            "provisional", OpenApiTypes.BOOL, description="The live ranking (club admins)."
        )
    ],
    responses={
        200: s.RankingSerializer,
        304: OpenApiResponse(description="Unchanged."),
        **NOT_YOURS,
    },
)
class SeasonRanking(APIView):
    permission_classes = [AllowAny]

    def get(self, request: Request, slug: str, season: str) -> Response:
        club = club_of(slug)
        season_obj = get_object_or_404(
            Season.objects.select_related("club"), club=club, slug=season
        )
        if request.query_params.get("provisional", "").lower() in ("1", "true", "yes"):
            require_club_admin(request.user, club)
            live = RankingSnapshot.objects.filter(season=season_obj).live().first()
            if live is None:
                raise Http404("no provisional ranking yet")
            return Response(s.RankingSerializer(_ranking(live, club, namer(request))).data)
        snapshot = (
            RankingSnapshot.objects.filter(season=season_obj)
            .latest_published()
            .select_related("season")
            .first()
        )
        if snapshot is None:
            raise Http404("this season's ranking is not published")

        def build() -> Any:
            return s.RankingSerializer(_ranking(snapshot, club, namer(request))).data

        return published_read(request, club, ("ranking", season_obj.pk), build)
