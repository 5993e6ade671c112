"""A past season's published ranking imported by a club admin, in three pages: the table (a
file, or pasted from a web page), its columns and its season, then each name matched to the
club's players and the whole stored at once (``scoring.services.ranking_import``).

What was read waits in the club admin's session between the pages; nothing is stored before
the last one, and then all of it in one transaction.
"""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from infra.typography import semicolon_join
from scoring.services.ranking_import import (
    NEW,
    SKIP,
    ImportedLine,
    ranking_import,
    ranking_lines_read,
    season_dates_of,
)

from ..club_pages import club_page
from ..models import Club, Player
from ..name_matching import AMBIGUOUS, LIKE, SAME, name_matches
from ..name_matching import NEW as NEW_NAME
from ..name_order import by_name
from ..permissions import CLUB_ADMIN
from ..table_reader.columns import columns_chosen, columns_form, columns_preview
from ..table_reader.files import header_guess
from ..table_reader.forms import ColumnsForm, TableForm


class RankingTableForm(TableForm):
    """The table reader's form, its refusals in a ranking's words."""

    table_words = {
        "this_table": gettext_lazy("Ce classement"),
        "of_table": gettext_lazy("d'un classement"),
    }


COLUMN_LABELS = {
    "rank": gettext_lazy("Rang"),
    "name": gettext_lazy("Nom"),
    "points": gettext_lazy("Points"),
    "nights": gettext_lazy("Soirées jouées"),
}


def _key(club: Club) -> str:
    return f"ranking_import_{club.pk}"


@login_required
@club_page(CLUB_ADMIN)
def ranking_import_table(request: HttpRequest, slug: str) -> HttpResponse:
    """First page: the table, from a file or pasted."""
    club = request.club
    form = RankingTableForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        rows = form.cleaned_data["rows"]
        upload = form.cleaned_data.get("file")
        request.session[_key(club)] = {"rows": rows, "source": upload.name if upload else ""}
        return redirect("ranking-import-columns", slug=club.slug)
    context = {"club": club, "form": form, "step": 1}
    # A table refused is answered 400, in the page's words: nothing was kept of it.
    status = 400 if form.errors else 200
    return TemplateResponse(request, "club/admin/ranking_import.html", context, status=status)


def _pending(request: HttpRequest, club: Club) -> dict[str, Any] | None:
    return request.session.get(_key(club))


class RankingColumnsForm(ColumnsForm):
    columns = COLUMN_LABELS
    required_columns = frozenset(("rank", "name", "points"))

    season = forms.CharField(
        label=gettext_lazy("Saison"), max_length=40, help_text=gettext_lazy("Par exemple « 2015 ».")
    )
    start = forms.DateField(
        label=gettext_lazy("Début"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    end = forms.DateField(
        label=gettext_lazy("Fin"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        name = data.get("season") or ""
        if not (data.get("start") and data.get("end")):
            dates = season_dates_of(name)
            if dates is None and name:
                raise ValidationError(
                    _("Donnez les dates de la saison : son nom ne dit pas son année.")
                )
            if dates:
                data["start"], data["end"] = dates
        chosen = [data.get(key) for key in COLUMN_LABELS if data.get(key) is not None]
        if len(chosen) != len(set(chosen)):
            raise ValidationError(_("Une colonne est choisie deux fois."))
        return data


@login_required
@club_page(CLUB_ADMIN)
def ranking_import_columns(request: HttpRequest, slug: str) -> HttpResponse:
    """Second page: which column is which, and the season the ranking is of."""
    club = request.club
    pending = _pending(request, club)
    if pending is None:
        return redirect("ranking-import", slug=club.slug)
    rows = pending["rows"]
    source_dates = season_dates_of(pending.get("source", ""))
    season = {"season": str(source_dates[0].year)} if source_dates else {}
    form = columns_form(request, RankingColumnsForm, rows, header_guess(rows), **season)
    columns = columns_chosen(
        request,
        form,
        lambda columns: ranking_lines_read(
            rows,
            columns,
            header=form.cleaned_data["header"],
            labels=_labels(rows, form.cleaned_data),
        ),
    )
    if columns is not None:
        data = form.cleaned_data
        pending.update(
            header=data["header"],
            columns=columns,
            season=data["season"],
            start=data["start"].isoformat(),
            end=data["end"].isoformat(),
        )
        request.session[_key(club)] = pending
        return redirect("ranking-import-names", slug=club.slug)
    context = {"club": club, "form": form, "step": 2, **columns_preview(rows)}
    return TemplateResponse(request, "club/admin/ranking_import.html", context)


def _labels(rows: list[list[str]], data: dict[str, Any]) -> list[str]:
    return rows[0] if data.get("header") else []


def _lines(pending: dict[str, Any]) -> list[ImportedLine]:
    rows = pending["rows"]
    labels = rows[0] if pending["header"] else []
    return ranking_lines_read(rows, pending["columns"], header=pending["header"], labels=labels)


def _skipped_said(skipped: list[ImportedLine]) -> str:
    """« Lignes laissées de côté à votre demande : ligne 7 (Anne Dupont) ; ligne 9 (…). »"""
    return ngettext(
        "Ligne laissée de côté à votre demande : %(lines)s.",
        "Lignes laissées de côté à votre demande : %(lines)s.",
        len(skipped),
    ) % {
        "lines": semicolon_join(
            _("ligne %(line)s (%(name)s)") % {"line": line.line, "name": line.name}
            for line in skipped
        )
    }


# What the review proposes for each kind of name (club.name_matching).
KIND_LABELS = {
    SAME: gettext_lazy("même joueur"),
    LIKE: gettext_lazy("même joueur ? (initiales)"),
    AMBIGUOUS: gettext_lazy("plusieurs joueurs possibles : choisissez"),
    NEW_NAME: gettext_lazy("nouveau joueur"),
}


@login_required
@club_page(CLUB_ADMIN)
def ranking_import_names(request: HttpRequest, slug: str) -> HttpResponse:
    """Third page: each name of the table, matched to the club's players; the club admin
    confirms or changes each, then the ranking is stored whole."""
    club = request.club
    pending = _pending(request, club)
    if pending is None or "columns" not in pending:
        return redirect("ranking-import", slug=club.slug)
    lines = _lines(pending)
    players = list(Player.objects.in_club(club).only("pk", "display_name").order_by(*by_name()))
    matches = name_matches([line.name for line in lines], players)
    problems: list[str] = []
    chosen: dict[int, str] = {}
    if request.method == "POST":
        choices: dict[int, int | str] = {}
        for line in lines:
            value = request.POST.get(f"line-{line.line}", "")
            chosen[line.line] = value
            if value in (NEW, SKIP):
                choices[line.line] = value
            elif value.isascii() and value.isdigit():
                choices[line.line] = int(value)
        try:
            snapshot = ranking_import(
                club,
                pending["season"],
                datetime.date.fromisoformat(pending["start"]),
                datetime.date.fromisoformat(pending["end"]),
                lines,
                choices,
                [key for key, index in pending["columns"].items() if index is not None],
            )
        except ValidationError as refused:
            problems = refused.messages
        else:
            del request.session[_key(club)]
            messages.success(
                request,
                _("Classement %(season)s importé : %(count)s joueurs.")
                % {"season": snapshot.season.name, "count": snapshot.lines.count()},
            )
            # The lines the admin chose not to import are named once more, each by its line.
            if skipped := [line for line in lines if choices.get(line.line) == SKIP]:
                messages.info(request, _skipped_said(skipped))
            return redirect("ranking-season", slug=club.slug, season=snapshot.season.slug)
    rows = []
    for line, match in zip(lines, matches, strict=True):
        default = str(match.proposed.pk) if match.proposed else ""
        if match.kind == NEW_NAME:
            default = NEW
        candidates = {player.pk for player in match.candidates}
        rows.append(
            {
                "line": line,
                "match": match,
                "kind": KIND_LABELS[match.kind],
                "selected": chosen.get(line.line, default),
                "candidates": match.candidates,
                "others": [p for p in players if p.pk not in candidates],
            }
        )
    context = {
        "club": club,
        "step": 3,
        "rows": rows,
        "problems": problems,
        "season": pending["season"],
        "NEW": NEW,
        "SKIP": SKIP,
        "ambiguous": sum(1 for row in rows if row["match"].kind == AMBIGUOUS),
    }
    return TemplateResponse(request, "club/admin/ranking_import.html", context)
