"""A paper score sheet typed in at once, keyboard first: a row per deal, its codes as the paper
sheet has them (games/presenters/paper.py prints the same columns): the contract's code with
its bid ("E8", "S6", "PM"), the declarers by seat number ("13"), the tricks ("9"; a misère at
several, each declarer's in order: "0 2"). A whole row may also be typed in the first field
("E8 13 9"). Tab goes from field to field; Enter goes to the next row, and sends the sheet from
its last row or an empty one (static/js/paper-entry.js; without it, Enter sends the sheet).

All rows are scored together by the phone's own service (``scoring.services.deals_record``):
one transaction, the engine checks the whole sheet, and each refusal is shown on its row.
Every row is checked on each submit: a row the page cannot read is said on it, and the engine
still checks all the others (nothing is recorded until no row is wrong). A row typed as a pass
takes no number and its dealer deals again, as the site records it: the rows after it follow
(the page's script renumbers them as the pass is typed).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, override

from club.names import name_reader_of
from infra.converters import typed_id
from scoring import services
from scoring.engine.games.belgian_whist import PASS
from scoring.services.sheets import poule_score

from ..dealforms import CONTRACT_SHORT
from ..models import Poule
from ..numbering import deal_numbers, next_number
from ..presenters.legend import code_legend, played_contracts
from ..presenters.paper import typed_rows
from .common import require_sheet_editor, tournament_for
from .problems import refusal_texts
from .sheet import seats_of

_CODE = re.compile(r"([^\W\d_]+)(\d*)")
_PLACE = re.compile(r"^deals\[(\d+)\]")
# A row's fields, as the form names them ("contract-3").
ENTRY_FIELDS = ("contract", "declarers", "tricks")


def contract_codes() -> dict[str, str]:
    """Each contract's code, lower case → contract: the page's language's and the French
    (a paper sheet printed in French, typed in by a Dutch-speaking scorer)."""
    codes = {str(code).casefold(): contract for contract, code in CONTRACT_SHORT.items()}
    with override("fr"):
        for contract, code in CONTRACT_SHORT.items():
            codes.setdefault(str(code).casefold(), contract)
    codes.setdefault("p", PASS)
    return codes


@dataclass
class EntryRow:
    index: int  # 0: the first row of the page
    number: int | None  # the deal's number on the sheet; None: a pass, which takes none
    dealer: int
    mort: int | None
    contract: str = ""
    declarers: str = ""
    tricks: str = ""
    problems: list[str] = field(default_factory=list)
    label: int = 0  # the number its fields are named by (a pass: the deal after it)

    @property
    def empty(self) -> bool:
        return not (self.contract or self.declarers or self.tricks)


def _split_whole_row(row: EntryRow) -> None:
    """A whole row typed in the first field ("E8 13 9", "PM 24 0 2")."""
    words = row.contract.split()
    if len(words) > 1 and not row.declarers and not row.tricks:
        row.contract, row.declarers, row.tricks = words[0], words[1], " ".join(words[2:])


def row_deal(row: EntryRow, point_table: Any, seat_count: int, codes: Mapping[str, str]) -> dict:
    """The deal a row says, as the site stores it; what cannot be read is said on the row (the
    rules themselves are the engine's)."""
    _split_whole_row(row)
    match = _CODE.fullmatch(row.contract.replace(" ", ""))
    contract = codes.get(match.group(1).casefold()) if match else None
    if row.contract.casefold() in codes:
        contract, match = codes[row.contract.casefold()], None
    if contract is None:
        row.problems.append(
            _("« %(code)s » n'est pas un code de contrat (voir la légende).")
            % {"code": row.contract}
        )
        return {}
    if contract == PASS:
        return {"contract": PASS}
    deal: dict[str, Any] = {"contract": contract}
    if match and match.group(2):
        deal["bid"] = int(match.group(2))
    elif (only := point_table.only_row.get(contract)) is not None and only.bid is not None:
        deal["bid"] = only.bid
    declarers = [seat for seat in re.sub(r"[\s,;.+/-]", "", row.declarers)]
    if not declarers or any(not 1 <= (typed_id(s) or 0) <= seat_count for s in declarers):
        row.problems.append(
            _("Déclarants : leurs numéros de place, de 1 à %(count)s (ex. 13).")
            % {"count": seat_count}
        )
        return {}
    deal["declarers"] = declarers
    tricks = row.tricks.replace(",", " ").split()
    if not tricks or not all(t.isascii() and t.isdigit() for t in tricks):
        row.problems.append(_("Plis : un nombre (une misère à plusieurs : un par déclarant)."))
        return {}
    side = next((r.side for r in point_table.rows.values() if r.contract == contract), "pair")
    if side == "each":
        if len(tricks) != len(declarers):
            row.problems.append(
                _("Plis : un nombre par déclarant, dans l'ordre des déclarants (ex. 0 2).")
            )
            return {}
        deal["tricks"] = {seat: int(n) for seat, n in zip(declarers, tricks, strict=True)}
    elif len(tricks) != 1:
        row.problems.append(_("Plis : ceux des déclarants, en un seul nombre."))
        return {}
    else:
        deal["tricks"] = int(tricks[0])
    return deal


def pass_codes(codes: Mapping[str, str]) -> list[str]:
    """The codes a row's first word reads as a pass by (lower case): the page's script marks
    such a row as the view does."""
    return sorted(code for code, contract in codes.items() if contract == PASS)


def _is_pass(contract: str, passes: Sequence[str]) -> bool:
    words = contract.split()
    return bool(words) and words[0].casefold() in passes


def _rows(
    count: int, game: str, seats: int, sheet: Sequence[Any], data: Any, passes: Sequence[str]
) -> list[EntryRow]:
    """The page's rows: enough for the ``count`` deals the table still plays, and one more for
    each typed pass (a pass takes no number: the deal after it takes the number it left). Each
    row has its number, dealer and mort as the site will record them (``typed_rows``)."""
    # Rows the page's script added after typed passes come back with the form; never more
    # than a pass before each deal.
    typed = [
        tuple(data.get(f"{part}-{index}", "").strip() for part in ENTRY_FIELDS)
        if data is not None
        else ("", "", "")
        for index in range(2 * count)
    ]
    last = max((i for i, fields in enumerate(typed) if any(fields)), default=-1)
    shown, numbered = 0, 0
    while shown < len(typed) and (numbered < count or shown <= last):
        numbered += not _is_pass(typed[shown][0], passes)
        shown += 1
    marked = [_is_pass(fields[0], passes) for fields in typed[:shown]]
    rows = []
    for index, (paper, fields) in enumerate(
        zip(typed_rows(game, seats, sheet, marked), typed, strict=False)
    ):
        row = EntryRow(index, paper.number, paper.dealer, paper.mort)
        row.contract, row.declarers, row.tricks = fields
        rows.append(row)
    # A pass row is labelled by the deal it comes before (its fields, "Donne 4 : contrat").
    upcoming = next_number(deal_numbers(game, sheet))
    for row in rows:
        row.label = upcoming
        upcoming += row.number is not None
    return rows


def _refusals_on_rows(
    error: ValidationError,
    rows: Sequence[EntryRow],
    recorded: int,
    names: dict,
    numbers: list,
    unread: set[int],
) -> list[str]:
    """Each engine refusal on its row (the engine places it: deals[k] of the whole sheet);
    the others for the top of the page. A row the page could not read (``unread``) stood in
    for a deal in the rotation only: it keeps its own problem, not the engine's."""
    elsewhere = []
    for item in getattr(error, "error_list", [error]):
        place = (item.params or {}).get("place", "")
        text = refusal_texts(ValidationError([item]), names, numbers)
        found = _PLACE.match(place)
        index = int(found.group(1)) - recorded if found else -1
        if index in unread:
            continue
        if 0 <= index < len(rows):
            rows[index].problems += text
        else:
            elsewhere += text
    return elsewhere


def _recorded_words(deals: Sequence[dict], table: int) -> str:
    """The confirmation, deals and passes counted apart ("4 donnes et 1 passe …")."""
    passed = sum(1 for deal in deals if deal.get("contract") == PASS)
    played = len(deals) - passed
    if not passed:
        return ngettext(
            "%(count)s donne enregistrée à la table %(table)s.",
            "%(count)s donnes enregistrées à la table %(table)s.",
            played,
        ) % {"count": played, "table": table}
    if not played:
        return ngettext(
            "%(count)s passe enregistrée à la table %(table)s.",
            "%(count)s passes enregistrées à la table %(table)s.",
            passed,
        ) % {"count": passed, "table": table}
    return _("%(deals)s et %(passes)s enregistrées à la table %(table)s.") % {
        "deals": ngettext("%(count)s donne", "%(count)s donnes", played) % {"count": played},
        "passes": ngettext("%(count)s passe", "%(count)s passes", passed) % {"count": passed},
        "table": table,
    }


def sheet_entry(request: HttpRequest, slug: str, pk: int, poule_pk: int) -> HttpResponse:
    tournament = tournament_for(slug, pk)
    require_sheet_editor(request, tournament)
    poule = get_object_or_404(
        Poule.objects.select_related("tournament"), pk=poule_pk, tournament=tournament
    )
    poule.tournament = tournament
    seats = seats_of(poule, name_reader_of(request.user))
    names = {str(seat.number): seat.shown for seat in seats}
    sheet = list(poule.deals.order_by("position"))
    recorded = len(sheet)
    numbered = next_number(deal_numbers(tournament.game, sheet)) - 1
    game_supported = tournament.game == "belgian_whist"
    posted = request.POST if request.method == "POST" and game_supported else None
    codes = contract_codes()
    passes = pass_codes(codes)
    left = max(poule.deals_tonight(len(seats)) - poule.counted_deals, 1)
    rows = _rows(left, tournament.game, len(seats), sheet, posted, passes)
    problems: list[str] = []
    if posted is not None:
        point_table = tournament.point_table.engine_table()
        # A row left empty in the middle is a deal forgotten: said, not skipped.
        last = max((row.index for row in rows if not row.empty), default=-1)
        typed = rows[: last + 1]
        deals = []
        for row in typed:
            if row.empty:
                row.problems.append(_("Ligne vide avant d'autres donnes : remplissez-la."))
            elif row.number is not None and row.number > numbered + left:
                row.problems.append(
                    _("Une donne de trop : cette table en joue %(count)s ce soir.")
                    % {"count": poule.deals_tonight(len(seats))}
                )
            deals.append({} if row.empty else row_deal(row, point_table, len(seats), codes))
        unread = {row.index for row in typed if row.problems}
        numbers = [*deal_numbers(tournament.game, sheet), *(row.number for row in typed)]
        if not typed:
            problems.append(_("Aucune donne saisie."))
        try:
            if typed and unread:
                # Every row is checked at once: the engine reads the others, each row the
                # page could not read standing in for a deal, and nothing is recorded.
                poule_score(
                    poule, [seat.number for seat in seats], [*(deal.data for deal in sheet), *deals]
                )
            elif typed:
                services.deals_record(poule, deals, request.user, seats=seats, seen=recorded)
                messages.success(request, _recorded_words(deals, poule.table))
                return redirect("games:sheet", slug=slug, pk=pk, poule_pk=poule.pk)
        except ValidationError as refused:
            problems = _refusals_on_rows(refused, typed, recorded, names, numbers, unread)
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "poule": poule,
        "seats": seats,
        "rows": rows,
        "recorded": numbered,
        # What the page's script needs to number the rows as a pass is typed: the codes of a
        # pass, and the dealer and mort of each numbered deal to come (a pass leaves them).
        "pass_codes": passes,
        "deals_left": left,
        "rotation": [
            [row.dealer, row.mort]
            for row in typed_rows(tournament.game, len(seats), sheet, [False] * (2 * left + 1))
        ],
        "problems": problems,
        "game_supported": game_supported,
        "five": len(seats) == 5,
        "has_problems": bool(problems) or any(row.problems for row in rows),
        "legend": code_legend(tournament.game, played_contracts(tournament.point_table)),
    }
    return TemplateResponse(request, "games/paper_entry.html", context)
