"""A federation's clubs: none joins unasked. The federation invites a club; one of the club's
admins accepts (the club joins) or refuses; the federation may withdraw an invitation not yet
answered. Until a club joins, the federation sees no more of it than anybody does: joining puts
its members in the federation's ranking and its inter-club nights' presence lists.

The site's operator alone makes a club join at once (``federation_club_join``: Django's admin,
``manage.py federation_create --join``), on the club's word given to him. Each change is one
transaction; the e-mail that tells the club's admins goes through the outbox once it commits.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from infra.outbox import TaskName, work_queue
from infra.typography import named

from ..models import Club, Federation, FederationInvitation, FederationSeason
from .pages import federation_pages_changed

Status = FederationInvitation.Status
ANSWERED = {
    Status.ACCEPTED: gettext_lazy("Cette invitation a déjà été acceptée."),
    Status.REFUSED: gettext_lazy("Cette invitation a déjà été refusée."),
    Status.WITHDRAWN: gettext_lazy("La fédération a retiré cette invitation."),
}


def federation_invitations_pending(club: Club) -> list[FederationInvitation]:
    """The federations waiting for the club's answer (its management page): one query."""
    return list(
        FederationInvitation.objects.filter(club=club, status=Status.PENDING)
        .select_related("federation")
        .order_by("invited_at", "pk")
    )


@transaction.atomic
def federation_club_invite(
    federation: Federation, club: Club, *, by: AbstractBaseUser | None
) -> FederationInvitation:
    """Ask ``club`` to join ``federation`` (``by``: the federation's admin who asks). Refused
    for a club that is a member already, or that has not answered the same question yet."""
    # One invitation at a time per club: two admins inviting at once are served in turn.
    Club.objects.select_for_update().filter(pk=club.pk).first()
    names = {"club": club.name, "federation": federation.name}
    if federation.clubs.filter(pk=club.pk).exists():
        raise ValidationError(named(_("%(club)s fait déjà partie de %(federation)s."), **names))
    if club.federation_invitations.filter(federation=federation, status=Status.PENDING).exists():
        raise ValidationError(
            named(
                _(
                    "%(club)s a déjà une invitation de %(federation)s en attente : son "
                    "administrateur ne l'a pas encore acceptée ni refusée."
                ),
                **names,
            )
        )
    invitation = FederationInvitation(federation=federation, club=club, invited_by=by)
    invitation.full_clean()
    invitation.save()
    work_queue(TaskName.FEDERATION_INVITATION_EMAIL, invitation.pk)
    return invitation


def _pending(invitation: FederationInvitation) -> FederationInvitation:
    """The invitation, locked, while it still waits for an answer (else why not, in words)."""
    locked = (
        FederationInvitation.objects.select_for_update()
        .select_related("federation", "club")
        .get(pk=invitation.pk)
    )
    if locked.status != Status.PENDING:
        raise ValidationError(str(ANSWERED[locked.status]))
    return locked


def _close(
    invitation: FederationInvitation, status: str, by: AbstractBaseUser | None
) -> FederationInvitation:
    invitation.status = status
    invitation.answered_by = by
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_by", "answered_at"])
    return invitation


@transaction.atomic
def federation_invitation_answer(
    invitation: FederationInvitation, *, accept: bool, by: AbstractBaseUser | None
) -> FederationInvitation:
    """The club's answer (``by``: one of its admins, whom the caller has checked). Accepted,
    the club joins the federation in the same transaction."""
    invitation = _pending(invitation)
    if not accept:
        return _close(invitation, Status.REFUSED, by)
    _close(invitation, Status.ACCEPTED, by)
    _join(invitation.federation, invitation.club)
    return invitation


@transaction.atomic
def federation_invitation_withdraw(
    invitation: FederationInvitation, *, by: AbstractBaseUser | None
) -> FederationInvitation:
    """The federation takes back a question its club has not answered yet."""
    return _close(_pending(invitation), Status.WITHDRAWN, by)


@transaction.atomic
def federation_club_join(
    federation: Federation, club: Club, *, by: AbstractBaseUser | None = None
) -> None:
    """The operator's road only: the club joins at once, on its word given to him. An
    invitation it had not answered is settled as accepted (by him)."""
    for invitation in club.federation_invitations.filter(
        federation=federation, status=Status.PENDING
    ):
        _close(_pending(invitation), Status.ACCEPTED, by)
    _join(federation, club)


def _join(federation: Federation, club: Club) -> None:
    federation.clubs.add(club)
    _clubs_changed(federation)


@transaction.atomic
def federation_club_remove(federation: Federation, club: Club) -> None:
    """A club leaves the federation; its inter-club nights stay in the seasons they were held."""
    federation.clubs.remove(club)
    _clubs_changed(federation)


def _clubs_changed(federation: Federation) -> None:
    """Its pages list its clubs; a season counting every night of its clubs ranks other nights
    once a club joins or leaves: recomputed, queued with the change."""
    federation_pages_changed(federation.pk)
    for season_id in FederationSeason.objects.filter(
        federation=federation, counts=FederationSeason.Counts.ALL
    ).values_list("pk", flat=True):
        work_queue(TaskName.FEDERATION_RANKING_UPDATE, season_id)
