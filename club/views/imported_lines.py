"""An imported ranking corrected line by line by the club admin: its lines listed, then one
line's small form (``scoring.services.imported_line_correct`` does the work, in one
transaction). Every page is his club's only (``club_page(CLUB_ADMIN)``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from infra.typography import named
from scoring.engine.standings import decimal_string
from scoring.models import RankingLine, RankingSnapshot
from scoring.services import LineFigures, imported_line_correct
from scoring.services.imported_lines import MOST_NIGHTS
from scoring.services.ranking_import import points_read

from ..club_pages import club_page
from ..models import Club, Player, Season
from ..name_order import by_name
from ..permissions import CLUB_ADMIN

BLANK_IS_UNKNOWN = gettext_lazy("Vide : inconnu.")


def nights_field(label: Any) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, required=False, min_value=0, max_value=MOST_NIGHTS, help_text=BLANK_IS_UNKNOWN
    )


class LineForm(forms.Form):
    rank = forms.IntegerField(label=gettext_lazy("Rang"), min_value=1, max_value=9999)
    player = forms.ModelChoiceField(label=gettext_lazy("Joueur"), queryset=Player.objects.none())
    tournament_points = forms.CharField(label=gettext_lazy("Points"), max_length=20)
    game_points = forms.IntegerField(
        label=gettext_lazy("Points de jeu"), required=False, help_text=BLANK_IS_UNKNOWN
    )
    tournaments_played = nights_field(gettext_lazy("Soirées jouées"))
    tournaments_won = nights_field(gettext_lazy("Soirées gagnées"))

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = self.fields["player"]
        players.queryset = Player.objects.in_club(club).order_by(*by_name())
        players.label_from_instance = lambda player: player.display_name

    def clean_tournament_points(self) -> Any:
        text = self.cleaned_data["tournament_points"]
        points = points_read(text)
        if points is None:
            raise ValidationError(_("« %(got)s » n'est pas un nombre de points.") % {"got": text})
        return points


def _imported(request: HttpRequest, season: str) -> tuple[Club, Season]:
    club = request.club
    return club, get_object_or_404(Season, club=club, slug=season)


@login_required
@club_page(CLUB_ADMIN)
def imported_lines(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    """The season's published ranking, each line with its correction's link when imported."""
    club, season_obj = _imported(request, season)
    snapshot = RankingSnapshot.objects.filter(season=season_obj).latest_published().first()
    context = {
        "club": club,
        "season": season_obj,
        "snapshot": snapshot,
        "lines": list(snapshot.lines.in_order()) if snapshot else [],
    }
    return TemplateResponse(request, "club/admin/imported_lines.html", context)


@login_required
@club_page(CLUB_ADMIN)
def imported_line_edit(request: HttpRequest, slug: str, season: str, line: int) -> HttpResponse:
    """One line's form: refused in words, kept as typed; stored whole or not at all."""
    club, season_obj = _imported(request, season)
    ranking_line = get_object_or_404(
        RankingLine.objects.select_related("player"), pk=line, snapshot__season=season_obj
    )
    initial = {
        "rank": ranking_line.rank,
        "player": ranking_line.player,
        "tournament_points": decimal_string(ranking_line.tournament_points),
        "game_points": ranking_line.game_points,
        "tournaments_played": ranking_line.tournaments_played,
        "tournaments_won": ranking_line.tournaments_won,
    }
    form = LineForm(request.POST or None, initial=initial, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            imported_line_correct(ranking_line, LineFigures(**form.cleaned_data))
        except ValidationError as refused:
            for message in refused.messages:
                form.add_error(None, message)
        else:
            messages.success(
                request,
                named(
                    _("Ligne de %(player)s corrigée."),
                    player=form.cleaned_data["player"].display_name,
                ),
            )
            return redirect("imported-lines", slug=club.slug, season=season_obj.slug)
    context = {"club": club, "season": season_obj, "line": ranking_line, "form": form}
    return TemplateResponse(request, "club/admin/imported_line_edit.html", context)
