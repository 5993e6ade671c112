"""Who may do what in a club. Views call these before any work: a template that hides a
button is never the only check (an htmx request would skip it).

``ClubAccess`` is the rule book: who the viewer is to one club (anonymous, member, scorer,
club admin, the site's operator) and what each may, worked out once per request by
``club_access`` (a club page gets it from ``club.club_pages``) and passed down. The functions
of a user and a club below ask it too, for the callers that hold no viewer (the API's
serializers, the services' rights)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
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
        roles[club.pk] = Membership.objects.role_of(user, club).first()
    return roles[club.pk]


def role_in(user: User | AnonymousUser, club_field: str) -> Subquery | Value:
    """The user's role in the club of each row (``club_field`` names it), as an annotation:
    a page that loads its object anyway reads the role in the same query, then hands it to
    ``remember_role`` (the score sheet answers every deal of the night)."""
    if not user.is_authenticated:
        return Value(None, output_field=CharField())
    return Subquery(Membership.objects.role_of(user, OuterRef(club_field)))


def remember_role(user: User | AnonymousUser, club: Club, role: str | None) -> None:
    """The role read with ``role_in``: ``club_role`` answers from it for the request."""
    if user.is_authenticated and not user.is_superuser:
        user.__dict__.setdefault("_club_roles", {})[club.pk] = role


@dataclass(frozen=True)
class ClubAccess:
    """A user's access to one club: his role there (anonymous, member, scorer, club admin,
    the site's operator) and so what he may do; made once for the request (``club_access``)
    and handed to every check of it."""

    club: Club
    user: User | AnonymousUser

    @cached_property
    def role(self) -> str | None:
        """His player's open membership's role in the club (a site operator counts as a club
        admin); None for a visitor, a login of no player of the club, or a former member.
        Read on the first ask: a public page that asks nothing makes no query for it."""
        return club_role(self.user, self.club)

    @property
    def signed_in(self) -> bool:
        return self.user.is_authenticated

    @property
    def operator(self) -> bool:
        return self.user.is_superuser

    @property
    def is_member(self) -> bool:
        return self.role is not None

    @property
    def is_scorer(self) -> bool:
        """Scorers and club admins record and correct deals."""
        return self.role in SCORING_ROLES

    @property
    def is_club_admin(self) -> bool:
        return self.role == Membership.Role.ADMIN

    def refuse(self, reason: str) -> NoReturn:
        """A member of the club is told he may not (403); anybody else learns nothing of the
        club's private pages, not even that they exist (404)."""
        if self.is_member:
            raise PermissionDenied(reason)
        raise Http404(reason)

    def require_member(self, reason: str = "the club's members only") -> None:
        if not self.is_member:
            self.refuse(reason)

    def require_scorer(self) -> None:
        if not self.is_scorer:
            self.refuse("scorers and club admins only")

    def require_club_admin(self) -> None:
        if not self.is_club_admin:
            self.refuse("club admins only")

    def require(self, need: str | None) -> None:
        """What a club page asks before anything else (``club.club_pages``): ``MEMBER``,
        ``SCORER``, ``CLUB_ADMIN``, or None for a page open to all."""
        if need is not None:
            getattr(self, f"require_{need}")()


# What a club page may require of its viewer (``ClubAccess.require``).
MEMBER, SCORER, CLUB_ADMIN = "member", "scorer", "club_admin"


def club_access(user: User | AnonymousUser, club: Club) -> ClubAccess:
    """Who ``user`` is to ``club``; his role is read once, when first asked (``club_role``; a
    page that read it with its object hands it to ``remember_role`` first)."""
    return ClubAccess(club=club, user=user)


def is_club_admin(user: User | AnonymousUser, club: Club) -> bool:
    return club_access(user, club).is_club_admin


def require_scorer(user: User | AnonymousUser, club: Club) -> None:
    club_access(user, club).require_scorer()


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
