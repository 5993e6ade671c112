"""Federations: the list, one with its clubs and seasons, a season's ranking across the clubs
and its inter-club nights. A federation is public as a club's published pages are: what it
shows, its clubs have published first."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from club.models import Club, Federation, FederationSeason, Player
from club.permissions import is_federation_admin
from games.models import Tournament
from scoring.engine.standings import decimal_string
from scoring.models import FederationRanking

from .. import serializers as s
from .common import NIGHT_LIST_FIELDS, NIGHT_RELATED, audience, namer, player_ref, stamped_read

NOT_FOUND = {
    404: OpenApiResponse(s.RefusalSerializer, description="No such federation (or season).")
}
# A list names each federation's clubs by their identifiers, in the clubs' list's order.
CLUB_SLUGS = Prefetch("clubs", Club.objects.order_by("name").only("pk", "slug", "name"))


def federation_of(slug: str) -> Federation:
    return get_object_or_404(Federation, slug=slug)


def federation_season_of(slug: str, season: str) -> FederationSeason:
    return get_object_or_404(
        FederationSeason.objects.select_related("federation"), federation__slug=slug, slug=season
    )


def federation_read(
    request: Request, federation: Federation, parts: tuple[Any, ...], build: Callable[[], Any]
) -> Response:
    """A federation's published read: ``304`` while the client's copy is the latest (its ETag
    holds the federation's stamp, which its ranking's recomputation moves), else the document
    from the server's cache, drawn once per stamp and language."""
    stamp = int(federation.pages_changed.timestamp() * 1_000_000)
    # Hashed: the parts come from the address (a season's slug).
    digest = hashlib.sha256(repr((stamp, get_language(), parts)).encode()).hexdigest()[:32]
    etag = f'"{digest}"'
    key = f"federation-api:{federation.pk}:{digest}"
    return stamped_read(request, etag, federation.pages_changed, key, build)


@extend_schema(summary="The site's federations (leagues of clubs)", tags=["federations"])
class FederationList(generics.ListAPIView):
    permission_classes = [AllowAny]
    serializer_class = s.FederationSerializer
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[Federation]:
        return Federation.objects.order_by("name").prefetch_related(CLUB_SLUGS)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        rows = [
            {
                "slug": federation.slug,
                "name": federation.name,
                "short_name": federation.short_name,
                "clubs": [club.slug for club in federation.clubs.all()],
            }
            for federation in page
        ]
        return self.get_paginated_response(s.FederationSerializer(rows, many=True).data)


@extend_schema(
    summary="A federation: its clubs and seasons",
    tags=["federations"],
    responses={200: s.FederationDetailSerializer, **NOT_FOUND},
)
class FederationDetail(APIView):
    permission_classes = [AllowAny]

    def get(self, request: Request, federation: str) -> Response:
        found = federation_of(federation)
        seasons = (
            FederationSeason.objects.filter(federation=found)
            .select_related("ranking")
            .order_by("-start", "name")
        )
        data = {
            "slug": found.slug,
            "name": found.name,
            "short_name": found.short_name,
            "description": found.description,
            "clubs": list(found.clubs.order_by("name")),
            "seasons": [
                {
                    "slug": season.slug,
                    "name": season.name,
                    "start": season.start,
                    "end": season.end,
                    "game": season.game,
                    "counts": season.counts,
                    "ranking_computed_at": _ranking_of(season),
                }
                for season in seasons
            ],
        }
        return Response(s.FederationDetailSerializer(data).data)


def _ranking_of(season: FederationSeason) -> Any:
    try:
        return season.ranking.computed_at
    except FederationRanking.DoesNotExist:
        return None


def _ranking(
    ranking: FederationRanking, season: FederationSeason, name_of: Callable[[Player], str]
) -> dict[str, Any]:
    # Each player named as the reader may see him (``club.names``): his initials, if he chose
    # them, to whoever is in none of his clubs.
    return {
        "federation": season.federation.slug,
        "season": season.slug,
        "computed_at": ranking.computed_at,
        "tournaments": ranking.tournaments,
        "clubs": ranking.clubs,
        "rules": ranking.rules,
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
                "clubs_played": line.clubs_played,
            }
            for line in ranking.lines.order_by("position").select_related("player")
        ],
    }


@extend_schema(
    summary="A federation season's ranking across its clubs",
    description=(
        "The ranking as last computed from the nights its clubs have published, players under "
        "their public names. Send the ETag back in If-None-Match: 304 until it is recomputed. "
        "404 while no night of the season has been counted."
    ),
    tags=["federations"],
    responses={
        200: s.FederationRankingSerializer,
        304: OpenApiResponse(description="Unchanged."),
        404: OpenApiResponse(
            s.RefusalSerializer, description="No such federation or season, or no ranking yet."
        ),
    },
)
class FederationSeasonRanking(APIView):
    permission_classes = [AllowAny]

    def get(self, request: Request, federation: str, season: str) -> Response:
        found = federation_season_of(federation, season)
        ranking = FederationRanking.objects.filter(season=found).first()
        if ranking is None:
            raise Http404("this season has no ranking yet")

        def build() -> Any:
            return s.FederationRankingSerializer(_ranking(ranking, found, namer(request))).data

        parts = ("ranking", found.pk, audience(request))
        return federation_read(request, found.federation, parts, build)


@extend_schema(
    summary="A federation season's inter-club nights",
    description=(
        "The nights its clubs host for the season, newest first: published ones for everybody, "
        "every one of them for the federation's administrators."
    ),
    tags=["federations"],
    responses={200: s.NightSerializer(many=True), **NOT_FOUND},
)
class FederationSeasonNights(generics.ListAPIView):
    permission_classes = [AllowAny]
    serializer_class = s.NightSerializer
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[Tournament]:
        if getattr(self, "swagger_fake_view", False):  # the schema's generator
            return Tournament.objects.none()
        season = federation_season_of(self.kwargs["federation"], self.kwargs["season"])
        nights = (
            Tournament.objects.filter(federation_season=season)
            .select_related(*NIGHT_RELATED)
            .only(*NIGHT_LIST_FIELDS)
        )
        if not is_federation_admin(self.request.user, season.federation):
            nights = nights.filter(status=Tournament.Status.PUBLISHED)
        return nights.order_by("-date", "-pk")
