"""Federations: one opened with its first administrator, its administrators and its seasons
(its clubs joining and leaving: ``federation_clubs``). Each function validates before it
writes, in one transaction."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from ..models import (
    DEFAULT_PRECEDENCE,
    Club,
    Federation,
    FederationAdmin,
    FederationSeason,
    Membership,
    Player,
    season_slug,
)
from .clubs import free_slug
from .federation_clubs import federation_club_invite
from .pages import federation_pages_changed


@transaction.atomic
def federation_open(
    name: str,
    *,
    clubs: Iterable[Club] = (),
    invite: Iterable[Club] = (),
    admin: Player | None = None,
) -> Federation:
    """A new federation, run by ``admin`` (a player with a login). ``invite``: the clubs asked
    in his name, each joining once one of its admins accepts. ``clubs`` join at once: the site
    operator's road only (``manage.py federation_create --join``), on their word given to him."""
    slug = free_slug(Federation, name, "federation")
    federation = Federation(name=" ".join(name.split()), slug=slug)
    federation.full_clean()
    federation.save()
    federation.clubs.set(clubs)
    if admin is not None:
        federation_admin_add(federation, admin)
    for club in invite:
        federation_club_invite(federation, club, by=admin.user if admin else None)
    return federation


def federation_admin_candidates(federation: Federation) -> QuerySet[Player]:
    """Whom the federation's administrators may name one of them: a member (an open
    membership, not a guest) of one of its clubs, with a login, not one already. They see no
    other player of the site (a club that has not joined shows them nothing)."""
    members = (
        Membership.objects.current()
        .filter(club__federations=federation, status=Membership.Status.ACTIVE)
        .values("player")
    )
    return Player.objects.filter(
        pk__in=members, user__isnull=False, merged_into__isnull=True
    ).exclude(federation_roles__federation=federation)


def federation_admin_add(federation: Federation, player: Player) -> FederationAdmin:
    if player.user_id is None:
        raise ValidationError(
            _("%(player)s n'a pas de compte : il ne peut pas administrer la fédération.")
            % {"player": player}
        )
    role, _created = FederationAdmin.objects.get_or_create(federation=federation, player=player)
    # The federation's pages offer its administrators their management link.
    federation_pages_changed(federation.pk)
    return role


@transaction.atomic
def federation_season_create(
    federation: Federation,
    name: str,
    start: datetime.date,
    end: datetime.date,
    *,
    game: str = "belgian_whist",
    counts: str = FederationSeason.Counts.CHAMPIONSHIP,
    **rules: Any,
) -> FederationSeason:
    """A federation season with its ranking rules (best_n, min_tournaments, precedence)."""
    season = FederationSeason(
        federation=federation,
        name=name.strip(),
        slug=season_slug(name),
        start=start,
        end=end,
        game=game,
        counts=counts,
        ranking_best_n=rules.get("best_n"),
        ranking_min_tournaments=rules.get("min_tournaments") or 0,
        ranking_precedence=list(rules.get("precedence") or DEFAULT_PRECEDENCE),
    )
    season.full_clean()
    season.save()
    federation_pages_changed(federation.pk)
    return season


# What a season's administrators may change once it is open: its dates and ranking rules. Its
# name (its pages' address) and game (its nights are played with it) stay.
FEDERATION_SEASON_RULE_FIELDS = (
    "start",
    "end",
    "counts",
    "ranking_best_n",
    "ranking_min_tournaments",
    "ranking_precedence",
)


@transaction.atomic
def federation_season_rules_set(season: FederationSeason, **changes: Any) -> FederationSeason:
    """A federation season's dates and ranking rules (which nights count, best N, minimum
    nights, precedence). Its ranking is recomputed by ``scoring`` (the caller queues it in the
    same transaction: the club app does not know how a ranking is made)."""
    if unknown := set(changes) - set(FEDERATION_SEASON_RULE_FIELDS):
        raise ValueError(f"not a federation season rule: {sorted(unknown)}")
    season = FederationSeason.objects.select_for_update().get(pk=season.pk)
    for name, value in changes.items():
        setattr(season, name, value)
    season.full_clean()
    # An inter-club night belongs to the season that held its date: new dates must still hold
    # every night already hosted for it.
    outside = season.nights.exclude(date__range=(season.start, season.end)).order_by("date")
    if night := outside.first():
        raise ValidationError(
            {
                "start": _(
                    "La soirée inter-clubs du %(date)s de cette saison tomberait en dehors de "
                    "ses dates."
                )
                % {"date": night.date.strftime("%d/%m/%Y")}
            }
        )
    season.save(update_fields=list(changes) or None)
    federation_pages_changed(season.federation_id)
    return season


@transaction.atomic
def federation_admin_remove(federation: Federation, player: Player) -> None:
    """An administrator steps down; the federation keeps at least one (or only the site's
    operator could run it again)."""
    admins = FederationAdmin.objects.select_for_update().filter(federation=federation)
    if not admins.exclude(player=player).exists():
        raise ValidationError(_("La fédération garde au moins un administrateur."))
    admins.filter(player=player).delete()
    federation_pages_changed(federation.pk)
