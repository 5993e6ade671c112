"""Correcting and removing a recorded deal: the deal and its poule locked in the services'
order, the correction's guard on the table's deal count, and the poule's history of
corrections and removals (``DealChange``). A closed night corrected by a club admin has its
season ranking and published pages follow.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from club.services import published_pages_changed
from games.models import Deal, DealChange, Poule, Tournament
from games.services import require_open
from infra.outbox import TaskName, work_queue
from scoring.engine.games import game_module

from .deals import TABLE_GONE, DealConflict, extra_deals_follow
from .federations import night_rankings_queue
from .rankings import season_ranking_queue
from .ratings import night_statistics_store, ratings_queue
from .sheets import poule_rescore, poule_sheet_store, tournament_standings_update


def _poule_locked(tournament_id: int, poule_id: int) -> Poule:
    """Lock the night, then the poule: every service takes its locks in this one order (a
    redraw locks the night, then deletes its poules), so that a deal recorded while its round
    is drawn again waits for the draw, or the draw for it, and never both for each other."""
    gone = ValidationError(TABLE_GONE)
    if not Tournament.objects.select_for_update().filter(pk=tournament_id).exists():
        raise gone
    poule = (
        Poule.objects.select_for_update(of=("self",))
        .select_related("tournament__point_table")
        .filter(pk=poule_id, tournament_id=tournament_id)
        .first()
    )
    if poule is None:
        raise gone
    return poule


def _deal_locked(deal: Deal) -> Deal:
    """A deal and its poule, locked in the services' order (see ``_poule_locked``)."""
    place = Deal.objects.filter(pk=deal.pk).values_list("poule__tournament_id", "poule_id").first()
    if place is None:
        raise ValidationError(_("Cette donne n'existe plus : rechargez la page."))
    poule = _poule_locked(*place)
    locked = Deal.objects.select_for_update(of=("self",)).filter(pk=deal.pk).first()
    if locked is None:
        raise ValidationError(_("Cette donne n'existe plus : rechargez la page."))
    locked.poule = poule
    return locked


def _correction_count(poule: Poule) -> None:
    """One more correction or removal in the poule's history (see ``Poule.corrections``)."""
    Poule.objects.filter(pk=poule.pk).update(corrections=F("corrections") + 1)
    poule.corrections += 1


def _after_closed_correction(tournament: Tournament) -> None:
    """A closed night corrected by a club admin: its season ranking follows once committed,
    its statistics and its published pages show the correction at once."""
    if tournament.is_locked:
        season_ranking_queue(tournament.season_id)
        night_rankings_queue(
            tournament, published_changed=tournament.status == Tournament.Status.PUBLISHED
        )
        ratings_queue(tournament.pk)
        night_statistics_store([tournament])
        published_pages_changed(tournament.club_id)
        if tournament.status == Tournament.Status.PUBLISHED:
            # Its podium may have changed: its share picture drawn again (clubsite.share).
            work_queue(TaskName.NIGHT_SHARE_PICTURE, tournament.pk)


@transaction.atomic
def deal_correct(
    deal: Deal,
    data: dict[str, Any],
    by: AbstractBaseUser | None = None,
    *,
    closed_ok: bool = False,
    version: str | None = None,
) -> Deal:
    """Replace a deal's data; every later point and standing follows, and the change is kept
    (who, when, before → after). ``closed_ok``: a club admin corrects a closed night.
    ``version``: the deal as the correction form opened it (``deal_version``); a deal changed
    since by someone else is not overwritten (``DealConflict``)."""
    deal = _deal_locked(deal)
    poule = deal.poule
    require_open(poule.tournament, closed_ok=closed_ok)
    if version is not None and version != deal_version(deal):
        raise DealConflict(
            _(
                "La donne a été corrigée par quelqu'un d'autre pendant que vous la corrigiez : "
                "votre correction n'a pas été enregistrée. Voici la donne telle qu'elle est "
                "maintenant ; refaites votre correction si elle est encore nécessaire."
            ),
            code="deal_changed",
        )
    sheet = list(poule.deals.order_by("position"))
    corrected = next(d for d in sheet if d.pk == deal.pk)
    if corrected.data == data:
        return corrected
    before = corrected.data
    corrected.data = data
    corrected.recorded_by = by
    counted_before = poule.counted_deals
    poule_sheet_store(poule, sheet)
    _correction_keeps_count(poule, counted_before)
    corrected.save(update_fields=["data", "recorded_by", "recorded_at"])
    _correction_count(poule)
    DealChange.objects.create(
        poule=poule,
        deal=corrected,
        position=corrected.position,
        action=DealChange.Action.CORRECTED,
        before=before,
        after=data,
        by=by,
    )
    tournament_standings_update(poule.tournament)
    _after_closed_correction(poule.tournament)
    return corrected


def _correction_keeps_count(poule: Poule, counted_before: int) -> None:
    """A correction may not take a table past its deal count (a pass corrected into a solo at
    12/12 would make 13/12); one that makes a deal count no more (a solo into a pass) brings
    the deals added tonight back down. Raised inside the correction's transaction: nothing
    of it is kept."""
    if not game_module(poule.tournament.game).FIXED_DEALS_PER_POULE:
        return
    seat_count = poule.seats.count()
    count = poule.tournament.deals_per_poule(seat_count) + poule.extra_deals
    if poule.counted_deals > counted_before and poule.counted_deals > count:
        raise ValidationError(
            _(
                "Cette correction ferait %(now)s donnes comptées à une table qui en a "
                "%(count)s : rien n'a été corrigé. Si la poule est plus longue ce soir, "
                "enregistrez la donne en plus depuis la feuille, ou supprimez une autre donne."
            )
            % {"now": poule.counted_deals, "count": count},
            code="poule_complete",
        )
    extra_deals_follow(poule, seat_count, grow=False)


def deal_version(deal: Deal) -> str:
    """What a correction form remembers of the deal it opened: when it was last written."""
    return deal.recorded_at.isoformat()


@transaction.atomic
def deal_delete(
    deal: Deal,
    by: AbstractBaseUser | None = None,
    *,
    closed_ok: bool = False,
    last_only: bool = False,
) -> None:
    """Remove a deal; later deals move up one place so the sheet has no gap. The removed deal
    stays in the poule's history. ``last_only``: the scorer's "undo the last deal"; a deal
    recorded after it meanwhile (another phone) refuses the undo (``DealConflict``)."""
    try:
        deal = _deal_locked(deal)
    except ValidationError as gone:
        if last_only:
            raise DealConflict(
                _("Cette donne a déjà été retirée par quelqu'un d'autre : rien n'a changé."),
                code="deal_gone",
            ) from gone
        raise
    poule = deal.poule
    require_open(poule.tournament, closed_ok=closed_ok)
    if last_only and poule.deals.filter(position__gt=deal.position).exists():
        raise DealConflict(
            _(
                "Une autre donne a été enregistrée après celle-ci pendant ce temps : rien n'a "
                "été annulé. Vérifiez la feuille et corrigez la donne voulue."
            ),
            code="not_last",
        )
    _correction_count(poule)
    DealChange.objects.create(
        poule=poule,
        deal=None,
        position=deal.position,
        action=DealChange.Action.DELETED,
        before=deal.data,
        by=by,
        client_key=deal.client_key,
    )
    deal.delete()
    later = list(poule.deals.filter(position__gt=deal.position).order_by("position"))
    for moved in later:
        moved.position -= 1
        moved.save(update_fields=["position"])
    poule_rescore(poule)
    extra_deals_follow(poule, poule.seats.count(), grow=False)
    tournament_standings_update(poule.tournament)
    _after_closed_correction(poule.tournament)
