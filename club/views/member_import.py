"""Members brought in from a spreadsheet by a club admin, in three pages: the table (a CSV or
Excel file, or cells pasted), which column is which, then each line as it will be stored, the
unsure names to settle, the refused lines said in words; confirmed, the whole is stored at once
(``club.member_import.store``).

The table is read by the site's table reader (``club.table_reader``: its readers and budgets,
a workbook checked before openpyxl opens it), which gives the column step too. What was read
waits in the club admin's session between the pages; nothing is stored before the last one,
then all of it in one transaction."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from infra.typography import semicolon_join

from ..club_pages import club_page
from ..exports import csv_response
from ..member_import.columns import COLUMN_LABELS, COLUMNS, columns_guess
from ..member_import.lines import MemberLine, columns_refusal, member_lines_read
from ..member_import.review import (
    ASK,
    MEMBER,
    NEW,
    NEW_PLAYER,
    REFUSED,
    RETURNS,
    ReviewedLine,
    entries_of,
    members_review,
)
from ..member_import.store import members_import
from ..models import Club
from ..permissions import CLUB_ADMIN
from ..table_reader.columns import columns_chosen, columns_form, columns_preview
from ..table_reader.forms import ColumnsForm, TableForm

TEMPLATE = "club/admin/member_import.html"


def _key(club: Club) -> str:
    return f"member_import_{club.pk}"


def _done_key(club: Club) -> str:
    return f"member_import_done_{club.pk}"


class MembersTableForm(TableForm):
    """The table reader's form (a file, or a table pasted), in the members' words."""

    table_words = {
        "this_table": gettext_lazy("Cette liste de membres"),
        "of_table": gettext_lazy("d'une liste de membres"),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["file"].widget.attrs["accept"] = ".csv,.txt,.xlsx"
        self.fields["pasted"].label = gettext_lazy("Ou les cellules copiées d'un tableur")


@login_required
@club_page(CLUB_ADMIN)
def member_import_table(request: HttpRequest, slug: str) -> HttpResponse:
    """First page: the table, from a file or pasted."""
    club = request.club
    form = MembersTableForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data.get("file")
        request.session[_key(club)] = {
            "rows": form.cleaned_data["rows"],
            "source": upload.name if upload else "",
        }
        return redirect("member-import-columns", slug=club.slug)
    context = {"club": club, "form": form, "step": 1}
    # A table refused is answered 400, in the page's words: nothing was kept of it.
    return TemplateResponse(request, TEMPLATE, context, status=400 if form.errors else 200)


class MembersColumnsForm(ColumnsForm):
    columns = {key: COLUMN_LABELS[key] for key in COLUMNS}

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if refusal := columns_refusal({key: data.get(key) for key in COLUMNS}):
            raise ValidationError(refusal)
        return data


def _pending(request: HttpRequest, club: Club) -> dict[str, Any] | None:
    return request.session.get(_key(club))


@login_required
@club_page(CLUB_ADMIN)
def member_import_columns(request: HttpRequest, slug: str) -> HttpResponse:
    """Second page: which column is which (proposed from the headings)."""
    club = request.club
    pending = _pending(request, club)
    if pending is None:
        return redirect("member-import", slug=club.slug)
    rows = pending["rows"]
    form = columns_form(request, MembersColumnsForm, rows, columns_guess(rows), sample=True)
    columns = columns_chosen(
        request,
        form,
        lambda columns: member_lines_read(rows, columns, header=form.cleaned_data["header"]),
    )
    if columns is not None:
        pending.update(header=form.cleaned_data["header"], columns=columns)
        request.session[_key(club)] = pending
        return redirect("member-import-review", slug=club.slug)
    context = {"club": club, "form": form, "step": 2, **columns_preview(rows)}
    return TemplateResponse(request, TEMPLATE, context)


def _lines(pending: dict[str, Any]) -> list[MemberLine]:
    return member_lines_read(pending["rows"], pending["columns"], header=pending["header"])


def _problems(reviewed: list[ReviewedLine], good_only: bool) -> list[str]:
    """Why the import cannot go as asked (empty: it can)."""
    unsettled = [row for row in reviewed if row.kind == ASK]
    if unsettled:
        return [
            _("Ligne %(line)s : « %(name)s » est-il %(candidates)s, ou un nouveau joueur ?")
            % {
                "line": row.line.line,
                "name": row.line.name,
                "candidates": _(" ou ").join(p.display_name for p in row.candidates),
            }
            for row in unsettled
        ]
    refused = [row for row in reviewed if row.kind == REFUSED]
    if refused and not good_only:
        lines = ", ".join(str(row.line.line) for row in refused)
        return [
            ngettext(
                "Le fichier est refusé : la ligne %(lines)s ne peut pas être importée. "
                "Corrigez-la et recommencez, ou cochez « importer les lignes correctes "
                "seulement ».",
                "Le fichier est refusé : les lignes %(lines)s ne peuvent pas être importées. "
                "Corrigez-les et recommencez, ou cochez « importer les lignes correctes "
                "seulement ».",
                len(refused),
            )
            % {"lines": lines},
            *(row.refusal for row in refused),
        ]
    if not any(row.kind in (NEW, RETURNS) for row in reviewed):
        return [_("Rien à importer : chaque ligne est déjà un membre du club, ou refusée.")]
    return []


@login_required
@club_page(CLUB_ADMIN)
def member_import_review(request: HttpRequest, slug: str) -> HttpResponse:
    """Third page: each line as it will be stored; the unsure names settled, the refused ones
    said; then the whole stored at once."""
    club = request.club
    pending = _pending(request, club)
    if pending is None or "columns" not in pending:
        return redirect("member-import", slug=club.slug)
    lines = _lines(pending)
    answers = {
        line.line: request.POST.get(f"line-{line.line}", "")
        for line in lines
        if request.method == "POST"
    }
    reviewed = members_review(club, lines, answers)
    problems: list[str] = []
    good_only = bool(request.POST.get("good_only"))
    if request.method == "POST":
        problems = _problems(reviewed, good_only)
        if not problems:
            try:
                record = members_import(
                    club,
                    entries_of(reviewed),
                    by=request.user,
                    start=timezone.localdate(),
                    source=pending.get("source", ""),
                )
            except ValidationError as refused:
                problems = refused.messages
            else:
                del request.session[_key(club)]
                request.session[_done_key(club)] = done = _left_out(pending, reviewed)
                messages.success(request, _done(record.members_joined, len(record.invitations)))
                said = done["left"] or done["notes"]
                return redirect("member-import-done" if said else "members", slug=club.slug)
    counts = {kind: sum(1 for row in reviewed if row.kind == kind) for kind in KIND_WORDS}
    context = {
        "club": club,
        "step": 3,
        "rows": [
            {"row": row, "answer": answers.get(row.line.line, ""), "kind": KIND_WORDS[row.kind]}
            for row in reviewed
        ],
        "problems": problems,
        "good_only": good_only,
        "counts": counts,
        "NEW_PLAYER": NEW_PLAYER,
        "invited": sum(1 for row in reviewed if row.invited and row.kind in (NEW, RETURNS)),
    }
    return TemplateResponse(request, TEMPLATE, context, status=400 if problems else 200)


def _left_out(pending: dict[str, Any], reviewed: list[ReviewedLine]) -> dict[str, Any]:
    """What the confirmation names once the good lines are stored: each line left out with
    why and its cells as the table had them (to fix and import again), and each line stored
    differently from the table (an address left out)."""
    rows = pending["rows"]
    return {
        "header": list(rows[0]) if pending["header"] else [],
        "left": [
            {"line": row.line.line, "why": row.refusal, "cells": list(rows[row.line.line - 1])}
            for row in reviewed
            if row.kind == REFUSED
        ],
        "notes": [
            {"line": row.line.line, "name": row.line.name, "notes": semicolon_join(row.line.notes)}
            for row in reviewed
            if row.line.notes and row.kind != REFUSED
        ],
    }


@login_required
@club_page(CLUB_ADMIN)
def member_import_done(request: HttpRequest, slug: str) -> HttpResponse:
    """After the import: the lines left out, each with why, to download and import again once
    fixed, and the members stored without what their line had wrong. Nothing to say: the
    members' list."""
    club = request.club
    done = request.session.get(_done_key(club))
    if not done or not (done["left"] or done["notes"]):
        return redirect("members", slug=club.slug)
    context = {"club": club, **done}
    return TemplateResponse(request, "club/admin/member_import_done.html", context)


@login_required
@club_page(CLUB_ADMIN)
def member_import_left_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The lines left out as a table to fix and import again: the table's own columns (its
    header, when it had one), then why each was left out, in a last column the import ignores."""
    club = request.club
    done = request.session.get(_done_key(club))
    if not done or not done["left"]:
        return redirect("members", slug=club.slug)
    width = max(len(done["header"]), *(len(item["cells"]) for item in done["left"]))
    header = [*done["header"], *[""] * (width - len(done["header"])), _("Problème")]
    rows = [
        [*item["cells"], *[""] * (width - len(item["cells"])), item["why"]] for item in done["left"]
    ]
    return csv_response(_("lignes-a-corriger"), header, rows)


def _done(joined: int, invited: int) -> str:
    return " ".join(
        (
            ngettext("%(count)s membre importé.", "%(count)s membres importés.", joined)
            % {"count": joined},
            ngettext(
                "%(count)s invitation part par e-mail.",
                "%(count)s invitations partent par e-mail.",
                invited,
            )
            % {"count": invited},
        )
    )


# What each kind of line becomes, as the review page says it.
KIND_WORDS = {
    NEW: gettext_lazy("nouveau membre"),
    RETURNS: gettext_lazy("redevient membre"),
    MEMBER: gettext_lazy("déjà membre : rien ne change"),
    ASK: gettext_lazy("même personne ?"),
    REFUSED: gettext_lazy("refusée"),
}
