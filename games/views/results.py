"""A night's results for everybody once published; exports and the club-night file.

Until the night is published these are the club's scorers' (as its score sheets are). Every
page and export here names each player as its reader may see him (``club.names``): a member
who chose initials is shown under them to whoever is not a member of one of his clubs.
"""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _

from club.club_pages import access_for
from club.exports import EXPORT_FORMATS, Text, columns_table, table_response
from club.names import name_reader_of
from club.published import fragment_key, published_page
from scoring.models import TournamentStanding

from ..models import Tournament
from ..nightfile_export import tournament_export
from ..presenters.results import MOST_SEATS, deal_table, night_standing_rows, results_rounds
from .common import require_sheet_reader, tournament_for


def _filename(tournament: Tournament) -> str:
    return f"soiree-{tournament.date.isoformat()}-{tournament.club.slug}"


def _standings(tournament: Tournament) -> list[TournamentStanding]:
    return list(TournamentStanding.objects.of_tournament(tournament))


def tournament_results(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The night's standings, then every poule with its deals and points. A published night
    changes only through the services that mark the club's pages changed: its rounds are
    drawn once and cached, and a browser's copy revalidates with a 304."""
    tournament = tournament_for(slug, pk)
    require_sheet_reader(request, tournament)
    published = tournament.status == Tournament.Status.PUBLISHED
    club = tournament.club
    reader = name_reader_of(request.user)

    def render() -> TemplateResponse:
        context = {
            "club": club,
            "tournament": tournament,
            "standings": night_standing_rows(tournament, reader),
            # Drawn only when the template needs them: not when the cached rounds serve.
            "rounds": lambda: results_rounds(tournament, reader),
            # Drawn once for all who read the same names (the public; each club's members).
            "rounds_cache_key": (
                fragment_key(club, "results", tournament.pk, reader.audience) if published else None
            ),
        }
        return TemplateResponse(request, "games/results.html", context)

    if not published:
        return render()  # the scorers' view of a running night changes with every deal
    return published_page(request, club, render, "results", tournament.pk)


def _exported_night(request: HttpRequest, slug: str, pk: int, fmt: str) -> Tournament:
    """The night an export asks for, once its format is known and the reader may see it."""
    if fmt not in EXPORT_FORMATS:
        raise Http404("csv, csv-tableur or xlsx")
    tournament = tournament_for(slug, pk)
    require_sheet_reader(request, tournament)
    return tournament


def results_export(request: HttpRequest, slug: str, pk: int, fmt: str) -> HttpResponse:
    """The night's standings as CSV or Excel, each player named as the reader may see him.
    Each row carries the night's date, so that a season's files put together stay apart."""
    tournament = _exported_night(request, slug, pk, fmt)
    reader = name_reader_of(request.user)
    header, rows = columns_table(
        [
            (_("Date"), lambda _line: tournament.date),
            (_("Rang"), "rank"),
            (_("Ex aequo"), lambda line: Text("=") if line.tied else ""),
            (_("Joueur"), lambda line: reader.name(line.player)),
            (_("Points de tournoi"), "tournament_points"),
            (_("Points de jeu"), "game_points"),
            (_("Poules gagnées"), "poules_won"),
            (_("Poules jouées"), "poules_played"),
        ],
        _standings(tournament),
    )
    title = f"{tournament} {tournament.date:%d-%m-%Y}" if tournament.name else str(tournament)
    return table_response(fmt, _filename(tournament), title, header, rows)


def deals_export(request: HttpRequest, slug: str, pk: int, fmt: str) -> HttpResponse:
    """Every deal of the night as CSV or Excel, numbered and described as on the score sheet
    (a pass has no number), each player named as the reader may see him; each row with the
    night's date, as the standings have it."""
    tournament = _exported_night(request, slug, pk, fmt)
    header = [
        _("Date"),
        _("Tour"),
        _("Table"),
        _("Donne"),
        _("Code"),
        _("Donne en mots"),
        _("Donneur"),
        _("Mort"),
    ]
    for seat in range(1, MOST_SEATS + 1):
        header += [
            _("Joueur %(seat)s") % {"seat": seat},
            _("Points %(seat)s") % {"seat": seat},
        ]
    title = _("Donnes") + f" {tournament.date:%d-%m-%Y}"
    filename = _filename(tournament).replace("soiree-", "donnes-", 1)
    rows = [[tournament.date, *row] for row in deal_table(tournament, name_reader_of(request.user))]
    return table_response(fmt, filename, title, header, rows)


def tournament_file(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The club-night file (``club-night-result/1``). The club's scorers download any night,
    to keep and re-import; everybody else, a published night. Each player is named as the
    reader may see him: the club's scorers, their members by the names the club knows."""
    tournament = tournament_for(slug, pk)
    if not access_for(request, tournament.club).is_scorer:
        require_sheet_reader(request, tournament)
    document = tournament_export(tournament, name_of=name_reader_of(request.user).name)
    body = json.dumps(document, indent=2, ensure_ascii=False)
    response = HttpResponse(body.encode(), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(tournament)}.json"'
    return response
