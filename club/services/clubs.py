"""Clubs: found or opened by name (an imported file's club), the club's settings, a new club
with its first admin."""

from __future__ import annotations

import secrets
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from infra.slugs import slug_of

from ..models import (
    Club,
    Federation,
    Membership,
    Player,
)
from .members import member_add
from .pages import published_pages_changed


def free_slug(model: type[Club] | type[Federation], name: str, fallback: str) -> str:
    """A club's or a federation's address: its name's slug, numbered when another of them has
    it already."""
    base = slug_of(name, 50) or fallback
    slug, n = base, 1
    while model.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def club_named(name: str) -> Club:
    """The club of this name, or the club that was called so before it was renamed (its
    old files still name it so); a club met for the first time (in an imported file) is
    opened with a slug of its own."""
    club = Club.objects.filter(name=name).first()
    if club is not None:
        return club
    # A handful of clubs per site: their former names are read here (SQLite's JSON fields
    # cannot be searched by element).
    for club in Club.objects.exclude(former_names=[]).order_by("pk"):
        if name in club.former_names:
            return club
    club = Club(name=name, slug=free_slug(Club, name, "club"))
    club.full_clean()
    club.save()
    return club


# The club's settings

# What the settings page edits of a club, and with it what the club's nights start from.
CLUB_IDENTITY_FIELDS = (
    "name",
    "short_name",
    "town",
    "listed",
    "logo",
    "colour_background",
    "colour_text",
    "contact_email",
    "contact_phone",
    "contact_address",
    "language",
    "default_rules",
)
CLUB_SETTING_FIELDS = (
    *CLUB_IDENTITY_FIELDS,
    "tournament_points",
    "rounds_per_night",
    "deals_per_poule_4",
    "deals_per_poule_5",
    # Its federations' inter-club nights in its own ranking: the caller has the current
    # season's ranking recomputed (``scoring``, which this app does not import).
    "ranking_interclub",
    # Whether publishing a night publishes the season's ranking (``scoring``'s
    # ``tournament_publish`` reads it).
    "ranking_follows_nights",
)


@transaction.atomic
def club_settings_set(club: Club, **fields: Any) -> Club:
    """The club's name, short name, logo (already checked and re-encoded as a photo is),
    room-screen colours, contact, language and night defaults; the public pages show them."""
    if unknown := set(fields) - set(CLUB_SETTING_FIELDS):
        raise ValueError(f"not a club setting: {sorted(unknown)}")
    club = Club.objects.select_for_update().get(pk=club.pk)
    old_name, old_logo = club.name, club.logo.name if club.logo else ""
    for name, value in fields.items():
        setattr(club, name, value)
    if club.name != old_name and old_name not in club.former_names:
        # The club's night files written before still carry the old name: an import finds
        # the club by it (club_named).
        club.former_names = [*club.former_names, old_name]
    club.full_clean()
    club.save()
    published_pages_changed(club.pk)
    club.refresh_from_db()
    new_logo = club.logo.name if club.logo else ""
    if old_logo and old_logo != new_logo:
        # The replaced or removed logo must not stay online; deleted only once the new one is
        # saved for good (a refused change keeps it).
        storage = club.logo.storage
        transaction.on_commit(lambda: storage.delete(old_logo))
    return club


# More than one club on one site: the operator opens a club and its first admin.


@transaction.atomic
def club_open(
    name: str,
    *,
    admin_name: str,
    admin_email: str = "",
    default_rules: str = "rcwhist",
    short_name: str = "",
) -> tuple[Club, Player]:
    """A new club with its first admin (a player; he opens his account by the invitation the
    operator sends him)."""
    name = " ".join(name.split())
    if Club.objects.filter(name__iexact=name).exists():
        raise ValidationError({"name": _("Le club %(name)s existe déjà.") % {"name": name}})
    club = Club(
        name=name,
        slug=free_slug(Club, name, "club"),
        default_rules=default_rules,
        short_name=short_name,
    )
    club.full_clean()
    club.save()
    admin = member_add(
        club,
        admin_name,
        start=timezone.localdate(),
        role=Membership.Role.ADMIN,
        email=admin_email,
    )
    return club, admin


def room_key_renew(club: Club) -> Club:
    """A new private link for the room screen; the old one shows nothing from now on."""
    club.room_key = secrets.token_urlsafe(32)
    club.save(update_fields=["room_key"])
    return club


def room_last_deals_set(club: Club, shown: bool) -> Club:
    """Whether the room screen shows each table's last three deals (the club admin's choice,
    on the room link's page): the next refresh of the screen follows."""
    club.room_last_deals = shown
    club.save(update_fields=["room_last_deals"])
    return club
