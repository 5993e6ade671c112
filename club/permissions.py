"""Who may do what in a club. Views call these before any work: a template that hides a
button is never the only check (an htmx request would skip it)."""

from __future__ import annotations

from typing import NoReturn

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import CharField, OuterRef, Subquery, Value
from django.http import Http404

from .models import Club, Federation, FederationAdmin, Membership

SCORING_ROLES = (Membership.Role.ADMIN, Membership.Role.SCORER)


def club_role(user: User | AnonymousUser, club: Club) -> str | None:
    """The user's role in the club through his player's open membership (a site superuser
    counts as a club admin). Remembered on the user for the rest of the request."""
    if not user.is_authenticated:
        return None
    if user.is_superuser:
        return Membership.Role.ADMIN
    roles: dict[int, str | None] = user.__dict__.setdefault("_club_roles", {})
    if club.pk not in roles:
        roles[club.pk] = (
            Membership.objects.filter(club=club, player__user=user, end__isnull=True)
            .values_list("role", flat=True)
            .first()
        )
    return roles[club.pk]


def role_in(user: User | AnonymousUser, club_field: str) -> Subquery | Value:
    """The user's role in the club of each row (``club_field`` names it), as an annotation:
    a page that loads its object anyway reads the role in the same query, then hands it to
    ``remember_role`` (the score sheet answers every deal of the night)."""
    if not user.is_authenticated:
        return Value(None, output_field=CharField())
    return Subquery(
        Membership.objects.filter(
            club=OuterRef(club_field), player__user=user, end__isnull=True
        ).values("role")[:1]
    )


def remember_role(user: User | AnonymousUser, club: Club, role: str | None) -> None:
    """The role read with ``role_in``: ``club_role`` answers from it for the request."""
    if user.is_authenticated and not user.is_superuser:
        user.__dict__.setdefault("_club_roles", {})[club.pk] = role


def is_scorer(user: User | AnonymousUser, club: Club) -> bool:
    """Scorers and club admins record and correct deals."""
    return club_role(user, club) in SCORING_ROLES


def is_club_admin(user: User | AnonymousUser, club: Club) -> bool:
    return club_role(user, club) == Membership.Role.ADMIN


def is_member(user: User | AnonymousUser, club: Club) -> bool:
    return club_role(user, club) is not None


def refuse(user: User | AnonymousUser, club: Club, reason: str) -> NoReturn:
    """A member of the club is told he may not (403); anybody else learns nothing of the
    club's private pages, not even that they exist (404)."""
    if is_member(user, club):
        raise PermissionDenied(reason)
    raise Http404(reason)


def require_scorer(user: User | AnonymousUser, club: Club) -> None:
    if not is_scorer(user, club):
        refuse(user, club, "scorers and club admins only")


def require_club_admin(user: User | AnonymousUser, club: Club) -> None:
    if not is_club_admin(user, club):
        refuse(user, club, "club admins only")


def is_federation_admin(user: User | AnonymousUser, federation: Federation) -> bool:
    """A federation's administrators (and the site's operator) run its seasons and clubs; a
    club admin of one of its clubs has no right in it."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return FederationAdmin.objects.filter(federation=federation, player__user=user).exists()


def require_federation_admin(user: User | AnonymousUser, federation: Federation) -> None:
    """A federation's pages are public: a visitor who may not run it is told so (403)."""
    if not is_federation_admin(user, federation):
        raise PermissionDenied("federation admins only")
