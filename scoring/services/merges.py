"""Two records of one person made one (``club.models.PlayerMerge``).

A club admin proposes it; the side that loses its record confirms it (who may do what:
``merge_rights``, which every decision here asks). Confirming moves every row that names the
record that disappears (seats, standings, ranking lines, memberships, calendar replies …) to
the record that stays, writes down each moved row's id, and queues what is computed from them
(the live season rankings, the federation rankings, the « cote »). Undoing moves exactly those
rows back. The rows are found by what the models declare (every column that points to a
player), so a table added later is carried along without this module knowing it.

A merge moves history, never a role (``club.services.roles``): the roles held through the rows
that move, or by a record whose account changes, end; the clubs that granted them are told;
a merge that would leave a club or a federation without an administrator is refused. Undoing
gives no role back: the club gives it again if it wants.
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

from club.invitations import invitation_taken
from club.models import (
    Club,
    EmailChange,
    FederationSeason,
    Invitation,
    Membership,
    Player,
    PlayerClaim,
    PlayerMerge,
    Season,
)
from club.services import (
    Roles,
    federation_pages_changed,
    published_pages_changed,
    roles_end,
    roles_end_refusal,
    roles_held,
)
from games.models import COUNTED_STATUSES, Seat, Tournament
from infra.outbox import TaskName, work_queue
from infra.typography import named

from ..models import TournamentStanding
from .federations import interclub_seasons_of
from .merge_rights import (
    ACCOUNT,
    MEMBERSHIPS,
    merge_may_confirm,
    merge_may_propose,
    merge_may_refuse,
    merge_may_undo,
    merge_refused,
)
from .rankings import season_ranking_queue
from .ratings import night_statistics_store, ratings_queue

# Columns that name a player but are not his history: the merges themselves (kept as they were
# proposed) and the link from an earlier merged record (it leads here through this record).
NOT_MOVED = {
    "club.Player.merged_into",
    "club.PlayerMerge.kept",
    "club.PlayerMerge.merged",
    # Ways into an account, not history: moved, a pending invitation, claim or change of
    # address would let whoever holds its link log in as the kept record. The merged record's
    # pending ones are withdrawn when the merge is confirmed (``_pending_links_withdrawn``).
    "club.Invitation.player",
    "club.PlayerClaim.player",
    "club.EmailChange.player",
}
# Federation administrations a merge moved before roles stopped moving: an undo ends them.
FEDERATION_ROLES = "club.FederationAdmin.player"
# Rows are updated by lists of ids; a decade of one player's seats stays under the databases'
# limits on a statement's parameters in chunks of this size.
CHUNK = 5000


def player_columns() -> Iterator[tuple[str, type[models.Model], models.Field]]:
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


def merge_refusal(
    kept: Player, merged: Player, *, club: Club | None = None, but: PlayerMerge | None = None
) -> str | None:
    """Why the two records cannot be one person's (None: they may be merged); ``club``: the
    club that proposes it."""
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
        message = _("Une fusion de %(kept)s ou de %(merged)s est déjà proposée ou faite.")
        return named(message, kept=kept, merged=merged)
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
    open_ = Membership.objects.current()
    shared = (
        Club.objects.filter(pk__in=open_.filter(player=kept).values("club"))
        .filter(pk__in=open_.filter(player=merged).values("club"))
        .first()
    )
    if shared is not None:
        message = _(
            "%(kept)s et %(merged)s sont tous deux membres de %(club)s : mettez d'abord fin à "
            "l'une des deux affiliations."
        )
        return named(message, kept=kept, merged=merged, club=shared.name)
    if club is not None and (refusal := _account_refusal(kept, merged, club)):
        return refusal
    return roles_end_refusal(_roles_ending(kept, merged))


def _account_refusal(kept: Player, merged: Player, club: Club) -> str | None:
    """A login moves onto the kept record only when one of that record's own clubs proposes
    it: otherwise a club admin could fold another club's record (one without a login) into a
    record of his own club whose login he holds, and log in as that club's member."""
    if not _account_moves(kept, merged) or kept.memberships.filter(club=club).exists():
        return None
    message = _(
        "La fiche de %(merged)s a un compte et celle de %(kept)s n'en a pas : gardez plutôt la "
        "fiche de %(merged)s, ou demandez à un club de %(kept)s de proposer cette fusion."
    )
    return named(message, kept=kept, merged=merged)


def _pending_links_withdrawn(merged: Player) -> None:
    """The merged record's invitations, claims and changes of address still waiting: their
    links would lead to a record that is no more (``NOT_MOVED``)."""
    Invitation.objects.filter(player=merged, accepted_at__isnull=True).delete()
    PlayerClaim.objects.filter(player=merged, confirmed_at__isnull=True).delete()
    EmailChange.objects.filter(player=merged).delete()


def _account_moves(kept: Player, merged: Player) -> bool:
    """The merged record's account goes to the kept record when it has none."""
    return bool(merged.user_id and not kept.user_id)


def _losing_roles(kept: Player, merged: Player) -> list[Player]:
    """The records whose roles a merge ends: the merged record's (its rows move), and the kept
    record's when it gets the merged record's account (that login never held them)."""
    return [merged, kept] if _account_moves(kept, merged) else [merged]


def _roles_ending(kept: Player, merged: Player) -> Roles:
    return roles_held(_losing_roles(kept, merged))


@dataclass(frozen=True)
class MergePreview:
    """What a merge would move, for the page that asks to confirm it."""

    nights: list[Tournament]
    memberships: list[Membership]
    roles: Roles
    refusal: str | None


def merge_preview(kept: Player, merged: Player, club: Club | None = None) -> MergePreview:
    nights = list(
        Tournament.objects.filter(pk__in=_nights_of([merged]))
        .select_related("club")
        .order_by("-date", "pk")
    )
    memberships = list(merged.memberships.select_related("club").order_by("club__name", "start"))
    return MergePreview(
        nights, memberships, _roles_ending(kept, merged), merge_refusal(kept, merged, club=club)
    )


def _clubs_of(*players: Player) -> models.QuerySet:
    return Membership.objects.filter(player__in=players).values("club")


@transaction.atomic
def merge_propose(kept: Player, merged: Player, club: Club, by: User) -> PlayerMerge:
    """A club admin proposes that ``merged`` be folded into ``kept``; nothing moves yet."""
    if not merge_may_propose(by, club, kept, merged):
        raise PermissionDenied(
            _("Seul un administrateur d'un club de l'un des deux joueurs propose leur fusion.")
        )
    # Read again under lock: another merge of either record may have been confirmed meanwhile.
    locked = Player.objects.select_for_update().filter(pk__in=[kept.pk, merged.pk]).order_by("pk")
    fresh = {player.pk: player for player in locked}
    kept, merged = fresh.get(kept.pk, kept), fresh.get(merged.pk, merged)
    if refusal := merge_refusal(kept, merged, club=club):
        raise ValidationError(refusal)
    return PlayerMerge.objects.create(kept=kept, merged=merged, club=club, proposed_by=by)


@transaction.atomic
def merge_from_invitation(invitation: Invitation, user: User) -> PlayerMerge:
    """A club invited an address whose account has a player already: accepting it (signed
    in) proposes that the club's record be folded into his. He proposes it, not the club's
    admin, who never learnt that the address had an account; the invitation is the club's word
    that the record is the address's. The losing side confirms it as any merge (``merge_rights``:
    an admin of the club's record, from the club's merges page), and it keeps his own record,
    his roles and his login untouched."""
    invitation = invitation_taken(invitation, user)
    kept = Player.objects.select_for_update().get(user=user)
    merged = Player.objects.select_for_update().get(pk=invitation.player_id)
    if refusal := merge_refusal(kept, merged, club=invitation.club):
        raise ValidationError(refusal)
    return PlayerMerge.objects.create(
        kept=kept, merged=merged, club=invitation.club, proposed_by=user
    )


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
    goes to ``kept`` if ``kept`` has none, his old pages lead to ``kept``'s; his roles (and
    ``kept``'s, when the account comes with him) end first, so his memberships move as plain
    memberships."""
    merge = _locked(merge, PlayerMerge.Status.PROPOSED)
    if not merge_may_confirm(merge, by):
        raise PermissionDenied(merge_refused(merge, by, "confirm"))
    kept, merged = merge.kept, merge.merged
    if refusal := merge_refusal(kept, merged, club=merge.club, but=merge):
        raise ValidationError(refusal)
    _pending_links_withdrawn(merged)
    clubs_before = set(_clubs_of(merged).values_list("club", flat=True))
    ended = roles_end("merge", _losing_roles(kept, merged))
    moved: dict[str, list[int]] = {}
    for label, model, field in player_columns():
        if ids := _movable(model, field, kept, merged):
            _rename(model, field, ids, merged.pk, kept.pk)
            moved[label] = ids
    if _account_moves(kept, merged):
        moved[ACCOUNT] = [merged.user_id]
        Player.objects.filter(pk=merged.pk).update(user=None)
        Player.objects.filter(pk=kept.pk).update(user=moved[ACCOUNT][0])
    Player.objects.filter(pk=merged.pk).update(merged_into=kept)
    merge.moved = moved
    merge.status = PlayerMerge.Status.DONE
    merge.decided_by, merge.decided_at = by, timezone.now()
    _roles_record(merge, ended)
    merge.save(update_fields=["moved", "status", "decided_by", "decided_at", "roles_ended"])
    _recompute(merge, clubs_before)
    return merge


def _roles_record(merge: PlayerMerge, ended: list[dict]) -> None:
    """Keep what ended with the merge (the club's merges page shows it) and tell the clubs
    and federations that granted it, after the commit."""
    if ended:
        merge.roles_ended = [*merge.roles_ended, *ended]
        work_queue(TaskName.MERGE_ROLES_EMAIL, merge.pk)


@transaction.atomic
def merge_refuse(merge: PlayerMerge, by: User) -> PlayerMerge:
    """Refused by anybody with a stake in it (either player, either record's clubs), or withdrawn
    by the proposing club."""
    merge = _locked(merge, PlayerMerge.Status.PROPOSED)
    if not merge_may_refuse(merge, by):
        raise PermissionDenied(merge_refused(merge, by, "refuse"))
    merge.status = PlayerMerge.Status.REFUSED
    merge.decided_by, merge.decided_at = by, timezone.now()
    merge.save(update_fields=["status", "decided_by", "decided_at"])
    return merge


@transaction.atomic
def merge_undo(merge: PlayerMerge, by: User) -> PlayerMerge:
    """Move back exactly the rows the merge moved (rows recomputed since, like a live ranking's
    lines, are recomputed again), and the account; both records are as they were, but for
    their roles. A role the merge ended is not given back (the club that granted it was told,
    and gives it again if it still wants to: an undo decided elsewhere never makes a club's
    admin); a role given since through a row that moves back, or to the record the account
    leaves, ends (the club gave it to the person it then saw behind the kept record)."""
    merge = _locked(merge, PlayerMerge.Status.DONE)
    if not merge_may_undo(merge, by):
        raise PermissionDenied(merge_refused(merge, by, "undo"))
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
    account = merge.moved.get(ACCOUNT)
    account_back = bool(account) and kept.user_id == account[0]
    ended = roles_end(
        "undo",
        [kept] if account_back else [],
        memberships=merge.moved.get(MEMBERSHIPS, []),
        federation_roles=merge.moved.get(FEDERATION_ROLES, []),
    )
    columns = {label: (model, field) for label, model, field in player_columns()}
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
    if account_back:
        Player.objects.filter(pk=kept.pk).update(user=None)
        Player.objects.filter(pk=merged.pk).update(user=account[0])
    Player.objects.filter(pk=merged.pk).update(merged_into=None)
    merge.status = PlayerMerge.Status.UNDONE
    merge.undone_by, merge.undone_at = by, timezone.now()
    not_back = [{**e, "event": "not_back"} for e in merge.roles_ended if e["event"] == "merge"]
    _roles_record(merge, ended + not_back)
    merge.save(update_fields=["status", "undone_by", "undone_at", "roles_ended"])
    _recompute(merge, clubs_before)
    return merge


def _recompute(merge: PlayerMerge, clubs: set[int]) -> None:
    """Queue what is computed from the moved rows, in the merge's transaction: the live
    rankings of the seasons of the moved nights (and of the clubs counting them as inter-club
    nights), the federation rankings either record is in, the « cote » of each club's game from
    the first moved night on; the moved nights' statistics are stored again at once; and the
    pages of every club concerned are stale."""
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
        work_queue(TaskName.FEDERATION_RANKING_UPDATE, season_id)
    firsts: dict[tuple[int, str], int] = {}
    for night in nights:
        if night.status in COUNTED_STATUSES:
            firsts.setdefault((night.club_id, night.game), night.pk)
    for night_id in firsts.values():
        ratings_queue(night_id)
    # The moved nights' statistics name the kept record at once (his partners', opponents').
    for game in sorted({night.game for night in nights}):
        night_statistics_store([night for night in nights if night.game == game])
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
