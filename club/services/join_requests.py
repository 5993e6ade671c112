"""Somebody who found a club in the home page's list asks to join it: his name, his address and
a word. The club's admins are e-mailed (through the outbox) and answer from their club's
management page: accepted, he becomes a member and is invited to open his account (the
invitation the club sends any member); refused, nothing of him is kept but the request, until
its time is up (``signup_opening.signup_purge``)."""

from __future__ import annotations

import datetime
from collections.abc import Callable

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from infra.outbox import TaskName, work_queue
from infra.throttle import Limit, spend
from infra.typography import named

from ..invitations import clean_email, invitation_send
from ..models import Club, JoinRequest, Membership, Player, name_key
from .members import member_add, names_taken
from .signup_opening import typed_name

# Requests sent from one address: somebody choosing a club asks two or three; more is a robot.
JOIN_ADDRESS = Limit("join-address", 5, datetime.timedelta(hours=1))
# E-mails to one club's admins a day: a busy club gets a few requests; a crowd of addresses
# sending more would flood their mailboxes. Past it a request is still kept, and waits on the
# club's page of requests, which the day's earlier e-mails lead to.
JOIN_CLUB_EMAILS = Limit("join-club-emails", 10, datetime.timedelta(days=1))

Status = JoinRequest.Status


def join_request_make(
    club: Club, *, name: str, email: str, message: str, language: str, address: str
) -> JoinRequest:
    """A request to join a listed club, its admins e-mailed once it commits. ``address``:
    the client's, which the throttle counts. An address whose request waits already gets
    that request back, and the same answer: the page says nothing of who asked before."""
    if not club.listed:
        raise ValidationError(_("Ce club ne reçoit pas de demandes par le site."))
    if not spend(JOIN_ADDRESS, address):
        raise ValidationError(
            _("Trop de demandes envoyées : réessayez dans %(minutes)s minutes.")
            % {"minutes": JOIN_ADDRESS.minutes}
        )
    try:
        email = clean_email(email)
    except ValidationError as error:
        raise ValidationError({"email": error.messages}) from None
    name = typed_name(name, _("Donnez votre nom."))
    with transaction.atomic():
        pending = (
            JoinRequest.objects.select_for_update()
            .filter(club=club, email=email, status=Status.PENDING)
            .first()
        )
        if pending is not None:
            # Answered as a first request is, so that nobody learns from the page that an
            # address asked already: the waiting request stands, its admins told once.
            return pending
        join_request = JoinRequest(
            club=club, name=name, email=email, message=message.strip(), language=language
        )
        join_request.full_clean()
        join_request.save()
        if spend(JOIN_CLUB_EMAILS, f"club:{club.pk}"):
            work_queue(TaskName.JOIN_REQUEST_EMAIL, join_request.pk)
    return join_request


def join_requests_pending(club: Club) -> list[JoinRequest]:
    """The requests waiting for the club's answer, oldest first (one query)."""
    return list(JoinRequest.objects.filter(club=club, status=Status.PENDING).order_by("created"))


def _pending(join_request: JoinRequest) -> JoinRequest:
    locked = JoinRequest.objects.select_for_update().select_related("club").get(pk=join_request.pk)
    if locked.status != Status.PENDING:
        raise ValidationError(
            named(
                _("La demande de %(name)s a déjà reçu sa réponse (%(status)s)."),
                name=locked.name,
                status=locked.get_status_display().lower(),
            )
        )
    return locked


@transaction.atomic
def join_request_accept(
    join_request: JoinRequest, by: AbstractBaseUser | None, link_for: Callable[[str], str]
) -> Player:
    """The club's admin accepts: the requester becomes a member (a new player of the club with
    his address) and is invited to open his account (``link_for(token)``: the invitation's
    absolute link), whether his address has an account or not: returns the player."""
    join_request = _pending(join_request)
    club = join_request.club
    names = {"name": join_request.name, "email": join_request.email}
    members = Membership.objects.current().filter(club=club)
    if members.filter(
        Q(player__email__iexact=join_request.email)
        | Q(player__user__email__iexact=join_request.email)
    ).exists():
        raise ValidationError(
            _("%(email)s est déjà l'adresse d'un membre du club : refusez cette demande.") % names
        )
    if name_key(join_request.name) in names_taken(club):
        raise ValidationError(
            _(
                "Le club a déjà un joueur nommé %(name)s : si c'est lui, refusez la demande et "
                "invitez-le depuis la liste des membres."
            )
            % names
        )
    player = member_add(club, join_request.name, start=timezone.localdate())
    # Whether the address has an account is not read: the invitation goes the same, and its
    # owner signs in to accept it (``invitations.invitation_join``).
    invitation_send(club, player, join_request.email, by, link_for)
    join_request.status = Status.ACCEPTED
    join_request.player = player
    join_request.decided_at = timezone.now()
    join_request.decided_by = by
    join_request.save(update_fields=["status", "player", "decided_at", "decided_by"])
    return player


@transaction.atomic
def join_request_refuse(join_request: JoinRequest, by: AbstractBaseUser | None) -> JoinRequest:
    """The club's admin refuses: nobody is added."""
    join_request = _pending(join_request)
    join_request.status = Status.REFUSED
    join_request.decided_at = timezone.now()
    join_request.decided_by = by
    join_request.save(update_fields=["status", "decided_at", "decided_by"])
    return join_request
