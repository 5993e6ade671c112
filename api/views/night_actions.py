"""What a scorer or a club admin does to a night: import a club-night file, close it, draw a
round's tables."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView

from club.club_pages import access_for
from club.permissions import CLUB_ADMIN
from games.models import Poule, Tournament
from games.nightfile import tournament_import
from scoring import services
from scoring.engine.errors import DocumentRefused

from .. import serializers as s
from .common import CONFLICT, NOT_YOURS, REFUSED, ClubEndpoint, namer, night_of
from .poules import poules_answer


@extend_schema(
    summary="Import a club-night file as a closed night",
    description=(
        "A ``club-night/1`` document of this club (docs/night-format.md), all or nothing: a "
        "refused document writes nothing and every problem comes back with its place "
        "(``poules[2].deals[7].tricks``), as the command line prints them. Club admins only "
        "(an import adds the file's unknown players as members and may open a season); the "
        "same night imported again answers 409 (``night_exists``)."
    ),
    tags=["scoring"],
    request=s.NightFileSerializer,
    responses={201: s.NightSerializer, **REFUSED, **NOT_YOURS, **CONFLICT},
)
class NightImport(ClubEndpoint, APIView):
    permission_classes = [IsAuthenticated]
    # Not a scorer's: the file's unknown names become members, its season may be opened.
    club_needs = CLUB_ADMIN

    def post(self, request: Request, slug: str) -> Response:
        club = self.club
        doc = request.data
        if not isinstance(doc, dict):
            raise ValidationError("the body must be a club-night/1 document (a JSON object)")
        if s.has_nul(doc):
            raise ValidationError("a NUL character (\\u0000) cannot be imported")
        if doc.get("club") != club.name:
            return Response(
                {
                    "detail": f"club: the document is not {club.name}'s night",
                    "problems": [
                        {
                            "code": "other_club",
                            "place": "club",
                            "message": f"the document is not {club.name}'s night",
                        }
                    ],
                },
                status=400,
            )
        try:
            with transaction.atomic():
                tournament = tournament_import(doc)
        except DocumentRefused as refused:
            problems = [
                {"code": error.code, "place": error.place, "message": error.message}
                for error in refused.errors
            ]
            return Response({"detail": str(refused), "problems": problems}, status=400)
        tournament = night_of(club.slug, tournament.pk)
        return Response(s.NightSerializer(tournament).data, status=201)


def _scorers_order(
    request: Request, slug: str, pk: int, serializer: type[Serializer]
) -> tuple[Tournament, dict[str, Any]]:
    """What a scorer's order to a night starts with: the night (404 if not the club's), the
    scorer's role (403), the order's body read by ``serializer`` (400)."""
    tournament = night_of(slug, pk)
    access_for(request, tournament.club).require_scorer()
    body = serializer(data=request.data)
    body.is_valid(raise_exception=True)
    return tournament, body.validated_data


@extend_schema(
    summary="Close a night",
    description=(
        "Locks the night and has the season ranking recomputed. Unfinished tables or rounds "
        "not drawn are refused (listed) unless ``unfinished_ok``. Scorers and club admins."
    ),
    tags=["scoring"],
    request=s.CloseSerializer,
    responses={200: s.NightSerializer, **REFUSED, **NOT_YOURS},
)
class NightClose(APIView):
    permission_classes = [IsAuthenticated]

    def post(self, request: Request, slug: str, pk: int) -> Response:
        tournament, asked = _scorers_order(request, slug, pk, s.CloseSerializer)
        services.tournament_close(tournament, unfinished_ok=asked["unfinished_ok"])
        return Response(s.NightSerializer(night_of(slug, pk)).data)


@extend_schema(
    summary="Draw a round's tables",
    description=(
        "Seats tonight's present players at tables of 4 (and 5 as needed). A round can be "
        "drawn again until its first deal. Scorers and club admins."
    ),
    tags=["scoring"],
    request=s.DrawSerializer,
    responses={201: s.DrawResultSerializer, **REFUSED, **NOT_YOURS},
)
class RoundDraw(APIView):
    permission_classes = [IsAuthenticated]

    def post(self, request: Request, slug: str, pk: int, round: int) -> Response:
        tournament, asked = _scorers_order(request, slug, pk, s.DrawSerializer)
        draw = services.round_draw(tournament, round, seed=asked.get("seed"), by=request.user)
        poules = Poule.objects.filter(tournament=tournament, round=round)
        data = {
            "round": round,
            "seed": draw.seed,
            "repeats": draw.repeats,
            "poules": poules_answer(tournament, poules, namer(request)),
        }
        return Response(s.DrawResultSerializer(data).data, status=201)
