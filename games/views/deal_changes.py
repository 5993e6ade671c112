"""Changing what a sheet holds: undo of the last deal in one tap, a deal's correction and its
removal, each kept in the poule's history."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.names import name_reader_of
from scoring import services

from ..models import Deal
from ..numbering import deal_numbers
from ..presenters.sheet import deal_words
from .common import posted_number, require_sheet_editor, tournament_for
from .problems import refusal_texts
from .sheet import (
    CONFLICT,
    REFUSED,
    UNDONE,
    deal_form,
    name_the_deal,
    refuse,
    seats_of,
    sheet_context,
    sheet_poule,
    sheet_response,
)


@login_required
@require_POST
def deal_undo(request: HttpRequest, slug: str, pk: int, poule_pk: int) -> HttpResponse:
    """Undo the last deal in one tap: a removal kept in the poule's history, like any other.
    The form opens again with the deal as it was, so a wrong tap is mended by changing one
    choice. Refused (409) when the sheet's last deal is no longer the one the phone showed."""
    poule = sheet_poule(request, slug, pk, poule_pk)
    tournament = poule.tournament
    require_sheet_editor(request, tournament)
    seats = seats_of(poule, name_reader_of(request.user))
    deal_pk = posted_number(request.POST.get("deal", ""), 2**31 - 1)
    deal = poule.deals.filter(pk=deal_pk).first() if deal_pk else None
    problem, result, status, undone = None, UNDONE, 200, None
    if deal_pk is None:
        messages.error(request, _("Aucune donne à annuler."))
        return redirect("games:sheet", slug=slug, pk=pk, poule_pk=poule.pk)
    try:
        if tournament.is_locked:
            # One tap is for a wrong tap at the table; a closed night is changed only on
            # purpose: the deal's own page, which asks first.
            raise ValidationError(
                _(
                    "La soirée est clôturée : une donne ne s'annule plus d'un geste. Ouvrez-la "
                    "dans la feuille (« corriger ») pour la corriger ou la supprimer."
                )
            )
        if deal is None:
            raise services.DealConflict(
                _("Cette donne a déjà été retirée par quelqu'un d'autre : rien n'a changé.")
            )
        services.deal_delete(deal, by=request.user, last_only=True)
    except services.DealConflict as conflict:
        problem, result, status = " ".join(conflict.messages), CONFLICT, 409
    except ValidationError as refused:
        problem, result, status = " ".join(refused.messages), REFUSED, 409
    else:
        undone = deal
    if not request.htmx:
        if problem:
            messages.error(request, problem)
        else:
            messages.success(request, _("Dernière donne annulée."))
        return redirect("games:sheet", slug=slug, pk=pk, poule_pk=poule.pk)
    poule.refresh_from_db()
    form = deal_form(tournament, seats, initial_deal=undone.data if undone else None)
    context = sheet_context(request, tournament, poule, form, seats, prefilled=undone is not None)
    context["problem"] = problem
    context["undone"] = undone
    return sheet_response(request, context, result, status=status)


@login_required
def deal_edit(request: HttpRequest, slug: str, pk: int, deal_pk: int) -> HttpResponse:
    """Correct a deal: the form opens with the deal as recorded; the change is kept. A deal
    corrected by someone else since the form opened is not overwritten (409)."""
    tournament = tournament_for(slug, pk)
    require_sheet_editor(request, tournament)
    deal = get_object_or_404(
        Deal.objects.select_related("poule"), pk=deal_pk, poule__tournament=tournament
    )
    seats = seats_of(deal.poule, name_reader_of(request.user))
    form = deal_form(tournament, seats, request.POST or None, deal=deal)
    problem, status = None, 200
    if request.method == "POST" and form.is_valid():
        try:
            services.deal_correct(
                deal,
                form.deal_data(),
                by=request.user,
                closed_ok=tournament.is_locked,
                version=request.POST.get("version") or None,
            )
        except services.DealConflict as conflict:
            problem, status = " ".join(conflict.messages), 409
            deal.refresh_from_db()
        except ValidationError as refused:
            refuse(form, refused, seats, deal.poule, deal)
        else:
            messages.success(request, _("Donne corrigée."))
            return redirect("games:sheet", slug=slug, pk=pk, poule_pk=deal.poule_id)
    elif request.method == "POST":
        name_the_deal(form, deal.poule, deal)
    names = {str(seat.number): seat.shown for seat in seats}
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "poule": deal.poule,
        "deal": deal,
        "deal_text": deal_words(
            tournament.game, deal, tournament.point_table.engine_table(), names
        )[1],
        "version": services.deal_version(deal),
        "form": form,
        "problem": problem,
    }
    return TemplateResponse(request, "games/deal_edit.html", context, status=status)


@login_required
@require_POST
def deal_delete(request: HttpRequest, slug: str, pk: int, deal_pk: int) -> HttpResponse:
    """Remove a deal, once the scorer has confirmed (the correction page asks first, saying
    what will happen); a request without the confirmation goes back to that question."""
    tournament = tournament_for(slug, pk)
    require_sheet_editor(request, tournament)
    deal = get_object_or_404(Deal, pk=deal_pk, poule__tournament=tournament)
    if request.POST.get("confirm") != "1":
        messages.warning(request, _("Confirmez la suppression de la donne ci-dessous."))
        return redirect("games:deal-edit", slug=slug, pk=pk, deal_pk=deal.pk)
    try:
        services.deal_delete(deal, by=request.user, closed_ok=tournament.is_locked)
    except ValidationError as refused:
        numbers = deal_numbers(tournament.game, list(deal.poule.deals.order_by("position")))
        seats = seats_of(deal.poule, name_reader_of(request.user))
        names = {str(seat.number): seat.shown for seat in seats}
        texts = refusal_texts(refused, names, numbers)
        messages.error(request, " ".join(texts))
    else:
        messages.success(request, _("Donne supprimée."))
    return redirect("games:sheet", slug=slug, pk=pk, poule_pk=deal.poule_id)
