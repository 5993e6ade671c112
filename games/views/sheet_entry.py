"""A paper score sheet typed in at once, keyboard first: a row per deal, its codes as the paper
sheet has them (games/presenters/paper.py prints the same columns): the contract's code with
its bid ("E8", "S6", "PM"), the declarers by seat number ("13"), the tricks ("9"; a misère at
several, each declarer's in order: "0 2"). A whole row may also be typed in the first field
("E8 13 9"). Tab goes from field to field; Enter goes to the next row, and sends the sheet from
its last row or an empty one (static/js/paper-entry.js; without it, Enter sends the sheet).

All rows are scored together by the phone's own service (``scoring.services.deals_record``):
one transaction, the engine checks the whole sheet, and each refusal is shown on its row.
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
from django.utils.translation import override

from club.names import viewer_of
from scoring import services
from scoring.engine.games.belgian_whist import PASS

from ..dealforms import CONTRACT_SHORT
from ..models import Poule
from ..numbering import deal_numbers, next_number
from ..presenters.legend import code_legend
from ..presenters.paper import dealer_rows
from .common import require_sheet_editor, tournament_for
from .problems import refusal_texts
from .sheet import seats_of

_CODE = re.compile(r"([^\W\d_]+)(\d*)")
_PLACE = re.compile(r"^deals\[(\d+)\]")


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
    number: int  # the deal's number on the sheet
    dealer: int
    mort: int | None
    contract: str = ""
    declarers: str = ""
    tricks: str = ""
    problems: list[str] = field(default_factory=list)

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
    if not declarers or any(not s.isdigit() or not 1 <= int(s) <= seat_count for s in declarers):
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


def _rows(poule: Poule, game: str, seats: int, recorded: int, data: Any) -> list[EntryRow]:
    count = max(poule.deals_tonight(seats) - poule.counted_deals, 1)
    rotation = dealer_rows(game, seats, recorded + count)[recorded:]
    rows = [EntryRow(i, paper.number, paper.dealer, paper.mort) for i, paper in enumerate(rotation)]
    if data is not None:
        for row in rows:
            row.contract = data.get(f"contract-{row.index}", "").strip()
            row.declarers = data.get(f"declarers-{row.index}", "").strip()
            row.tricks = data.get(f"tricks-{row.index}", "").strip()
    return rows


def _refusals_on_rows(
    error: ValidationError, rows: Sequence[EntryRow], recorded: int, names: dict, numbers: list
) -> list[str]:
    """Each engine refusal on its row (the engine places it: deals[k] of the whole sheet);
    the others for the top of the page."""
    elsewhere = []
    for item in getattr(error, "error_list", [error]):
        place = (item.params or {}).get("place", "")
        text = refusal_texts(ValidationError([item]), names, numbers)
        found = _PLACE.match(place)
        index = int(found.group(1)) - recorded if found else -1
        if 0 <= index < len(rows):
            rows[index].problems += text
        else:
            elsewhere += text
    return elsewhere


def sheet_entry(request: HttpRequest, slug: str, pk: int, poule_pk: int) -> HttpResponse:
    tournament = tournament_for(slug, pk)
    require_sheet_editor(request, tournament)
    poule = get_object_or_404(
        Poule.objects.select_related("tournament"), pk=poule_pk, tournament=tournament
    )
    poule.tournament = tournament
    seats = seats_of(poule, viewer_of(request.user))
    names = {str(seat.number): seat.shown for seat in seats}
    sheet = list(poule.deals.order_by("position"))
    recorded = len(sheet)
    numbered = next_number(deal_numbers(tournament.game, sheet)) - 1
    game_supported = tournament.game == "belgian_whist"
    posted = request.POST if request.method == "POST" and game_supported else None
    rows = _rows(poule, tournament.game, len(seats), numbered, posted)
    problems: list[str] = []
    if posted is not None:
        point_table = tournament.point_table.engine_table()
        codes = contract_codes()
        typed = [row for row in rows if not row.empty]
        # A row left empty in the middle is a deal forgotten: said, not skipped.
        last = max((row.index for row in typed), default=-1)
        for row in rows[: last + 1]:
            if row.empty:
                row.problems.append(_("Ligne vide avant d'autres donnes : remplissez-la."))
        deals = [row_deal(row, point_table, len(seats), codes) for row in typed]
        if not typed:
            problems.append(_("Aucune donne saisie."))
        elif not any(row.problems for row in rows):
            try:
                services.deals_record(poule, deals, request.user, seats=seats, seen=recorded)
            except ValidationError as refused:
                numbers = deal_numbers(tournament.game, sheet)
                for _row in typed:
                    numbers.append(next_number(numbers))
                problems = _refusals_on_rows(refused, typed, recorded, names, numbers)
            else:
                messages.success(
                    request,
                    _("%(count)s donnes enregistrées à la table %(table)s.")
                    % {"count": len(deals), "table": poule.table},
                )
                return redirect("games:sheet", slug=slug, pk=pk, poule_pk=poule.pk)
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "poule": poule,
        "seats": seats,
        "rows": rows,
        "recorded": numbered,
        "problems": problems,
        "game_supported": game_supported,
        "five": len(seats) == 5,
        "has_problems": bool(problems) or any(row.problems for row in rows),
        "legend": code_legend(tournament.game),
    }
    return TemplateResponse(request, "games/sheet_entry.html", context)
