"""The yearly ranking (classement annuel): the current season, one page per season, the archive
of published seasons, its exports, and its publication by a club admin.

The public only ever sees a published snapshot: a frozen copy with its date. The live ranking,
recomputed whenever a night closes, is the club admins' preview of what they would publish.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.models import Tournament
from infra.slugs import slug_of
from scoring import services
from scoring.models import PlayerRating, RankingLine, RankingSnapshot

from ..club_pages import access_for, club_page
from ..exports import EXPORT_FORMATS, columns_table, ranking_columns, table_response
from ..models import Club, Season
from ..names import name_reader_of
from ..published import published_page


def _seasons(club: Club) -> list[Season]:
    """The club's seasons, newest first, each knowing whether it has a published ranking."""
    published = RankingSnapshot.objects.published().filter(season=OuterRef("pk"))
    return list(club.seasons.annotate(is_published=Exists(published)))


def _season_named(seasons: list[Season], slug: str) -> Season:
    season = next((s for s in seasons if s.slug == slug), None)
    if season is None:
        raise Http404("no such season")
    return season


def _split(lines: list[RankingLine]) -> tuple[list[RankingLine], list[RankingLine]]:
    """Ranked players, then those listed apart (fewer nights than the minimum)."""
    return [line for line in lines if line.rank is not None], [
        line for line in lines if line.rank is None
    ]


def _ranking_page(
    request: HttpRequest, club: Club, seasons: list[Season], season: Season, *, current: bool
) -> TemplateResponse:
    can_admin = access_for(request, club).is_club_admin
    published = RankingSnapshot.objects.filter(season=season).latest_published().first()
    # Nobody but a club admin may learn that an unpublished season has a ranking at all; the
    # current season's page instead says plainly that nothing is published yet.
    if published is None and not can_admin and not current:
        raise Http404("this season's ranking is not published")
    return _ranking_response(request, club, seasons, season, published, current=current)


def _ranking_response(
    request: HttpRequest,
    club: Club,
    seasons: list[Season],
    season: Season,
    published: RankingSnapshot | None,
    *,
    current: bool,
) -> TemplateResponse:
    can_admin = access_for(request, club).is_club_admin
    context = {
        "club": club,
        "season": season,
        "current": current,
        "can_admin": can_admin,
        # The public switches between published seasons only: the others would be a 404.
        "seasons": [s for s in seasons if s.is_published or can_admin],
        "latest_published": next((s for s in seasons if s.is_published), None),
        "published": published,
        "live": None,
        # Recorded but not done yet (a night just closed, a publication asked): said to the
        # club admins, who see the live ranking, until the task has run (its end marks the
        # club's pages, so this is not cached).
        "ranking_pending": can_admin and services.ranking_pending(season),
    }
    if published is not None:
        context["ranked"], context["apart"] = _split(list(published.lines.in_order()))
    if can_admin:
        live = RankingSnapshot.objects.filter(season=season).live().first()
        if live is not None:
            context["live"] = live
            context["live_ranked"], context["live_apart"] = _split(list(live.lines.in_order()))
    return TemplateResponse(request, "club/ranking.html", context)


@club_page()
def ranking_current(request: HttpRequest, slug: str) -> HttpResponse:
    """The ranking of the season under way (else the club's latest season)."""
    club = request.club
    today = timezone.localdate()

    def render() -> TemplateResponse:
        seasons = _seasons(club)
        if not seasons:
            context = {"club": club, "seasons": [], "season": None, "current": True}
            return TemplateResponse(request, "club/ranking.html", context)
        season = next((s for s in seasons if s.start <= today <= s.end), seasons[0])
        return _ranking_page(request, club, seasons, season, current=True)

    # Which season is current depends on the day too.
    return published_page(request, club, render, "ranking", "current", today)


@club_page()
def ranking_season(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    club = request.club

    def render() -> TemplateResponse:
        seasons = _seasons(club)
        return _ranking_page(request, club, seasons, _season_named(seasons, season), current=False)

    return published_page(request, club, render, "ranking", season)


@club_page()
def ranking_archive(request: HttpRequest, slug: str) -> HttpResponse:
    """Every season the club has published, newest first, with its winners."""
    club = request.club

    def render() -> TemplateResponse:
        snapshots = (
            RankingSnapshot.objects.filter(season__club=club)
            .latest_published()
            .select_related("season")
            .with_winners()
            .order_by("-season__start")
        )
        context = {"club": club, "snapshots": list(snapshots)}
        return TemplateResponse(request, "club/ranking_archive.html", context)

    return published_page(request, club, render, "archive")


def ranking_export(request: HttpRequest, slug: str, season: str, fmt: str) -> HttpResponse:
    """The published ranking as CSV or Excel, each player named as the reader may see him."""
    if fmt not in EXPORT_FORMATS:
        raise Http404("unknown export format")
    season = get_object_or_404(Season.objects.select_related("club"), club__slug=slug, slug=season)
    snapshot = RankingSnapshot.objects.filter(season=season).latest_published().first()
    if snapshot is None:
        raise Http404("this season's ranking is not published")
    reader = name_reader_of(request.user)
    header, rows = columns_table(ranking_columns(reader.name), snapshot.lines.in_order())
    if request.GET.get("cote"):
        # Beside the ranking, never instead: each player's « cote » (μ, as its page shows it)
        # after his last published night of the season (empty for a player without one).
        cote = {
            player: round(figure, 2)
            for player, figure in PlayerRating.objects.filter(
                tournament__season=season, tournament__status=Tournament.Status.PUBLISHED
            )
            .order_by("tournament__date", "tournament_id")
            .values_list("player_id", "mu")
        }
        header.append(_("Cote"))
        players = [line.player_id for line in snapshot.lines.order_by("position")]
        rows = [[*row, cote.get(player, "")] for row, player in zip(rows, players, strict=True)]
    return table_response(
        fmt,
        f"classement-{season.club.slug}-{slug_of(season.name)}",
        _("Classement %(season)s") % {"season": season.name},
        header,
        rows,
    )


@login_required
@require_POST
def ranking_publish(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    """Freeze the season's ranking as it stands now; the task computes it from the closed
    nights, so what is published is never a stale live snapshot."""
    season = get_object_or_404(Season.objects.select_related("club"), club__slug=slug, slug=season)
    access_for(request, season.club).require_club_admin()
    try:
        # Refused at once when there is nothing to publish; else recorded, and published by a
        # task once committed (even if the broker is down now: it catches up).
        services.ranking_publish_queue(season)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
    else:
        if services.ranking_pending(season):
            messages.success(
                request,
                _("Publication du classement %(season)s en cours.") % {"season": season.name},
            )
        else:
            messages.success(request, _("Classement %(season)s publié.") % {"season": season.name})
    return redirect("ranking-season", slug=slug, season=season.slug)
