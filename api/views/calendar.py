"""The club's calendar: the coming nights (public), a member's reply (signed in, or with the
signed link of his e-mail), and the club admin's replies with names."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from club.club_pages import access_for
from club.models import Player
from club.names import name_reader_of
from games import calendar
from games.calendar.presenters import CalendarEntry, calendar_entries, night_replies
from games.models import PlannedNight, Reply

from ..serializers import DetailSerializer
from ..serializers import calendar as cs
from .common import NOT_YOURS, REFUSED, ClubEndpoint

LINK_REFUSED = {
    404: OpenApiResponse(
        DetailSerializer, description="The link expired, was tampered with, or is not."
    )
}


def _entry(entry: CalendarEntry) -> dict[str, Any]:
    night = entry.night
    return {
        "id": night.pk,
        "date": night.date,
        "start": night.start,
        "name": night.name,
        "place": night.place,
        "rules": night.rules,
        "rounds": night.rounds,
        "cap": night.cap,
        "status": night.status,
        "deadline": entry.deadline,
        "open": entry.open,
        "yes": entry.yes,
        "maybe": entry.maybe,
        "no": entry.no,
        "waiting": entry.waiting,
        "guests": entry.guests,
        "tables": {
            "fours": entry.tables.fours,
            "fives": entry.tables.fives,
            "refusal": entry.tables.refusal,
        },
        "night": night.tournament_id,
    }


def _reply(night: PlannedNight, reply: Reply | None) -> dict[str, Any]:
    return {
        "night": night.pk,
        "answer": reply.answer if reply else None,
        "waiting": bool(reply and reply.waiting),
        "place": reply.place if reply and reply.waiting else None,
        "guests": reply.guests if reply else 0,
        "comment": reply.comment if reply else "",
        "answered": reply.answered if reply else None,
        "deadline": calendar.deadline(night),
    }


def _answer(request: Request, night: PlannedNight, player: Player) -> Response:
    body = cs.ReplySerializer(data=request.data)
    body.is_valid(raise_exception=True)
    if body.validated_data["answer"] is None:
        raise ValidationError("answer: yes, maybe or no")
    sent = body.validated_data
    reply = calendar.reply_set(
        night, player, sent["answer"], comment=sent.get("comment"), guests=sent.get("guests")
    )
    reply = Reply.objects.with_place().get(pk=reply.pk)
    return Response(cs.ReplySerializer(_reply(night, reply)).data)


@extend_schema(
    summary="A club's coming nights",
    description="Public: the planned nights from today, with the replies counted and the "
    "tables of 4 and 5 the expected count gives.",
    tags=["calendar"],
    responses={200: cs.PlannedNightSerializer(many=True), **NOT_YOURS},
)
class CalendarList(ClubEndpoint, APIView):
    permission_classes = [AllowAny]

    def get(self, request: Request, slug: str) -> Response:
        entries = calendar_entries(self.club, None, timezone.now())
        return Response(cs.PlannedNightSerializer([_entry(e) for e in entries], many=True).data)


def _own_night(request: Request, slug: str, pk: int) -> tuple[PlannedNight, Player]:
    night = get_object_or_404(PlannedNight.objects.select_related("club"), pk=pk, club__slug=slug)
    player = Player.objects.filter(user=request.user).first()
    if player is None or not access_for(request, night.club).is_member:
        raise Http404("members only")
    return night, player


class MyReply(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="My reply for a planned night",
        tags=["calendar"],
        responses={200: cs.ReplySerializer, **NOT_YOURS},
    )
    def get(self, request: Request, slug: str, pk: int) -> Response:
        night, player = _own_night(request, slug, pk)
        reply = Reply.objects.with_place().filter(night=night, player=player).first()
        return Response(cs.ReplySerializer(_reply(night, reply)).data)

    @extend_schema(
        summary="Answer for a planned night",
        description="yes, maybe or no, until the club's deadline, with an optional comment and "
        "guests (a yes only, 0–3; each takes a place). A yes past the cap waits (waiting: true, "
        "place: its place in line) and moves up by itself when a place frees. A field left out "
        "keeps what was said before.",
        tags=["calendar"],
        request=cs.ReplySerializer,
        responses={200: cs.ReplySerializer, **REFUSED, **NOT_YOURS},
    )
    def put(self, request: Request, slug: str, pk: int) -> Response:
        night, player = _own_night(request, slug, pk)
        return _answer(request, night, player)


class LinkReply(APIView):
    """The e-mail's signed link: one member, one night, no login."""

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    def _read(self, token: str) -> tuple[PlannedNight, Player]:
        try:
            return calendar.reply_link_read(token)
        except calendar.LinkRefused:
            raise Http404("link refused") from None

    @extend_schema(
        summary="The reply of a signed link",
        tags=["calendar"],
        responses={200: cs.ReplySerializer, **LINK_REFUSED},
    )
    def get(self, request: Request, token: str) -> Response:
        night, player = self._read(token)
        reply = Reply.objects.with_place().filter(night=night, player=player).first()
        return Response(cs.ReplySerializer(_reply(night, reply)).data)

    @extend_schema(
        summary="Answer with a signed link",
        description="The token of the e-mail's reply link: it answers for its member and its "
        "night only, expires, and changes nothing after the club's deadline.",
        tags=["calendar"],
        request=cs.ReplySerializer,
        responses={200: cs.ReplySerializer, **REFUSED, **LINK_REFUSED},
    )
    def put(self, request: Request, token: str) -> Response:
        night, player = self._read(token)
        return _answer(request, night, player)


@extend_schema(
    summary="A planned night's replies, with names",
    description="The club admin's: counts, who said what, the waiting list in order.",
    tags=["calendar"],
    responses={200: cs.NightRepliesSerializer, **NOT_YOURS},
)
class NightReplies(APIView):
    permission_classes = [IsAuthenticated]

    def get(self, request: Request, slug: str, pk: int) -> Response:
        night = get_object_or_404(
            PlannedNight.objects.select_related("club"), pk=pk, club__slug=slug
        )
        access_for(request, night.club).require_club_admin()
        entry = night_replies(night, timezone.now())
        name_of = name_reader_of(request.user).name
        names = {
            key: [
                {
                    "player": r.player_id,
                    "name": name_of(r.player),
                    "answered": r.answered,
                    "guests": r.guests,
                    "comment": r.comment,
                }
                for r in replies
            ]
            for key, replies in entry.names.items()
        }
        return Response(cs.NightRepliesSerializer({**_entry(entry), "names": names}).data)
