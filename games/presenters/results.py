"""The results page's rounds: every poule with its players, deals, totals and standings.

A 40-player night has hundreds of deals and thousands of numbers: each poule's rows are written
out here in one pass (numbers are integers, shown unlocalised as on the score sheet), not drawn
cell by cell by the template, whose variable look-ups were half of the page's time. The deals
are numbered and their cells marked by the sheet model, as on the phone.
"""

from __future__ import annotations

import json
from html import escape as escaped
from typing import Any

from django.db.models import CharField, F, FilteredRelation, Q, TextField
from django.db.models.functions import Cast
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext

from club.exports import Text
from club.models import Player
from club.names import Viewer, name_shown
from scoring.fields import fraction_of
from scoring.models import TournamentStanding

from ..models import Deal, Seat, Tournament
from .sheet import deal_lines


def results_rounds(tournament: Tournament, viewer: Viewer) -> SafeString:
    """Every round's poules with their seats, deals (described, points per seat), totals and
    standings, each player named as ``viewer`` reads him, written out as the page's HTML in one
    pass. Two queries whatever the size of the night (and the viewer's, once, if someone
    chose initials): seats with their poules and standings, and deals, come as plain rows."""
    poules, players, names, lines = _seated_poules(tournament, viewer, standings=True)
    deals = night_deals(tournament)

    labels = _labels()
    shown: dict[str, str] = {}  # each tournament points' value as shown, worked out once
    game = tournament.game
    point_table = tournament.point_table.engine_table()
    html: list[str] = []
    current = None
    for poule_id, round, table, counted_deals in poules:
        if round != current:
            if current is not None:
                html.append(_ROUND_END)
            current = round
            title = gettext("Tour %(number)s") % {"number": round}
            html.append(f'\n<section class="round" id="tour-{round}">\n  <h2>{title}</h2>\n  ')
        seated = names[poule_id]
        sheet = deals.get(poule_id, [])
        html.append(
            _poule_html(
                labels,
                round,
                table,
                counted_deals,
                seated,
                _deal_rows(game, point_table, sheet, seated),
                _cells(
                    "th", [sum(points) for points in zip(*(d.points for d in sheet), strict=True)]
                ),
                _standing_rows(lines.get(poule_id, []), players, shown),
            )
        )
    if current is not None:
        html.append(_ROUND_END)
    return SafeString("".join(html))


_ROUND_END = "\n</section>\n"


def _labels() -> dict[str, str]:
    """The poules' fixed words, translated once for the whole page (escaped, as the template
    wrote them)."""
    return {
        "deal": escaped(gettext("Donne")),
        "total": escaped(gettext("Total")),
        "standings": escaped(gettext("Classement de la poule")),
        "rank": escaped(gettext("Rang")),
        "player": escaped(gettext("Joueur")),
        "game_points": escaped(gettext("Points de jeu")),
        "tournament_points": escaped(gettext("Pts tournoi")),
        "no_deal": escaped(gettext("Aucune donne encore.")),
    }


def _poule_html(
    labels: dict[str, str],
    round: int,
    table: int,
    counted_deals: int,
    seated: dict[int, str],
    deals: str,
    totals: str,
    standings: str,
) -> str:
    """One poule's article: its title, players, sheet (deals and totals) and standings."""
    anchor = f"tour-{round}-table-{table}"
    title = gettext("Table %(table)s") % {"table": table}
    played = ngettext("%(count)s donne jouée", "%(count)s donnes jouées", counted_deals) % {
        "count": counted_deals
    }
    players = ", ".join(f"{number}. {escaped(name)}" for number, name in seated.items())
    if deals:
        body = (
            f"{deals}\n      </tbody>\n      \n      <tfoot>\n"
            f'        <tr><th colspan="2">{labels["total"]}</th>{totals}</tr>\n'
            "      </tfoot>\n      "
        )
    else:
        body = (
            f'\n        <tr><td colspan="{len(seated) + 2}" class="meta">'
            f"{labels['no_deal']}</td></tr>\n      \n      </tbody>\n      "
        )
    ranking = (
        '\n    <div class="sheet-scroll">\n    <table class="results poule-standings">\n'
        f"      <caption>{labels['standings']}</caption>\n"
        f"      <thead><tr><th>{labels['rank']}</th><th>{labels['player']}</th>"
        f'<th class="num">{labels["game_points"]}</th>'
        f'<th class="num">{labels["tournament_points"]}</th></tr></thead>\n'
        f"      <tbody>{standings}</tbody>\n    </table>\n    </div>\n    "
        if standings
        else ""
    )
    return (
        f'\n  <article class="poule" id="{anchor}">\n'
        f'    <h3 id="{anchor}-titre">{title} <small>{played}</small></h3>\n'
        f'    <p class="players">{players}</p>\n'
        '    <div class="sheet-scroll" role="region" tabindex="0" '
        f'aria-labelledby="{anchor}-titre">\n'
        '    <table class="results sheet">\n      <thead>\n'
        f"        <tr><th>#</th><th>{labels['deal']}</th>{_columns(seated)}</tr>\n"
        f"      </thead>\n      <tbody>\n      {body}\n    </table>\n    </div>\n    {ranking}\n"
        "  </article>\n  "
    )


def _columns(names: dict[int, str]) -> str:
    """The sheet's column headers: on a phone, first names, unless two players at the table
    share one; the whole name as the header's title."""
    firsts = [name.split()[0] if name.split() else name for name in names.values()]
    return "".join(
        f'<th class="num" title="{escaped(name)}">'
        f"{escaped(first if firsts.count(first) == 1 else name)}</th>"
        for name, first in zip(names.values(), firsts, strict=True)
    )


def _seated_poules(
    tournament: Tournament, viewer: Viewer, *, standings: bool = False
) -> tuple[
    list[tuple[int, int, int, int]],
    dict[int, str],
    dict[int, dict[int, str]],
    dict[int, list[tuple[Any, ...]]],
]:
    """The night's poules in order (id, round, table, counted deals), each player's name as
    ``viewer`` reads it, from what names are made of (not a model row per seat), each poule's
    seat numbers with those names and, with ``standings``, each poule's standings (rank, tied,
    player, game points, tournament points), in rank then seat order: one query, the poules
    and their standings read with the seats."""
    fields = ["poule_id", "round", "poule__table", "poule__counted_deals", "number", "player_id"]
    fields += [f"player__{f}" for f in Player.PUBLIC_NAME_FIELDS]
    seats = Seat.objects.filter(tournament=tournament)
    if standings:
        # A seat's line of its poule's standings, none before the poule's first deal.
        seats = seats.annotate(
            line=FilteredRelation(
                "poule__standings", condition=Q(poule__standings__player=F("player"))
            ),
            line_points=Cast("line__tournament_points", CharField()),
        )
        fields += ["line__rank", "line__seat", "line__tied", "line__game_points", "line_points"]
    poules: list[tuple[int, int, int, int]] = []
    players: dict[int, str] = {}
    names: dict[int, dict[int, str]] = {}
    lines: dict[int, list[tuple[Any, ...]]] = {}
    ranked: dict[int, list[tuple[Any, ...]]] = {}
    named = len(Player.PUBLIC_NAME_FIELDS)
    for poule_id, round, table, counted_deals, number, player_id, *rest in seats.order_by(
        "round", "poule__table", "poule_id", "number"
    ).values_list(*fields):
        if player_id not in players:
            player = Player(
                pk=player_id, **dict(zip(Player.PUBLIC_NAME_FIELDS, rest[:named], strict=True))
            )
            players[player_id] = name_shown(player, viewer)
        seated = names.get(poule_id)
        if seated is None:
            seated = names[poule_id] = {}
            poules.append((poule_id, round, table, counted_deals))
        seated[number] = players[player_id]
        if standings and rest[named] is not None:
            rank, seat, tied, game_points, points = rest[named:]
            ranked.setdefault(poule_id, []).append(
                (rank, seat, (rank, tied, player_id, game_points, points))
            )
    for poule_id, poule_lines in ranked.items():
        lines[poule_id] = [line for _rank, _seat, line in sorted(poule_lines)]
    return poules, players, names, lines


def night_standing_rows(tournament: Tournament, viewer: Viewer) -> SafeString:
    """The night's standings as table rows, written in one pass (one query, one address
    reversed for the whole list): rank (= when tied), the player's name as ``viewer`` reads
    it, linked to his page, tournament points ("2,5"), game points, poules won / played."""
    marker = 999_999_999  # a player's id in the one reversed address, then each player's
    before, after = escaped(reverse("player", args=[tournament.club.slug, marker])).rsplit(
        str(marker), 1
    )
    rows = []
    shown: dict[str, str] = {}
    for rank, tied, player_id, points, game_points, won, played, *name_fields in (
        TournamentStanding.objects.filter(tournament=tournament)
        .with_points_text()
        .order_by("rank", "player__display_name")
        .values_list(
            "rank",
            "tied",
            "player_id",
            "points_text",
            "game_points",
            "poules_won",
            "poules_played",
            *(f"player__{f}" for f in Player.PUBLIC_NAME_FIELDS),
        )
    ):
        player = Player(
            pk=player_id, **dict(zip(Player.PUBLIC_NAME_FIELDS, name_fields, strict=True))
        )
        rows.append(
            f"\n      <tr{_WINNER if rank == 1 else ''}>\n"
            f"        <td>{rank}{'=' if tied else ''}</td>\n"
            f'        <td><a href="{before}{player_id}{after}">'
            f"{escaped(name_shown(player, viewer))}</a></td>\n"
            f'        <td class="num">{_points_shown(points, shown)}</td>\n'
            f'        <td class="num">{int(game_points)}</td>\n'
            f'        <td class="num">{int(won)}/{int(played)}</td>\n'
            "      </tr>\n    "
        )
    return SafeString("".join(rows))


_WINNER = ' class="winner"'


# The most seats a table has (a table of 5): the deals' table has a name and a points column
# for each.
MOST_SEATS = 5


def deal_table(tournament: Tournament, viewer: Viewer) -> list[list[Any]]:
    """Every deal of the night as a table's rows, told by the sheet model as the results page
    tells it: round, table, the sheet's number (empty for a pass), short code, the deal in
    words, dealer, mort, then each seat's player and points ("–" for the mort), named as ``viewer``
    reads them. Two queries whatever the size of the night."""
    poules, _players, names, _lines = _seated_poules(tournament, viewer)
    deals = night_deals(tournament)
    point_table = tournament.point_table.engine_table()
    rows = []
    for poule_id, round, table, _counted in poules:
        seated = {str(number): name for number, name in names[poule_id].items()}
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


def night_deals(tournament: Tournament) -> dict[int, list[FetchedDeal]]:
    """Every poule's deals as plain rows, in playing order: one query for the whole night.
    Each deal's JSON comes as its text, decoded here at once for the points and only when
    asked for what was played (its words are mostly known already: ``deal_words``)."""
    deals: dict[int, list[FetchedDeal]] = {}
    for poule_id, *row in (
        Deal.objects.filter(poule__tournament=tournament)
        .order_by("poule_id", "position")
        .values_list(
            "poule_id",
            "pk",
            Cast("data", TextField()),
            "counted",
            "dealer",
            Cast("points", TextField()),
        )
    ):
        deals.setdefault(poule_id, []).append(FetchedDeal(*row))
    return deals


class FetchedDeal:
    """A deal as a night's pages fetch it (what the sheet model reads of a deal), its JSON
    read as text: the points decoded at once, what was played when first asked for. Its
    version, for the memo of its words (``deal_words``), is what was played as stored: the
    words change with it and nothing else of the deal."""

    __slots__ = ("_data", "counted", "dealer", "pk", "points", "recorded_at")

    def __init__(self, pk: int, text: str, counted: bool, dealer: int | None, points: str) -> None:
        self.pk, self.recorded_at = pk, text
        self.counted, self.dealer = counted, dealer
        self.points: list[int] = json.loads(points)
        self._data: dict[str, Any] | None = None

    @property
    def data(self) -> dict[str, Any]:
        if self._data is None:
            self._data = json.loads(self.recorded_at)
        return self._data


def _deal_rows(
    game: str, point_table: Any, sheet: list[FetchedDeal], seated: dict[int, str]
) -> str:
    """A poule's deals as table rows, told by the sheet model: the sheet's number ("–" for a
    pass, as on the phone), the short code and what was played (escaped), points per seat with
    the dealer (•) and the mort (–) marked."""
    names = {str(number): name for number, name in seated.items()}
    rows = []
    for deal, line in zip(
        sheet, deal_lines(game, point_table, len(names), sheet, names), strict=True
    ):
        cells = "".join(f'<td class="num {classes}">{value}</td>' for classes, value in line.cells)
        rows.append(
            f'<tr{"" if deal.counted else PASSED}><td class="num">{line.number or "–"}</td>'
            f'<td><b class="code">{escaped(line.code)}</b> {escaped(line.text)}</td>{cells}</tr>'
        )
    return "".join(rows)


def _points_shown(text: str, shown: dict[str, str]) -> str:
    """Tournament points, from their stored text ("5/2"), as the other pages show them
    ("2,5"): each value worked out once for the page (a night's points take a handful)."""
    points = shown.get(text)
    if points is None:
        points = shown[text] = floatformat(fraction_of(text), "-2")
    return points


PASSED = ' class="passed"'  # a deal where everybody passed: shown greyed


def _cells(tag: str, numbers: list[int]) -> str:
    # Integers only: nothing to escape.
    return "".join(f'<{tag} class="num">{int(n)}</{tag}>' for n in numbers)


def _standing_rows(
    lines: list[tuple[Any, ...]], players: dict[int, str], shown: dict[str, str]
) -> str:
    """A poule's standings as table rows: rank (= when tied), name, game points, tournament
    points (a fraction, shown as the other pages show it: "2,5")."""
    return "".join(
        f"<tr><td>{rank}{'=' if tied else ''}</td>"
        f"<td>{escaped(players[player_id])}</td>"
        f'<td class="num">{int(game_points)}</td>'
        f'<td class="num">{_points_shown(tournament_points, shown)}</td></tr>'
        for rank, tied, player_id, game_points, tournament_points in lines
    )
