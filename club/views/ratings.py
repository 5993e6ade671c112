"""The « cote » beside the official ranking, never instead of it: the club's page per game, a
player's statistics with his rating history and why it moved night after night, a night's
expected and actual results, the club's season statistics. Every figure is read as stored
(``scoring.services.ratings``).

The cote a page shows is μ on its own scale: everybody starts at 25 and the club's mean stays
there; its « ± » is three σ, and the club's page ranks by the cote less it (a skill the club
is almost sure of).
"""

from __future__ import annotations

from typing import Any

import orjson
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.defaultfilters import floatformat
from django.template.loader import get_template
from django.template.response import TemplateResponse
from django.utils.formats import get_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from games.labels import CONTRACT_LABELS
from games.models import GAME_CHOICES, Tournament
from games.visibility import require_sheet_reader
from infra.addresses import address_parts
from infra.compiled import Compiled
from infra.dates import date_written
from infra.typography import colon
from scoring.models import PlayerRating
from scoring.statistics.cote import INITIAL_MU, INITIAL_SIGMA, MARGIN_SIGMAS, gap_for
from scoring.statistics.totals import player_statistics, season_statistics

from ..club_pages import access_for, club_page
from ..models import Player
from ..name_order import by_name
from ..names import name_reader_of
from ..published import published_page
from .merged import merged_player_redirect

GAMES = dict(GAME_CHOICES)


# The nights whose deals a player's statistics page tells, latest first (his whole history
# is in the table under the chart, a night's page tells every player's deals of that night).
LATEST_NIGHTS = 10
# "A gap of N points: the stronger finishes above the other 3 times in 4."
GAP_ODDS = 0.75


def _figure(value: float, point: str, places: int = 2) -> str:
    return f"{value:.{places}f}".replace(".", point).replace("-", "−")


def signed(value: float, point: str) -> str:
    """A change as the pages write it: +0,84, −0,30, 0,00."""
    text = _figure(abs(value), point)
    return text if text.strip("0,.") == "" else ("+" if value > 0 else "−") + text


def rating_history(ratings: list[dict[str, Any]]) -> tuple[dict[str, Any], SafeString]:
    """A player's ratings after each night: the chart's numbers and its table's rows (date,
    cote, ±, the night's change, deals), drawn by their Jinja2 template (a decade is hundreds
    of rows: a Django template's look-up per cell was most of the page's time)."""
    point = get_format("DECIMAL_SEPARATOR")
    short = get_format("SHORT_DATE_FORMAT")
    dates = [date_written(row["tournament__date"], short) for row in ratings]
    lines = [
        (
            date,
            _figure(row["mu"], point),
            _figure(MARGIN_SIGMAS * row["sigma"], point, 1),
            signed(row["change"], point),
            row["deals"],
        )
        for date, row in zip(dates, ratings, strict=True)
    ]
    rows = get_template("club/rating_rows.html", using="jinja2").render({"lines": lines})
    chart = {
        "labels": dates,
        "cote": [round(row["mu"], 2) for row in ratings],
        "start": INITIAL_MU,
    }
    return chart, mark_safe(rows)


class MoveWords:
    """The words of a page's moves, each looked up once: a night's moves say the same dozen
    words again and again, and Django's gettext looks the reader's language up at each call
    (a player's ten latest nights were a tenth of his statistics page)."""

    def __init__(self) -> None:
        self._texts: dict[str, str] = {}
        self._contracts: dict[str | None, str] = {}
        self._scored: dict[int, str] = {}

    def __call__(self, message: str) -> str:
        text = self._texts.get(message)
        if text is None:
            text = self._texts[message] = _(message)
        return text

    def contract(self, code: str | None) -> str:
        """The contract's name (its code when it has none; « Donne » for no contract)."""
        text = self._contracts.get(code)
        if text is None:
            label = CONTRACT_LABELS.get(code)
            text = self._contracts[code] = (
                str(label) if label is not None else code or self(gettext_noop("Donne"))
            )
        return text

    def scored(self, points: int) -> str:
        """His points in words (« +5 points », « −1 point »): the plural as the language
        counts, looked up once for each number of points."""
        template = self._scored.get(abs(points))
        if template is None:
            template = self._scored[abs(points)] = ngettext(
                "%(points)s point", "%(points)s points", abs(points)
            )
        return template % {"points": f"{points:+d}".replace("-", "−") if points else "0"}


def move_words(move: dict[str, Any], point: str, words: MoveWords | None = None) -> dict[str, str]:
    """One deal that moved a player's cote, in words: where it was played, what it was and his
    part in it, his points, the change. ``words``: a page's words looked up once."""
    words = words or MoveWords()
    if move["number"] is None:
        where = words(gettext_noop("Tour %(round)s, table %(table)s")) % move
    else:
        where = words(gettext_noop("Tour %(round)s, table %(table)s, donne %(number)s")) % move
    what = [words.contract(move["contract"])]
    if move["bid"] is not None:
        what[0] = f"{what[0]} {move['bid']}"
    role = {"declarer": gettext_noop("en attaque"), "defender": gettext_noop("en défense")}.get(
        move["role"] or ""
    )
    if role:
        what.append(words(role))
    points = move["points"]
    if points:
        # The result for his side: what his points say (a defender wins when the contract falls).
        what.append(words(gettext_noop("gagnée")) if points > 0 else words(gettext_noop("perdue")))
    what.append(words.scored(points))
    return {"where": where, "what": ", ".join(what), "change": signed(move["change"], point)}


def _hundredths(value: float) -> int:
    """``value`` in hundredths, rounded as ``signed`` writes it."""
    cents = int(f"{abs(value):.2f}".replace(".", ""))
    return -cents if value < 0 else cents


def change_parts(
    line: PlayerRating, point: str, words: MoveWords | None = None
) -> list[dict[str, str]]:
    """What a player's change of the night is made of, as stored with his cote: the deals that
    moved it most, the other deals together, the night's final rebalancing. Each written to
    the hundredth as the change is, and adding up to the change as written: the rounding's
    leftover (a hundredth or two) goes to the last line, which is never a listed deal."""
    parts = [move_words(move, point, words) for move in line.moves]
    rest = []
    if line.other_deals:
        others = ngettext(
            "L'autre donne de la soirée",
            "Les %(count)s autres donnes de la soirée",
            line.other_deals,
        ) % {"count": line.other_deals}
        rest.append([others, _hundredths(line.others)])
    rest.append([_("Rééquilibrage de fin de soirée"), _hundredths(line.rebalance)])
    listed = sum(_hundredths(move["change"]) for move in line.moves)
    rest[-1][1] += _hundredths(line.change) - listed - sum(cents for _label, cents in rest)
    for label, cents in rest:
        parts.append({"where": label, "what": "", "change": signed(cents / 100, point)})
    return parts


def rating_moves(
    ratings: list[dict[str, Any]], slug: str, latest: int = LATEST_NIGHTS
) -> list[dict[str, Any]]:
    """Why the cote moved, for the ``latest`` nights (latest first): each night's change, the
    cote after it and the deals that moved it most, as stored with the cote."""
    point = get_format("DECIMAL_SEPARATOR")
    before, after = address_parts("night-ratings", slug)
    words = MoveWords()
    return [
        {
            "date": date_written(row["tournament__date"]),
            "address": f"{before}{row['tournament_id']}{after}",
            "change": signed(row["change"], point),
            "cote": _figure(row["mu"], point),
            "moves": [move_words(move, point, words) for move in orjson.loads(row["moves_text"])],
        }
        for row in reversed(ratings[-latest:] if latest else [])
    ]


def scale_words() -> dict[str, str]:
    """The figures the pages give to explain the scale, from the model's own numbers."""
    point = get_format("DECIMAL_SEPARATOR")
    return {
        "start": _figure(INITIAL_MU, point, 0),
        "margin": _figure(MARGIN_SIGMAS * INITIAL_SIGMA, point, 0),
        "gap": _figure(gap_for(GAP_ODDS), point, 0),
    }


def _role_labels() -> dict[str, str]:
    return {
        "declarer": _("Déclarant seul"),
        "partner": _("Partenaire (à deux)"),
        "defender": _("Défenseur"),
    }


@club_page()
def club_ratings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's « cote » in one game (``?jeu=``): each player's cote and its ±, ranked by
    the cote less its ± (what the club is almost sure of), his last night's change, the deals
    behind it; the scale in words."""
    club = request.club
    game = request.GET.get("jeu") or club.default_game
    if game not in GAMES:
        raise Http404("no such game")

    def build() -> TemplateResponse:
        played = sorted(
            set(
                PlayerRating.objects.filter(tournament__club=club, current=True).values_list(
                    "game", flat=True
                )
            )
        )
        lines = list(
            PlayerRating.objects.current(club, game).only(
                "mu",
                "sigma",
                "conservative",
                "deals",
                "change",
                "game",
                "player_id",
                "tournament_id",
                *(f"player__{f}" for f in Player.PUBLIC_NAME_FIELDS),
            )
        )
        point = get_format("DECIMAL_SEPARATOR")
        for line in lines:
            line.cote = _figure(line.mu, point)
            line.margin = _figure(MARGIN_SIGMAS * line.sigma, point, 1)
            line.floor = _figure(line.conservative, point)
            line.night_change = signed(line.change, point)
        context = {
            "club": club,
            "game": game,
            "game_label": GAMES[game],
            "games": [(code, GAMES[code]) for code in played],
            "lines": lines,
            "scale": scale_words(),
        }
        return TemplateResponse(request, "club/ratings.html", context)

    return published_page(request, club, build, "cote", game)


def _club_player(club: int, pk: int) -> QuerySet[Player]:
    return (
        Player.objects.in_club(club)
        .only(*Player.PUBLIC_NAME_FIELDS, "user_id")
        .filter(pk=pk)
        .order_by("pk")[:1]
    )


# The player of the address among the club's: compiled once (``infra.compiled``), as the
# statistics' own queries are.
_CLUB_PLAYER = Compiled(_club_player)


@club_page()
def player_stats(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A player's statistics and rating history: the public reads his published nights, under
    everybody's public names; the member himself all his nights that count."""
    club = request.club
    found = _CLUB_PLAYER(club.pk, pk)
    player = found[0] if found else None
    if player is None:
        return merged_player_redirect(club, pk, "player-statistics")
    own = request.user.is_authenticated and player.user_id == request.user.pk

    def build() -> TemplateResponse:
        stats = player_statistics(player, club, own=own, reader=name_reader_of(request.user))
        chart, rating_rows = rating_history(stats.ratings)
        moves = rating_moves(stats.ratings, club.slug)
        labels = _role_labels()
        context = {
            "club": club,
            "player": player,
            "own": own,
            "stats": stats,
            "chart": chart,
            "rating_rows": rating_rows,
            "rating_moves": moves,
            # Drawn by their Jinja2 template: a night's moves are a dozen look-ups each.
            "rating_moves_items": mark_safe(
                get_template("club/rating_moves.html", using="jinja2").render(
                    {"nights": moves, "colon": colon()}
                )
            ),
            "scale": scale_words(),
            "roles": [(labels[r], d, p) for r, d, p in stats.role_lines()],
            "contracts": [
                (str(CONTRACT_LABELS.get(code, code)), played, made, rate)
                for code, played, made, rate in stats.contract_lines()
            ],
        }
        # His tables drawn by their Jinja2 template: a few dozen cells, each a Django look-up
        # and filter (``floatformat`` is Django's own here too).
        tables = {key: context[key] for key in ("stats", "roles", "contracts")}
        context["tables"] = mark_safe(
            get_template("club/player_tables.html", using="jinja2").render(
                {**tables, "floatformat": floatformat}
            )
        )
        return TemplateResponse(request, "club/player_stats.html", context)

    return published_page(request, club, build, "player-stats", player.pk)


def night_ratings(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A night's expected and actual result per player: how many opponents of his poules he
    was expected to finish above (from the ratings before the night), and how many he did; his
    cote after it, its change and the deals that moved it most."""
    tournament = get_object_or_404(
        Tournament.objects.select_related("club"), club__slug=slug, pk=pk
    )
    require_sheet_reader(access_for(request, tournament.club), tournament)
    lines = list(
        PlayerRating.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("-actual", *by_name("player__"))
    )
    point = get_format("DECIMAL_SEPARATOR")
    words = MoveWords()
    for line in lines:
        line.difference = line.actual - line.expected
        line.cote = _figure(line.mu, point)
        line.night_change = signed(line.change, point)
        line.move_lines = change_parts(line, point, words)
    context = {"club": tournament.club, "tournament": tournament, "lines": lines}
    return TemplateResponse(request, "club/night_ratings.html", context)


@club_page()
def club_statistics(request: HttpRequest, slug: str) -> HttpResponse:
    """Per club and season (``?saison=``): attendance, contracts played and made, records."""
    club = request.club
    seasons = list(club.seasons.order_by("-start"))
    wanted = request.GET.get("saison")
    season = next((s for s in seasons if s.name == wanted), seasons[0] if seasons else None)
    if wanted and (season is None or season.name != wanted):
        raise Http404("no such season")

    def build() -> TemplateResponse:
        stats = season_statistics(season, name_reader_of(request.user)) if season else None
        contracts = (
            [
                (str(CONTRACT_LABELS.get(code, code)), played, made, 100 * made / played)
                for code, played, made in stats.contracts
            ]
            if stats
            else []
        )
        context = {
            "club": club,
            "seasons": seasons,
            "season": season,
            "stats": stats,
            "contracts": contracts,
        }
        return TemplateResponse(request, "club/club_statistics.html", context)

    return published_page(request, club, build, "club-stats", season.pk if season else 0)
