"""A club's players, named as the site names them for this reader."""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from club.models import Membership, Player
from club.name_order import by_name
from club.permissions import ClubAccess
from games.models import Tournament
from scoring.models import RankingLine, TournamentStanding

from .. import serializers as s
from .common import NOT_YOURS, ClubEndpoint, namer, player_ref


def club_players(viewer: ClubAccess) -> QuerySet[Player]:
    """The club's players this reader may know of. The public: those the club has published
    (a published night's standings, a published ranking), as the site's public pages show
    them; the club's members: its current membership; club admins: everybody it ever had."""
    club = viewer.club
    if viewer.is_club_admin:
        return Player.objects.filter(pk__in=Membership.objects.filter(club=club).values("player"))
    if viewer.is_member:
        return Player.objects.filter(
            pk__in=Membership.objects.current().filter(club=club).values("player")
        )
    published_night = TournamentStanding.objects.filter(
        player=OuterRef("pk"),
        tournament__club=club,
        tournament__status=Tournament.Status.PUBLISHED,
    )
    published_ranking = RankingLine.objects.filter(
        player=OuterRef("pk"),
        snapshot__season__club=club,
        snapshot__published_at__isnull=False,
    )
    return Player.objects.filter(Q(Exists(published_night)) | Q(Exists(published_ranking)))


@extend_schema(
    summary="A club's players",
    description=(
        "Named as the site names them for this reader. The public: the players the club has "
        "published (a published night or ranking), by their public names; the club's members: "
        "its current members; club admins: every player the club ever had."
    ),
    tags=["players"],
)
class PlayerList(ClubEndpoint, generics.ListAPIView):
    permission_classes = [AllowAny]
    serializer_class = s.PlayerSerializer
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[Player]:
        if getattr(self, "swagger_fake_view", False):  # the schema's generator
            return Player.objects.none()
        return club_players(self.viewer).order_by(*by_name())

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        name_of = namer(request)
        rows = [{**player_ref(p, name_of), "initials": p.initials} for p in page]
        return self.get_paginated_response(s.PlayerSerializer(rows, many=True).data)


@extend_schema(
    summary="A player", tags=["players"], responses={200: s.PlayerSerializer, **NOT_YOURS}
)
class PlayerDetail(ClubEndpoint, APIView):
    permission_classes = [AllowAny]

    def get(self, request: Request, slug: str, pk: int) -> Response:
        player = get_object_or_404(club_players(self.viewer), pk=pk)
        name_of = namer(request)
        return Response(
            s.PlayerSerializer({**player_ref(player, name_of), "initials": player.initials}).data
        )
