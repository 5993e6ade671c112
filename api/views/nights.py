"""A club's nights: the list, one night with its poules and deals, its club-night file."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from club.club_pages import access_for
from games import visibility
from games.models import Tournament
from games.nightfile_export import tournament_export

from .. import serializers as s
from ..filters import NightFilter
from .common import (
    NIGHT_LIST_FIELDS,
    NIGHT_RELATED,
    NOT_YOURS,
    ClubEndpoint,
    namer,
    night_of,
    published_read,
)
from .poules import night_detail


@extend_schema(
    summary="A club's nights",
    description=(
        "Published nights for everybody; every night of the club for its scorers and club "
        "admins. Filter by season, date and game."
    ),
    tags=["nights"],
)
class NightList(ClubEndpoint, generics.ListAPIView):
    permission_classes = [AllowAny]
    serializer_class = s.NightSerializer
    filterset_class = NightFilter

    def get_queryset(self) -> QuerySet[Tournament]:
        if getattr(self, "swagger_fake_view", False):  # the schema's generator
            return Tournament.objects.none()
        club = self.club
        nights = (
            Tournament.objects.filter(club=club)
            .select_related(*NIGHT_RELATED)
            .only(*NIGHT_LIST_FIELDS)
        )
        if not self.viewer.is_scorer:
            nights = nights.filter(status=Tournament.Status.PUBLISHED)
        return nights.order_by("-date", "-pk")


@extend_schema(
    summary="A night: standings, poules, deals and points",
    description=(
        "A published night for everybody (members who chose initials named by them outside the "
        "club), any night of the club for its scorers. A published night has an ETag."
    ),
    tags=["nights"],
    responses={
        200: s.NightDetailSerializer,
        304: OpenApiResponse(description="Unchanged."),
        **NOT_YOURS,
    },
)
class NightDetail(APIView):
    permission_classes = [AllowAny]

    def get(self, request: Request, slug: str, pk: int) -> Response:
        tournament = night_of(slug, pk)
        visibility.require_sheet_reader(access_for(request, tournament.club), tournament)
        name_of = namer(request)
        if tournament.status != Tournament.Status.PUBLISHED:
            return Response(night_detail(tournament, name_of))

        def build() -> Any:
            return night_detail(tournament, name_of)

        return published_read(request, tournament.club, ("night", tournament.pk), build)


@extend_schema(
    summary="A night as a club-night file (club-night-result/1)",
    description=(
        "Scorers: any night of their club. Everybody else: a published night. Players named as "
        "the reader may see them: initials, if chosen, outside the player's clubs."
    ),
    tags=["nights"],
    responses={200: s.NightFileSerializer, **NOT_YOURS},
)
class NightExport(APIView):
    permission_classes = [AllowAny]

    def get(self, request: Request, slug: str, pk: int) -> Response:
        tournament = night_of(slug, pk)
        viewer = access_for(request, tournament.club)
        if not viewer.is_scorer:
            visibility.require_sheet_reader(viewer, tournament)
        return Response(tournament_export(tournament, name_of=namer(request)))
