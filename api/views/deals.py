"""A poule's deals: recorded, corrected and deleted through the same services as the score
sheet, each write checked against the version the client read."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from club.club_pages import access_for
from games import visibility
from games.models import Deal, Poule, Tournament
from scoring import services

from .. import serializers as s
from ..errors import refusal
from .common import CONFLICT, NOT_YOURS, PRECONDITION, REFUSED, namer, night_of
from .poules import deal_answer


def _seat_names(request: Request, poule: Poule) -> dict[str, str]:
    """The seats as the refusals name them, as this scorer may see each player."""
    name_of = namer(request)
    return {str(seat.number): name_of(seat.player) for seat in poule.seats.select_related("player")}


@extend_schema(
    summary="Record a deal at a poule",
    description=(
        "Appends the deal to the poule's sheet and scores it, as the score sheet does. Send "
        "a ``client_key``: a retry after a lost answer returns the deal stored the first time "
        "(200, ``replayed``) and records nothing, even once the night is closed; the same key "
        "with another deal answers 409 (``key_reused``). Scorers until the night is closed."
    ),
    tags=["scoring"],
    request=s.DealRecordSerializer,
    responses={
        201: s.DealSerializer,
        200: OpenApiResponse(s.DealSerializer, description="Replayed: recorded before."),
        **REFUSED,
        **NOT_YOURS,
        **CONFLICT,
    },
)
class DealRecord(APIView):
    permission_classes = [IsAuthenticated]

    def post(self, request: Request, slug: str, pk: int, poule_pk: int) -> Response:
        tournament = night_of(slug, pk)
        if tournament.is_locked:
            late = self._late_retry(request, tournament, poule_pk)
            if late is not None:
                return late
        visibility.require_sheet_editor(access_for(request, tournament.club), tournament)
        poule = get_object_or_404(Poule, pk=poule_pk, tournament=tournament)
        poule.tournament = tournament
        body = s.DealRecordSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        given = body.validated_data
        try:
            deal = services.deal_record(
                poule,
                given["deal"],
                request.user,
                client_key=given.get("client_key"),
                seen=given.get("seen"),
                longer=given["longer"],
            )
        except ValidationError as refused:
            return refusal(refused, _seat_names(request, poule))
        replayed = getattr(deal, "replayed", False)
        answer = {**deal_answer(deal, tournament, namer(request)), "replayed": replayed}
        return Response(s.DealSerializer(answer).data, status=200 if replayed else 201)

    def _late_retry(self, request: Request, tournament: Tournament, poule_pk: int) -> Any:
        """A scorer's retry that arrives after the night was closed (the first answer was
        lost, the phone sends again): the deal was recorded while the night ran, so it is
        answered as stored (200, ``replayed``), not refused for the closed night. Anything
        else (no key, a key the poule does not know): None, and the usual refusal follows."""
        if not access_for(request, tournament.club).is_scorer:
            return None
        body = s.DealRecordSerializer(data=request.data)
        if not body.is_valid() or body.validated_data.get("client_key") is None:
            return None
        given = body.validated_data
        try:
            deal = services.deal_resent(tournament, poule_pk, given["client_key"], given["deal"])
        except ValidationError as refused:
            return refusal(refused)
        if deal is None:
            return None
        return Response(
            s.DealSerializer(
                {**deal_answer(deal, tournament, namer(request)), "replayed": True}
            ).data,
            status=200,
        )


VERSION_PARAMETERS = [
    OpenApiParameter(
        "If-Match",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        description="The deal's ``version`` as the client read it (instead of ``version``).",
    ),
]


def _version(request: Request, given: str | None = None) -> str | None:
    """The deal's version as the client read it: in the body, in ``?version=`` (a DELETE
    often has no body), or in If-Match (quotes allowed, as HTTP writes entity tags)."""
    if given is None and isinstance(request.data, dict):
        given = request.data.get("version")
    version = given or request.query_params.get("version") or request.headers.get("If-Match")
    if not version:
        return None
    version = str(version).strip()
    return version.removeprefix("W/").strip('"') or None


def _version_required() -> Response:
    """Without the version read, a client would overwrite or delete a deal someone else
    corrected meanwhile, unseen: 428 Precondition Required, said in words."""
    message = _(
        "Envoyez la version de la donne telle que vous l'avez lue (« version », ou l'en-tête "
        "If-Match) : sans elle, une correction faite entre-temps serait écrasée."
    )
    return Response(
        {
            "detail": message,
            "problems": [{"code": "version_required", "place": "version", "message": message}],
        },
        status=428,
    )


def _deal_of(slug: str, pk: int, deal_pk: int) -> tuple[Tournament, Deal]:
    tournament = night_of(slug, pk)
    deal = get_object_or_404(
        Deal.objects.select_related("poule"), pk=deal_pk, poule__tournament=tournament
    )
    deal.poule.tournament = tournament
    return tournament, deal


class DealEdit(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Correct a deal",
        description=(
            "Replaces the deal; every later point and standing follows, and the change is kept "
            "in the poule's history. Send the ``version`` read with the deal (or If-Match): "
            "without it 428, a deal corrected meanwhile by someone else answers 409. Scorers "
            "until the night is closed, club admins afterwards."
        ),
        tags=["scoring"],
        parameters=VERSION_PARAMETERS,
        request=s.DealCorrectSerializer,
        responses={200: s.DealSerializer, **REFUSED, **NOT_YOURS, **CONFLICT, **PRECONDITION},
    )
    def put(self, request: Request, slug: str, pk: int, deal_pk: int) -> Response:
        tournament, deal = _deal_of(slug, pk, deal_pk)
        visibility.require_sheet_editor(access_for(request, tournament.club), tournament)
        body = s.DealCorrectSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        version = _version(request, body.validated_data.get("version"))
        if version is None:
            return _version_required()
        try:
            corrected = services.deal_correct(
                deal,
                body.validated_data["deal"],
                request.user,
                closed_ok=tournament.is_locked,
                version=version,
            )
        except ValidationError as refused:
            return refusal(refused, _seat_names(request, deal.poule))
        return Response(s.DealSerializer(deal_answer(corrected, tournament, namer(request))).data)

    @extend_schema(
        summary="Delete a deal",
        description=(
            "Later deals move up one number; the removed deal stays in the history. Send the "
            "``version`` read with the deal (``?version=`` or If-Match): without it 428, a deal "
            "corrected meanwhile answers 409."
        ),
        tags=["scoring"],
        parameters=[
            OpenApiParameter(
                "version", OpenApiTypes.STR, description="The deal's ``version`` as read."
            ),
            *VERSION_PARAMETERS,
        ],
        responses={204: None, **REFUSED, **NOT_YOURS, **CONFLICT, **PRECONDITION},
    )
    def delete(self, request: Request, slug: str, pk: int, deal_pk: int) -> Response:
        tournament, deal = _deal_of(slug, pk, deal_pk)
        visibility.require_sheet_editor(access_for(request, tournament.club), tournament)
        version = _version(request)
        if version is None:
            return _version_required()
        try:
            with transaction.atomic():
                # Locked while compared, so a correction cannot slip in between.
                current = Deal.objects.select_for_update().filter(pk=deal.pk).first()
                if current is not None and services.deal_version(current) != version:
                    return refusal(
                        services.DealConflict(
                            _(
                                "La donne a été corrigée par quelqu'un d'autre entre-temps : "
                                "elle n'a pas été retirée. Relisez-la avant de la retirer."
                            ),
                            code="deal_changed",
                        )
                    )
                services.deal_delete(deal, request.user, closed_ok=tournament.is_locked)
        except ValidationError as refused:
            return refusal(refused, _seat_names(request, deal.poule))
        return Response(status=204)
