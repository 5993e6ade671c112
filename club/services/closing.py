"""A club closed by its admin, reopened by the site's operator, and deleted once its time is up.

Closing is one transaction: the club's address moves to an unguessable one (every page and
API address of the club then answers 404, the old address a page that says the club closed:
no page of the site needs a check of its own), its open memberships end that day (nobody has
a role in it any more, and its members' spaces no longer list it), it leaves its federations,
its pending invitations go, and its members are told by e-mail through the outbox. Its data is
kept ``CLUB_CLOSED_KEEP_DAYS`` days (the privacy page says how long), during which the
operator may reopen it (Django's admin); then ``manage.py purge_closed_clubs`` (or its beat
task) deletes the club with its nights, seasons and rankings, and the players and accounts it
alone knew."""

from __future__ import annotations

import datetime
import logging
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, ProtectedError
from django.utils import timezone
from django.utils.translation import gettext as _

from infra.outbox import TaskName, work_queue

from ..models import Club, ClubClosing, Invitation, Membership, Player, name_key
from .federation_clubs import federation_club_remove
from .pages import published_pages_changed

logger = logging.getLogger(__name__)

# How long a closed club's data is kept when the settings say nothing.
KEEP_DAYS = 90


def closed_keep_days() -> int:
    return int(getattr(settings, "CLUB_CLOSED_KEEP_DAYS", KEEP_DAYS))


def closing_for_address(slug: str) -> ClubClosing | None:
    """The closing of the club that had this address (None: no closed club had it)."""
    return ClubClosing.objects.select_related("club").filter(slug=slug).order_by("-pk").first()


@transaction.atomic
def club_close(
    club: Club,
    *,
    typed_name: str,
    by: AbstractBaseUser | None,
    now: datetime.datetime | None = None,
) -> ClubClosing:
    """Close ``club``: ``typed_name`` is its name as the admin typed it to confirm (whatever
    the case, the accents and the spaces)."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    if ClubClosing.objects.filter(club=club).exists():
        raise ValidationError(_("Ce club est déjà fermé."))
    if name_key(typed_name) != name_key(club.name):
        raise ValidationError(
            _("Tapez le nom du club tel qu'il est écrit, « %(name)s », pour le fermer.")
            % {"name": club.name}
        )
    now = now or timezone.now()
    today = timezone.localdate(now)
    open_ = Membership.objects.current().filter(club=club)
    ended = list(open_.values_list("pk", flat=True))
    # A membership dated after today (typed ahead) ends on its first day.
    open_.filter(start__lte=today).update(end=today)
    open_.filter(start__gt=today).update(end=F("start"))
    federations = list(club.federations.order_by("name"))
    for federation in federations:
        federation_club_remove(federation, club)
    Invitation.objects.filter(club=club, accepted_at__isnull=True).delete()
    closing = ClubClosing.objects.create(
        club=club,
        slug=club.slug,
        closed_at=now,
        closed_by=by if by is not None and by.is_authenticated else None,
        purge_after=now + datetime.timedelta(days=closed_keep_days()),
        memberships=ended,
        federations=[federation.name for federation in federations],
    )
    club.slug = f"ferme-{club.pk}-{secrets.token_hex(12)}"
    club.save(update_fields=["slug"])
    published_pages_changed(club.pk)
    work_queue(TaskName.CLUB_CLOSED_EMAIL, closing.pk)
    return closing


@transaction.atomic
def club_reopen(closing: ClubClosing) -> Club:
    """The operator reopens a closed club before its data is deleted: its address comes back
    and the memberships its closing ended are open again (its federations invite it again)."""
    closing = ClubClosing.objects.select_for_update().select_related("club").get(pk=closing.pk)
    club = closing.club
    if Club.objects.filter(slug=closing.slug).exclude(pk=club.pk).exists():
        raise ValidationError(
            _("L'adresse « %(slug)s » est prise depuis par un autre club : %(club)s reste fermé.")
            % {"slug": closing.slug, "club": club.name}
        )
    Membership.objects.filter(club=club, pk__in=closing.memberships).update(end=None)
    club.slug = closing.slug
    club.save(update_fields=["slug"])
    closing.delete()
    published_pages_changed(club.pk)
    return club


def closed_clubs_purge(now: datetime.datetime | None = None) -> list[str]:
    """Delete every closed club whose time is up; returns their names. Each club in its own
    transaction: one that fails stays for the next run, the others go."""
    now = now or timezone.now()
    purged = []
    for closing in ClubClosing.objects.filter(purge_after__lte=now).select_related("club"):
        name = closing.club.name
        try:
            club_purge(closing.club)
        except Exception:
            logger.exception("closed club %s not purged; it stays for the next run", name)
            continue
        purged.append(name)
    return purged


@transaction.atomic
def club_purge(club: Club) -> None:
    """Delete the club and all its data, then its players whom no other club knows, and their
    accounts (never the operator's). A player another club's night still names (a visitor at
    an inter-club night, a federation's ranking line) is kept."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    player_ids = set(Membership.objects.filter(club=club).values_list("player_id", flat=True))
    federation_seasons = set(
        club.tournaments.filter(federation_season__isnull=False).values_list(
            "federation_season", flat=True
        )
    )
    # The nights first: a season refuses to go while a night names it.
    club.tournaments.all().delete()
    club.delete()
    lone = Player.objects.filter(pk__in=player_ids, memberships__isnull=True)
    user_ids = set(lone.exclude(user=None).values_list("user_id", flat=True))
    try:
        with transaction.atomic():
            lone.delete()
    except ProtectedError:
        for player in lone:
            try:
                with transaction.atomic():
                    player.delete()
            except ProtectedError:
                logger.info("player %s kept: another club's rows name him", player.pk)
    get_user_model().objects.filter(
        pk__in=user_ids, player__isnull=True, is_staff=False, is_superuser=False
    ).delete()
    for season_id in federation_seasons:
        work_queue(TaskName.FEDERATION_RANKING_UPDATE, season_id)
