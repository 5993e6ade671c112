"""A club's public page, its home on the site: the club site's blocks, its seasons and their
nights (the site's own home page is front's)."""

from __future__ import annotations

from django.db.models import Q
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils import timezone

from games.calendar.presenters import calendar_entries, next_to_open
from games.models import Tournament
from games.presenters.club_start import club_checklist
from scoring.models import TournamentStanding

from ..club_pages import club_page
from ..models import Player


def _nights_listed(can_score: bool, member: bool) -> Q:
    """The nights a reader finds in the club's list: its scorers and admins, every night they
    run; a member, the published ones and tonight's (its room screen and his tables are his);
    the public, the published ones only. A night closed but not published (or taken back) is
    listed to nobody else: its page is theirs alone."""
    if can_score:
        return Q()
    published = Q(status=Tournament.Status.PUBLISHED)
    if member:
        return published | Q(status__in=(Tournament.Status.PLANNED, Tournament.Status.RUNNING))
    return published


@club_page()
def club_detail(request: HttpRequest, slug: str) -> TemplateResponse:
    """A club's public home: its name and logo, its site's menu, the next nights, the latest
    night's podium, its news and latest album (the club site's blocks, ``clubsite.home``:
    cached, so the page asks no more than before), then its seasons and, for the chosen one,
    its nights with each night's winner.

    The season list is an htmx partial: choosing a season swaps only the nights.
    """
    club = request.club
    seasons = list(club.seasons.all())
    season = None
    # ?season= was this page's parameter once: old links and bookmarks keep working.
    wanted = request.GET.get("saison") or request.GET.get("season")
    if seasons:
        season = next((s for s in seasons if s.name == wanted), seasons[0])
    viewer = request.club_access
    member, can_score, can_admin = viewer.is_member, viewer.is_scorer, viewer.is_club_admin
    tournaments = (
        Tournament.objects.filter(_nights_listed(can_score, member), season=season)
        .prefetch_related(TournamentStanding.objects.winners())
        .order_by("-date", "name")
        if season
        else Tournament.objects.none()
    )
    coming = calendar_entries(
        club,
        Player.objects.filter(user=request.user).first() if member else None,
        timezone.now(),
        limit=3,
    )
    context = {
        "club": club,
        "seasons": seasons,
        "season": season,
        "tournaments": list(tournaments),
        "can_score": can_score,
        "can_admin": can_admin,
        # A new club's first steps, for its admins, until each is done.
        "checklist": club_checklist(club) if can_admin and not request.htmx else None,
        "is_member": member,
        # Tonight's room screen, for the club's members (a projector logged in as one too).
        "running": list(
            Tournament.objects.filter(club=club, status=Tournament.Status.RUNNING).order_by(
                "-date", "name"
            )
        )
        if member
        else [],
        # The next nights on the club's calendar, with the member's answer.
        "coming": coming,
        # The next night still to start, that a scorer starts from here at the door.
        "to_open": next_to_open(coming) if can_score else None,
    }
    template = "club/club_detail.html"
    if request.htmx:
        template += "#tournaments"
    return TemplateResponse(request, template, context)
