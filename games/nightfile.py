"""Club-night files in and out of the site (night-format.md).

Import: the engine reads the whole document first, so a refused file writes nothing; then the
night is built through the same services a scorer uses. Export: the stored night, written as
``club-night-result/1`` from the stored points and standings.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify

from club.models import Club, Membership, Player, Season
from scoring import services as scoring
from scoring.engine.night import RESULT_FORMAT, read_night, short_poule_warning
from scoring.engine.standings import decimal_string
from scoring.engine.tables import PRESET_GAME, preset_data
from scoring.models import PointTable, PouleStanding, TournamentStanding, table_checksum

from . import services
from .models import Poule, Tournament

# Where a deal names players (night-format.md, every game): one name, a list of names, or an
# object keyed by name.
NAME_FIELDS = {"dealer", "player", "queen_of_spades", "revoke", "mixed_tricks", "last_trick"}
NAME_LIST_FIELDS = {"declarers", "team"}
NAME_KEYED_FIELDS = {"hearts", "declarations", "brisques", "points"}
# Computed by the engine: never stored as part of what the scorer recorded.
COMPUTED_FIELDS = {"points", "dealer"}


def rename_players(value: Any, rename: Callable[[Any], Any], key: str = "") -> Any:
    """A copy of a deal with every player reference passed through ``rename``."""
    if isinstance(value, Mapping):
        keyed = key in NAME_KEYED_FIELDS or (key == "tricks" and "team" not in value)
        return {
            (rename(k) if keyed else k): rename_players(v, rename, "" if keyed else k)
            for k, v in value.items()
        }
    if isinstance(value, list):
        if key in NAME_LIST_FIELDS:
            return [rename(v) for v in value]
        return [rename_players(v, rename, key) for v in value]
    if key in NAME_FIELDS:
        return rename(value)
    return value


def _season_dates(name: str, date: datetime.date) -> tuple[datetime.date, datetime.date]:
    # A season is usually a calendar year ("2024"), sometimes two ("2024-2025"); any other
    # name spans the night's year.
    years = [int(y) for y in re.findall(r"\d{4}", name)] or [date.year]
    return datetime.date(min(years), 1, 1), datetime.date(max(years), 12, 31)


def _club(name: str) -> Club:
    club = Club.objects.filter(name=name).first()
    if club is not None:
        return club
    base = slugify(name)[:50] or "club"
    slug, n = base, 1
    while Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    club = Club(name=name, slug=slug)
    club.full_clean()
    club.save()
    return club


def _season(club: Club, name: str, date: datetime.date) -> Season:
    season = Season.objects.filter(club=club, name=name).first()
    if season is None:
        # A season the club has not set up yet: its dates follow its name. An existing
        # season keeps the dates the club gave it (a night outside them is refused).
        start, end = _season_dates(name, date)
        season = Season(club=club, name=name, start=min(start, date), end=max(end, date))
        season.full_clean()
        season.save()
    return season


def _players(club: Club, names: tuple[str, ...], date: datetime.date) -> dict[str, Player]:
    known = {p.display_name: p for p in Player.objects.in_club(club).filter(display_name__in=names)}
    for name in names:
        if name not in known:
            first, _, last = name.partition(" ")
            player = Player.objects.create(display_name=name, first_name=first, last_name=last)
            Membership.objects.create(club=club, player=player, start=date)
            known[name] = player
    return known


def _point_table(rules: Any) -> PointTable:
    if isinstance(rules, str):
        shipped = preset_data(rules)
        table = scoring.point_table_for_preset(rules)
        # The club may have revised the preset since: a file naming it means the shipped one.
        return (
            table
            if table.checksum == table_checksum(shipped)
            else scoring.point_table_for_data(shipped)
        )
    return scoring.point_table_for_data(dict(rules))


@transaction.atomic
def night_import(doc: Any) -> Tournament:
    """Import one ``club-night/1`` (or result) document as a closed night.

    Raises ``DocumentRefused`` with the engine's located problems, or ``ValidationError`` when
    the site refuses it (the same night already imported); nothing is written in either case.
    """
    night = read_night(doc)
    club = _club(night.club)
    season = _season(club, night.season, night.date)
    if Tournament.objects.filter(club=club, date=night.date, name=night.name).exists():
        raise ValidationError(
            f'{club} already has the night "{night.name or night.date}" of {night.date}'
        )
    players = _players(club, night.players, night.date)
    tournament = services.tournament_create(
        club=club,
        season=season,
        date=night.date,
        name=night.name,
        game=night.game,
        point_table=_point_table(doc["rules"]),
        tournament_points=doc.get("tournament_points") or "rcwhist",
        rounds=max(p.round for p in night.poules),
    )
    services.tournament_start(tournament)
    for raw in doc["poules"]:
        seats = [players[name] for name in raw["seats"]]
        poule = services.poule_create(
            tournament, round=raw["round"], table=raw["table"], players=seats
        )
        number = {name: str(n) for n, name in enumerate(raw["seats"], start=1)}
        deals = [
            rename_players(
                {k: v for k, v in deal.items() if k not in COMPUTED_FIELDS or k == "dealer"},
                lambda name, number=number: number.get(name, name),
            )
            for deal in raw["deals"]
        ]
        services.deals_record(poule, deals)
    return services.tournament_close(tournament)


def night_import_many(docs: list[Any]) -> list[Tournament]:
    """Import several nights, each all or nothing (a refused file does not stop the others)."""
    return [night_import(doc) for doc in docs]


# --------------------------------------------------------------------------------------------
# Export


def _rules_document(table: PointTable) -> Any:
    if table.name in PRESET_GAME and table.checksum == table_checksum(preset_data(table.name)):
        return table.name
    return table.data


def night_export(
    tournament: Tournament, name_of: Callable[[Player], str] | None = None
) -> dict[str, Any]:
    """The stored night as ``club-night-result/1``. ``name_of`` chooses how players are named
    (public exports pass the member's public name); the default is the display name."""
    name_of = name_of or (lambda player: player.display_name)
    poules = list(
        Poule.objects.filter(tournament=tournament)
        .order_by("round", "table")
        .prefetch_related("seats__player", "deals")
    )
    poule_lines: dict[int, list[PouleStanding]] = {}
    for line in PouleStanding.objects.filter(poule__tournament=tournament).select_related("player"):
        poule_lines.setdefault(line.poule_id, []).append(line)
    players: dict[int, Player] = {}
    for poule in poules:
        for seat in poule.seats.all():
            players.setdefault(seat.player_id, seat.player)
    names = _unique_names(players, name_of)

    doc_poules = []
    for poule in poules:
        seats = sorted(poule.seats.all(), key=lambda s: s.number)
        by_number = {str(s.number): names[s.player_id] for s in seats}
        deals = []
        for deal in sorted(poule.deals.all(), key=lambda d: d.number):
            data = rename_players(deal.data, lambda n, m=by_number: m.get(str(n), n))
            data["points"] = {by_number[str(s.number)]: deal.points[i] for i, s in enumerate(seats)}
            data["dealer"] = by_number.get(str(deal.dealer)) if deal.dealer else None
            deals.append(data)
        standings = sorted(poule_lines.get(poule.pk, []), key=lambda line: (line.rank, line.seat))
        doc_poules.append(
            {
                "round": poule.round,
                "table": poule.table,
                "seats": [names[s.player_id] for s in seats],
                "deals": deals,
                "standings": [
                    {
                        "player": names[line.player_id],
                        "rank": line.rank,
                        "tied": line.tied,
                        "game_points": line.game_points,
                        "tournament_points": decimal_string(line.tournament_points),
                    }
                    for line in standings
                ],
            }
        )
    standings = TournamentStanding.objects.filter(tournament=tournament).order_by("rank", "pk")
    document = {
        "format": RESULT_FORMAT,
        "club": tournament.club.name,
        "season": tournament.season.name,
        "date": tournament.date.isoformat(),
        "name": tournament.name,
        "game": tournament.game,
        "rules": _rules_document(tournament.point_table),
        "tournament_points": tournament.tournament_points,
        "players": [names[pk] for pk in players],
        "poules": doc_poules,
        "standings": [
            {
                "player": names[line.player_id],
                "rank": line.rank,
                "tied": line.tied,
                "tournament_points": decimal_string(line.tournament_points),
                "game_points": line.game_points,
                "poules_played": line.poules_played,
                "poules_won": line.poules_won,
            }
            for line in standings
        ],
        "warnings": _warnings(tournament, doc_poules),
    }
    # A night without a name leaves the field out: the format refuses an empty name, and an
    # exported file must import back.
    if not tournament.name:
        del document["name"]
    return document


def _unique_names(players: dict[int, Player], name_of: Callable[[Player], str]) -> dict[int, str]:
    # Two players may share a public name (two "J.D."): a file needs each name once.
    names: dict[int, str] = {}
    used: set[str] = set()
    for pk, player in players.items():
        name = name_of(player)
        candidate, n = name, 1
        while candidate in used:
            n += 1
            candidate = f"{name} ({n})"
        used.add(candidate)
        names[pk] = candidate
    return names


def _warnings(tournament: Tournament, doc_poules: list[dict[str, Any]]) -> list[str]:
    if tournament.game != "belgian_whist":
        return []
    club = tournament.club
    deals_per_poule = {4: club.deals_per_poule_4, 5: club.deals_per_poule_5}
    warnings = (
        short_poule_warning(
            poule["round"],
            poule["table"],
            len(poule["seats"]),
            sum(1 for d in poule["deals"] if d.get("contract") != "pass"),
            deals_per_poule,
        )
        for poule in doc_poules
    )
    return [warning for warning in warnings if warning]
