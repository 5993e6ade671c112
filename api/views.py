"""The API's endpoints: thin views over the site's services, asking the same permission
functions as the pages (club/permissions.py, games/visibility.py). A member of the club is
told he may not (403); anybody else learns nothing of the club's private data (404)."""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.http import http_date, parse_http_date_safe
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from club.models import Club, Membership, Player, Season
from club.permissions import (
    is_club_admin,
    is_member,
    is_scorer,
    require_club_admin,
    require_scorer,
)
from club.profile import ProfileForm, profile_update
from club.published import PAGE_SECONDS, fragment_key, page_etag
from games import visibility
from games.models import Deal, Poule, Seat, Tournament
from games.nightfile import tournament_export, tournament_import
from scoring import services
from scoring.engine.errors import DocumentRefused
from scoring.engine.standings import decimal_string
from scoring.member_data import member_data
from scoring.models import PouleStanding, RankingLine, RankingSnapshot, TournamentStanding

from . import serializers as s
from .errors import refusal
from .filters import NightFilter, ResultFilter

REFUSED = {
    400: OpenApiResponse(s.RefusalSerializer, description="Refused, each problem located."),
}
NOT_YOURS = {
    403: OpenApiResponse(description="A member of the club who may not."),
    404: OpenApiResponse(description="Not found, or not the reader's to see."),
}
PRECONDITION = {
    428: OpenApiResponse(
        s.RefusalSerializer, description="The deal's version (as read) was not sent."
    )
}
CONFLICT = {
    409: OpenApiResponse(
        s.RefusalSerializer,
        description="The sheet changed meanwhile, or the table has its deals: nothing written.",
    )
}


def _club(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


def _night(slug: str, pk: int) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("club", "season", "point_table"), pk=pk, club__slug=slug
    )


def _namer(public: bool) -> Callable[[Player], str]:
    if public:
        return lambda player: player.public_display_name
    return lambda player: player.display_name


def _player(player: Player, name_of: Callable[[Player], str]) -> dict[str, Any]:
    return {"id": player.pk, "name": name_of(player)}


def _deal(deal: Deal) -> dict[str, Any]:
    return {
        "id": deal.pk,
        "number": deal.number,
        "data": deal.data,
        "dealer": deal.dealer,
        "points": deal.points,
        "counted": deal.counted,
        "version": services.deal_version(deal),
    }


DEAL_FIELDS = ("id", "poule_id", "number", "data", "dealer", "points", "counted", "recorded_at")


def _deal_row(row: dict[str, Any]) -> dict[str, Any]:
    """A deal read as plain values (a night has hundreds): the same answer as ``_deal``."""
    return {
        "id": row["id"],
        "number": row["number"],
        "data": row["data"],
        "dealer": row["dealer"],
        "points": row["points"],
        "counted": row["counted"],
        "version": row["recorded_at"].isoformat(),
    }


def _poule_lines(line: PouleStanding, name_of: Callable[[Player], str]) -> dict[str, Any]:
    return {
        "player": _player(line.player, name_of),
        "seat": line.seat,
        "rank": line.rank,
        "tied": line.tied,
        "game_points": line.game_points,
        "tournament_points": decimal_string(line.tournament_points),
    }


def _poules(poules: QuerySet[Poule], name_of: Callable[[Player], str]) -> list[dict[str, Any]]:
    """Every poule with its seats, deals and standings: four queries, however many."""
    poules = list(
        poules.order_by("round", "table").prefetch_related(
            Prefetch("seats", Seat.objects.select_related("player").order_by("number")),
            Prefetch(
                "standings",
                PouleStanding.objects.select_related("player").order_by("rank", "seat"),
            ),
        )
    )
    deals: dict[int, list[dict[str, Any]]] = {poule.pk: [] for poule in poules}
    rows = Deal.objects.filter(poule__in=[p.pk for p in poules]).order_by("poule_id", "number")
    for row in rows.values(*DEAL_FIELDS):
        deals[row["poule_id"]].append(_deal_row(row))
    return [
        {
            "id": poule.pk,
            "round": poule.round,
            "table": poule.table,
            "seats": [
                {"number": seat.number, "player": _player(seat.player, name_of)}
                for seat in poule.seats.all()
            ],
            "deals": deals[poule.pk],
            "standings": [_poule_lines(line, name_of) for line in poule.standings.all()],
        }
        for poule in poules
    ]


def night_detail(tournament: Tournament, public: bool) -> dict[str, Any]:
    """A night with its standings, poules, deals and points, as stored (nothing recomputed)."""
    name_of = _namer(public)
    data = dict(s.NightSerializer(tournament).data)
    data["tournament_points"] = tournament.tournament_points
    data["standings"] = [
        {
            "player": _player(line.player, name_of),
            "rank": line.rank,
            "tied": line.tied,
            "tournament_points": decimal_string(line.tournament_points),
            "game_points": line.game_points,
            "poules_played": line.poules_played,
            "poules_won": line.poules_won,
        }
        for line in TournamentStanding.objects.of_tournament(tournament)
    ]
    data["poules"] = _poules(Poule.objects.filter(tournament=tournament), name_of)
    return data


def published_read(
    request: Request, club: Club, parts: tuple[Any, ...], build: Callable[[], Any]
) -> Response:
    """A published read (a ranking, a published night): ``304`` when the client's copy is the
    club's latest (its ETag holds the club's stamp), else the document from the server's
    cache, drawn once per stamp (a publication, a correction moves it: nothing is stale)."""
    etag = page_etag(request, club, "api", *parts)
    changed = int(club.pages_changed.timestamp())
    headers = {
        "ETag": etag,
        "Last-Modified": http_date(changed),
        "Cache-Control": f"{'private' if request.user.is_authenticated else 'public'}, no-cache",
    }
    # RFC 9110: If-Modified-Since counts only when no If-None-Match is sent. Last-Modified has
    # whole seconds, so a copy dated the stamp's second is the latest.
    if "If-None-Match" in request.headers:
        unchanged = etag in request.headers["If-None-Match"]
    else:
        since = parse_http_date_safe(request.headers.get("If-Modified-Since", ""))
        unchanged = since is not None and changed <= since
    if unchanged:
        return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()[:16]
    data = cache.get_or_set(fragment_key(club, "api", digest), build, PAGE_SECONDS)
    return Response(data, headers=headers)


# --------------------------------------------------------------------------------------------
# Clubs, seasons, rankings, players


@extend_schema(summary="The site's clubs", tags=["clubs"])
class ClubList(generics.ListAPIView):
    permission_classes = [AllowAny]
    serializer_class = s.ClubSerializer
    queryset = Club.objects.order_by("name")
    filter_backends: list[Any] = []


@extend_schema(summary="A club", tags=["clubs"], responses={200: s.ClubSerializer, **NOT_YOURS})
class ClubDetail(APIView):
    permission_classes = [AllowAny]

    def get(self, request: Request, slug: str) -> Response:
        return Response(s.ClubSerializer(_club(slug)).data)


@extend_schema(summary="A club's seasons, newest first", tags=["seasons"])
class SeasonList(generics.ListAPIView):
    permission_classes = [AllowAny]
    serializer_class = s.SeasonSerializer
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[Season]:
        club = _club(self.kwargs["slug"])
        latest = (
            RankingSnapshot.objects.published()
            .filter(season=OuterRef("pk"))
            .order_by("-published_at")
            .values("published_at")[:1]
        )
        return club.seasons.annotate(ranking_published_at=Subquery(latest)).order_by("-start")


def _ranking(snapshot: RankingSnapshot, club: Club) -> dict[str, Any]:
    lines = snapshot.lines.in_order().select_related("player")
    return {
        "club": club.slug,
        "season": snapshot.season.slug,
        "provisional": snapshot.published_at is None,
        "published_at": snapshot.published_at,
        "computed_at": snapshot.computed_at,
        "tournaments": snapshot.tournaments,
        "rules": snapshot.rules,
        "lines": [
            {
                "rank": line.rank,
                "tied": line.tied,
                "player": _player(line.player, _namer(True)),
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
        "The latest published ranking, players under their public names. ``?provisional=true``: "
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
        club = _club(slug)
        season_obj = get_object_or_404(
            Season.objects.select_related("club"), club=club, slug=season
        )
        if request.query_params.get("provisional", "").lower() in ("1", "true", "yes"):
            require_club_admin(request.user, club)
            live = RankingSnapshot.objects.filter(season=season_obj).live().first()
            if live is None:
                raise Http404("no provisional ranking yet")
            return Response(s.RankingSerializer(_ranking(live, club)).data)
        snapshot = (
            RankingSnapshot.objects.filter(season=season_obj)
            .latest_published()
            .select_related("season")
            .first()
        )
        if snapshot is None:
            raise Http404("this season's ranking is not published")

        def build() -> Any:
            return s.RankingSerializer(_ranking(snapshot, club)).data

        return published_read(request, club, ("ranking", season_obj.pk), build)


def club_players(user: Any, club: Club) -> QuerySet[Player]:
    """The club's players this reader may know of. The public: those the club has published
    (a published night's standings, a published ranking), as the site's public pages show
    them; the club's members: its current membership; club admins: everybody it ever had."""
    if is_club_admin(user, club):
        return Player.objects.filter(pk__in=Membership.objects.filter(club=club).values("player"))
    if is_member(user, club):
        return Player.objects.filter(
            pk__in=Membership.objects.filter(club=club, end__isnull=True).values("player")
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
class PlayerList(generics.ListAPIView):
    permission_classes = [AllowAny]
    serializer_class = s.PlayerSerializer
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[Player]:
        if getattr(self, "swagger_fake_view", False):  # the schema's generator
            return Player.objects.none()
        self.club = _club(self.kwargs["slug"])
        return club_players(self.request.user, self.club).order_by("display_name", "pk")

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        name_of = _namer(not is_member(request.user, self.club))
        rows = [{**_player(p, name_of), "initials": p.initials} for p in page]
        return self.get_paginated_response(s.PlayerSerializer(rows, many=True).data)


@extend_schema(
    summary="A player", tags=["players"], responses={200: s.PlayerSerializer, **NOT_YOURS}
)
class PlayerDetail(APIView):
    permission_classes = [AllowAny]

    def get(self, request: Request, slug: str, pk: int) -> Response:
        club = _club(slug)
        player = get_object_or_404(club_players(request.user, club), pk=pk)
        name_of = _namer(not is_member(request.user, club))
        return Response(
            s.PlayerSerializer({**_player(player, name_of), "initials": player.initials}).data
        )


# --------------------------------------------------------------------------------------------
# Nights

# What a list shows of each night: not its point table's data nor its club's settings (JSON
# decoded on every row for nothing).
NIGHT_LIST_FIELDS = (
    "id",
    "date",
    "name",
    "game",
    "status",
    "rounds",
    "club",
    "season",
    "point_table",
    "club__slug",
    "season__slug",
    "point_table__name",
)


@extend_schema(
    summary="A club's nights",
    description=(
        "Published nights for everybody; every night of the club for its scorers and club "
        "admins. Filter by season, date and game."
    ),
    tags=["nights"],
)
class NightList(generics.ListAPIView):
    permission_classes = [AllowAny]
    serializer_class = s.NightSerializer
    filterset_class = NightFilter

    def get_queryset(self) -> QuerySet[Tournament]:
        if getattr(self, "swagger_fake_view", False):  # the schema's generator
            return Tournament.objects.none()
        club = _club(self.kwargs["slug"])
        nights = (
            Tournament.objects.filter(club=club)
            .select_related("club", "season", "point_table")
            .only(*NIGHT_LIST_FIELDS)
        )
        if not is_scorer(self.request.user, club):
            nights = nights.filter(status=Tournament.Status.PUBLISHED)
        return nights.order_by("-date", "-pk")


@extend_schema(
    summary="A night: standings, poules, deals and points",
    description=(
        "A published night for everybody (members named by their public names outside the "
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
        tournament = _night(slug, pk)
        visibility.require_sheet_reader(request.user, tournament)
        public = visibility.shows_public_names(request.user, tournament)
        if tournament.status != Tournament.Status.PUBLISHED:
            return Response(night_detail(tournament, public))

        def build() -> Any:
            return night_detail(tournament, public)

        return published_read(request, tournament.club, ("night", tournament.pk, public), build)


@extend_schema(
    summary="A night as a club-night file (club-night-result/1)",
    description=(
        "Scorers: any night of their club, members named as the club knows them. Everybody "
        "else: a published night, public names."
    ),
    tags=["nights"],
    responses={200: OpenApiTypes.OBJECT, **NOT_YOURS},
)
class NightExport(APIView):
    permission_classes = [AllowAny]

    def get(self, request: Request, slug: str, pk: int) -> Response:
        tournament = _night(slug, pk)
        if is_scorer(request.user, tournament.club):
            return Response(tournament_export(tournament))
        visibility.require_sheet_reader(request.user, tournament)
        return Response(tournament_export(tournament, name_of=_namer(True)))


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
class NightImport(APIView):
    permission_classes = [IsAuthenticated]

    def post(self, request: Request, slug: str) -> Response:
        club = _club(slug)
        # Not a scorer's: the file's unknown names become members, its season may be opened.
        require_club_admin(request.user, club)
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
        tournament = _night(club.slug, tournament.pk)
        return Response(s.NightSerializer(tournament).data, status=201)


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
        tournament = _night(slug, pk)
        require_scorer(request.user, tournament.club)
        body = s.CloseSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.tournament_close(tournament, unfinished_ok=body.validated_data["unfinished_ok"])
        return Response(s.NightSerializer(_night(slug, pk)).data)


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
        tournament = _night(slug, pk)
        require_scorer(request.user, tournament.club)
        body = s.DrawSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        draw = services.round_draw(
            tournament, round, seed=body.validated_data.get("seed"), by=request.user
        )
        poules = Poule.objects.filter(tournament=tournament, round=round)
        data = {
            "round": round,
            "seed": draw.seed,
            "repeats": draw.repeats,
            "poules": _poules(poules, _namer(False)),
        }
        return Response(s.DrawResultSerializer(data).data, status=201)


def _seat_names(poule: Poule) -> dict[str, str]:
    return {
        str(seat.number): seat.player.display_name for seat in poule.seats.select_related("player")
    }


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
        tournament = _night(slug, pk)
        if tournament.is_locked:
            late = self._late_retry(request, tournament, poule_pk)
            if late is not None:
                return late
        visibility.require_sheet_editor(request.user, tournament)
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
            return refusal(refused, _seat_names(poule))
        replayed = getattr(deal, "replayed", False)
        answer = {**_deal(deal), "replayed": replayed}
        return Response(s.DealSerializer(answer).data, status=200 if replayed else 201)

    def _late_retry(self, request: Request, tournament: Tournament, poule_pk: int) -> Any:
        """A scorer's retry that arrives after the night was closed (the first answer was
        lost, the phone sends again): the deal was recorded while the night ran, so it is
        answered as stored (200, ``replayed``), not refused for the closed night. Anything
        else (no key, a key the poule does not know): None, and the usual refusal follows."""
        if not is_scorer(request.user, tournament.club):
            return None
        body = s.DealRecordSerializer(data=request.data)
        if not body.is_valid() or body.validated_data.get("client_key") is None:
            return None
        deal = Deal.objects.filter(
            poule__pk=poule_pk,
            poule__tournament=tournament,
            client_key=body.validated_data["client_key"],
        ).first()
        if deal is None:
            return None
        try:
            services.key_reused_check(deal, body.validated_data["deal"])
        except ValidationError as refused:
            return refusal(refused)
        return Response(s.DealSerializer({**_deal(deal), "replayed": True}).data, status=200)


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
    tournament = _night(slug, pk)
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
        visibility.require_sheet_editor(request.user, tournament)
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
            return refusal(refused, _seat_names(deal.poule))
        return Response(s.DealSerializer(_deal(corrected)).data)

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
        visibility.require_sheet_editor(request.user, tournament)
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
            return refusal(refused, _seat_names(deal.poule))
        return Response(status=204)


# --------------------------------------------------------------------------------------------
# The member's own


def _own_player(request: Request) -> Player:
    player = Player.objects.filter(user=request.user).first()
    if player is None:
        raise Http404("this account has no player yet")
    return player


def _profile(player: Player) -> dict[str, Any]:
    memberships = (
        Membership.objects.filter(player=player, end__isnull=True)
        .select_related("club")
        .order_by("club__name")
    )
    return {
        "id": player.pk,
        "display_name": player.display_name,
        "public_name": player.public_name,
        "public_display_name": player.public_display_name,
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
            .select_related("tournament__club", "tournament__season", "tournament__point_table")
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
