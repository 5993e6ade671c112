"""``{% poule_tables rounds %}`` and ``{% night_standings standings slug %}``: the results page's
long tables (``games.presenters.results``), written in one pass.

A 40-player night has hundreds of deals and thousands of numbers: drawn cell by cell by the
template, their variable look-ups were half of the page's time. Every text is escaped here
(each name once per table), numbers are integers shown unlocalised as on the score sheet, and
the fixed words are translated once per call.
"""

from __future__ import annotations

from django import template
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext

from infra.addresses import address_parts

from ..presenters.results import (
    NightStandingLine,
    PouleResults,
    PouleStandingLine,
    ResultsDeal,
    RoundResults,
)

register = template.Library()


@register.simple_tag
def poule_tables(rounds: list[RoundResults]) -> SafeString:
    """Each round's section: its poules' articles, each with its players, sheet (deals and
    totals) and standings."""
    labels = _labels()
    escaped = _Escaped()
    html: list[str] = []
    for round in rounds:
        title = gettext("Tour %(number)s") % {"number": round.number}
        html.append(f'\n<section class="round" id="tour-{round.number}">\n  <h2>{title}</h2>\n  ')
        html += (_poule(labels, escaped, round.number, poule) for poule in round.poules)
        html.append("\n</section>\n")
    return SafeString("".join(html))


@register.simple_tag
def night_standings(standings: list[NightStandingLine], slug: str) -> SafeString:
    """The night's standings as table rows: rank (= when tied), the player's name linked to
    his page (one address reversed for the whole list), tournament points, game points,
    poules won / played."""
    before, after = (escape(part) for part in address_parts("player", slug))
    return SafeString(
        "".join(
            f"\n      <tr{_WINNER if line.rank == 1 else ''}>\n"
            f"        <td>{int(line.rank)}{'=' if line.tied else ''}</td>\n"
            f'        <td><a href="{before}{int(line.player_id)}{after}">'
            f"{escape(line.name)}</a></td>\n"
            f'        <td class="num">{conditional_escape(line.points)}</td>\n'
            f'        <td class="num">{int(line.game_points)}</td>\n'
            f'        <td class="num">{int(line.won)}/{int(line.played)}</td>\n'
            "      </tr>\n    "
            for line in standings
        )
    )


_WINNER = ' class="winner"'
_PASSED = ' class="passed"'  # a deal where everybody passed: shown greyed


class _Escaped(dict[str, str]):
    """Each text escaped once for the page: the same names, codes and marks come back on
    every line."""

    def __missing__(self, text: str) -> str:
        value = self[text] = escape(text)
        return value


def _labels() -> dict[str, str]:
    """The poules' fixed words, translated once for the whole page (escaped, as
    ``{% translate %}`` writes them)."""
    return {
        "deal": escape(gettext("Donne")),
        "total": escape(gettext("Total")),
        "standings": escape(gettext("Classement de la poule")),
        "rank": escape(gettext("Rang")),
        "player": escape(gettext("Joueur")),
        "game_points": escape(gettext("Points de jeu")),
        "tournament_points": escape(gettext("Pts tournoi")),
        "no_deal": escape(gettext("Aucune donne encore.")),
    }


def _poule(labels: dict[str, str], escaped: _Escaped, round: int, poule: PouleResults) -> str:
    """One poule's article: its title, players, sheet (deals and totals) and standings."""
    anchor = f"tour-{round}-table-{poule.table}"
    title = gettext("Table %(table)s") % {"table": poule.table}
    count = poule.counted_deals
    played = ngettext("%(count)s donne jouée", "%(count)s donnes jouées", count) % {"count": count}
    seated = poule.seated
    players = ", ".join(f"{number}. {escaped[name]}" for number, name in seated.items())
    if poule.deals:
        totals = "".join(f'<th class="num">{int(n)}</th>' for n in poule.totals)
        body = (
            f"{_deal_rows(escaped, poule.deals)}\n      </tbody>\n      \n      <tfoot>\n"
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
        f"      <tbody>{_standing_rows(escaped, poule.standings)}</tbody>\n"
        "    </table>\n    </div>\n    "
        if poule.standings
        else ""
    )
    return (
        f'\n  <article class="poule" id="{anchor}">\n'
        f'    <h3 id="{anchor}-titre">{title} <small>{played}</small></h3>\n'
        f'    <p class="players">{players}</p>\n'
        '    <div class="sheet-scroll" role="region" tabindex="0" '
        f'aria-labelledby="{anchor}-titre">\n'
        '    <table class="results sheet">\n      <thead>\n'
        f"        <tr><th>#</th><th>{labels['deal']}</th>{_columns(escaped, seated)}</tr>\n"
        f"      </thead>\n      <tbody>\n      {body}\n    </table>\n    </div>\n    {ranking}\n"
        "  </article>\n  "
    )


def _columns(escaped: _Escaped, names: dict[int, str]) -> str:
    """The sheet's column headers: on a phone, first names, unless two players at the table
    share one; the whole name as the header's title."""
    firsts = [name.split()[0] if name.split() else name for name in names.values()]
    return "".join(
        f'<th class="num" title="{escaped[name]}">'
        f"{escaped[first if firsts.count(first) == 1 else name]}</th>"
        for name, first in zip(names.values(), firsts, strict=True)
    )


def _deal_rows(escaped: _Escaped, deals: list[ResultsDeal]) -> str:
    """A poule's deals as table rows: a pass greyed, its number, code and words, then each
    seat's cell (points are integers; a mark, text, is escaped)."""
    return "".join(
        f'<tr{"" if counted else _PASSED}><td class="num">'
        f"{number if type(number) is int else escaped[number]}</td>"
        f'<td><b class="code">{escaped[code]}</b> {escape(text)}</td>'
        + "".join(
            f'<td class="num {escaped[classes]}">'
            f"{value if type(value) is int else escaped[value]}</td>"
            for classes, value in cells
        )
        + "</tr>"
        for counted, number, code, text, cells in deals
    )


def _standing_rows(escaped: _Escaped, lines: list[PouleStandingLine]) -> str:
    """A poule's standings as table rows: rank (= when tied), name, game points, tournament
    points as shown."""
    return "".join(
        f"<tr><td>{int(rank)}{'=' if tied else ''}</td>"
        f"<td>{escaped[name]}</td>"
        f'<td class="num">{int(game_points)}</td>'
        f'<td class="num">{conditional_escape(points)}</td></tr>'
        for rank, tied, name, game_points, points in lines
    )
