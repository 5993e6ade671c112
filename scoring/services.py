"""Load rows → engine → save results. The only code that writes points and standings."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from club.models import Season
from games.models import Deal, Poule, Tournament
from scoring.engine.base import PouleScore
from scoring.engine.errors import DocumentRefused
from scoring.engine.night import score_poule_deals
from scoring.engine.ranking import TournamentEntry, season_ranking
from scoring.engine.standings import PouleResult, poule_standings, scheme, tournament_standings

from .models import (
    PointTable,
    PouleStanding,
    RankingLine,
    RankingSnapshot,
    TournamentStanding,
    table_checksum,
)


def refused_as_validation_error(refused: DocumentRefused) -> ValidationError:
    return ValidationError(list(refused.problems))


def poule_score(poule: Poule, seat_numbers: list[int], deals_data: list[Any]) -> PouleScore:
    """Ask the engine for a poule's points; a deal that cannot have happened is refused with
    the engine's located message."""
    table = poule.tournament.point_table.engine_table()
    try:
        return score_poule_deals(table, [str(n) for n in seat_numbers], deals_data)
    except DocumentRefused as refused:
        raise refused_as_validation_error(refused) from None


# No savepoint of their own: they run inside the recording service's transaction after every
# deal, and a failure there rolls the whole deal back anyway.
@transaction.atomic(savepoint=False)
def poule_sheet_save(poule: Poule, deals: list[Deal]) -> PouleScore:
    """Score a poule's whole sheet (``deals`` in playing order, new ones unsaved) and store it:
    new deals are inserted, deals whose points or dealer changed are updated, and the poule's
    standings are replaced. Nothing is written when the engine refuses the sheet."""
    seats = list(poule.seats.order_by("number").only("number", "player_id", "poule_id"))
    score = poule_score(poule, [s.number for s in seats], [d.data for d in deals])
    new, changed = [], []
    for deal, points, dealer in zip(deals, score.deal_points, score.dealers, strict=True):
        values = (
            list(points),
            None if dealer is None else seats[dealer].number,
            deal.data.get("contract") != "pass",
        )
        if deal.pk is None or (deal.points, deal.dealer, deal.counted) != values:
            deal.points, deal.dealer, deal.counted = values
            (new if deal.pk is None else changed).append(deal)
    Deal.objects.bulk_create(new)
    for deal in changed:
        deal.save(update_fields=["points", "dealer", "counted"])
    poule.counted_deals = score.counted_deals
    poule.save(update_fields=["counted_deals"])

    points_scheme = scheme(poule.tournament.tournament_points)
    PouleStanding.objects.filter(poule=poule).delete()
    PouleStanding.objects.bulk_create(
        PouleStanding(
            poule=poule,
            player_id=seats[line.seat].player_id,
            seat=seats[line.seat].number,
            rank=line.rank,
            tied=line.tied,
            game_points=line.game_points,
            tournament_points=line.tournament_points,
        )
        for line in poule_standings(score, points_scheme)
    )
    return score


def poule_rescore(poule: Poule) -> PouleScore:
    """Re-score a poule's stored sheet (after a deal was removed, or a table revised)."""
    return poule_sheet_save(poule, list(poule.deals.order_by("number")))


@transaction.atomic(savepoint=False)
def tournament_standings_update(tournament: Tournament) -> None:
    """Sum the stored poule standings into the night's standings (§6)."""
    # Plain values, not model instances: this runs after every deal of the night.
    lines = (
        PouleStanding.objects.filter(poule__tournament=tournament)
        .order_by("poule__round", "poule__table", "rank", "seat")
        .values_list("player_id", "rank", "game_points", "tournament_points")
    )
    results = [
        PouleResult(player=player, rank=rank, game_points=game, tournament_points=points)
        for player, rank, game, points in lines
    ]
    standings = tournament_standings(results, lower_game_points_better=tournament.game == "hearts")
    TournamentStanding.objects.filter(tournament=tournament).delete()
    TournamentStanding.objects.bulk_create(
        TournamentStanding(
            tournament=tournament,
            player_id=line.player,
            rank=line.rank,
            tied=line.tied,
            tournament_points=line.tournament_points,
            game_points=line.game_points,
            poules_played=line.poules_played,
            poules_won=line.poules_won,
        )
        for line in standings
    )


def _season_entries(season: Season) -> list[TournamentEntry]:
    lines = TournamentStanding.objects.filter(
        tournament__season=season,
        tournament__status__in=[Tournament.Status.CLOSED, Tournament.Status.PUBLISHED],
    ).order_by("tournament__date", "tournament_id", "rank")
    return [
        TournamentEntry(
            player=line.player_id,
            tournament=line.tournament_id,
            tournament_points=line.tournament_points,
            game_points=line.game_points,
            rank=line.rank,
        )
        for line in lines
    ]


def _write_snapshot(snapshot: RankingSnapshot, season: Season) -> RankingSnapshot:
    rules = season.ranking_rules()
    entries = _season_entries(season)
    snapshot.rules = {
        "best_n": rules.best_n,
        "min_tournaments": rules.min_tournaments,
        "precedence": list(rules.precedence),
    }
    snapshot.tournaments = len({e.tournament for e in entries})
    snapshot.computed_at = timezone.now()
    snapshot.save()
    snapshot.lines.all().delete()
    RankingLine.objects.bulk_create(
        RankingLine(
            snapshot=snapshot,
            player_id=line.player,
            rank=line.rank,
            tied=line.tied,
            position=position,
            tournament_points=line.tournament_points,
            game_points=line.game_points,
            tournaments_played=line.tournaments_played,
            tournaments_counted=line.tournaments_counted,
            tournaments_won=line.tournaments_won,
        )
        for position, line in enumerate(season_ranking(entries, rules), start=1)
    )
    return snapshot


@transaction.atomic
def season_ranking_update(season: Season) -> RankingSnapshot:
    """Recompute the season's live (unpublished) ranking from its closed nights."""
    Season.objects.select_for_update().filter(pk=season.pk).first()
    snapshot = RankingSnapshot.objects.filter(season=season, published_at__isnull=True).first()
    return _write_snapshot(snapshot or RankingSnapshot(season=season), season)


@transaction.atomic
def ranking_publish(season: Season) -> RankingSnapshot:
    """Freeze the season ranking as it stands now, with today's date."""
    snapshot = _write_snapshot(RankingSnapshot(season=season, published_at=timezone.now()), season)
    snapshot.published_at = snapshot.computed_at
    snapshot.save(update_fields=["published_at"])
    return snapshot


@transaction.atomic
def point_table_revise(table: PointTable, data: Any, label: str | None = None) -> PointTable:
    """Change a point table. A table that has scored a deal is never edited in place: the
    change becomes its next version, and past results keep the version they were scored with."""
    if table.pk and table_checksum(data) == table.checksum and label in (None, table.label):
        return table  # nothing changed: no new version
    if table.pk and table.is_used:
        latest = PointTable.objects.filter(name=table.name).order_by("-version").first()
        table = PointTable(
            game=table.game,
            name=table.name,
            version=(latest.version if latest else table.version) + 1,
            label=table.label,
        )
    table.data = data
    if label is not None:
        table.label = label
    table.full_clean()
    table.save()
    return table


def point_table_for_preset(name: str) -> PointTable:
    """The latest stored version of a preset, created from the shipped JSON the first time."""
    from scoring.engine.tables import PRESET_GAME, preset_data

    table = PointTable.objects.filter(name=name).order_by("-version").first()
    if table is not None:
        return table
    data = preset_data(name)
    table = PointTable(
        game=PRESET_GAME[name], name=name, version=1, label=data.get("label", name), data=data
    )
    table.full_clean()
    table.save()
    return table


def point_table_for_data(data: dict[str, Any]) -> PointTable:
    """A stored table with exactly this data (same checksum), else a new version of its name."""
    checksum = table_checksum(data)
    existing = PointTable.objects.filter(checksum=checksum).order_by("-version").first()
    if existing is not None:
        return existing
    name = str(data.get("name") or "custom")[:60]
    latest = PointTable.objects.filter(name=name).order_by("-version").first()
    table = PointTable(
        game=data.get("game", ""),
        name=name,
        version=latest.version + 1 if latest else 1,
        label=str(data.get("label", name))[:120],
        data=data,
    )
    table.full_clean()
    table.save()
    return table
