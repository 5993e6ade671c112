"""One function per change of who is who: clubs, seasons, players and their memberships.
Pages, importers and the other apps' services all call these; each validates with
``full_clean`` before it writes."""

from __future__ import annotations

import datetime
import re

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from .models import Club, Membership, Player, Season, dates_refused, name_key, season_slug


def published_pages_changed(club_id: int) -> None:
    """What the club shows the public changed: its cached pages and their ETags are stale.
    Called by the services that change them, in their transaction."""
    Club.objects.filter(pk=club_id).update(pages_changed=timezone.now())


def player_pages_changed(player: Player) -> None:
    """A player's name or photo changed: the published pages of each of his clubs show them."""
    Club.objects.filter(memberships__player=player).update(pages_changed=timezone.now())


def club_named(name: str) -> Club:
    """The club of this name; a club met for the first time (in an imported file) is opened
    with a slug of its own."""
    club = Club.objects.filter(name=name).first()
    if club is not None:
        return club
    base = slugify(name)[:50] or "club"
    slug, n = base, 1
    while Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    club = Club(name=name, slug=slug)
    club.full_clean()
    club.save()
    return club


def _season_create(club: Club, name: str, start: datetime.date, end: datetime.date) -> Season:
    base = slug = season_slug(name)
    n = 1
    while club.seasons.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    season = Season(club=club, name=name, slug=slug, start=start, end=end)
    season.full_clean()
    season.save()
    return season


def season_for_date(club: Club, date: datetime.date) -> Season:
    """The club's season covering ``date``; when there is none yet, the calendar year's
    season is opened (RCWhist's seasons are calendar years)."""
    if why := dates_refused(date):
        raise ValidationError({"date": why})
    season = club.seasons.filter(start__lte=date, end__gte=date).order_by("-start").first()
    if season is not None:
        return season
    name = str(date.year)
    if club.seasons.filter(name=name).exists():
        raise ValidationError(
            _("Aucune saison du club ne couvre le %(date)s.") % {"date": date.strftime("%d/%m/%Y")}
        )
    return _season_create(
        club, name, datetime.date(date.year, 1, 1), datetime.date(date.year, 12, 31)
    )


def season_named(club: Club, name: str, date: datetime.date) -> Season:
    """The club's season of this name. A season the club has not set up yet is opened with
    dates that follow its name: usually a calendar year ("2024"), sometimes two ("2024-2025");
    any other name spans the year of ``date``. An existing season keeps the dates the club
    gave it (a night outside them is refused)."""
    if why := dates_refused(date):
        raise ValidationError({"date": why})
    season = Season.objects.filter(club=club, name=name).first()
    if season is not None:
        return season
    years = [int(y) for y in re.findall(r"\d{4}", name)] or [date.year]
    start, end = datetime.date(min(years), 1, 1), datetime.date(max(years), 12, 31)
    return _season_create(club, name, min(start, date), max(end, date))


def player_join(
    club: Club,
    display_name: str,
    *,
    start: datetime.date,
    status: str = Membership.Status.ACTIVE,
    as_written: bool = False,
) -> Player:
    """A new player and his membership of ``club`` (a guest or a member). A typed name is
    tidied and refused when the club has it already, whatever its case and accents.
    ``as_written``: a name from a club-night file is kept exactly, as the file names him on
    every sheet (the importer has matched the club's players by that exact name already)."""
    if not as_written:
        display_name = " ".join(display_name.split())
    if not display_name.strip():
        raise ValidationError(_("Donnez le nom du joueur."))
    players = Player.objects.in_club(club)
    if as_written:
        taken = players.filter(display_name=display_name).exists()
    else:
        key = name_key(display_name)
        taken = any(name_key(n) == key for n in players.values_list("display_name", flat=True))
    if taken:
        raise ValidationError(
            _("%(name)s est déjà dans la liste du club : cochez-le parmi les présents.")
            % {"name": display_name}
        )
    first, _sep, last = display_name.partition(" ")
    player = Player(display_name=display_name, first_name=first, last_name=last)
    player.full_clean()
    player.save()
    membership = Membership(club=club, player=player, start=start, status=status)
    membership.full_clean()
    membership.save()
    return player
