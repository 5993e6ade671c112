"""Rules changed by a club admin, and their previews computed without writing anything: a
season's ranking rules (the ranking before and after, side by side, then the change itself)
and a point table's new version tried on the club's last night.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from club.models import Player, Season
from club.name_order import name_sorted
from club.services import SEASON_RULE_FIELDS
from games.models import Tournament
from scoring.engine.errors import DocumentRefused, EngineError
from scoring.engine.night import score_poule_deals
from scoring.engine.ranking import SeasonStanding, rank_season
from scoring.engine.tables import load_table

from ..models import RankingSnapshot
from .rankings import season_ranking_update, season_totals


@dataclass(frozen=True)
class RankingChange:
    """One player's place before and after a change of the season's rules."""

    player: Player
    before: SeasonStanding | None  # None: not in the ranking before (a guest now ranked)
    after: SeasonStanding | None

    @property
    def moved(self) -> bool:
        return (self.before and self.before.rank) != (self.after and self.after.rank)


def season_rules_preview(season: Season, **changes: Any) -> list[RankingChange]:
    """The season's ranking under its rules and under ``changes`` (fields of
    ``club.services.SEASON_RULE_FIELDS``), side by side, computed without writing anything;
    refused rules are refused as the save would."""
    before_rules = season.ranking_rules()
    before = rank_season(season_totals(season, before_rules), before_rules)
    changed = Season.objects.select_related("club").get(pk=season.pk)
    for name, value in changes.items():
        setattr(changed, name, value)
    changed.full_clean()
    after_rules = changed.ranking_rules()
    after = rank_season(
        season_totals(changed, after_rules, guests=changed.ranking_guests), after_rules
    )
    before_by = {line.player: line for line in before}
    after_by = {line.player: line for line in after}
    players = Player.objects.in_bulk(set(before_by) | set(after_by))
    order = [line.player for line in after] + [p for p in before_by if p not in after_by]
    return [RankingChange(players[p], before_by.get(p), after_by.get(p)) for p in order]


@transaction.atomic
def season_rules_set(season: Season, **changes: Any) -> RankingSnapshot:
    """Change a season's rules (ranking rules, whether guests are ranked, the point table and
    tournament points of its nights): the provisional ranking follows at once; the published
    one stays as it is until the club publishes again."""
    season = Season.objects.select_for_update().select_related("club").get(pk=season.pk)
    unknown = set(changes) - set(SEASON_RULE_FIELDS)
    if unknown:
        raise ValueError(f"not a season rule: {sorted(unknown)}")
    for name, value in changes.items():
        setattr(season, name, value)
    season.full_clean()
    season.save(update_fields=list(changes))
    return season_ranking_update(season)


@dataclass(frozen=True)
class RescoredLine:
    player: Player
    before: int
    after: int


@dataclass(frozen=True)
class Rescored:
    """The club's last night scored again with another version of its point table: each
    player's game points before and after, or why its sheets cannot be read with it."""

    tournament: Tournament | None
    lines: list[RescoredLine]
    problems: list[str]


def last_night_rescored(club_id: int, name: str, data: dict[str, Any]) -> Rescored:
    """Nothing is written: the preview of a point table's change on the club's last counted
    night played with a version of table ``name``."""
    tournament = (
        Tournament.objects.counted()
        .filter(club_id=club_id, point_table__name=name)
        .order_by("-date", "-pk")
        .first()
    )
    if tournament is None:
        return Rescored(None, [], [])
    try:
        point_table = load_table(data)
    except EngineError as error:
        return Rescored(tournament, [], [str(error)])
    before: dict[int, int] = {}
    after: dict[int, int] = {}
    problems: list[str] = []
    poules = tournament.poules.prefetch_related("seats", "deals").order_by("round", "table")
    for poule in poules:
        seats = sorted(poule.seats.all(), key=lambda seat: seat.number)
        deals = sorted(poule.deals.all(), key=lambda deal: deal.position)
        numbers, sheet = [str(s.number) for s in seats], [d.data for d in deals]
        stored = score_poule_deals(tournament.point_table.engine_table(), numbers, sheet)
        for seat, points in zip(seats, stored.game_points, strict=True):
            before[seat.player_id] = before.get(seat.player_id, 0) + points
        try:
            score = score_poule_deals(point_table, numbers, sheet)
        except DocumentRefused as refused:
            problems += [f"{poule}: {error}" for error in refused.errors]
            continue
        for seat, points in zip(seats, score.game_points, strict=True):
            after[seat.player_id] = after.get(seat.player_id, 0) + points
    players = Player.objects.in_bulk(before)
    lines = sorted(
        (RescoredLine(players[p], before[p], after.get(p, before[p])) for p in before),
        key=lambda line: (-line.after, name_sorted(line.player.display_name), line.player.pk),
    )
    return Rescored(tournament, lines, problems)
