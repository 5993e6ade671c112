"""Two records of one person made one (``club.models.PlayerMerge``).

A club admin proposes it; the player himself, or an admin of the other record's club, confirms
it. Confirming moves every row that names the record that disappears (seats, standings,
ranking lines, memberships, calendar replies …) to the record that stays, writes down each
moved row's id, and queues what is computed from them (the live season rankings, the
federation rankings, the « cote »). Undoing moves exactly those rows back. The rows are found
by what the models declare (every column that points to a player), so a table added later is
carried along without this module knowing it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from django.apps import apps
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Club, FederationSeason, Membership, Player, PlayerMerge, Season
from club.outbox import work_queue
from club.permissions import is_club_admin
from club.services import federation_pages_changed, published_pages_changed
from games.models import COUNTED_STATUSES, Seat, Tournament

from ..models import TournamentStanding
from .federations import FEDERATION_RANKING_UPDATE, interclub_seasons_of
from .merge_rights import (
    confirm_refusal,
    merge_may_confirm,
    merge_may_refuse,
    merge_may_undo,
)
from .rankings import season_ranking_queue
from .ratings import ratings_queue

# Columns that name a player but are not his history: the merges themselves (kept as they were
# proposed) and the link from an earlier merged record (it leads here through this record).
NOT_MOVED = {"club.Player.merged_into", "club.PlayerMerge.kept", "club.PlayerMerge.merged"}
# The account moved with the rows when the kept record had none: its id, under this key.
ACCOUNT = "club.Player.user"
# Rows are updated by lists of ids; a decade of one player's seats stays under the databases'
# limits on a statement's parameters in chunks of this size.
CHUNK = 5000


def _player_columns() -> Iterator[tuple[str, type[models.Model], models.Field]]:
    """Every column of the site that names a player, as ``("app.Model.field", model, field)``;
    the tournaments' presence (a many-to-many) through its own table's rows."""
    for model in apps.get_models(include_auto_created=True):
        for field in model._meta.concrete_fields:
            if field.is_relation and field.related_model is Player:
                label = f"{model._meta.label}.{field.name}"
                if label not in NOT_MOVED:
                    yield label, model, field


def _unique_with(
    model: type[models.Model], field: models.Field
) -> list[tuple[list[str], Q | None]]:
    """The other columns each unique rule of ``model`` holding ``field`` joins it with (and the
    rule's condition): a merged record's row that would repeat a kept record's row on them
    stays where it is (a published ranking line of each in one snapshot: history as shown)."""
    rules: list[tuple[list[str], Q | None]] = [([], None)] if field.unique else []
    for together in model._meta.unique_together:
        if field.name in together:
            rules.append(([name for name in together if name != field.name], None))
    for constraint in model._meta.constraints:
        if isinstance(constraint, models.UniqueConstraint) and field.name in constraint.fields:
            others = [name for name in constraint.fields if name != field.name]
            rules.append((others, constraint.condition))
    return rules


def _movable(
    model: type[models.Model], field: models.Field, kept: Player, merged: Player
) -> list[int]:
    """The ids of ``merged``'s rows of ``model`` that may name ``kept`` without breaking a
    unique rule."""
    rows = model._base_manager.filter(**{field.attname: merged.pk})
    ids = list(rows.values_list("pk", flat=True))
    if not ids:
        return []
    staying: set[int] = set()
    for others, condition in _unique_with(model, field):
        columns = [model._meta.get_field(name).attname for name in others]
        theirs = model._base_manager.filter(**{field.attname: kept.pk})
        mine = rows
        if condition is not None:
            theirs, mine = theirs.filter(condition), rows.filter(condition)
        if not columns:
            if theirs.exists():
                staying.update(mine.values_list("pk", flat=True))
            continue
        taken = set(theirs.values_list(*columns))
        staying.update(
            pk for pk, *values in mine.values_list("pk", *columns) if tuple(values) in taken
        )
    return [pk for pk in ids if pk not in staying]


def _rename(
    model: type[models.Model], field: models.Field, ids: list[int], old: int, new: int
) -> None:
    for start in range(0, len(ids), CHUNK):
        model._base_manager.filter(
            pk__in=ids[start : start + CHUNK], **{field.attname: old}
        ).update(**{field.attname: new})


def _nights_of(players: Iterable[Player]) -> set[int]:
    """The nights a player sat at, was present at or has a standing of."""
    players = list(players)
    return (
        set(Seat.objects.filter(player__in=players).values_list("tournament_id", flat=True))
        | set(
            TournamentStanding.objects.filter(player__in=players).values_list(
                "tournament_id", flat=True
            )
        )
        | set(
            Tournament.present.through.objects.filter(player__in=players).values_list(
                "tournament_id", flat=True
            )
        )
    )


def merge_refusal(kept: Player, merged: Player, *, but: PlayerMerge | None = None) -> str | None:
    """Why the two records cannot be one person's (None: they may be merged)."""
    if kept.pk == merged.pk:
        return _(
            "Choisissez deux fiches différentes : une fiche ne se fusionne pas avec elle-même."
        )
    for player in (kept, merged):
        if player.merged_into_id:
            return _("%(player)s a déjà été fusionné dans une autre fiche.") % {"player": player}
    under_way = PlayerMerge.objects.filter(
        merged__in=[kept, merged], status__in=[PlayerMerge.Status.PROPOSED, PlayerMerge.Status.DONE]
    )
    if but is not None:
        under_way = under_way.exclude(pk=but.pk)
    if under_way.exists():
        return _("Une fusion de %(kept)s ou de %(merged)s est déjà proposée ou faite.") % {
            "kept": kept,
            "merged": merged,
        }
    both = _nights_of([kept]) & _nights_of([merged])
    if both:
        night = (
            Tournament.objects.select_related("club").filter(pk__in=both).order_by("date").first()
        )
        return _(
            "%(kept)s et %(merged)s ont joué la même soirée (%(night)s du %(date)s, %(club)s) : "
            "ce sont deux personnes."
        ) % {
            "kept": kept,
            "merged": merged,
            "night": night.name,
            "date": night.date.strftime("%d/%m/%Y"),
            "club": night.club.name,
        }
    open_ = Membership.objects.filter(end__isnull=True)
    shared = (
        Club.objects.filter(pk__in=open_.filter(player=kept).values("club"))
        .filter(pk__in=open_.filter(player=merged).values("club"))
        .first()
    )
    if shared is not None:
        return _(
            "%(kept)s et %(merged)s sont tous deux membres de %(club)s : mettez d'abord fin à "
            "l'une des deux affiliations."
        ) % {"kept": kept, "merged": merged, "club": shared.name}
    return None


@dataclass(frozen=True)
class MergePreview:
    """What a merge would move, for the page that asks to confirm it."""

    nights: list[Tournament]
    memberships: list[Membership]
    refusal: str | None


def merge_preview(kept: Player, merged: Player) -> MergePreview:
    nights = list(
        Tournament.objects.filter(pk__in=_nights_of([merged]))
        .select_related("club")
        .order_by("-date", "pk")
    )
    memberships = list(merged.memberships.select_related("club").order_by("club__name", "start"))
    return MergePreview(nights, memberships, merge_refusal(kept, merged))


def _clubs_of(*players: Player) -> models.QuerySet:
    return Membership.objects.filter(player__in=players).values("club")


@transaction.atomic
def merge_propose(kept: Player, merged: Player, club: Club, by: User) -> PlayerMerge:
    """A club admin proposes that ``merged`` be folded into ``kept``; nothing moves yet."""
    if (
        not is_club_admin(by, club)
        or not Membership.objects.filter(club=club, player__in=[kept, merged]).exists()
    ):
        raise PermissionDenied(
            _("Seul un administrateur d'un club de l'un des deux joueurs propose leur fusion.")
        )
    # Read again under lock: another merge of either record may have been confirmed meanwhile.
    locked = Player.objects.select_for_update().filter(pk__in=[kept.pk, merged.pk]).order_by("pk")
    fresh = {player.pk: player for player in locked}
    kept, merged = fresh.get(kept.pk, kept), fresh.get(merged.pk, merged)
    if refusal := merge_refusal(kept, merged):
        raise ValidationError(refusal)
    return PlayerMerge.objects.create(kept=kept, merged=merged, club=club, proposed_by=by)


def _locked(merge: PlayerMerge, status: str) -> PlayerMerge:
    """The merge and its two records locked for the change (a second click waits, then finds
    the merge decided)."""
    Player.objects.select_for_update().filter(pk__in=[merge.kept_id, merge.merged_id]).order_by(
        "pk"
    ).count()
    merge = (
        PlayerMerge.objects.select_for_update().select_related("kept", "merged").get(pk=merge.pk)
    )
    if merge.status != status:
        raise ValidationError(
            _("Cette fusion est déjà %(status)s.") % {"status": merge.get_status_display().lower()}
        )
    return merge


@transaction.atomic
def merge_confirm(merge: PlayerMerge, by: User) -> PlayerMerge:
    """Fold ``merged`` into ``kept``: every row that named him names ``kept``, his account
    goes to ``kept`` if ``kept`` has none, his old pages lead to ``kept``'s."""
    merge = _locked(merge, PlayerMerge.Status.PROPOSED)
    if not merge_may_confirm(merge, by):
        raise PermissionDenied(confirm_refusal(merge, by))
    kept, merged = merge.kept, merge.merged
    if refusal := merge_refusal(kept, merged, but=merge):
        raise ValidationError(refusal)
    clubs_before = set(_clubs_of(merged).values_list("club", flat=True))
    moved: dict[str, list[int]] = {}
    for label, model, field in _player_columns():
        if ids := _movable(model, field, kept, merged):
            _rename(model, field, ids, merged.pk, kept.pk)
            moved[label] = ids
    if merged.user_id and not kept.user_id:
        moved[ACCOUNT] = [merged.user_id]
        Player.objects.filter(pk=merged.pk).update(user=None)
        Player.objects.filter(pk=kept.pk).update(user=moved[ACCOUNT][0])
    Player.objects.filter(pk=merged.pk).update(merged_into=kept)
    merge.moved = moved
    merge.status = PlayerMerge.Status.DONE
    merge.decided_by, merge.decided_at = by, timezone.now()
    merge.save(update_fields=["moved", "status", "decided_by", "decided_at"])
    _recompute(merge, clubs_before)
    return merge


@transaction.atomic
def merge_refuse(merge: PlayerMerge, by: User) -> PlayerMerge:
    """Refused by one who may confirm it, or withdrawn by the proposing club."""
    merge = _locked(merge, PlayerMerge.Status.PROPOSED)
    if not merge_may_refuse(merge, by):
        raise PermissionDenied(
            _(
                "Cette fusion se refuse par le joueur lui-même ou par l'un des clubs des deux "
                "fiches."
            )
        )
    merge.status = PlayerMerge.Status.REFUSED
    merge.decided_by, merge.decided_at = by, timezone.now()
    merge.save(update_fields=["status", "decided_by", "decided_at"])
    return merge


@transaction.atomic
def merge_undo(merge: PlayerMerge, by: User) -> PlayerMerge:
    """Move back exactly the rows the merge moved (rows recomputed since, like a live ranking's
    lines, are recomputed again), and the account; both records are as they were."""
    merge = _locked(merge, PlayerMerge.Status.DONE)
    if not merge_may_undo(merge, by):
        raise PermissionDenied(
            _(
                "Une fusion s'annule par le club qui l'a proposée, par celui qui l'a confirmée ou "
                "par le joueur lui-même."
            )
        )
    kept, merged = merge.kept, merge.merged
    if kept.merged_into_id:
        raise ValidationError(
            _(
                "%(kept)s a été fusionné depuis dans une autre fiche : annulez d'abord cette "
                "fusion-là."
            )
            % {"kept": kept}
        )
    clubs_before = set(_clubs_of(kept).values_list("club", flat=True))
    columns = {label: (model, field) for label, model, field in _player_columns()}
    try:
        with transaction.atomic():
            for label, ids in merge.moved.items():
                if label in columns:
                    model, field = columns[label]
                    _rename(model, field, ids, kept.pk, merged.pk)
    except IntegrityError:
        raise ValidationError(
            _(
                "%(merged)s ne peut plus reprendre ses lignes : %(kept)s a depuis une affiliation "
                "ou une réponse qui les répète. Corrigez-la d'abord."
            )
            % {"kept": kept, "merged": merged}
        ) from None
    account = merge.moved.get(ACCOUNT)
    if account and kept.user_id == account[0]:
        Player.objects.filter(pk=kept.pk).update(user=None)
        Player.objects.filter(pk=merged.pk).update(user=account[0])
    Player.objects.filter(pk=merged.pk).update(merged_into=None)
    merge.status = PlayerMerge.Status.UNDONE
    merge.undone_by, merge.undone_at = by, timezone.now()
    merge.save(update_fields=["status", "undone_by", "undone_at"])
    _recompute(merge, clubs_before)
    return merge


def _recompute(merge: PlayerMerge, clubs: set[int]) -> None:
    """Queue what is computed from the moved rows, in the merge's transaction: the live
    rankings of the seasons of the moved nights (and of the clubs counting them as inter-club
    nights), the federation rankings either record is in, the « cote » of each club's game from
    the first moved night on; and the pages of every club concerned are stale."""
    players = [merge.kept_id, merge.merged_id]
    night_ids = set(
        TournamentStanding.objects.filter(
            pk__in=merge.moved.get("scoring.TournamentStanding.player", [])
        ).values_list("tournament_id", flat=True)
    ) | set(
        Seat.objects.filter(pk__in=merge.moved.get("games.Seat.player", [])).values_list(
            "tournament_id", flat=True
        )
    )
    nights = list(Tournament.objects.filter(pk__in=night_ids).order_by("date", "pk"))
    seasons = set(Season.objects.filter(tournaments__in=night_ids).values_list("pk", flat=True))
    for night in nights:
        if night.federation_season_id:
            seasons.update(interclub_seasons_of(night).values_list("pk", flat=True))
    for season_id in sorted(seasons):
        season_ranking_queue(season_id)
    for season_id in (
        FederationSeason.objects.filter(ranking__lines__player__in=players)
        .values_list("pk", flat=True)
        .distinct()
    ):
        work_queue(FEDERATION_RANKING_UPDATE, season_id)
    firsts: dict[tuple[int, str], int] = {}
    for night in nights:
        if night.status in COUNTED_STATUSES:
            firsts.setdefault((night.club_id, night.game), night.pk)
    for night_id in firsts.values():
        ratings_queue(night_id)
    clubs = clubs | set(_clubs_of(merge.kept, merge.merged).values_list("club", flat=True))
    clubs |= {night.club_id for night in nights}
    for club_id in sorted(clubs):
        published_pages_changed(club_id)
    for federation_id in (
        Club.federations.through.objects.filter(club__in=clubs)
        .values_list("federation_id", flat=True)
        .distinct()
    ):
        federation_pages_changed(federation_id)
