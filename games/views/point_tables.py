"""A club's point tables as the club reads them: the Belgian whist grid edited cell by cell or
by a formula row, the other games' few values as a form, what a change does (the cells that
differ, the last night scored again with it, the engine's properties checked) and two versions
side by side. The club admin's only; the work is ``games.point_tables``'s."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club.club_pages import club_page
from club.models import Club
from club.permissions import CLUB_ADMIN
from scoring import services as scoring_services

from .. import point_tables
from ..models import PointTable
from ..point_table_forms import PointTableForm


@login_required
@club_page(CLUB_ADMIN)
def point_table_list(request: HttpRequest, slug: str) -> TemplateResponse:
    club = request.club
    tables = point_tables.club_point_tables(club)
    return TemplateResponse(
        request, "games/point_tables.html", {"club": club, "tables": tables, "section": "tables"}
    )


@login_required
@club_page(CLUB_ADMIN)
def point_table_edit(request: HttpRequest, slug: str, name: str) -> TemplateResponse | HttpResponse:
    """The club's current version of a table. Typing changes nothing until "Enregistrer":
    "Voir les changements" shows the cells that differ, the last night scored again and what
    the checks say; a formula fills one row of the grid."""
    club = request.club
    current = _table(club, name)
    is_grid = current.game == point_tables.GRID_GAME
    data = current.data
    problems: list[str] = []
    changes = None
    rescored = None
    form = PointTableForm(request.POST if request.method == "POST" else None, current=current)
    base_pk, base_checksum = form.opened_on()
    if request.method == "POST" and (base_pk, base_checksum) != (str(current.pk), current.checksum):
        problems = [point_tables.stale_refusal()]
    elif request.method == "POST":
        try:
            data = form.table_data()
        except ValidationError as error:
            problems = error.messages
        if not problems and "save" in request.POST:
            changed = point_tables.table_changes(current.data, data)
            try:
                saved = point_tables.point_table_club_save(
                    club, current, data, based_on=base_checksum
                )
            except ValidationError as error:
                problems = error.messages
            else:
                if saved.pk == current.pk and not changed:
                    messages.info(request, _("Rien n'a changé."))
                else:
                    messages.success(
                        request,
                        ngettext(
                            "Tableau enregistré (version %(version)s) : %(n)s case change. "
                            "Les soirées déjà jouées gardent leur version.",
                            "Tableau enregistré (version %(version)s) : %(n)s cases changent. "
                            "Les soirées déjà jouées gardent leur version.",
                            len(changed),
                        )
                        % {"version": saved.version, "n": len(changed)},
                    )
                return redirect("point-table", slug=club.slug, name=name)
        if not problems:
            problems = point_tables.table_problems(data)
        changes = point_tables.table_changes(current.data, data)
        if not problems and changes:
            rescored = scoring_services.last_night_rescored(club.pk, current.name, data)
    context = {
        "club": club,
        "table": current,
        "is_grid": is_grid,
        "rows": point_tables.grid(data) if is_grid else [],
        "values": point_tables.table_values(data) if not is_grid else {},
        "tricks": list(point_tables.TRICK_COUNTS),
        "problems": problems,
        "changes": changes,
        "rescored": rescored,
        "versions": point_tables.club_table_versions(club, name),
        "posted": request.method == "POST",
        "base_pk": base_pk,
        "base_checksum": base_checksum,
    }
    return TemplateResponse(request, "games/point_table_edit.html", context)


def _table(club: Club, name: str) -> PointTable:
    """The version of table ``name`` the club's next nights use; another club's table (or a
    custom table the club's nights never played) is not found."""
    current = point_tables.club_current_table(club, name)
    if current is None:
        raise Http404("no such point table")
    return current


@login_required
@club_page(CLUB_ADMIN)
def point_table_compare(request: HttpRequest, slug: str, name: str) -> TemplateResponse:
    """Two versions of a table side by side (``?a=`` and ``?b=`` name them by number)."""
    club = request.club
    versions = point_tables.club_table_versions(club, name)
    if not versions:
        raise Http404("no such point table")
    by_pk = {str(v.pk): v for v in versions}
    newer = by_pk.get(request.GET.get("b", ""), versions[0])
    older = by_pk.get(request.GET.get("a", ""), versions[1] if len(versions) > 1 else versions[0])
    context = {
        "club": club,
        "versions": versions,
        "older": older,
        "newer": newer,
        "is_grid": newer.game == point_tables.GRID_GAME,
        "tricks": list(point_tables.TRICK_COUNTS),
        "side_by_side": point_tables.side_by_side(older.data, newer.data)
        if newer.game == point_tables.GRID_GAME
        else None,
        "changes": point_tables.table_changes(older.data, newer.data),
    }
    return TemplateResponse(request, "games/point_table_compare.html", context)
