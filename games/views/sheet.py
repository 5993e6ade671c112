"""A poule's score sheet on the scorer's phone: a compact grid (one column per seat, one row per
deal, the totals always in view), the deal form above it, and recording a deal (undo,
corrections and removals: deal_changes.py). What the sheet shows is the sheet model's
(games/presenters/sheet.py); this module fetches, checks who may, and renders.

The phone's script (static/js/sheet.js) sends each deal with a key of its own making and the
number of deals its sheet showed: a deal sent twice is recorded once, and a sheet changed
meanwhile by another phone is answered 409 with the sheet as it is. Each deal also says whose
it is: the login stamp of the page it was typed on (infra/login_stamp.py). A phone passed from
one scorer to another keeps the first one's waiting deals set aside, and a deal sent under a
login other than the one that typed it is refused (403), never recorded under the wrong name.
Without the script the form posts and the page comes back (the same keys and checks hold)."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import get_template
from django.template.response import TemplateResponse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from club.club_pages import club_viewed
from club.names import NameReader, name_reader_of, name_shown
from club.permissions import remember_role, role_in
from infra.login_stamp import login_stamp
from scoring import services
from scoring.engine.games import game_module

from ..dealforms import DealForm, deal_form_class
from ..models import Deal, Poule, Tournament
from ..numbering import deal_numbers, next_number
from ..presenters.sheet import poule_sheet as poule_sheet_model
from ..presenters.sheet import short_names, uncounted_contracts
from ..presenters.sheet_messages import sheet_messages
from ..presenters.sheet_points import provisional_points
from ..sheet_read import sheet_seats
from .common import (
    can_edit_sheets,
    posted_number,
    require_sheet_editor,
    require_sheet_reader,
)
from .problems import deal_named, refusal_texts

# What the phone's script reads from a sheet answer (header X-Sheet-Result).
RECORDED, REPLAYED, REFUSED, CONFLICT, UNDONE, OTHER_LOGIN = (
    "recorded",
    "replayed",
    "refused",
    "conflict",
    "undone",
    "other-login",
)


def seats_of(poule: Poule, reader: NameReader) -> list[Any]:
    """The poule's seats in order, each with ``shown``: his player's name as ``reader`` reads
    it (``club.names``): the form's buttons and the refusals name players so."""
    seats = list(poule.seats.select_related("player").order_by("number"))
    for seat in seats:
        seat.shown = name_shown(seat.player, reader)
    return seats


def deal_form(
    tournament: Tournament,
    seats: list[Any],
    data: Any = None,
    deal: Deal | None = None,
    initial_deal: dict | None = None,
) -> DealForm:
    return deal_form_class(tournament.game)(
        data,
        seats=_seat_names(seats),
        point_table=tournament.point_table.engine_table(),
        initial_deal=deal.data if deal else initial_deal,
    )


def _seat_names(seats: list[Any]) -> list[tuple[int, str]]:
    """The players as the form's buttons name them: whole first names, told apart where two
    share one (the sheet's columns say the same)."""
    shorts = short_names([seat.shown for seat in seats])
    return [(seat.number, short) for seat, (short, _initials) in zip(seats, shorts, strict=True)]


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
    for number, name in _seat_names(seats):
        html = html.replace(_stand_in(number), escape(name))
    return mark_safe(html)  # the form's own HTML, the names escaped above


def _sheet_numbers(poule: Poule, deal: Deal | None = None) -> tuple[list[int | None], int]:
    """Each deal's number on the sheet and the index of the deal being typed: ``deal`` being
    corrected, or the new one (the next number)."""
    deals = list(poule.deals.order_by("position"))
    numbers = deal_numbers(poule.tournament.game, deals)
    if deal is not None and deal.pk in [d.pk for d in deals]:
        return numbers, [d.pk for d in deals].index(deal.pk)
    numbers.append(next_number(numbers))
    return numbers, len(numbers) - 1


def refuse(
    form: DealForm, error: ValidationError, seats: list[Any], poule: Poule, deal: Deal | None = None
) -> None:
    """The engine's refusal in the page's language, shown on the form that keeps what was
    typed; a deal named by its number on the sheet (the new one, the next number)."""
    numbers, _index = _sheet_numbers(poule, deal)
    names = {str(seat.number): seat.shown for seat in seats}
    for text in refusal_texts(error, names, numbers):
        form.add_error(None, text)


def name_the_deal(form: DealForm, poule: Poule, deal: Deal | None = None) -> None:
    """The form's own refusals (a number out of range, a choice missing) begin with the deal
    they are about, as the engine's do: "Donne 7 : Petite misère, plis de Anne : 14 ? …"."""
    numbers, index = _sheet_numbers(poule, deal)
    prefix = deal_named(index, numbers)
    for name, errors in list(form.errors.items()):
        form.errors[name] = form.error_class(
            [text if text.startswith(prefix) else prefix + text for text in errors],
            error_class="nonfield" if name == NON_FIELD_ERRORS else None,
            renderer=form.renderer,
        )


# Each deal's row of the grid, rendered: the same rows are sent back after every deal of the
# night, only the new one is rendered. The key holds everything the row shows.
_ROW_HTML: dict[tuple[Any, ...], SafeString] = {}


def _row_html(row: dict[str, Any], context: dict[str, Any], names: dict[str, str]) -> SafeString:
    deal = row["deal"]
    key = (
        deal.pk,
        deal.position,
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


def sheet_context(
    request: HttpRequest,
    tournament: Tournament,
    poule: Poule,
    form: Any,
    seats: list[Any],
    *,
    prefilled: bool = False,
) -> dict:
    sheet = poule_sheet_model(tournament, poule, seats, reader=name_reader_of(request.user))
    status = sheet.status
    complete = status.get("complete", False)
    can_edit = can_edit_sheets(request, tournament)
    row_context = {"club": tournament.club, "tournament": tournament, "can_edit": can_edit}
    for row in sheet.rows:
        row["html"] = _row_html(row, row_context, sheet.names)
    game = tournament.game
    return {
        "club": tournament.club,
        "tournament": tournament,
        "poule": poule,
        "seats": sheet.seats,
        "rows": sheet.rows,
        "last_row": sheet.rows[-1] if sheet.rows else None,
        "totals": sheet.totals,
        "removed": sheet.removed,
        "status": status,
        "expected": status.get("expected"),
        "complete": complete,
        # Games played to a score (not to a number of deals) rank as they go.
        "show_standings": bool(sheet.standings) and (complete or "expected" not in status),
        "next_number": sheet.next_number,
        "next_dealer": sheet.next_dealer,
        "mort": sheet.mort_seat is not None,
        "mort_seat": sheet.mort_seat,
        # For the phone's script: deals waiting on the phone move the dealer (and the mort)
        # on as the engine will, before the server has seen them.
        "dealer_seat": sheet.dealer_seat,
        "mort_at": game_module(game).MORT_AT or "",
        "uncounted": " ".join(uncounted_contracts(game)),
        "standings": sheet.standings,
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


def sheet_response(
    request: HttpRequest, context: dict, result: str | None = None, status: int = 200
) -> TemplateResponse:
    template = "games/sheet.html#sheet" if request.htmx else "games/sheet.html"
    if not request.htmx:
        context["sheet_messages"] = sheet_messages()
        # The night's point table, for the waiting deals' provisional points: it does not
        # change with the deals, so the answers swapped in after each deal leave it out.
        context["sheet_points"] = provisional_points(context["tournament"])
    response = TemplateResponse(request, template, context, status=status)
    if result:
        response["X-Sheet-Result"] = result
    return response


def sheet_poule(request: HttpRequest, slug: str, pk: int, poule_pk: int) -> Poule:
    """The poule, its night and the visitor's role in its club in one query: the sheet
    answers every deal of the night. Who the visitor is to the club is put on the request
    from that role (``club.club_pages``), once for every later check."""
    poule = get_object_or_404(
        Poule.objects.select_related(
            "tournament__club", "tournament__season", "tournament__point_table"
        ).annotate(viewer_role=role_in(request.user, "tournament__club")),
        pk=poule_pk,
        tournament_id=pk,
        tournament__club__slug=slug,
    )
    remember_role(request.user, poule.tournament.club, poule.viewer_role)
    club_viewed(request, poule.tournament.club)
    return poule


def _resent_after_closing(
    request: HttpRequest, tournament: Tournament, poule: Poule, form: DealForm, client_key: Any
) -> Deal | None:
    """A deal recorded while the night ran, sent again by one of the club's scorers once it
    is closed (its answer was lost): the service finds it (``deal_resent``), so that it is
    answered as recorded, not refused."""
    if not request.club_access.is_scorer or not form.is_valid():
        return None
    return services.deal_resent(tournament, poule.pk, client_key, form.deal_data())


def _conflict(
    request: HttpRequest,
    tournament: Tournament,
    poule: Poule,
    form: DealForm | None,
    seats: list[Any],
    conflict: ValidationError,
) -> TemplateResponse:
    """The sheet changed meanwhile (or a key came with another deal): the sheet as it is, the
    reason in words, 409."""
    context = sheet_context(request, tournament, poule, form, seats)
    context["problem"] = " ".join(conflict.messages)
    return sheet_response(request, context, CONFLICT, status=409)


def _typed_by_another_login(request: HttpRequest) -> bool:
    """The deal names the viewer it was typed for (the form's ``viewer``, the stamp the page
    had), and that is not who sends it: a scorer signed in over another one on a shared
    phone, whose page still sends the first one's waiting deals. A post that names no viewer
    (an older page) is the login's that sends it."""
    typed_for = request.POST.get("viewer", "")
    return bool(typed_for) and typed_for != login_stamp(request)


def _poule_and_seats(
    request: HttpRequest, slug: str, pk: int, poule_pk: int
) -> tuple[Poule, list[Any]]:
    """The poule, its night, the visitor's role in its club and its seats with their players
    in one statement (``games.sheet_read``): the sheet answers every deal of the night."""
    seats, role = sheet_seats(request.user, slug, pk, poule_pk)
    if not seats:  # no such poule here (404), or one without seats
        return sheet_poule(request, slug, pk, poule_pk), []
    poule = seats[0].poule
    reader = name_reader_of(request.user)
    for seat in seats:  # each seat holds the poule already (``sheet_seats``)
        seat.shown = name_shown(seat.player, reader)
    remember_role(request.user, poule.tournament.club, role)
    club_viewed(request, poule.tournament.club)
    return poule, seats


class _UntouchedForm:
    """The blank deal form the sheet shows after a deal is recorded: its fragment comes from
    the cache (``_blank_form_html``), so the form itself is built only if something else of
    it is asked."""

    is_bound = False

    def __init__(self, tournament: Tournament, seats: list[Any]) -> None:
        self._made = (tournament, seats)

    @property
    def errors(self) -> dict[str, Any]:
        return {}

    def __getattr__(self, name: str) -> Any:
        form = self.__dict__.get("_form")
        if form is None:
            form = self.__dict__["_form"] = deal_form(*self._made)
        return getattr(form, name)


def poule_sheet(request: HttpRequest, slug: str, pk: int, poule_pk: int) -> HttpResponse:
    """GET: the sheet (read-only for members and the public once published). POST: record
    a deal; the phone's request gets the updated sheet back, the plain form a redirect."""
    poule, seats = _poule_and_seats(request, slug, pk, poule_pk)
    tournament = poule.tournament
    form = None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        # Before any answer that shows the sheet (a deal of another login, a retry): only
        # those who may read it get it back.
        require_sheet_reader(request, tournament)
        if _typed_by_another_login(request):
            # The sheet as it is for this login, with the refusal in words; the phone's
            # script keeps the deal set aside for the scorer who typed it.
            form = deal_form(tournament, seats) if can_edit_sheets(request, tournament) else None
            context = sheet_context(request, tournament, poule, form, seats)
            context["problem"] = _(
                "Cette donne a été notée sous une autre connexion que la vôtre (un autre "
                "marqueur sur ce téléphone) : elle n'est pas enregistrée sous votre nom. Celui "
                "qui l'a notée la retrouvera sur ce téléphone en se reconnectant ; sinon, "
                "notez-la à nouveau."
            )
            return sheet_response(request, context, OTHER_LOGIN, status=403)
        client_key = _client_key(request.POST.get("client_key", ""))
        form = deal_form(tournament, seats, request.POST)
        if not can_edit_sheets(request, tournament):
            try:
                resent = _resent_after_closing(request, tournament, poule, form, client_key)
            except services.DealConflict as conflict:
                return _conflict(request, tournament, poule, None, seats, conflict)
            if resent is not None:
                # Answered as recorded (the phone forgets it), not as a refusal that would
                # leave it "lost" on the phone.
                context = sheet_context(request, tournament, poule, None, seats)
                return sheet_response(request, context, REPLAYED)
        require_sheet_editor(request, tournament)
        seen = posted_number(request.POST.get("seen", ""), 10_000)
        if form.is_valid():
            try:
                # A deal sent again with its phone's key is answered by the service as the
                # first time (``replayed``), two tries crossing included.
                deal = services.deal_record(
                    poule,
                    form.deal_data(),
                    by=request.user,
                    seats=seats,
                    client_key=client_key,
                    seen=seen,
                    longer=bool(request.POST.get("longer")),
                )
            except services.DealConflict as conflict:
                return _conflict(request, tournament, poule, form, seats, conflict)
            except ValidationError as refused:
                refuse(form, refused, seats, poule)
                context = sheet_context(request, tournament, poule, form, seats)
                return sheet_response(request, context, REFUSED)
            result = REPLAYED if getattr(deal, "replayed", False) else RECORDED
            if not request.htmx:
                return redirect("games:sheet", slug=slug, pk=pk, poule_pk=poule.pk)
            form = _UntouchedForm(tournament, seats)
            context = sheet_context(request, tournament, poule, form, seats)
            return sheet_response(request, context, result)
        name_the_deal(form, poule)
        context = sheet_context(request, tournament, poule, form, seats)
        return sheet_response(request, context, REFUSED)
    require_sheet_reader(request, tournament)
    if can_edit_sheets(request, tournament):
        form = deal_form(tournament, seats)
    return sheet_response(request, sheet_context(request, tournament, poule, form, seats))
