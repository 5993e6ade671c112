"""The results page's rounds: every poule with its players, deals, totals and standings.

A 40-player night has hundreds of deals and thousands of numbers: each poule's rows are written
out here in one pass (numbers are integers, shown unlocalised as on the score sheet), not drawn
cell by cell by the template, whose variable look-ups were half of the page's time. The deals
are numbered and their cells marked by the sheet model, as on the phone.
"""

from __future__ import annotations

from typing import Any

from django.template.defaultfilters import floatformat
from django.utils.html import escape, format_html_join
from django.utils.safestring import SafeString

from club.models import Player
from scoring.models import PouleStanding

from ..dealforms import describe_deal
from ..models import Deal, Poule, Seat, Tournament
from .sheet import deal_cells, sheet_numbers


def results_rounds(tournament: Tournament) -> list[dict[str, Any]]:
    """Every round's poules with their seats, deals (described, points per seat) and
    standings. Four queries whatever the size of the night: deals and standings come as plain
    rows."""
    poules = (
        Poule.objects.filter(tournament=tournament)
        .order_by("round", "table")
        .values_list("pk", "round", "table", "counted_deals")
    )
    # Each player once, with what his public name is made of (not a model row per seat).
    players: dict[int, Player] = {}
    names: dict[int, dict[int, str]] = {}
    for poule_id, number, player_id, *name_fields in (
        Seat.objects.filter(tournament=tournament)
        .order_by("poule_id", "number")
        .values_list(
            "poule_id", "number", "player_id", *(f"player__{f}" for f in Player.PUBLIC_NAME_FIELDS)
        )
    ):
        if player_id not in players:
            players[player_id] = Player(
                pk=player_id, **dict(zip(Player.PUBLIC_NAME_FIELDS, name_fields, strict=True))
            )
        names.setdefault(poule_id, {})[number] = players[player_id].public_display_name
    deals: dict[int, list[tuple[Any, list[int], bool, int | None]]] = {}
    for poule_id, data, points, counted, dealer in (
        Deal.objects.filter(poule__tournament=tournament)
        .order_by("poule_id", "number")
        .values_list("poule_id", "data", "points", "counted", "dealer")
    ):
        deals.setdefault(poule_id, []).append((data, points, counted, dealer))
    lines: dict[int, list[tuple[Any, ...]]] = {}
    for poule_id, *line in (
        PouleStanding.objects.filter(poule__tournament=tournament)
        .order_by("poule_id", "rank", "seat")
        .values_list("poule_id", "rank", "tied", "player_id", "game_points", "tournament_points")
    ):
        lines.setdefault(poule_id, []).append(line)

    rounds: dict[int, list[dict[str, Any]]] = {}
    for poule_id, round, table, counted_deals in poules:
        seated = names.get(poule_id, {})
        sheet = deals.get(poule_id, [])
        rounds.setdefault(round, []).append(
            {
                "table": table,
                "counted_deals": counted_deals,
                "columns_count": len(seated) + 2,
                "players": format_html_join(", ", "{}. {}", seated.items()),
                "columns": _columns(seated),
                "deals": _deal_rows(
                    tournament.game, sheet, {str(number): name for number, name in seated.items()}
                ),
                "totals": _cells(
                    "th", [sum(points) for points in zip(*(d[1] for d in sheet), strict=True)]
                ),
                "standings": _standing_rows(lines.get(poule_id, []), players),
            }
        )
    return [{"number": number, "poules": tables} for number, tables in sorted(rounds.items())]


def _columns(names: dict[int, str]) -> SafeString:
    """The sheet's column headers: on a phone, first names, unless two players at the table
    share one; the whole name as the header's title."""
    firsts = [name.split()[0] if name.split() else name for name in names.values()]
    return format_html_join(
        "",
        '<th class="num" title="{}">{}</th>',
        (
            (name, first if firsts.count(first) == 1 else name)
            for name, first in zip(names.values(), firsts, strict=True)
        ),
    )


def _deal_rows(
    game: str, sheet: list[tuple[Any, list[int], bool, int | None]], names: dict[str, str]
) -> SafeString:
    """A poule's deals as table rows: the sheet's number ("–" for a pass, as on the phone),
    what was played (escaped), points per seat with the dealer (•) and the mort (–)
    marked."""
    numbers = sheet_numbers(game, ((counted, data) for data, _points, counted, _dealer in sheet))
    rows = []
    for (data, points, counted, dealer), number in zip(sheet, numbers, strict=True):
        cells = "".join(
            f'<td class="num {classes}">{value}</td>'
            for classes, value in deal_cells(game, len(names), dealer, points)
        )
        rows.append(
            f'<tr{"" if counted else PASSED}><td class="num">{number or "–"}</td>'
            f"<td>{escape(describe_deal(game, data, names))}</td>{cells}</tr>"
        )
    return SafeString("".join(rows))


PASSED = ' class="passed"'  # a deal where everybody passed: shown greyed


def _cells(tag: str, numbers: list[int]) -> str:
    # Integers only: nothing to escape.
    return "".join(f'<{tag} class="num">{int(n)}</{tag}>' for n in numbers)


def _standing_rows(lines: list[tuple[Any, ...]], players: dict[int, Player]) -> SafeString:
    """A poule's standings as table rows: rank (= when tied), name, game points, tournament
    points (a fraction, shown as the other pages show it: "2,5")."""
    return SafeString(
        "".join(
            f"<tr><td>{rank}{'=' if tied else ''}</td>"
            f"<td>{escape(players[player_id].public_display_name)}</td>"
            f'<td class="num">{int(game_points)}</td>'
            f'<td class="num">{floatformat(tournament_points, "-2")}</td></tr>'
            for rank, tied, player_id, game_points, tournament_points in lines
        )
    )
