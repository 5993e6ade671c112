"""Public pages of the club site."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils import timezone

from games.models import Tournament
from games.presenters.calendar import calendar_entries
from games.presenters.federation import federation_links
from scoring.models import TournamentStanding

from ..club_pages import club_page
from ..models import Club, Player


def home(request: HttpRequest) -> TemplateResponse:
    """The clubs and the federations that group them (each with its current season's
    ranking, so a newcomer finds it from here); a site that hosts one club and no federation
    opens straight on the club."""
    clubs = list(Club.objects.prefetch_related("seasons"))
    federations = federation_links(timezone.localdate())
    if len(clubs) == 1 and not federations:
        return club_detail(request, clubs[0].slug)
    context = {"clubs": clubs, "federations": federations}
    return TemplateResponse(request, "club/home.html", context)


@club_page()
def club_detail(request: HttpRequest, slug: str) -> TemplateResponse:
    """A club: its seasons and, for the chosen one, its nights with each night's winner.

    The season list is an htmx partial: choosing a season swaps only the nights.
    """
    club = request.club
    seasons = list(club.seasons.all())
    season = None
    # ?season= was this page's parameter once: old links and bookmarks keep working.
    wanted = request.GET.get("saison") or request.GET.get("season")
    if seasons:
        season = next((s for s in seasons if s.name == wanted), seasons[0])
    tournaments = (
        Tournament.objects.filter(season=season)
        .prefetch_related(TournamentStanding.objects.winners())
        .order_by("-date", "name")
        if season
        else Tournament.objects.none()
    )
    viewer = request.club_viewer
    member = viewer.is_member
    context = {
        "club": club,
        "seasons": seasons,
        "season": season,
        "tournaments": list(tournaments),
        "can_score": viewer.is_scorer,
        "can_admin": viewer.is_club_admin,
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
        "coming": calendar_entries(
            club,
            Player.objects.filter(user=request.user).first() if member else None,
            timezone.now(),
            limit=3,
        ),
    }
    template = "club/club_detail.html"
    if request.htmx:
        template += "#tournaments"
    return TemplateResponse(request, template, context)
