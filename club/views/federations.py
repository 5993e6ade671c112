"""A federation's public pages: the federation (its clubs, its calendar of inter-club nights,
the top of its ranking), a season's ranking across its clubs, and the archive of its seasons.

Public to everybody, as a club's published pages are: they show only nights their host clubs
have published (and the nights still to come), players under their public names. Served from
the cache and answered 304 until ``Federation.pages_changed`` moves.
"""

from __future__ import annotations

from django.db.models import Count, Max
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.utils import timezone

from games.models import Tournament
from games.presenters.federation import (
    federation_archive,
    federation_overview,
    federation_seasons,
    ranking_of,
    ranking_page,
)
from scoring.services import federation_ranking_pending

from ..models import Federation, FederationSeason
from ..names import name_reader_of
from ..permissions import is_federation_admin
from ..published import federation_page


def _nights_planned(federation: Federation) -> tuple[int, object]:
    """How many inter-club nights the federation has and when the last was added: planning
    one does not mark the federation's pages, yet its calendar shows it (one query)."""
    nights = Tournament.objects.filter(federation_season__federation=federation).aggregate(
        count=Count("pk"), last=Max("created")
    )
    return nights["count"], nights["last"]


def federation_detail(request: HttpRequest, slug: str) -> HttpResponse:
    federation = get_object_or_404(Federation, slug=slug)
    # Which season is current, and which nights are still to come, depend on the day.
    today = timezone.localdate()

    def render() -> TemplateResponse:
        overview = federation_overview(federation, today)
        context = {
            "federation": federation,
            "overview": overview,
            "may_manage": is_federation_admin(request.user, federation),
        }
        return TemplateResponse(request, "club/federation/detail.html", context)

    return federation_page(
        request, federation, render, "federation", today, *_nights_planned(federation)
    )


# A search longer than this is no name: cut, not refused.
SEARCH_LENGTH = 80


def federation_ranking(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    """A season's ranking across the federation's clubs, with the rules it applies: a page of
    it (``?page=``), or the lines a name or a club typed finds (``?q=``), with a link to the
    signed-in member's own line. The whole ranking is downloaded from the API."""
    federation = get_object_or_404(Federation, slug=slug)
    # Said while the task recomputes it: a night just published is not counted yet (the
    # task's end marks the federation's pages).
    pending = _pending(federation, season)
    number = _page_number(request.GET.get("page", ""))
    typed = request.GET.get("q", "")[:SEARCH_LENGTH].strip()

    def render() -> TemplateResponse:
        seasons = federation_seasons(federation)
        chosen = next((s for s in seasons if s.slug == season), None)
        if chosen is None:
            raise Http404("no such federation season")
        ranking = ranking_of(chosen)
        shown = None
        if ranking:
            shown = ranking_page(
                federation,
                ranking,
                name_reader_of(request.user),
                number=number,
                typed=typed,
                user=request.user,
            )
        # The rules the ranking was computed with; before any, the season's.
        rules = ranking.rules if ranking else _season_rules(chosen)
        context = {
            "federation": federation,
            "seasons": seasons,
            "season": chosen,
            "ranking": ranking,
            "shown": shown,
            "typed": typed,
            "rules": rules,
            "counts_label": FederationSeason.Counts(rules.get("counts", chosen.counts)).label,
            "pending": pending,
        }
        return TemplateResponse(request, "club/federation/ranking.html", context)

    return federation_page(request, federation, render, "ranking", season, pending, number, typed)


def _page_number(value: str) -> int:
    """The page asked for; the first when the address holds anything else (the presenter
    shows the last when it is past the end)."""
    value = value.strip()
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 6 else 1


def _season_rules(season: FederationSeason) -> dict[str, object]:
    return {
        "best_n": season.ranking_best_n,
        "min_tournaments": season.ranking_min_tournaments,
        "counts": season.counts,
    }


def _pending(federation: Federation, slug: str) -> bool:
    season = federation.seasons.filter(slug=slug).only("pk").first()
    return season is not None and federation_ranking_pending(season)


def federation_rankings(request: HttpRequest, slug: str) -> HttpResponse:
    """The archive: every season of the federation with its winners."""
    federation = get_object_or_404(Federation, slug=slug)

    def render() -> TemplateResponse:
        context = {"federation": federation, "archive": federation_archive(federation)}
        return TemplateResponse(request, "club/federation/archive.html", context)

    return federation_page(request, federation, render, "archive")
