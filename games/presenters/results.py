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

from club.exports import Text
from club.models import Player
from club.names import Viewer, name_shown
from scoring.models import PouleStanding

from ..models import Deal, Poule, Seat, Tournament
from .sheet import StoredDeal, deal_lines


def results_rounds(tournament: Tournament, viewer: Viewer) -> list[dict[str, Any]]:
    """Every round's poules with their seats, deals (described, points per seat) and
    standings, each player named as ``viewer`` reads him. Four queries whatever the size of the
    night (and the viewer's, once, if someone chose initials): deals and standings come as
    plain rows."""
    poules = (
        Poule.objects.filter(tournament=tournament)
        .order_by("round", "table")
        .values_list("pk", "round", "table", "counted_deals")
    )
    players, names = _seated(tournament, viewer)
    deals = night_deals(tournament)
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
                    tournament, sheet, {str(number): name for number, name in seated.items()}
                ),
                "totals": _cells(
                    "th", [sum(points) for points in zip(*(d.points for d in sheet), strict=True)]
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


def _seated(
    tournament: Tournament, viewer: Viewer
) -> tuple[dict[int, str], dict[int, dict[int, str]]]:
    """Each player's name as ``viewer`` reads it, from what names are made of (not a model
    row per seat), and each poule's seat numbers with those names: one query."""
    players: dict[int, str] = {}
    names: dict[int, dict[int, str]] = {}
    for poule_id, number, player_id, *name_fields in (
        Seat.objects.filter(tournament=tournament)
        .order_by("poule_id", "number")
        .values_list(
            "poule_id", "number", "player_id", *(f"player__{f}" for f in Player.PUBLIC_NAME_FIELDS)
        )
    ):
        if player_id not in players:
            player = Player(
                pk=player_id, **dict(zip(Player.PUBLIC_NAME_FIELDS, name_fields, strict=True))
            )
            players[player_id] = name_shown(player, viewer)
        names.setdefault(poule_id, {})[number] = players[player_id]
    return players, names


# The most seats a table has (a table of 5): the deals' table has a name and a points column
# for each.
MOST_SEATS = 5


def deal_table(tournament: Tournament, viewer: Viewer) -> list[list[Any]]:
    """Every deal of the night as a table's rows, told by the sheet model as the results page
    tells it: round, table, the sheet's number (empty for a pass), short code, the deal in
    words, dealer, mort, then each seat's player and points ("–" for the mort), named as ``viewer``
    reads them. Three queries whatever the size of the night."""
    _players, names = _seated(tournament, viewer)
    deals = night_deals(tournament)
    point_table = tournament.point_table.engine_table()
    rows = []
    for poule_id, round, table in (
        Poule.objects.filter(tournament=tournament)
        .order_by("round", "table")
        .values_list("pk", "round", "table")
    ):
        seated = {str(number): name for number, name in names.get(poule_id, {}).items()}
        sheet = deals.get(poule_id, [])
        for line in deal_lines(tournament.game, point_table, len(seated), sheet, seated):
            seats: list[Any] = []
            for number, (_classes, value) in enumerate(line.cells, start=1):
                seats += [seated.get(str(number), ""), Text(value) if value == "–" else value]
            seats += [None] * (2 * MOST_SEATS - len(seats))
            rows.append(
                [
                    round,
                    table,
                    line.number,
                    Text(line.code),
                    line.text,
                    seated.get(str(line.dealer), ""),
                    seated.get(str(line.mort), ""),
                    *seats,
                ]
            )
    return rows


def night_deals(tournament: Tournament) -> dict[int, list[StoredDeal]]:
    """Every poule's deals as plain rows, in playing order: one query for the whole night."""
    deals: dict[int, list[StoredDeal]] = {}
    for poule_id, *row in (
        Deal.objects.filter(poule__tournament=tournament)
        .order_by("poule_id", "position")
        .values_list("poule_id", "pk", "recorded_at", "data", "counted", "dealer", "points")
    ):
        deals.setdefault(poule_id, []).append(StoredDeal(*row))
    return deals


def _deal_rows(
    tournament: Tournament, sheet: list[StoredDeal], names: dict[str, str]
) -> SafeString:
    """A poule's deals as table rows, told by the sheet model: the sheet's number ("–" for a
    pass, as on the phone), the short code and what was played (escaped), points per seat with
    the dealer (•) and the mort (–) marked."""
    game = tournament.game
    point_table = tournament.point_table.engine_table()
    rows = []
    for deal, line in zip(
        sheet, deal_lines(game, point_table, len(names), sheet, names), strict=True
    ):
        cells = "".join(f'<td class="num {classes}">{value}</td>' for classes, value in line.cells)
        rows.append(
            f'<tr{"" if deal.counted else PASSED}><td class="num">{line.number or "–"}</td>'
            f'<td><b class="code">{escape(line.code)}</b> {escape(line.text)}</td>{cells}</tr>'
        )
    return SafeString("".join(rows))


PASSED = ' class="passed"'  # a deal where everybody passed: shown greyed


def _cells(tag: str, numbers: list[int]) -> str:
    # Integers only: nothing to escape.
    return "".join(f'<{tag} class="num">{int(n)}</{tag}>' for n in numbers)


def _standing_rows(lines: list[tuple[Any, ...]], players: dict[int, str]) -> SafeString:
    """A poule's standings as table rows: rank (= when tied), name, game points, tournament
    points (a fraction, shown as the other pages show it: "2,5")."""
    return SafeString(
        "".join(
            f"<tr><td>{rank}{'=' if tied else ''}</td>"
            f"<td>{escape(players[player_id])}</td>"
            f'<td class="num">{int(game_points)}</td>'
            f'<td class="num">{floatformat(tournament_points, "-2")}</td></tr>'
            for rank, tied, player_id, game_points, tournament_points in lines
        )
    )
