"""Seasons: found or opened for a night's date or name, the next season proposed, a season's
dates and rules."""

from __future__ import annotations

import datetime
import re
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import (
    Club,
    Season,
    dates_refused,
    season_slug,
)
from .pages import published_pages_changed


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


# Seasons


def season_next(club: Club) -> Season:
    """What the club's next season would be, unsaved: it follows the latest one (same length,
    its name's years moved on), or the calendar year for a club's first season; it plays with
    the latest season's rules."""
    last = club.seasons.order_by("-end").first()
    if last is None:
        year = datetime.date.today().year
        return Season(
            club=club,
            name=str(year),
            start=datetime.date(year, 1, 1),
            end=datetime.date(year, 12, 31),
        )
    # The same dates as many years on as the last season takes (a calendar year, September
    # to June, two years), whatever the leap years in between.
    shift = 1
    while _years_on(last.start, shift) <= last.end:
        shift += 1
    start, end = _years_on(last.start, shift), _years_on(last.end, shift)
    years = [int(y) for y in re.findall(r"\d{4}", last.name)]
    name = re.sub(r"\d{4}", lambda m: str(int(m.group()) + shift), last.name) if years else ""
    return Season(
        club=club,
        name=name or str(start.year),
        start=start,
        end=end,
        ranking_best_n=last.ranking_best_n,
        ranking_min_tournaments=last.ranking_min_tournaments,
        ranking_precedence=last.ranking_precedence,
        ranking_guests=last.ranking_guests,
        default_rules=last.default_rules,
        tournament_points=last.tournament_points,
    )


def _years_on(date: datetime.date, years: int) -> datetime.date:
    try:
        return date.replace(year=date.year + years)
    except ValueError:  # 29 February in a year without one
        return date.replace(year=date.year + years, day=28)


SEASON_RULE_FIELDS = (
    "ranking_best_n",
    "ranking_min_tournaments",
    "ranking_precedence",
    "ranking_guests",
    "default_rules",
    "tournament_points",
)


def _season_overlap_refused(season: Season) -> None:
    overlapping = (
        season.club.seasons.filter(start__lte=season.end, end__gte=season.start)
        .exclude(pk=season.pk)
        .first()
    )
    if overlapping is not None:
        raise ValidationError(
            {
                "start": _("Ces dates chevauchent la saison %(name)s (%(start)s – %(end)s).")
                % {
                    "name": overlapping.name,
                    "start": overlapping.start.strftime("%d/%m/%Y"),
                    "end": overlapping.end.strftime("%d/%m/%Y"),
                }
            }
        )


@transaction.atomic
def season_create(
    club: Club, name: str, start: datetime.date, end: datetime.date, **rules: Any
) -> Season:
    """A new season of the club with its dates and its rules (``SEASON_RULE_FIELDS``); the
    seasons of a club never overlap (a night belongs to one season)."""
    Club.objects.select_for_update().filter(pk=club.pk).first()
    if unknown := set(rules) - set(SEASON_RULE_FIELDS):
        raise ValueError(f"not a season rule: {sorted(unknown)}")
    name = " ".join(name.split())
    if not name:
        raise ValidationError({"name": _("Donnez un nom à la saison.")})
    if club.seasons.filter(name=name).exists():
        raise ValidationError({"name": _("Le club a déjà une saison %(name)s.") % {"name": name}})
    season = Season(club=club, name=name, start=start, end=end, **rules)
    base = slug = season_slug(name)
    n = 1
    while club.seasons.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    season.slug = slug
    season.full_clean()
    _season_overlap_refused(season)
    season.save()
    published_pages_changed(club.pk)  # the season lists of the public pages
    return season


def season_dates_set(season: Season, start: datetime.date, end: datetime.date) -> Season:
    """New dates for a season; its nights must stay inside them."""
    with transaction.atomic():
        season = Season.objects.select_for_update().select_related("club").get(pk=season.pk)
        season.start, season.end = start, end
        season.full_clean()
        _season_overlap_refused(season)
        outside = season.tournaments.exclude(date__range=(start, end)).order_by("date").first()
        if outside is not None:
            raise ValidationError(
                {
                    "start": _("La soirée du %(date)s serait hors de la saison.")
                    % {"date": outside.date.strftime("%d/%m/%Y")}
                }
            )
        season.save(update_fields=["start", "end"])
        published_pages_changed(season.club_id)
    return season
