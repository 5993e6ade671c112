"""The member's own: his profile, his nights, his data."""

from __future__ import annotations

import copy
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from club.models import Membership, Player
from club.names import PUBLIC, name_shown
from club.profile import ProfileForm, profile_update
from games.models import Tournament
from scoring.member_data import member_data
from scoring.models import TournamentStanding

from .. import serializers as s
from ..filters import ResultFilter
from .common import NIGHT_LIST_FIELDS, NIGHT_RELATED, REFUSED


def _own_player(request: Request) -> Player:
    player = Player.objects.filter(user=request.user).first()
    if player is None:
        raise Http404("this account has no player yet")
    return player


def _profile(player: Player) -> dict[str, Any]:
    memberships = (
        Membership.objects.current()
        .filter(player=player)
        .select_related("club")
        .order_by("club__name")
    )
    return {
        "id": player.pk,
        "display_name": player.display_name,
        "public_name": player.public_name,
        "public_display_name": name_shown(player, PUBLIC),
        "initials": player.initials,
        "email": player.email,
        "phone": player.phone,
        "language": player.language,
        "result_emails": player.result_emails,
        "clubs": [{"club": m.club.slug, "name": m.club.name, "role": m.role} for m in memberships],
    }


class Me(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="My profile", tags=["me"], responses={200: s.ProfileSerializer})
    def get(self, request: Request) -> Response:
        return Response(s.ProfileSerializer(_profile(_own_player(request))).data)

    @extend_schema(
        summary="Change my profile",
        description="What the profile page changes, but the photo and the e-mail address.",
        tags=["me"],
        request=s.ProfileSerializer,
        responses={200: s.ProfileSerializer, **REFUSED},
    )
    def patch(self, request: Request) -> Response:
        player = _own_player(request)
        body = s.ProfileSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        current = {
            field: getattr(player, field)
            for field in ("display_name", "phone", "language", "public_name", "result_emails")
        }
        data = {**current, **body.validated_data, "email": player.email or request.user.email}
        if not data["result_emails"]:
            data.pop("result_emails")  # an unticked box is absent from a form
        form = ProfileForm(data, instance=copy.copy(player))
        if not form.is_valid():
            problems = [
                {"code": "invalid", "place": field, "message": str(message)}
                for field, messages in form.errors.items()
                for message in messages
            ]
            detail = " ".join(p["message"] for p in problems)
            return Response({"detail": detail, "problems": problems}, status=400)
        profile_update(player, form)
        player.refresh_from_db()
        return Response(s.ProfileSerializer(_profile(player)).data)


@extend_schema(
    summary="My nights, with rank and points",
    description="Closed and published nights of every club he plays in; newest first.",
    tags=["me"],
)
class MyResults(generics.ListAPIView):
    permission_classes = [IsAuthenticated]
    serializer_class = s.MyResultSerializer
    filterset_class = ResultFilter

    def get_queryset(self) -> QuerySet[TournamentStanding]:
        if getattr(self, "swagger_fake_view", False):  # the schema's generator
            return TournamentStanding.objects.none()
        player = Player.objects.filter(user=self.request.user).first()
        if player is None:
            return TournamentStanding.objects.none()
        return (
            TournamentStanding.objects.filter(
                player=player,
                tournament__status__in=[Tournament.Status.CLOSED, Tournament.Status.PUBLISHED],
            )
            .select_related(*(f"tournament__{related}" for related in NIGHT_RELATED))
            .only(
                "rank",
                "tied",
                "tournament_points",
                "game_points",
                "poules_played",
                "poules_won",
                "tournament",
                *(f"tournament__{field}" for field in NIGHT_LIST_FIELDS),
            )
            .order_by("-tournament__date", "-tournament_id")
        )


@extend_schema(
    summary="My data (member-data/1)",
    description="Everything the site keeps about me: the profile page's download, as JSON.",
    tags=["me"],
    responses={200: OpenApiTypes.OBJECT},
)
class MyData(APIView):
    permission_classes = [IsAuthenticated]

    def get(self, request: Request) -> Response:
        return Response(member_data(request.user, _own_player(request)))
