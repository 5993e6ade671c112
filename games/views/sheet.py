"""A poule's score sheet: record a deal in a few taps, correct or delete one, see the points,
running totals, who deals next and, once the poule has its deals, its standings."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.permissions import remember_role, role_in
from scoring import services
from scoring.engine.base import next_dealer
from scoring.engine.games import game_module, mort
from scoring.models import PouleStanding

from ..dealforms import DealForm, deal_form_class, describe_deal
from ..models import Deal, DealChange, Poule, Tournament
from .common import (
    can_edit_sheets,
    require_sheet_editor,
    require_sheet_reader,
    shows_public_names,
    tournament_for,
)
from .problems import refusal_texts


def _seats(poule: Poule) -> list[Any]:
    return list(poule.seats.select_related("player").order_by("number"))


def _deal_form(
    tournament: Tournament, seats: list[Any], data: Any = None, deal: Deal | None = None
) -> DealForm:
    return deal_form_class(tournament.game)(
        data,
        seats=[(seat.number, seat.player.display_name) for seat in seats],
        point_table=tournament.point_table.engine_table(),
        initial_deal=deal.data if deal else None,
    )


# A blank deal form, rendered, per game, table version, seating and language: the same
# fragment is sent back after every deal of the night, and rendering its widgets is the
# largest part of a recording's server time.
_BLANK_FORMS: dict[tuple[Any, ...], SafeString] = {}


def _blank_form_html(tournament: Tournament, seats: list[Any]) -> SafeString:
    key = (
        tournament.game,
        tournament.point_table.checksum,
        tuple((seat.number, seat.player.display_name) for seat in seats),
        get_language(),
    )
    html = _BLANK_FORMS.get(key)
    if html is None:
        if len(_BLANK_FORMS) >= 512:
            _BLANK_FORMS.clear()
        html = _BLANK_FORMS[key] = _deal_form(tournament, seats).render()
    return html


def _names(seats: list[Any]) -> dict[str, str]:
    return {str(seat.number): seat.player.display_name for seat in seats}


def _refuse(form: DealForm, error: ValidationError, seats: list[Any]) -> None:
    """The engine's refusal in the page's language, shown on the form that keeps what was
    typed."""
    for text in refusal_texts(error, _names(seats)):
        form.add_error(None, text)


def _change_lines(changes: list[DealChange], game: str, names: dict[str, str]) -> list[Any]:
    return [
        {
            "change": change,
            "before": describe_deal(game, change.before, names),
            "after": describe_deal(game, change.after, names) if change.after else "",
        }
        for change in changes
    ]


def sheet_context(
    request: HttpRequest, tournament: Tournament, poule: Poule, form: Any, seats: list[Any]
) -> dict:
    public = shows_public_names(request, tournament)
    for seat in seats:
        seat.name = seat.player.public_display_name if public else seat.player.display_name
    # Column headers on a phone: first names, unless two players at the table share one.
    firsts = [seat.name.split()[0] if seat.name.split() else seat.name for seat in seats]
    for seat, first in zip(seats, firsts, strict=True):
        seat.short = first if firsts.count(first) == 1 else seat.name
    names = {str(seat.number): seat.name for seat in seats}
    # Just recorded: the service hands back what it stored; else read from the database.
    deals = getattr(poule, "sheet_deals", None)
    if deals is None:
        deals = list(poule.deals.order_by("number"))
    # The poule's whole history in one query (none at all for a poule never corrected):
    # corrections go with their deal, removals below.
    changes = (
        list(poule.changes.select_related("by").order_by("at", "pk")) if poule.corrections else []
    )
    for deal in deals:
        deal.history = [change for change in changes if change.deal_id == deal.pk]
    totals = [0] * len(seats)
    rows = []
    for deal in deals:
        totals = [total + points for total, points in zip(totals, deal.points, strict=False)]
        rows.append(
            {
                "deal": deal,
                "text": describe_deal(tournament.game, deal.data, names),
                "cells": list(zip(deal.points, totals, strict=False)),
                "dealer": names.get(str(deal.dealer), ""),
                "history": _change_lines(deal.history, tournament.game, names),
            }
        )
    removed = _change_lines(
        [change for change in changes if change.action == DealChange.Action.DELETED],
        tournament.game,
        names,
    )
    expected = tournament.deals_per_poule(len(seats))
    complete = poule.counted_deals >= expected
    dealer = (
        next_dealer(
            # Seats are numbered from 1 on the sheet, indexed from 0 by the engine.
            [None if d.dealer is None else d.dealer - 1 for d in deals],
            [d.counted for d in deals],
            len(seats),
        )
        if game_module(tournament.game).RECORDS_DEALER
        else None
    )
    standings = getattr(poule, "sheet_standings", None)
    if standings is None:
        standings = (
            list(
                PouleStanding.objects.filter(poule=poule)
                .select_related("player")
                .order_by("rank", "seat")
            )
            if deals
            else []
        )
    return {
        "club": tournament.club,
        "tournament": tournament,
        "poule": poule,
        "seats": seats,
        "rows": rows,
        "totals": totals,
        "removed": removed,
        "expected": expected,
        "complete": complete,
        "next_dealer": None if dealer is None else names.get(str(dealer + 1)),
        "mort": dealer is not None and mort(tournament.game, len(seats), dealer) is not None,
        "standings": standings,
        "public": public,
        "form": form,
        # An untouched form is the same for every deal: its fragment comes from the cache.
        "form_html": _blank_form_html(tournament, seats) if form and not form.is_bound else None,
        "can_edit": can_edit_sheets(request, tournament),
    }


def poule_sheet(request: HttpRequest, slug: str, pk: int, poule_pk: int) -> HttpResponse:
    """GET: the sheet (read-only for members and the public once published). POST: record
    a deal; the htmx request gets the updated sheet back, the plain form a redirect."""
    # The poule, its night and the visitor's role in its club in one query: this view
    # answers every deal of the night.
    poule = get_object_or_404(
        Poule.objects.select_related(
            "tournament__club", "tournament__season", "tournament__point_table"
        ).annotate(viewer_role=role_in(request.user, "tournament__club")),
        pk=poule_pk,
        tournament_id=pk,
        tournament__club__slug=slug,
    )
    tournament = poule.tournament
    remember_role(request.user, tournament.club, poule.viewer_role)
    form = None
    seats = _seats(poule)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        require_sheet_editor(request, tournament)
        form = _deal_form(tournament, seats, request.POST)
        if form.is_valid():
            try:
                services.deal_record(poule, form.deal_data(), by=request.user, seats=seats)
            except ValidationError as refused:
                _refuse(form, refused, seats)
            else:
                if not request.htmx:
                    return redirect("games:sheet", slug=slug, pk=pk, poule_pk=poule.pk)
                form = _deal_form(tournament, seats)
    else:
        require_sheet_reader(request, tournament)
    if form is None and can_edit_sheets(request, tournament):
        form = _deal_form(tournament, seats)
    template = "games/sheet.html#sheet" if request.htmx else "games/sheet.html"
    return TemplateResponse(
        request, template, sheet_context(request, tournament, poule, form, seats)
    )


@login_required
def deal_edit(request: HttpRequest, slug: str, pk: int, deal_pk: int) -> HttpResponse:
    """Correct a deal: the form opens with the deal as recorded; the change is kept."""
    tournament = tournament_for(slug, pk)
    require_sheet_editor(request, tournament)
    deal = get_object_or_404(
        Deal.objects.select_related("poule"), pk=deal_pk, poule__tournament=tournament
    )
    seats = _seats(deal.poule)
    form = _deal_form(tournament, seats, request.POST or None, deal=deal)
    if request.method == "POST" and form.is_valid():
        try:
            services.deal_correct(
                deal, form.deal_data(), by=request.user, closed_ok=tournament.is_locked
            )
        except ValidationError as refused:
            _refuse(form, refused, seats)
        else:
            messages.success(request, _("Donne %(number)s corrigée.") % {"number": deal.number})
            return redirect("games:sheet", slug=slug, pk=pk, poule_pk=deal.poule_id)
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "poule": deal.poule,
        "deal": deal,
        "form": form,
    }
    return TemplateResponse(request, "games/deal_edit.html", context)


@login_required
@require_POST
def deal_delete(request: HttpRequest, slug: str, pk: int, deal_pk: int) -> HttpResponse:
    tournament = tournament_for(slug, pk)
    require_sheet_editor(request, tournament)
    deal = get_object_or_404(Deal, pk=deal_pk, poule__tournament=tournament)
    try:
        services.deal_delete(deal, by=request.user, closed_ok=tournament.is_locked)
    except ValidationError as refused:
        messages.error(request, " ".join(refusal_texts(refused, _names(_seats(deal.poule)))))
    else:
        messages.success(request, _("Donne %(number)s supprimée.") % {"number": deal.number})
    return redirect("games:sheet", slug=slug, pk=pk, poule_pk=deal.poule_id)
