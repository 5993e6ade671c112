"""The paper score sheets, printed by the browser (static/css/paper.css: A4 or A5, a table per
page): a drawn round's tables with their players, each with the QR code of its phone sheet, and
blank sheets for a club that scores on paper. No PDF is made on the server
(docs/running-a-club.md says why)."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse

from club.names import name_reader_of
from club.permissions import SCORER

from ..models import Poule
from ..presenters.paper import blank_sheets as blank_sheets_model
from ..presenters.paper import legend_of
from ..presenters.paper import round_sheets as round_sheets_model
from .common import night_viewed, posted_number, require_sheet_reader, tournament_for

PAPER_SIZES = ("a4", "a5")
MAX_BLANK_TABLES = 30


def _paper(request: HttpRequest) -> str:
    size = request.GET.get("format", "a4").lower()
    return size if size in PAPER_SIZES else "a4"


def round_sheets(request: HttpRequest, slug: str, pk: int, round: int) -> TemplateResponse:
    """Every table of a drawn round, a sheet per page, printed at once."""
    tournament = tournament_for(slug, pk)
    require_sheet_reader(request, tournament)
    poules = list(
        Poule.objects.filter(tournament=tournament, round=round)
        .with_seated_players()
        .order_by("table")
    )
    for poule in poules:
        poule.tournament = tournament  # its deal count reads the club's: no query per table

    def url_of(poule: Poule) -> str:
        path = reverse("games:sheet", args=[tournament.club.slug, tournament.pk, poule.pk])
        return request.build_absolute_uri(path)

    sheets = round_sheets_model(tournament, poules, url_of, reader=name_reader_of(request.user))
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "round": round,
        "sheets": sheets,
        "legend": legend_of(tournament.game, tournament.point_table),
        "paper": _paper(request),
        "blank": False,
    }
    return TemplateResponse(request, "games/paper_sheets.html", context)


def blank_sheets(request: HttpRequest, slug: str, pk: int) -> TemplateResponse:
    """Sheets with the players' names to fill in by hand: ``?tables=`` how many, ``?places=``
    4 or 5 players."""
    tournament = night_viewed(request, slug, pk, SCORER)
    tables = posted_number(request.GET.get("tables", "1"), MAX_BLANK_TABLES) or 1
    places = 5 if request.GET.get("places") == "5" else 4
    night = request.build_absolute_uri(
        reverse("games:tournament", args=[tournament.club.slug, tournament.pk])
    )
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "round": None,
        "sheets": blank_sheets_model(tournament, tables, places, night),
        "legend": legend_of(tournament.game, tournament.point_table),
        "paper": _paper(request),
        "blank": True,
        "tables": tables,
        "places": places,
    }
    return TemplateResponse(request, "games/paper_sheets.html", context)
