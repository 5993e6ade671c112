"""One function per state change of a club night. Views, the API, admin actions, importers and
tasks all call these; each validates with the engine and writes in one transaction."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from club.models import Club, Player, Season
from scoring import services as scoring
from scoring.engine.games import game_module
from scoring.models import PointTable

from .models import Deal, Poule, Seat, Tournament


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
) -> Tournament:
    tournament = Tournament(
        club=club,
        season=season,
        date=date,
        name=name,
        game=game,
        point_table=point_table,
        tournament_points=tournament_points or club.tournament_points,
        rounds=rounds or club.rounds_per_night,
    )
    tournament.full_clean()
    tournament.save()
    return tournament


def _require_open(tournament: Tournament) -> None:
    if tournament.is_locked:
        raise ValidationError(_("La soirée est clôturée : ses feuilles ne peuvent plus changer."))


@transaction.atomic
def poule_create(
    tournament: Tournament, *, round: int, table: int, players: Sequence[Player]
) -> Poule:
    """Seat ``players`` (in clockwise order, seat 1 deals first) at a new poule."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_open(tournament)
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
    poule = Poule(tournament=tournament, round=round, table=table)
    poule.full_clean()
    poule.save()
    seats = [
        Seat(poule=poule, player=player, number=number, tournament=tournament, round=round)
        for number, player in enumerate(players, start=1)
    ]
    for seat in seats:
        try:
            with transaction.atomic():
                seat.save()
        except IntegrityError:
            raise ValidationError(
                _("%(player)s est déjà assis à une autre table du tour %(round)s.")
                % {"player": seat.player, "round": round}
            ) from None
    return poule


@transaction.atomic
def deals_record(
    poule: Poule, deals_data: Sequence[dict[str, Any]], by: AbstractBaseUser | None = None
) -> list[Deal]:
    """Append deals to a poule's score sheet, score it, and update the standings.

    Deals name players by seat number ("1" … "5"). The engine checks the whole sheet before
    anything is written, so a refused deal leaves the sheet as it was.
    """
    poule = (
        Poule.objects.select_for_update().select_related("tournament__point_table").get(pk=poule.pk)
    )
    _require_open(poule.tournament)
    sheet = list(poule.deals.order_by("number"))
    new = [
        Deal(poule=poule, number=len(sheet) + index, data=data, recorded_by=by)
        for index, data in enumerate(deals_data, start=1)
    ]
    scoring.poule_sheet_save(poule, [*sheet, *new])
    scoring.tournament_standings_update(poule.tournament)
    return new


def deal_record(poule: Poule, data: dict[str, Any], by: AbstractBaseUser | None = None) -> Deal:
    return deals_record(poule, [data], by)[0]


@transaction.atomic
def deal_correct(deal: Deal, data: dict[str, Any], by: AbstractBaseUser | None = None) -> Deal:
    """Replace a deal's data; every later point and standing follows."""
    deal = Deal.objects.select_for_update().select_related("poule__tournament").get(pk=deal.pk)
    poule = deal.poule
    _require_open(poule.tournament)
    sheet = list(poule.deals.order_by("number"))
    corrected = next(d for d in sheet if d.pk == deal.pk)
    corrected.data = data
    corrected.recorded_by = by
    scoring.poule_sheet_save(poule, sheet)
    corrected.save(update_fields=["data", "recorded_by", "recorded_at"])
    scoring.tournament_standings_update(poule.tournament)
    return corrected


@transaction.atomic
def deal_delete(deal: Deal, by: AbstractBaseUser | None = None) -> None:
    """Remove a deal; later deals move up one number so the sheet has no gap."""
    deal = Deal.objects.select_for_update().select_related("poule__tournament").get(pk=deal.pk)
    poule = deal.poule
    _require_open(poule.tournament)
    deal.delete()
    later = list(poule.deals.filter(number__gt=deal.number).order_by("number"))
    for moved in later:
        moved.number -= 1
        moved.save(update_fields=["number"])
    scoring.poule_rescore(poule)
    scoring.tournament_standings_update(poule.tournament)


@transaction.atomic
def tournament_start(tournament: Tournament) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.PLANNED:
        raise ValidationError(_("Seule une soirée prévue peut commencer."))
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    return tournament


@transaction.atomic
def tournament_close(tournament: Tournament) -> Tournament:
    """Lock the night and have the season ranking recomputed once the close is committed."""
    from scoring.tasks import season_ranking_update

    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.is_locked:
        raise ValidationError(_("La soirée est déjà clôturée."))
    if not tournament.poules.exists():
        raise ValidationError(_("La soirée n'a aucune poule."))
    if Deal.objects.filter(poule__tournament=tournament).count() == 0:
        raise ValidationError(_("Aucune donne n'a été encodée."))
    tournament.status = Tournament.Status.CLOSED
    tournament.save(update_fields=["status"])
    season_id = tournament.season_id
    transaction.on_commit(lambda: season_ranking_update.delay(season_id))
    return tournament


@transaction.atomic
def tournament_reopen(tournament: Tournament) -> Tournament:
    """A club admin reopens a closed night to correct it; the ranking follows when re-closed."""
    from scoring.tasks import season_ranking_update

    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.CLOSED:
        raise ValidationError(_("Seule une soirée clôturée peut être rouverte."))
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    season_id = tournament.season_id
    transaction.on_commit(lambda: season_ranking_update.delay(season_id))
    return tournament
