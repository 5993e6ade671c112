"""What is played, and how it is set up: point tables and their versions, a club night's
creation, who is present, its poules. One function per state change; views, the API, admin
actions, importers and the scoring services call these. Recording deals and everything that
follows from them (standings, closing, rankings) is ``scoring.services``."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Max, Q, QuerySet
from django.utils.translation import gettext as _

from club import services as club_services
from club.models import Club, FederationSeason, Membership, Player, Season
from scoring.engine.games import game_module
from scoring.engine.tables import PRESET_GAME, preset_data

from .models import DrawMethod, PointTable, Poule, Seat, Tournament, point_table_checksum


def require_open(tournament: Tournament, *, closed_ok: bool = False) -> None:
    """A closed night's sheets no longer change (``closed_ok``: a club admin corrects it)."""
    if tournament.is_locked and not closed_ok:
        raise ValidationError(_("La soirée est clôturée : ses feuilles ne peuvent plus changer."))


# Point tables


@transaction.atomic
def point_table_revise(point_table: PointTable, data: Any, label: str | None = None) -> PointTable:
    """Change a point table. A table that has scored a deal is never edited in place: the
    change becomes its next version, and past results keep the version they were scored with."""
    if point_table.pk:
        # Locked: two saves at once take their turns (one edit in place is not lost under
        # the other, and the second sees the version the first made).
        point_table = PointTable.objects.select_for_update().get(pk=point_table.pk)
    unchanged = point_table_checksum(data) == point_table.checksum and label in (
        None,
        point_table.label,
    )
    if point_table.pk and unchanged:
        return point_table  # nothing changed: no new version
    if point_table.pk and point_table.is_used:
        latest = PointTable.objects.filter(name=point_table.name).order_by("-version").first()
        point_table = PointTable(
            club=point_table.club,
            game=point_table.game,
            name=point_table.name,
            version=(latest.version if latest else point_table.version) + 1,
            label=point_table.label,
        )
    point_table.data = data
    if label is not None:
        point_table.label = label
    point_table.full_clean()
    point_table.save()
    return point_table


def point_table_for_preset(name: str, club: Club | None = None) -> PointTable:
    """The latest stored version of a preset, created from the shipped JSON the first time;
    for a club that changed it (``games.point_tables``), the club's own latest version."""
    if club is not None:
        own = PointTable.objects.filter(club=club, name=name).order_by("-version").first()
        if own is not None:
            return own
    point_table = (
        PointTable.objects.filter(name=name, club__isnull=True).order_by("-version").first()
    )
    if point_table is not None:
        return point_table
    data = preset_data(name)
    point_table = PointTable(
        game=PRESET_GAME[name], name=name, version=1, label=data.get("label", name), data=data
    )
    point_table.full_clean()
    point_table.save()
    return point_table


def point_table_for_data(data: dict[str, Any], club: Club) -> PointTable:
    """The point table of a night ``club`` imports: a version it may already play with
    exactly this data (same checksum): its own first, then a shared one; else the data is
    stored as the club's own next version of its name.

    A file's table is never stored as a shared one: the shared versions of a preset are what
    every other club's next nights use, and a club's file (its own edited table, exported
    with the night) must not become theirs."""
    checksum = point_table_checksum(data)
    existing = (
        PointTable.objects.filter(Q(club=club) | Q(club__isnull=True), checksum=checksum)
        .order_by(F("club").desc(nulls_last=True), "-version")
        .first()
    )
    if existing is not None:
        return existing
    name = str(data.get("name") or "custom")[:60]
    latest = PointTable.objects.filter(Q(club=club) | Q(club__isnull=True), name=name).aggregate(
        top=Max("version")
    )["top"]
    point_table = PointTable(
        club=club,
        game=data.get("game", ""),
        name=name,
        version=(latest or 0) + 1,
        label=str(data.get("label", name))[:120],
        data=data,
    )
    point_table.full_clean()
    point_table.save()
    return point_table


# A club night's set-up


def tournament_create(
    *,
    club: Club,
    season: Season,
    date: datetime.date,
    game: str,
    point_table: PointTable,
    name: str = "",
    tournament_points: Any = None,
    rounds: int | None = None,
    draw_method: str = DrawMethod.AVOID_REPEATS,
    federation_season: FederationSeason | None = None,
    checked: bool = False,
    status: str = Tournament.Status.PLANNED,
) -> Tournament:
    """A new night of ``club``; with ``federation_season``, an inter-club night the club hosts
    for its federation. ``checked``: the caller read the club, the seasons and the point table
    in this transaction and found no such night (an import): the night's own rules are checked,
    not those links again in the database (its constraints still guard the row). An import
    creates its night running (``status``): its rows follow at once, then its close."""
    tournament = Tournament(
        federation_season=federation_season,
        draw_method=draw_method,
        club=club,
        season=season,
        date=date,
        name=name,
        game=game,
        point_table=point_table,
        tournament_points=tournament_points or club.tournament_points,
        rounds=rounds or club.rounds_per_night,
        status=status,
    )
    if checked:
        links = {"club", "season", "point_table", "federation_season"}
        tournament.full_clean(exclude=links, validate_unique=False, validate_constraints=False)
    else:
        tournament.full_clean()
    tournament.save()
    if federation_season is not None:
        # The federation's calendar lists its coming inter-club nights.
        club_services.federation_pages_changed(federation_season.federation_id)
    return tournament


def night_players(tournament: Tournament) -> QuerySet[Player]:
    """Who may play the night: the host club's players; at an inter-club night, the players of
    every club of the federation too (a visitor plays without joining the host club)."""
    if tournament.federation_season_id is None:
        return Player.objects.in_club(tournament.club)
    clubs = tournament.federation_season.federation.clubs.values("pk")
    return Player.objects.filter(
        Q(memberships__club=tournament.club_id) | Q(memberships__club__in=clubs)
    ).distinct()


@transaction.atomic
def presence_set(tournament: Tournament, players: Iterable[Player]) -> None:
    """Tonight's present players (the members ticked on the list; at an inter-club night, the
    players of the federation's clubs)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require_open(tournament)
    players = list(players)
    members = set(
        night_players(tournament)
        .filter(pk__in=[p.pk for p in players])
        .values_list("pk", flat=True)
    )
    strangers = [p for p in players if p.pk not in members]
    if strangers:
        message = (
            _("Pas membre d'un club de la fédération : %(players)s.")
            if tournament.federation_season_id
            else _("Pas membre du club : %(players)s.")
        )
        raise ValidationError(message % {"players": ", ".join(str(p) for p in strangers)})
    tournament.present.set(players)


@transaction.atomic
def player_add_to_tournament(
    tournament: Tournament, display_name: str, *, guest: bool, by: AbstractBaseUser | None = None
) -> Player:
    """A guest or a new member arrives: the club's service creates the player and his
    membership, and he is ticked present, in one step."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require_open(tournament)
    player = club_services.player_join(
        tournament.club,
        display_name,
        start=tournament.date,
        status=Membership.Status.GUEST if guest else Membership.Status.ACTIVE,
    )
    tournament.present.add(player)
    return player


@transaction.atomic
def poule_create(
    tournament: Tournament, *, round: int, table: int, players: Sequence[Player]
) -> Poule:
    """Seat ``players`` (in clockwise order, seat 1 deals first) at a new poule. The poule
    returned holds its new seats as ``seated``, in seat order."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require_open(tournament)
    sizes = game_module(tournament.game).PLAYERS
    if len(players) not in sizes:
        raise ValidationError(
            _("Une table compte de %(low)s à %(high)s joueurs, pas %(count)s.")
            % {"low": sizes.start, "high": sizes.stop - 1, "count": len(players)}
        )
    if not 1 <= round <= tournament.rounds:
        raise ValidationError(
            _("La soirée compte %(rounds)s tours : pas de tour %(round)s.")
            % {"rounds": tournament.rounds, "round": round}
        )
    # A player once per round (the database refuses it too; this says who, in words). The
    # night is locked: nobody seats him meanwhile.
    seated_elsewhere = (
        Seat.objects.filter(tournament=tournament, round=round, player__in=players)
        .select_related("player")
        .first()
    )
    twice = next((p for i, p in enumerate(players) if p in players[:i]), None)
    if seated_elsewhere is not None or twice is not None:
        raise ValidationError(
            _("%(player)s est déjà assis à une autre table du tour %(round)s.")
            % {"player": seated_elsewhere.player if seated_elsewhere else twice, "round": round}
        )
    poule = Poule(tournament=tournament, round=round, table=table)
    poule.full_clean()
    poule.save()
    poule.seated = Seat.objects.bulk_create(
        Seat(poule=poule, player=player, number=number, tournament=tournament, round=round)
        for number, player in enumerate(players, start=1)
    )
    return poule
