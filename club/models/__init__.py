"""Clubs, the people who play, their memberships and the seasons: one module per topic, every
model importable from ``club.models`` (Django finds them here). The outbox's and the
throttle's tables are the plumbing's own app's (``infra.models``)."""

# The one rule every stored name follows (``infra.name_text``), read from here by the club's
# services and importers.
from infra.name_text import hidden_characters, tidy_name

from .accounts import ApiToken, EmailChange, Invitation, PlayerClaim
from .closings import ClubClosing
from .clubs import (
    COLOUR,
    DEFAULT_PRECEDENCE,
    GAME_CHOICES,
    GAME_LABELS,
    RULES_CHOICES,
    Club,
    check_ranking_rules,
    default_precedence,
    default_scheme,
)
from .federations import Federation, FederationAdmin, FederationInvitation, FederationSeason
from .member_imports import MemberImport
from .merges import PlayerMerge
from .players import (
    Membership,
    Player,
    PlayerQuerySet,
    name_key,
    sort_key,
)
from .seasons import FIRST_SEASON_YEAR, SEASONS_AHEAD, Season, dates_refused, season_slug
from .signup import ClubSignup, JoinRequest, SignupLink

__all__ = [
    "COLOUR",
    "DEFAULT_PRECEDENCE",
    "FIRST_SEASON_YEAR",
    "GAME_CHOICES",
    "GAME_LABELS",
    "RULES_CHOICES",
    "SEASONS_AHEAD",
    "ApiToken",
    "Club",
    "ClubClosing",
    "ClubSignup",
    "EmailChange",
    "Federation",
    "FederationAdmin",
    "FederationInvitation",
    "FederationSeason",
    "Invitation",
    "JoinRequest",
    "MemberImport",
    "Membership",
    "Player",
    "PlayerClaim",
    "PlayerMerge",
    "PlayerQuerySet",
    "Season",
    "SignupLink",
    "check_ranking_rules",
    "dates_refused",
    "default_precedence",
    "default_scheme",
    "hidden_characters",
    "name_key",
    "season_slug",
    "sort_key",
    "tidy_name",
]
