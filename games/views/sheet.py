"""A poule's score sheet on the scorer's phone: a compact grid (one column per seat, one row per
deal, the totals always in view), the deal form above it, undo of the last deal, and corrections
and removals with their history.

The phone's script (static/js/sheet.js) sends each deal with a key of its own making and the
number of deals its sheet showed: a deal sent twice is recorded once, and a sheet changed
meanwhile by another phone is answered 409 with the sheet as it is. Without the script the
form posts and the page comes back (the same keys and checks hold)."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import get_template
from django.template.response import TemplateResponse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.permissions import is_scorer, remember_role, role_in
from scoring import services
from scoring.engine.base import next_dealer
from scoring.engine.games import game_module, mort
from scoring.models import PouleStanding

from ..dealforms import DealForm, deal_form_class, describe_deal, short_deal, whist_progress
from ..models import Deal, DealChange, Poule, Tournament
from .common import (
    can_edit_sheets,
    posted_number,
    require_sheet_editor,
    require_sheet_reader,
    shows_public_names,
    tournament_for,
)
from .problems import refusal_texts

# What the phone's script reads from a sheet answer (header X-Sheet-Result).
RECORDED, REPLAYED, REFUSED, CONFLICT, UNDONE = (
    "recorded",
    "replayed",
    "refused",
    "conflict",
    "undone",
)


def _seats(poule: Poule) -> list[Any]:
    return list(poule.seats.select_related("player").order_by("number"))


def _deal_form(
    tournament: Tournament,
    seats: list[Any],
    data: Any = None,
    deal: Deal | None = None,
    initial_deal: dict | None = None,
) -> DealForm:
    return deal_form_class(tournament.game)(
        data,
        seats=[(seat.number, seat.player.display_name) for seat in seats],
        point_table=tournament.point_table.engine_table(),
        initial_deal=deal.data if deal else initial_deal,
    )


# A blank deal form, rendered, per game, table version, seat numbers and language, with a
# stand-in for each player's name: the same fragment is sent back after every deal of the
# night, at every table of that size, and rendering its widgets is the largest part of a
# recording's server time. The names are put in as the page is made (escaped, as the form
# would have).
_BLANK_FORMS: dict[tuple[Any, ...], str] = {}


def _stand_in(number: int) -> str:
    return f"\u27e6seat{number}\u27e7"  # ⟦seat3⟧: nothing a name or a label holds


def _blank_form_html(tournament: Tournament, seats: list[Any]) -> SafeString:
    key = (
        tournament.game,
        tournament.point_table.checksum,
        tuple(seat.number for seat in seats),
        get_language(),
    )
    html = _BLANK_FORMS.get(key)
    if html is None:
        if len(_BLANK_FORMS) >= 512:
            _BLANK_FORMS.clear()
        form = deal_form_class(tournament.game)(
            seats=[(seat.number, _stand_in(seat.number)) for seat in seats],
            point_table=tournament.point_table.engine_table(),
        )
        html = _BLANK_FORMS[key] = str(form.render())
    for seat in seats:
        html = html.replace(_stand_in(seat.number), escape(seat.player.display_name))
    return mark_safe(html)  # the form's own HTML, the names escaped above


def _names(seats: list[Any]) -> dict[str, str]:
    return {str(seat.number): seat.player.display_name for seat in seats}


def _refuse(form: DealForm, error: ValidationError, seats: list[Any], poule: Poule) -> None:
    """The engine's refusal in the page's language, shown on the form that keeps what was
    typed; a deal named by its number on the sheet (the new one, the next number)."""
    numbers = _sheet_numbers(poule.tournament.game, list(poule.deals.order_by("number")))
    numbers.append(sum(1 for number in numbers if number is not None) + 1)
    for text in refusal_texts(error, _names(seats), numbers):
        form.add_error(None, text)


def _sheet_numbers(game: str, deals: list[Deal]) -> list[int | None]:
    """Each deal's number on the sheet, in playing order; None for a deal that takes none."""
    numbers: list[int | None] = []
    ordinal = 0
    for deal in deals:
        numbered = _is_numbered(game, deal)
        ordinal += numbered
        numbers.append(ordinal if numbered else None)
    return numbers


def _change_lines(changes: list[DealChange], game: str, names: dict[str, str]) -> list[Any]:
    return [
        {
            "change": change,
            "before": describe_deal(game, change.before, names),
            "after": describe_deal(game, change.after, names) if change.after else "",
        }
        for change in changes
    ]


def _short_names(seats: list[Any]) -> None:
    """Column headers on a phone: first names; "Anne D." when two players at the table share
    one; the initials for the narrowest columns (CSS picks)."""
    firsts = [seat.name.split()[0] if seat.name.split() else seat.name for seat in seats]
    for seat, first in zip(seats, firsts, strict=True):
        words = seat.name.split()
        if firsts.count(first) == 1 or len(words) < 2:
            seat.short = first
        else:
            seat.short = f"{first} {words[-1][0]}."
        seat.initials = "".join(word[0] for word in words[:3]).upper() or seat.name[:2]


# A deal's words on the grid (its code, its line, the cells it marks), per deal as last written,
# names and language: the sheet is sent back after every deal of the night, and its earlier
# deals have not changed.
_DEAL_WORDS: dict[tuple[Any, ...], tuple[str, str, dict[str, str]]] = {}


def _deal_words(
    game: str, deal: Deal, point_table: Any, names: dict[str, str]
) -> tuple[str, str, dict[str, str]]:
    key = (deal.pk, deal.recorded_at, id(point_table), tuple(names.items()), get_language())
    words = _DEAL_WORDS.get(key) if deal.pk else None
    if words is None:
        code, marks = short_deal(game, deal.data, point_table)
        words = (code, describe_deal(game, deal.data, names), marks)
        if deal.pk:
            if len(_DEAL_WORDS) >= 4096:
                _DEAL_WORDS.clear()
            _DEAL_WORDS[key] = words
    return words


# Each deal's row of the grid, rendered: the same rows are sent back after every deal of the
# night, only the new one is rendered. The key holds everything the row shows.
_ROW_HTML: dict[tuple[Any, ...], SafeString] = {}


def _row_html(row: dict[str, Any], context: dict[str, Any], names: dict[str, str]) -> SafeString:
    deal = row["deal"]
    key = (
        deal.pk,
        deal.number,
        deal.recorded_at,
        row["ordinal"],
        tuple(row["cells"]),
        row["dealer"],
        tuple(line["change"].pk for line in row["history"]),
        context["can_edit"],
        context["tournament"].pk,
        tuple(names.items()),
        get_language(),
    )
    html = _ROW_HTML.get(key) if deal.pk else None
    if html is None:
        html = get_template("games/_sheet_row.html").render({**context, "row": row})
        if deal.pk:
            if len(_ROW_HTML) >= 8192:
                _ROW_HTML.clear()
            _ROW_HTML[key] = html
    return html


def _is_numbered(game: str, deal: Deal) -> bool:
    """A deal that counts takes the next number on the sheet; a pass (everybody passed) or a
    classic whist deal not played ("je chante") does not, so "Donne 13" never shows at 11/15."""
    return deal.counted and not (game == "whist" and deal.data.get("not_played"))


def _status(
    tournament: Tournament, poule: Poule, seats: list[Any], deals: list[Deal], names: dict
) -> dict[str, Any]:
    """What the sheet's header says of the poule's progress, per game: the deal count (Belgian
    whist), the partie and its manches (classic whist), the coups and the game's target
    (bésigue), the deals and the partie's length (hearts)."""
    game = tournament.game
    point_table = tournament.point_table.engine_table()
    status: dict[str, Any] = {"game": game}
    if game_module(game).FIXED_DEALS_PER_POULE:
        status["expected"] = poule.deals_tonight(len(seats))
        status["extra"] = poule.extra_deals
        status["complete"] = poule.counted_deals >= status["expected"]
    elif game == "whist":
        status["progress"] = whist_progress(point_table, deals, names)
        status["target"] = point_table.target
        status["manches"] = point_table.manches
    elif game == "besigue":
        status["target"] = getattr(point_table.end, "target", None)
    elif game == "hearts":
        status["partie_deals"] = point_table.partie_deals
    return status


def _uncounted_contracts(game: str) -> list[str]:
    """The contracts after which the same dealer deals again (everybody passed): the engine's
    own rule, read from the game's module."""
    module = game_module(game)
    counts = getattr(module, "counts_toward_poule", None)
    passed = getattr(module, "PASS", None)
    return [passed] if counts is not None and passed and not counts(passed) else []


def sheet_context(
    request: HttpRequest,
    tournament: Tournament,
    poule: Poule,
    form: Any,
    seats: list[Any],
    *,
    prefilled: bool = False,
) -> dict:
    public = shows_public_names(request, tournament)
    for seat in seats:
        seat.name = seat.player.public_display_name if public else seat.player.display_name
    _short_names(seats)
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
    game = tournament.game
    point_table = tournament.point_table.engine_table()
    seat_count = len(seats)
    totals = [0] * seat_count
    rows = []
    numbers = _sheet_numbers(game, deals)
    for deal, number in zip(deals, numbers, strict=True):
        totals = [total + points for total, points in zip(totals, deal.points, strict=False)]
        code, text, marks = _deal_words(game, deal, point_table, names)
        dealer = None if deal.dealer is None else deal.dealer - 1
        sits_out = mort(game, seat_count, dealer)
        # Each cell's classes and text made here: the grid is sent back after every deal,
        # and a template's conditions per cell are its slowest part.
        cells = []
        for index, points in enumerate(deal.points):
            classes = ["pts"]
            if mark := marks.get(str(index + 1)):
                classes.append(mark)
            if dealer == index:
                classes.append("dealer")
            if sits_out == index:
                classes.append("mort")
            cells.append((" ".join(classes), "–" if sits_out == index else points))
        rows.append(
            {
                "deal": deal,
                "ordinal": number,
                "code": code,
                "text": text,
                "cells": cells,
                "dealer": names.get(str(deal.dealer), ""),
                "history": _change_lines(deal.history, game, names),
            }
        )
    removed = _change_lines(
        [change for change in changes if change.action == DealChange.Action.DELETED], game, names
    )
    # The header's teams by the columns' short names: it stays on two lines on a phone.
    shorts = {str(seat.number): seat.short for seat in seats}
    status = _status(tournament, poule, seats, deals, shorts)
    complete = status.get("complete", False)
    dealer = (
        next_dealer(
            # Seats are numbered from 1 on the sheet, indexed from 0 by the engine.
            [None if d.dealer is None else d.dealer - 1 for d in deals],
            [d.counted for d in deals],
            seat_count,
        )
        if game_module(game).RECORDS_DEALER
        else None
    )
    next_mort = None if dealer is None else mort(game, seat_count, dealer)
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
    can_edit = can_edit_sheets(request, tournament)
    row_context = {"club": tournament.club, "tournament": tournament, "can_edit": can_edit}
    for row in rows:
        row["html"] = _row_html(row, row_context, names)
    return {
        "club": tournament.club,
        "tournament": tournament,
        "poule": poule,
        "seats": seats,
        "rows": rows,
        "last_row": rows[-1] if rows else None,
        "totals": totals,
        "removed": removed,
        "status": status,
        "expected": status.get("expected"),
        "complete": complete,
        # Games played to a score (not to a number of deals) rank as they go.
        "show_standings": bool(standings) and (complete or "expected" not in status),
        "next_number": sum(1 for number in numbers if number is not None) + 1,
        "next_dealer": None if dealer is None else names.get(str(dealer + 1)),
        "mort": next_mort is not None,
        "mort_seat": None if next_mort is None else next_mort + 1,
        # For the phone's script: deals waiting on the phone move the dealer (and the mort)
        # on as the engine will, before the server has seen them.
        "dealer_seat": None if dealer is None else dealer + 1,
        "mort_at": game_module(game).MORT_AT or "",
        "uncounted": " ".join(_uncounted_contracts(game)),
        "standings": standings,
        "public": public,
        "form": form,
        # An untouched form is the same for every deal: its fragment comes from the cache.
        "form_html": (
            _blank_form_html(tournament, seats)
            if form and not form.is_bound and not prefilled
            else None
        ),
        # A fresh key per page: the form posted without the phone's script is recorded once
        # however often it is sent (the script makes its own keys, one per deal).
        "client_key": uuid.uuid4(),
        "can_edit": can_edit,
        "problem": None,
    }


def _client_key(value: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(value)
    except (ValueError, TypeError, AttributeError):
        return None


def sheet_messages() -> dict[str, str]:
    """What sheet.js says, in the visitor's language: each failure with what to do."""
    return {
        "waiting_one": _("1 donne en attente sur ce téléphone"),
        "waiting_many": _("{n} donnes en attente sur ce téléphone"),
        "offline_short": _("pas de réseau"),
        "offline": _(
            "Pas de réseau : les donnes attendent sur ce téléphone et partiront d'elles-mêmes "
            "au retour de la connexion. Gardez cette page ouverte ; vous pouvez continuer à "
            "marquer."
        ),
        "saving": _("Enregistrement…"),
        "retry": _("Réessayer"),
        "discard": _("Retirer cette donne de la file"),
        "choose_contract": _("Choisissez le contrat."),
        "login": _(
            "Vous n'êtes plus connecté : ouvrez une session dans un autre onglet, puis touchez "
            "« Réessayer ». La donne attend sur ce téléphone."
        ),
        "forbidden": _(
            "Refusé : la soirée est clôturée ou vous n'êtes plus marqueur du club. La donne "
            "n'est pas enregistrée et attend sur ce téléphone : demandez à un administrateur "
            "du club de rouvrir la soirée (puis « Réessayer »), ou notez-la sur papier."
        ),
        "gone": _(
            "Cette table n'existe plus (le tour a été tiré à nouveau ?) : la donne n'est pas "
            "enregistrée. Rechargez la page et notez la donne à sa nouvelle table."
        ),
        "server": _(
            "Le serveur a eu un problème (erreur {status}) : la donne n'est pas enregistrée et "
            "attend sur ce téléphone. Réessayez dans un moment ; si cela dure, notez les "
            "donnes sur papier."
        ),
        "paused_after_refusal": _(
            "Cette donne est revenue dans le formulaire (voir le message) : corrigez-la et "
            "enregistrez-la. Les {n} donne(s) qui la suivent attendent sur ce téléphone et "
            "partiront après elle, dans l'ordre."
        ),
        "refused_alone": _(
            "Cette donne est revenue dans le formulaire (voir le message) : corrigez-la et "
            "enregistrez-la."
        ),
        "in_form": _("dans le formulaire"),
        "session_changed": _(
            "Votre session a changé (une connexion dans un autre onglet ?) : rechargez la "
            "page, puis touchez « Réessayer ». Les donnes attendent sur ce téléphone."
        ),
        "login_undo": _(
            "Vous n'êtes plus connecté : rien n'a été annulé. Ouvrez une session dans un "
            "autre onglet, puis réessayez."
        ),
        "undo_waiting": _(
            "Des donnes attendent encore d'être envoyées : annulez après leur envoi, ou "
            "retirez-les de la file."
        ),
        "forbidden_undo": _(
            "Refusé : la soirée est clôturée ou vous n'êtes plus marqueur. Rien n'a été annulé."
        ),
        "server_undo": _(
            "Le serveur a eu un problème (erreur {status}) : rien n'a été annulé. Réessayez "
            "dans un moment."
        ),
        "offline_undo": _("Pas de réseau : rien n'a été annulé. Réessayez au retour du réseau."),
    }


def _sheet_response(
    request: HttpRequest, context: dict, result: str | None = None, status: int = 200
) -> TemplateResponse:
    template = "games/sheet.html#sheet" if request.htmx else "games/sheet.html"
    if not request.htmx:
        context["sheet_messages"] = sheet_messages()
    response = TemplateResponse(request, template, context, status=status)
    if result:
        response["X-Sheet-Result"] = result
    return response


def _sheet_poule(request: HttpRequest, slug: str, pk: int, poule_pk: int) -> Poule:
    """The poule, its night and the visitor's role in its club in one query: the sheet
    answers every deal of the night."""
    poule = get_object_or_404(
        Poule.objects.select_related(
            "tournament__club", "tournament__season", "tournament__point_table"
        ).annotate(viewer_role=role_in(request.user, "tournament__club")),
        pk=poule_pk,
        tournament_id=pk,
        tournament__club__slug=slug,
    )
    remember_role(request.user, poule.tournament.club, poule.viewer_role)
    return poule


def _recorded_before(
    request: HttpRequest, tournament: Tournament, poule: Poule, client_key: uuid.UUID | None
) -> bool:
    """A deal the sheet already holds under this phone's key, sent again by one of the club's
    scorers (its answer was lost, or the night closed before it came)."""
    if client_key is None or not is_scorer(request.user, tournament.club):
        return False
    return poule.deals.filter(client_key=client_key).exists()


def poule_sheet(request: HttpRequest, slug: str, pk: int, poule_pk: int) -> HttpResponse:
    """GET: the sheet (read-only for members and the public once published). POST: record
    a deal; the phone's request gets the updated sheet back, the plain form a redirect."""
    poule = _sheet_poule(request, slug, pk, poule_pk)
    tournament = poule.tournament
    form = None
    seats = _seats(poule)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        client_key = _client_key(request.POST.get("client_key", ""))
        if not can_edit_sheets(request, tournament) and _recorded_before(
            request, tournament, poule, client_key
        ):
            # The retry of a deal recorded before the night was closed: answered as recorded
            # (the phone forgets it), not as a refusal that would leave it "lost" on the phone.
            context = sheet_context(request, tournament, poule, None, seats)
            return _sheet_response(request, context, REPLAYED)
        require_sheet_editor(request, tournament)
        form = _deal_form(tournament, seats, request.POST)
        seen = posted_number(request.POST.get("seen", ""), 10_000)
        if form.is_valid():
            try:
                deal = services.deal_record(
                    poule,
                    form.deal_data(),
                    by=request.user,
                    seats=seats,
                    client_key=client_key,
                    seen=seen,
                    longer=bool(request.POST.get("longer")),
                )
            except IntegrityError:
                # The same deal sent twice at once (a double tap, two tries crossing): the
                # other request stored it first; SQLite says so with the key's constraint.
                if not _recorded_before(request, tournament, poule, client_key):
                    raise
                form = _deal_form(tournament, seats)
                context = sheet_context(request, tournament, poule, form, seats)
                return _sheet_response(request, context, REPLAYED)
            except services.DealConflict as conflict:
                context = sheet_context(request, tournament, poule, form, seats)
                context["problem"] = " ".join(conflict.messages)
                return _sheet_response(request, context, CONFLICT, status=409)
            except ValidationError as refused:
                _refuse(form, refused, seats, poule)
                context = sheet_context(request, tournament, poule, form, seats)
                return _sheet_response(request, context, REFUSED)
            result = REPLAYED if getattr(deal, "replayed", False) else RECORDED
            if not request.htmx:
                return redirect("games:sheet", slug=slug, pk=pk, poule_pk=poule.pk)
            form = _deal_form(tournament, seats)
            context = sheet_context(request, tournament, poule, form, seats)
            return _sheet_response(request, context, result)
        context = sheet_context(request, tournament, poule, form, seats)
        return _sheet_response(request, context, REFUSED)
    require_sheet_reader(request, tournament)
    if can_edit_sheets(request, tournament):
        form = _deal_form(tournament, seats)
    return _sheet_response(request, sheet_context(request, tournament, poule, form, seats))


@login_required
@require_POST
def deal_undo(request: HttpRequest, slug: str, pk: int, poule_pk: int) -> HttpResponse:
    """Undo the last deal in one tap: a removal kept in the poule's history, like any other.
    The form opens again with the deal as it was, so a wrong tap is mended by changing one
    choice. Refused (409) when the sheet's last deal is no longer the one the phone showed."""
    poule = _sheet_poule(request, slug, pk, poule_pk)
    tournament = poule.tournament
    require_sheet_editor(request, tournament)
    seats = _seats(poule)
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
    form = _deal_form(tournament, seats, initial_deal=undone.data if undone else None)
    context = sheet_context(request, tournament, poule, form, seats, prefilled=undone is not None)
    context["problem"] = problem
    context["undone"] = undone
    return _sheet_response(request, context, result, status=status)


@login_required
def deal_edit(request: HttpRequest, slug: str, pk: int, deal_pk: int) -> HttpResponse:
    """Correct a deal: the form opens with the deal as recorded; the change is kept. A deal
    corrected by someone else since the form opened is not overwritten (409)."""
    tournament = tournament_for(slug, pk)
    require_sheet_editor(request, tournament)
    deal = get_object_or_404(
        Deal.objects.select_related("poule"), pk=deal_pk, poule__tournament=tournament
    )
    seats = _seats(deal.poule)
    form = _deal_form(tournament, seats, request.POST or None, deal=deal)
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
            _refuse(form, refused, seats, deal.poule)
        else:
            messages.success(request, _("Donne corrigée."))
            return redirect("games:sheet", slug=slug, pk=pk, poule_pk=deal.poule_id)
    names = {str(seat.number): seat.player.display_name for seat in seats}
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "poule": deal.poule,
        "deal": deal,
        "deal_text": describe_deal(tournament.game, deal.data, names),
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
        numbers = _sheet_numbers(tournament.game, list(deal.poule.deals.order_by("number")))
        texts = refusal_texts(refused, _names(_seats(deal.poule)), numbers)
        messages.error(request, " ".join(texts))
    else:
        messages.success(request, _("Donne supprimée."))
    return redirect("games:sheet", slug=slug, pk=pk, poule_pk=deal.poule_id)
