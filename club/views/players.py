"""A player's public page: his season totals and the nights he played, season by season.

Public, so it reads only what a published ranking or a published night already shows, under
the name its reader may see (``club.names``); nothing private (e-mail, phone) is even loaded.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from games.models import Tournament
from games.presenters.federation import player_clubs, player_federation_lines
from scoring.models import PlayerRating, RankingLine, TournamentStanding

from ..club_pages import club_page
from ..models import Club, Player
from ..names import name_reader_of
from ..published import published_page
from .merged import merged_player_redirect
from .ratings import rating_history

PUBLIC_FIELDS = (*Player.PUBLIC_NAME_FIELDS, "photo")


@club_page()
def player_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The season chips are an htmx partial: choosing a season swaps only the history. The
    page shows only what the club published: a browser's copy revalidates with a 304."""
    club = request.club
    # A former member keeps his page: his results stay in the club's published rankings.
    player = Player.objects.in_club(club).only(*PUBLIC_FIELDS).filter(pk=pk).first()
    if player is None:
        return merged_player_redirect(club, pk, "player")
    # His clubs and his federation rankings are shown too: other clubs' and federations'
    # changes reach the page through them (one query, before the browser's copy is checked).
    clubs = player_clubs(player)
    federations_changed = max(
        (c.federations_changed for c in clubs if c.federations_changed), default=""
    )
    return published_page(
        request,
        club,
        lambda: _player_page(request, club, player, clubs),
        "player",
        player.pk,
        request.GET.get("saison", ""),
        [c.pk for c in clubs],
        federations_changed,
    )


def _player_page(
    request: HttpRequest, club: Club, player: Player, clubs: list[Club]
) -> TemplateResponse:
    published_tournaments = TournamentStanding.objects.filter(
        player=player, tournament__status=Tournament.Status.PUBLISHED
    )
    seasons = list(
        club.seasons.annotate(
            played=Exists(published_tournaments.filter(tournament__season=OuterRef("pk")))
        )
    )
    played = [s for s in seasons if s.played]
    wanted = request.GET.get("saison")
    season = next((s for s in seasons if s.name == wanted), played[0] if played else None)
    history = (
        published_tournaments.filter(tournament__season=season)
        .select_related("tournament")
        .order_by("-tournament__date", "tournament__name")
        if season
        else TournamentStanding.objects.none()
    )
    context = {
        "club": club,
        "player": player,
        "seasons": played,
        "season": season,
        "history": list(history),
    }
    template = "club/player.html"
    if request.htmx:
        return TemplateResponse(request, template + "#history", context)
    context["totals"] = list(
        RankingLine.objects.filter(player=player, snapshot__season__club=club)
        .latest_published()
        .select_related("snapshot__season")
        .order_by("-snapshot__season__start")
    )
    ratings = list(
        PlayerRating.objects.filter(
            player=player, tournament__club=club, tournament__status=Tournament.Status.PUBLISHED
        )
        .order_by("tournament__date", "tournament_id")
        .values("tournament__date", "mu", "sigma", "deals", "change")
    )
    context["rating_chart"], context["rating_rows"] = rating_history(ratings)
    context["clubs"] = clubs
    context["federation_lines"] = player_federation_lines(player)
    # His photo shows him as his full name does: to whoever may read it (``club.names``).
    context["show_photo"] = bool(player.photo) and (
        player.public_name == Player.PublicName.FULL or name_reader_of(request.user).knows(player)
    )
    return TemplateResponse(request, template, context)
