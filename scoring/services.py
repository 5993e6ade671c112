"""What it is worth: recording, correcting and deleting deals, the draw of the rounds,
closing, publishing and reopening a night, and the season rankings.

The only code that writes points and standings. A deal takes one trip: the view (or the API,
an importer) calls ``deal_record``, which locks the poule, asks the engine for the whole
sheet's points, and stores the deal, the poule standings and the tournament standings in one
transaction. Work that follows a commit (the season ranking, the result e-mails) is queued by
its task's name: the tasks are the interface's, above this module.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, F, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import ngettext

from club.models import Membership, Player, Season
from club.outbox import work_pending, work_queue
from club.services import SEASON_RULE_FIELDS, published_pages_changed
from club.typography import semicolon_join
from games import draw
from games import services as games
from games.models import (
    COUNTED_STATUSES,
    Deal,
    DealChange,
    DrawMethod,
    Poule,
    RoundDraw,
    Seat,
    Tournament,
)
from games.services import require_open
from scoring.engine.base import PouleScore
from scoring.engine.errors import DocumentRefused, EngineError
from scoring.engine.games import game_module
from scoring.engine.night import score_poule_deals
from scoring.engine.ranking import RankingRules, SeasonStanding, SeasonTotals, rank_season
from scoring.engine.standings import PouleResult, poule_standings, scheme, tournament_standings
from scoring.engine.standings import PouleStanding as EnginePouleStanding
from scoring.engine.tables import load_table

from .fields import POINT_UNITS
from .models import PouleStanding, RankingLine, RankingSnapshot, TournamentStanding

# The tasks that follow a commit, by name (``scoring/tasks.py``, ``games/tasks.py``).
SEASON_RANKING_UPDATE = "scoring.tasks.season_ranking_update"
RESULTS_EMAIL = "games.tasks.tournament_results_email"
RANKING_PUBLISH = "scoring.tasks.ranking_publish"


# --------------------------------------------------------------------------------------------
# A poule's score sheet


@dataclass(frozen=True)
class ScoredSheet:
    """A poule's sheet as the engine scored it, ready to store: its players in seat order,
    its deals as recorded (players named by seat number) and the engine's points and
    standings for them."""

    round: int
    table: int
    players: Sequence[Player]
    deals: Sequence[dict[str, Any]]
    score: PouleScore
    standings: Sequence[EnginePouleStanding]


def refused_as_validation_error(refused: DocumentRefused) -> ValidationError:
    """The engine's refusal as Django's error, each problem with the engine's code and
    parameters (and its place) so that a page can say it in its own language; the message stays
    the engine's located English (what ``messages`` and the logs show)."""
    return ValidationError([engine_validation_error(error) for error in refused.errors])


def engine_validation_error(error: EngineError) -> ValidationError:
    # Django formats a message with its params ("%" operator): a "%" of the engine's own
    # message (a value quoted from a deal) is doubled to stay itself.
    return ValidationError(
        str(error).replace("%", "%%"),
        code=error.code,
        params={**error.params, "place": error.place},
    )


def poule_score(poule: Poule, seat_numbers: list[int], deals_data: list[Any]) -> PouleScore:
    """Ask the engine for a poule's points; a deal that cannot have happened is refused with
    the engine's located message."""
    point_table = poule.tournament.point_table.engine_table()
    try:
        return score_poule_deals(point_table, [str(n) for n in seat_numbers], deals_data)
    except DocumentRefused as refused:
        raise refused_as_validation_error(refused) from None


# No savepoint of their own: they run inside the recording service's transaction after every
# deal, and a failure there rolls the whole deal back anyway.
@transaction.atomic(savepoint=False)
def _poule_sheet_save(
    poule: Poule, deals: list[Deal], seats: Sequence[Seat] | None = None, *, appended: bool = False
) -> PouleScore:
    """Score a poule's whole sheet (``deals`` in playing order, new ones unsaved) and store it:
    new deals are inserted, deals whose points or dealer changed are updated, and the poule's
    standings are written. Nothing is written when the engine refuses the sheet.

    ``seats`` in seat order, when the caller has them already. ``appended``: deals were only
    added, so the poule's players are those of its standings already; each line is written
    over in one statement instead of the lines being deleted and inserted again."""
    if seats is None:
        seats = list(poule.seats.order_by("number").only("number", "player_id", "poule_id"))
    score = poule_score(poule, [s.number for s in seats], [d.data for d in deals])
    new, changed = [], []
    for deal, values in zip(deals, _scored_deals(score, seats), strict=True):
        if deal.pk is None or (deal.points, deal.dealer, deal.counted) != values:
            deal.points, deal.dealer, deal.counted = values
            (new if deal.pk is None else changed).append(deal)
    Deal.objects.bulk_create(new)
    for deal in changed:
        deal.save(update_fields=["points", "dealer", "counted"])
    if poule.counted_deals != score.counted_deals:
        poule.counted_deals = score.counted_deals
        poule.save(update_fields=["counted_deals"])

    lines = _standing_lines(
        poule, seats, poule_standings(score, scheme(poule.tournament.tournament_points))
    )
    if appended:
        PouleStanding.objects.bulk_create(
            lines,
            update_conflicts=True,
            unique_fields=["poule", "player"],
            update_fields=["seat", "rank", "tied", "game_points", "tournament_points"],
        )
    else:
        PouleStanding.objects.filter(poule=poule).delete()
        PouleStanding.objects.bulk_create(lines)
    # What was stored, for the page that shows it next (it need not read it back).
    # The players the caller loaded with the seats (never loaded here just for that).
    player_field = Seat._meta.get_field("player")
    players = {seat.player_id: seat.player for seat in seats if player_field.is_cached(seat)}
    for line in lines:
        if line.player_id in players:
            line.player = players[line.player_id]
    poule.sheet_deals = deals
    poule.sheet_standings = sorted(lines, key=lambda line: (line.rank, line.seat))
    return score


def _scored_deals(
    score: PouleScore, seats: Sequence[Seat]
) -> Iterator[tuple[list[Any], int | None, bool]]:
    """What a deal stores of the engine's score: each seat's points, the dealer's seat number
    (none for a game without one) and whether the deal counts among the poule's deals."""
    for points, dealer, counted in zip(
        score.deal_points, score.dealers, score.counted, strict=True
    ):
        yield list(points), None if dealer is None else seats[dealer].number, counted


def _standing_lines(
    poule: Poule, seats: Sequence[Seat], standings: Iterable[EnginePouleStanding]
) -> list[PouleStanding]:
    """The engine's poule standings as rows (the engine names a seat by its index)."""
    return [
        PouleStanding(
            poule=poule,
            player_id=seats[line.seat].player_id,
            seat=seats[line.seat].number,
            rank=line.rank,
            tied=line.tied,
            game_points=line.game_points,
            tournament_points=line.tournament_points,
        )
        for line in standings
    ]


@transaction.atomic(savepoint=False)
def night_sheets_store(tournament: Tournament, sheets: Sequence[ScoredSheet]) -> list[Poule]:
    """Store a whole night the engine has scored already (an imported night): its poules,
    seats, deals and poule standings, each kind in one statement, then the night's standings.

    The engine checked every seat, deal and table of the night before this runs, so nothing is
    scored twice; the database's constraints still guard each row. A history import runs this
    once per night: a decade of nights in a few statements each, not a few per deal."""
    poules = Poule.objects.bulk_create(
        Poule(
            tournament=tournament,
            round=sheet.round,
            table=sheet.table,
            counted_deals=sheet.score.counted_deals,
        )
        for sheet in sheets
    )
    seat_rows = [
        [
            Seat(
                poule=poule, player=player, number=number, tournament=tournament, round=poule.round
            )
            for number, player in enumerate(sheet.players, start=1)
        ]
        for poule, sheet in zip(poules, sheets, strict=True)
    ]
    Seat.objects.bulk_create(seat for seats in seat_rows for seat in seats)
    deals, lines = [], []
    for poule, sheet, seats in zip(poules, sheets, seat_rows, strict=True):
        for number, (data, (points, dealer, counted)) in enumerate(
            zip(sheet.deals, _scored_deals(sheet.score, seats), strict=True), start=1
        ):
            deals.append(
                Deal(
                    poule=poule,
                    number=number,
                    data=data,
                    points=points,
                    dealer=dealer,
                    counted=counted,
                )
            )
        if sheet.deals:
            # A table without a single deal was not played: its players get no standings
            # (no tournament points, no table won), as for a table left empty on the night.
            lines += _standing_lines(poule, seats, sheet.standings)
    Deal.objects.bulk_create(deals)
    PouleStanding.objects.bulk_create(lines)
    tournament_standings_update(tournament)
    return poules


def _poule_rescore(poule: Poule) -> PouleScore:
    """Re-score a poule's stored sheet (after a deal was removed, or a table revised)."""
    return _poule_sheet_save(poule, list(poule.deals.order_by("number")))


@transaction.atomic(savepoint=False)
def tournament_standings_update(tournament: Tournament, *, appended: bool = False) -> None:
    """Sum the stored poule standings into the night's standings (§6). ``appended``: deals
    were only added, so no player leaves the standings; each line is written over in one
    statement."""
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
    standings = tournament_standings(
        results, lower_game_points_better=game_module(tournament.game).LOWER_IS_BETTER
    )
    lines = [
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
    ]
    if appended:
        TournamentStanding.objects.bulk_create(
            lines,
            update_conflicts=True,
            unique_fields=["tournament", "player"],
            update_fields=[
                "rank",
                "tied",
                "tournament_points",
                "points_units",
                "game_points",
                "poules_played",
                "poules_won",
            ],
        )
    else:
        TournamentStanding.objects.filter(tournament=tournament).delete()
        TournamentStanding.objects.bulk_create(lines)


# --------------------------------------------------------------------------------------------
# Recording deals


TABLE_GONE = _lazy("Cette table n'existe plus : le tour a été tiré à nouveau. Rechargez la page.")


def _tournament_locked(tournament: Tournament, poule: Poule) -> None:
    """Lock the night (see ``_poule_locked``) and read its state and the poule's history count
    again under the lock, in the same statement as making sure the poule is still there (a
    round drawn again drops it)."""
    state = list(
        Tournament.objects.select_for_update(of=("self",))
        .filter(pk=tournament.pk, poules=poule.pk)
        .order_by()
        .values_list("status", "poules__corrections")
    )
    if not state:
        raise ValidationError(TABLE_GONE)
    tournament.status, poule.corrections = state[0]


def _removed_keys_check(poule: Poule, keys: Sequence[Any]) -> None:
    """A retry of a deal that was recorded, then removed from the sheet (undone by a scorer):
    refused, not recorded again behind the scorers' backs. Only a poule with a history is
    asked (nearly none: no query)."""
    sent = [key for key in keys if key is not None]
    if not sent or not poule.corrections:
        return
    number = (
        DealChange.objects.filter(
            poule=poule, action=DealChange.Action.DELETED, client_key__in=sent
        )
        .values_list("number", flat=True)
        .first()
    )
    if number is not None:
        raise DealConflict(
            _(
                "La donne %(number)s envoyée par ce téléphone a été enregistrée, puis retirée "
                "de la feuille depuis : elle n'est pas enregistrée à nouveau. Vérifiez la "
                "feuille et encodez la donne à nouveau si elle doit y être."
            )
            % {"number": number},
            code="deal_removed",
        )


def _poule_locked(tournament_id: int, poule_id: int) -> Poule:
    """Lock the night, then the poule: every service takes its locks in this one order (a
    redraw locks the night, then deletes its poules), so that a deal recorded while its round
    is drawn again waits for the draw, or the draw for it, and never both for each other."""
    gone = ValidationError(TABLE_GONE)
    if not Tournament.objects.select_for_update().filter(pk=tournament_id).exists():
        raise gone
    poule = (
        Poule.objects.select_for_update(of=("self",))
        .select_related("tournament__point_table")
        .filter(pk=poule_id, tournament_id=tournament_id)
        .first()
    )
    if poule is None:
        raise gone
    return poule


def _deal_locked(deal: Deal) -> Deal:
    """A deal and its poule, locked in the services' order (see ``_poule_locked``)."""
    place = Deal.objects.filter(pk=deal.pk).values_list("poule__tournament_id", "poule_id").first()
    if place is None:
        raise ValidationError(_("Cette donne n'existe plus : rechargez la page."))
    poule = _poule_locked(*place)
    locked = Deal.objects.select_for_update(of=("self",)).filter(pk=deal.pk).first()
    if locked is None:
        raise ValidationError(_("Cette donne n'existe plus : rechargez la page."))
    locked.poule = poule
    return locked


def _correction_count(poule: Poule) -> None:
    """One more correction or removal in the poule's history (see ``Poule.corrections``)."""
    Poule.objects.filter(pk=poule.pk).update(corrections=F("corrections") + 1)
    poule.corrections += 1


def _after_closed_correction(tournament: Tournament) -> None:
    """A closed night corrected by a club admin: its season ranking follows once committed,
    and its published pages show the correction at once."""
    if tournament.is_locked:
        season_ranking_queue(tournament.season_id)
        published_pages_changed(tournament.club_id)


class DealConflict(ValidationError):
    """The sheet changed under the scorer's feet (another phone recorded, corrected or removed
    a deal meanwhile): nothing was written; the page shows the sheet as it is now and says
    what happened, and the scorer decides. The views answer it with 409."""


def key_reused_check(deal: Deal, data: dict[str, Any]) -> None:
    """A key the poule knows, sent with another deal: a client's bug (a key made once and
    reused), not a retry. Refused: answering the stored deal would lose the new one unseen."""
    if not deal.sent_as(data):
        raise DealConflict(
            _(
                "Cette donne a été envoyée avec la clé de la donne %(number)s, déjà "
                "enregistrée et différente : rien n'a été enregistré. Rechargez la feuille, "
                "vérifiez-la et encodez la donne à nouveau si elle n'y est pas."
            )
            % {"number": deal.number},
            code="key_reused",
        )


def _deal_count_guard(
    poule: Poule, sheet: Sequence[Deal], seat_count: int, adding: int, *, longer: bool
) -> None:
    """A table at its deal count (the club's, plus the deals the scorer added tonight) refuses
    more deals, a pass included: the poule is over. ``longer``: the scorer says the poule is
    longer tonight; the count then follows the deals once they are scored
    (``_extra_deals_follow``): a pass saved with it adds nothing."""
    tournament = poule.tournament
    if not game_module(tournament.game).FIXED_DEALS_PER_POULE:
        return  # classic whist, hearts and bésigue play to a score, not to a number of deals
    tonight = poule.deals_tonight(seat_count)
    counted = sum(1 for deal in sheet if deal.counted)
    if counted < tonight or longer:
        return
    raise ValidationError(
        _(
            "Cette table a ses %(count)s donnes : la poule est finie. Si elle est plus "
            "longue ce soir, cochez « La poule est plus longue ce soir » et enregistrez "
            "à nouveau."
        )
        % {"count": tonight},
        code="poule_complete",
    )


def _extra_deals_follow(poule: Poule, seat_count: int, *, grow: bool) -> None:
    """The deals added tonight, read from the sheet as just scored (``poule.counted_deals``):
    the counted deals beyond the club's count. It grows only when the scorer said the poule is
    longer (``grow``); an undo, a removal or a deal corrected into a pass brings it back down,
    so the close check never waits for a deal nobody will play."""
    if not game_module(poule.tournament.game).FIXED_DEALS_PER_POULE:
        return
    beyond = max(0, poule.counted_deals - poule.tournament.deals_per_poule(seat_count))
    extra = beyond if grow else min(poule.extra_deals, beyond)
    if extra != poule.extra_deals:
        poule.extra_deals = extra
        Poule.objects.filter(pk=poule.pk).update(extra_deals=extra)


@transaction.atomic
def deals_record(
    poule: Poule,
    deals_data: Sequence[dict[str, Any]],
    by: AbstractBaseUser | None = None,
    *,
    seats: Sequence[Seat] | None = None,
    night_standings: bool = True,
    client_keys: Sequence[Any] | None = None,
    seen: int | None = None,
    within_count: bool = False,
    longer: bool = False,
) -> list[Deal]:
    """Append deals to a poule's score sheet, score it, and update the standings.

    Deals name players by seat number ("1" … "5"). The engine checks the whole sheet before
    anything is written, so a refused deal leaves the sheet as it was. ``seats``: the poule's
    seats in seat order, when the caller has them (the score sheet does).
    ``night_standings=False``: an importer filling every poule of a night sums the night's
    standings once, at the end (``tournament_standings_update``).

    What the score sheet at the table adds (an importer needs none of it):
    ``client_keys``: one key per deal, made by the scorer's phone. A deal whose key the poule
    already has was recorded by an earlier try of the same request: nothing is written and
    the deal stored then is handed back (with ``replayed`` set), as the first answer did.
    ``seen``: how many deals the phone's sheet showed; another number means somebody else
    changed the sheet meanwhile (``DealConflict``). ``within_count``: a table at its deal
    count refuses more deals unless ``longer`` (the poule is longer tonight).

    The night is locked first, and alone: it serialises every change of its sheets, and a
    round drawn again meanwhile shows as the poule gone (refused in words). The ``poule``
    passed in gets ``sheet_deals`` and ``sheet_standings``: what was stored, for the page.
    """
    tournament = poule.tournament
    _tournament_locked(tournament, poule)
    sheet = list(poule.deals.order_by("number"))
    keys = list(client_keys) if client_keys is not None else [None] * len(deals_data)
    known = {deal.client_key: deal for deal in sheet if deal.client_key is not None}
    # A retry of a deal already recorded is answered as the first time, even once the night
    # is closed meanwhile: the deal is not lost, and nothing is written.
    if keys and all(key is not None and key in known for key in keys):
        for key, data in zip(keys, deals_data, strict=True):
            key_reused_check(known[key], data)
        poule.sheet_deals = sheet
        replayed = [known[key] for key in keys]
        for deal in replayed:
            deal.replayed = True
        return replayed
    # Before the night's state: a deal undone since is said so, even once the night is closed.
    _removed_keys_check(poule, keys)
    require_open(tournament)
    if seen is not None and seen != len(sheet):
        raise DealConflict(
            _(
                "Quelqu'un d'autre a changé cette feuille pendant ce temps (%(now)s donnes au "
                "lieu de %(seen)s) : rien n'a été enregistré. Vérifiez la feuille, puis "
                "enregistrez votre donne si elle n'y est pas."
            )
            % {"now": len(sheet), "seen": seen},
            code="sheet_changed",
        )
    if seats is None:
        seats = list(poule.seats.order_by("number").only("number", "player_id", "poule_id"))
    if within_count:
        _deal_count_guard(poule, sheet, len(seats), len(deals_data), longer=longer)
    new = [
        Deal(
            poule=poule,
            number=len(sheet) + index,
            data=data,
            recorded_by=by,
            client_key=key,
            client_digest=Deal.digest_of(data) if key is not None else "",
        )
        for index, (data, key) in enumerate(zip(deals_data, keys, strict=True), start=1)
    ]
    _poule_sheet_save(poule, [*sheet, *new], seats, appended=True)
    if within_count and longer:
        _extra_deals_follow(poule, len(seats), grow=True)
    if night_standings:
        tournament_standings_update(tournament, appended=True)
    return new


def deal_record(
    poule: Poule,
    data: dict[str, Any],
    by: AbstractBaseUser | None = None,
    *,
    seats: Sequence[Seat] | None = None,
    client_key: Any = None,
    seen: int | None = None,
    longer: bool = False,
) -> Deal:
    """Record one deal at the table: the score sheet's service. The table's deal count holds
    (see ``deals_record``); ``client_key`` makes a retried deal count once."""
    return deals_record(
        poule,
        [data],
        by,
        seats=seats,
        client_keys=[client_key],
        seen=seen,
        within_count=True,
        longer=longer,
    )[0]


@transaction.atomic
def deal_correct(
    deal: Deal,
    data: dict[str, Any],
    by: AbstractBaseUser | None = None,
    *,
    closed_ok: bool = False,
    version: str | None = None,
) -> Deal:
    """Replace a deal's data; every later point and standing follows, and the change is kept
    (who, when, before → after). ``closed_ok``: a club admin corrects a closed night.
    ``version``: the deal as the correction form opened it (``deal_version``); a deal changed
    since by someone else is not overwritten (``DealConflict``)."""
    deal = _deal_locked(deal)
    poule = deal.poule
    require_open(poule.tournament, closed_ok=closed_ok)
    if version is not None and version != deal_version(deal):
        raise DealConflict(
            _(
                "La donne a été corrigée par quelqu'un d'autre pendant que vous la corrigiez : "
                "votre correction n'a pas été enregistrée. Voici la donne telle qu'elle est "
                "maintenant ; refaites votre correction si elle est encore nécessaire."
            ),
            code="deal_changed",
        )
    sheet = list(poule.deals.order_by("number"))
    corrected = next(d for d in sheet if d.pk == deal.pk)
    if corrected.data == data:
        return corrected
    before = corrected.data
    corrected.data = data
    corrected.recorded_by = by
    counted_before = poule.counted_deals
    _poule_sheet_save(poule, sheet)
    _correction_keeps_count(poule, counted_before)
    corrected.save(update_fields=["data", "recorded_by", "recorded_at"])
    _correction_count(poule)
    DealChange.objects.create(
        poule=poule,
        deal=corrected,
        number=corrected.number,
        action=DealChange.Action.CORRECTED,
        before=before,
        after=data,
        by=by,
    )
    tournament_standings_update(poule.tournament)
    _after_closed_correction(poule.tournament)
    return corrected


def _correction_keeps_count(poule: Poule, counted_before: int) -> None:
    """A correction may not take a table past its deal count (a pass corrected into a solo at
    12/12 would make 13/12); one that makes a deal count no more (a solo into a pass) brings
    the deals added tonight back down. Raised inside the correction's transaction: nothing
    of it is kept."""
    if not game_module(poule.tournament.game).FIXED_DEALS_PER_POULE:
        return
    seat_count = poule.seats.count()
    count = poule.tournament.deals_per_poule(seat_count) + poule.extra_deals
    if poule.counted_deals > counted_before and poule.counted_deals > count:
        raise ValidationError(
            _(
                "Cette correction ferait %(now)s donnes comptées à une table qui en a "
                "%(count)s : rien n'a été corrigé. Si la poule est plus longue ce soir, "
                "enregistrez la donne en plus depuis la feuille, ou supprimez une autre donne."
            )
            % {"now": poule.counted_deals, "count": count},
            code="poule_complete",
        )
    _extra_deals_follow(poule, seat_count, grow=False)


def deal_version(deal: Deal) -> str:
    """What a correction form remembers of the deal it opened: when it was last written."""
    return deal.recorded_at.isoformat()


@transaction.atomic
def deal_delete(
    deal: Deal,
    by: AbstractBaseUser | None = None,
    *,
    closed_ok: bool = False,
    last_only: bool = False,
) -> None:
    """Remove a deal; later deals move up one number so the sheet has no gap. The removed deal
    stays in the poule's history. ``last_only``: the scorer's "undo the last deal"; a deal
    recorded after it meanwhile (another phone) refuses the undo (``DealConflict``)."""
    try:
        deal = _deal_locked(deal)
    except ValidationError as gone:
        if last_only:
            raise DealConflict(
                _("Cette donne a déjà été retirée par quelqu'un d'autre : rien n'a changé."),
                code="deal_gone",
            ) from gone
        raise
    poule = deal.poule
    require_open(poule.tournament, closed_ok=closed_ok)
    if last_only and poule.deals.filter(number__gt=deal.number).exists():
        raise DealConflict(
            _(
                "Une autre donne a été enregistrée après celle-ci pendant ce temps : rien n'a "
                "été annulé. Vérifiez la feuille et corrigez la donne voulue."
            ),
            code="not_last",
        )
    _correction_count(poule)
    DealChange.objects.create(
        poule=poule,
        deal=None,
        number=deal.number,
        action=DealChange.Action.DELETED,
        before=deal.data,
        by=by,
        client_key=deal.client_key,
    )
    deal.delete()
    later = list(poule.deals.filter(number__gt=deal.number).order_by("number"))
    for moved in later:
        moved.number -= 1
        moved.save(update_fields=["number"])
    _poule_rescore(poule)
    _extra_deals_follow(poule, poule.seats.count(), grow=False)
    tournament_standings_update(poule.tournament)
    _after_closed_correction(poule.tournament)


# --------------------------------------------------------------------------------------------
# The draw of a round


def _draw_order_by_standings(tournament: Tournament, present: list[int]) -> list[int]:
    """Present players best first by tonight's standings; those not yet ranked last."""
    ranked = list(
        TournamentStanding.objects.filter(tournament=tournament, player_id__in=present)
        .order_by("rank", "player__display_name")
        .values_list("player_id", flat=True)
    )
    return ranked + sorted(set(present) - set(ranked))


def _size_range(sizes: set[int]) -> str:
    low, high = min(sizes), max(sizes)
    return str(low) if low == high else f"{low}–{high}"


def _check_table_sizes(tournament: Tournament, sizes: list[int]) -> None:
    """The draw seats tables of 4 and 5; a game (or a bésigue table for 2 or 3) played at
    other sizes is refused before anything is written."""
    allowed = set(game_module(tournament.game).PLAYERS)
    players = getattr(tournament.point_table.engine_table(), "players", None)
    if isinstance(players, int):
        allowed &= {players}
    wrong = sorted({size for size in sizes if size not in allowed})
    if wrong:
        raise ValidationError(
            _(
                "À ce jeu, une table compte %(allowed)s joueurs : %(count)s présents donneraient "
                "des tables de %(sizes)s. Ajoutez ou retirez des joueurs."
            )
            % {
                "allowed": _size_range(allowed or {players}),
                "count": sum(sizes),
                "sizes": ", ".join(str(n) for n in wrong),
            }
        )


@transaction.atomic
def round_draw(
    tournament: Tournament,
    round: int,
    *,
    seed: int | None = None,
    by: AbstractBaseUser | None = None,
) -> RoundDraw:
    """Seat tonight's present players at the tables of ``round``. Round 1 is drawn at random,
    later rounds with the night's method. A round can be drawn again until its first deal is
    recorded; the seed is stored so that the same draw can be reproduced."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require_open(tournament)
    if not 1 <= round <= tournament.rounds:
        raise ValidationError(
            _("La soirée compte %(rounds)s tours : pas de tour %(round)s.")
            % {"rounds": tournament.rounds, "round": round}
        )
    if round in tournament.dealt_rounds():
        raise ValidationError(
            _("Le tour %(round)s a déjà des donnes encodées : son tirage ne peut plus être refait.")
            % {"round": round}
        )
    if round > 1 and not Poule.objects.filter(tournament=tournament, round=round - 1).exists():
        raise ValidationError(
            _(
                "Le tour %(previous)s n'est pas encore tiré : les tours se tirent dans l'ordre, "
                "tirez d'abord le tour %(previous)s."
            )
            % {"previous": round - 1}
        )
    present = sorted(tournament.present.values_list("pk", flat=True))
    try:
        sizes = draw.table_sizes(len(present))
    except draw.DrawRefused as refused:
        raise ValidationError(str(refused)) from None
    _check_table_sizes(tournament, sizes)
    earlier = Seat.objects.filter(tournament=tournament, round__lt=round).values_list(
        "poule_id", "player_id"
    )
    if round == 1:
        method, met = "random", None
    elif tournament.draw_method == DrawMethod.STANDINGS:
        method, met = "standings", None
        present = _draw_order_by_standings(tournament, present)
    else:
        tables: dict[int, list[int]] = {}
        for poule_id, player_id in earlier:
            tables.setdefault(poule_id, []).append(player_id)
        method, met = "avoid_repeats", draw.pairs_met(tables.values())
    seed = secrets.randbits(31) if seed is None else seed
    seating = draw.draw_round(present, seed=seed, method=method, met=met)

    Poule.objects.filter(tournament=tournament, round=round).delete()
    players = Player.objects.in_bulk([p for table in seating for p in table])
    for number, table in enumerate(seating, start=1):
        games.poule_create(
            tournament, round=round, table=number, players=[players[p] for p in table]
        )
    drawn, _created = RoundDraw.objects.update_or_create(
        tournament=tournament,
        round=round,
        defaults={
            "method": method,
            "seed": seed,
            "repeats": draw.repeat_count(seating, met or {}),
            "drawn_by": by,
        },
    )
    if tournament.status == Tournament.Status.PLANNED:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return drawn


# --------------------------------------------------------------------------------------------
# Closing, publishing, reopening a night


@dataclass(frozen=True)
class UnfinishedTable:
    """A table that has not played its deals: ``expected`` is the club's deal count, or None
    in a game without one (bésigue, hearts, classic whist), where the table has no deal."""

    round: int
    table: int
    played: int
    expected: int | None

    def __str__(self) -> str:
        if self.expected is None:
            return _("tour %(round)s table %(table)s sans donne") % {
                "round": self.round,
                "table": self.table,
            }
        return _("tour %(round)s table %(table)s %(played)s/%(expected)s") % {
            "round": self.round,
            "table": self.table,
            "played": self.played,
            "expected": self.expected,
        }


@dataclass(frozen=True)
class CloseCheck:
    """What closing the night now leaves unplayed: its unfinished tables and the rounds not
    drawn."""

    unfinished: list[UnfinishedTable]
    undrawn_rounds: list[int]

    @property
    def finished(self) -> bool:
        return not self.unfinished and not self.undrawn_rounds

    def __str__(self) -> str:
        parts = []
        if self.unfinished:
            parts.append(
                ngettext(
                    "%(count)s table inachevée : %(tables)s",
                    "%(count)s tables inachevées : %(tables)s",
                    len(self.unfinished),
                )
                % {
                    "count": len(self.unfinished),
                    "tables": ", ".join(str(t) for t in self.unfinished),
                }
            )
        if self.undrawn_rounds:
            parts.append(
                ngettext(
                    "tour %(rounds)s pas tiré",
                    "tours %(rounds)s pas tirés",
                    len(self.undrawn_rounds),
                )
                % {"rounds": ", ".join(str(r) for r in self.undrawn_rounds)}
            )
        return semicolon_join(parts)


def _close_refused(tournament: Tournament) -> None:
    """What makes closing the night impossible, confirmed or not."""
    if tournament.is_locked:
        raise ValidationError(_("La soirée est déjà clôturée."))
    if not tournament.poules.exists():
        raise ValidationError(
            _("Aucun tour n'est tiré : tirez le tour 1 avant de clôturer la soirée.")
        )
    if not Deal.objects.filter(poule__tournament=tournament).exists():
        raise ValidationError(_("Aucune donne n'a été encodée."))


def tournament_close_check(tournament: Tournament) -> CloseCheck:
    """What closing the night now would leave unplayed, for the scorer to confirm; refused in
    words when it cannot be closed at all."""
    _close_refused(tournament)
    fixed = game_module(tournament.game).FIXED_DEALS_PER_POULE
    poules = tournament.poules.annotate(
        seat_count=Count("seats", distinct=True), deal_count=Count("deals", distinct=True)
    ).order_by("round", "table")
    unfinished = []
    drawn = set()
    for poule in poules:
        poule.tournament = tournament
        drawn.add(poule.round)
        expected = poule.deals_tonight(poule.seat_count) if fixed else None
        played = poule.counted_deals if fixed else poule.deal_count
        if (expected is None and played == 0) or (expected is not None and played < expected):
            unfinished.append(UnfinishedTable(poule.round, poule.table, played, expected))
    undrawn = [n for n in range(1, tournament.rounds + 1) if n not in drawn]
    return CloseCheck(unfinished=unfinished, undrawn_rounds=undrawn)


@transaction.atomic
def tournament_close(
    tournament: Tournament,
    *,
    rank_season: bool = True,
    send_results: bool = True,
    unfinished_ok: bool = False,
) -> Tournament:
    """Lock the night and, once the close is committed, have the season ranking recomputed
    and the results e-mailed to the participants. An import of many nights ranks each season
    once at the end (``rank_season=False``), and sends no e-mail for nights of the past.

    A night with unfinished tables or rounds not drawn is refused, with them listed, unless
    the scorer confirmed closing it as it is (``unfinished_ok``)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not unfinished_ok:
        check = tournament_close_check(tournament)
        if not check.finished:
            raise ValidationError(
                _("La soirée n'est pas finie (%(what)s) : confirmez pour la clôturer ainsi.")
                % {"what": check}
            )
    else:
        _close_refused(tournament)
    tournament.status = Tournament.Status.CLOSED
    tournament.save(update_fields=["status"])
    # Its results now count: the members' own pages computed before are stale.
    published_pages_changed(tournament.club_id)
    if rank_season:
        season_ranking_queue(tournament.season_id)
    if send_results:
        work_queue(RESULTS_EMAIL, tournament.pk)
    return tournament


@transaction.atomic
def tournament_publish(tournament: Tournament) -> Tournament:
    """A closed night's score sheets become visible to members and the public."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.CLOSED:
        raise ValidationError(_("Seule une soirée clôturée peut être publiée."))
    tournament.status = Tournament.Status.PUBLISHED
    tournament.save(update_fields=["status"])
    published_pages_changed(tournament.club_id)
    return tournament


@transaction.atomic
def tournament_reopen(tournament: Tournament) -> Tournament:
    """A club admin reopens a closed night to correct it; the ranking follows when re-closed."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.CLOSED:
        raise ValidationError(_("Seule une soirée clôturée peut être rouverte."))
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    season_ranking_queue(tournament.season_id)
    published_pages_changed(tournament.club_id)
    return tournament


# --------------------------------------------------------------------------------------------
# Season rankings


def season_guests(season: Season) -> QuerySet[Membership]:
    """The season's guests: players whose membership of the club says guest and who have no
    other membership of it (a guest turned member is a member, with all his results)."""
    members = Membership.objects.filter(club=season.club_id).exclude(status=Membership.Status.GUEST)
    return (
        Membership.objects.filter(club=season.club_id, status=Membership.Status.GUEST)
        .exclude(player__in=members.values("player"))
        .values("player")
    )


def season_totals(
    season: Season, rules: RankingRules, *, guests: bool | None = None
) -> dict[int, SeasonTotals]:
    """Each player's season summed by the database, for the engine to rank; tied players are
    listed by name. ``guests``: whether guests are ranked (default: the season's rule); a
    season that ranks members only leaves them out of its ranking, not out of the nights.

    Tournament points are summed exactly as whole units (``fields.POINT_UNITS``). With the
    best N nights only, a player's nights are grouped by their points and taken best first;
    where the N-th night falls inside a group, that group's nights are read to keep those with
    the most game points (the engine's order: tournament points, then game points).
    """
    # A join, as the plain SQL would write it (a subquery of the nights was slower on SQLite).
    standings = TournamentStanding.objects.filter(
        tournament__season=season, tournament__status__in=COUNTED_STATUSES
    ).order_by()
    if not (season.ranking_guests if guests is None else guests):
        standings = standings.exclude(player__in=season_guests(season))
    sums = {"game": Sum("game_points"), "played": Count("pk"), "won": Count("pk", filter=Q(rank=1))}
    totals: dict[int, SeasonTotals] = {}
    if rules.best_n is None:
        for player, units, game_points, played, won in (
            standings.values("player_id")
            .annotate(units=Sum("points_units"), **sums)
            .values_list("player_id", "units", "game", "played", "won")
        ):
            totals[player] = SeasonTotals(
                Fraction(units, POINT_UNITS), game_points, played, played, won
            )
        return _listed_by_name(totals, rules)

    groups: dict[int, list[tuple[int, int, int, int]]] = {}
    for player, units, game_points, played, won in (
        standings.values("player_id", "points_units")
        .annotate(**sums)
        .values_list("player_id", "points_units", "game", "played", "won")
    ):
        groups.setdefault(player, []).append((units, game_points, played, won))
    boundaries: dict[tuple[int, int], int] = {}
    for player, values in groups.items():
        played = sum(group[2] for group in values)
        left = counted = min(rules.best_n, played)
        units, game_points = 0, 0
        for value, game, n, _won in sorted(values, reverse=True):
            if n <= left:
                units, game_points, left = units + value * n, game_points + game, left - n
            elif left:  # the N-th night is in this group: its best nights by game points, later
                units, boundaries[(player, value)], left = units + value * left, left, 0
        totals[player] = SeasonTotals(
            tournament_points=Fraction(units, POINT_UNITS),
            game_points=game_points,
            tournaments_played=played,
            tournaments_counted=counted,
            tournaments_won=sum(group[3] for group in values),
        )
    if boundaries:
        best: dict[tuple[int, int], list[int]] = {}
        for player, units, game in (
            standings.filter(player_id__in={player for player, _units in boundaries})
            .order_by("-game_points")
            .values_list("player_id", "points_units", "game_points")
        ):
            best.setdefault((player, units), []).append(game)
        for (player, units), left in boundaries.items():
            totals[player] = dataclasses.replace(
                totals[player],
                game_points=totals[player].game_points + sum(best[(player, units)][:left]),
            )
    return _listed_by_name(totals, rules)


def _listed_by_name(
    totals: dict[int, SeasonTotals], rules: RankingRules
) -> dict[int, SeasonTotals]:
    """The totals with tied players in the order of their names: the engine lists tied players
    in the order it is given them. Only tied players' names are read (most seasons have no
    tie: no query at all)."""
    players_by_key: dict[tuple[Any, ...], list[int]] = {}
    for player, sums in totals.items():
        key = tuple(getattr(sums, metric) for metric in rules.precedence)
        players_by_key.setdefault(key, []).append(player)
    tied = [player for group in players_by_key.values() if len(group) > 1 for player in group]
    if not tied:
        return totals
    names = dict(Player.objects.filter(pk__in=tied).values_list("pk", "display_name"))
    # Players of one tie group all have a name; the others keep any order (the engine sorts).
    return {
        player: totals[player] for player in sorted(totals, key=lambda p: (names.get(p, ""), p))
    }


def _write_snapshot(snapshot: RankingSnapshot, season: Season) -> RankingSnapshot:
    rules = season.ranking_rules()
    totals = season_totals(season, rules)
    snapshot.rules = {
        "best_n": rules.best_n,
        "min_tournaments": rules.min_tournaments,
        "precedence": list(rules.precedence),
        "guests": season.ranking_guests,
    }
    snapshot.tournaments = Tournament.objects.filter(season=season).counted().count()
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
        for position, line in enumerate(rank_season(totals, rules), start=1)
    )
    return snapshot


def season_ranking_queue(season_id: int) -> None:
    """Have a season's live ranking recomputed once the current transaction commits: recorded
    with the change (``club.outbox``), so a broker that is down only delays it."""
    work_queue(SEASON_RANKING_UPDATE, season_id)


def ranking_pending(season: Season) -> bool:
    """Whether the season's ranking is still being computed or published (the page says so)."""
    return work_pending([SEASON_RANKING_UPDATE, RANKING_PUBLISH], season.pk)


@transaction.atomic
def season_ranking_update(season: Season) -> RankingSnapshot:
    """Recompute the season's live (unpublished) ranking from its closed nights."""
    Season.objects.select_for_update().filter(pk=season.pk).first()
    snapshot = RankingSnapshot.objects.filter(season=season, published_at__isnull=True).first()
    published_pages_changed(season.club_id)  # the club admins' view of the ranking
    return _write_snapshot(snapshot or RankingSnapshot(season=season), season)


def ranking_publish_check(season: Season) -> None:
    """A ranking is published from closed nights: a season without one has nothing to show."""
    if not Tournament.objects.filter(season=season).counted().exists():
        raise ValidationError(_("Aucune soirée clôturée dans cette saison : rien à publier."))


@transaction.atomic
def ranking_publish_queue(season: Season) -> None:
    """A club admin asks to publish the season's ranking: refused at once when there is nothing
    to publish, else recorded and done by a task once committed (``ranking_publish``)."""
    ranking_publish_check(season)
    work_queue(RANKING_PUBLISH, season.pk)
    # The page says the publication is under way until it is done.
    published_pages_changed(season.club_id)


@transaction.atomic
def ranking_publish(season: Season) -> RankingSnapshot:
    """Freeze the season ranking as it stands now, with today's date."""
    ranking_publish_check(season)
    snapshot = _write_snapshot(RankingSnapshot(season=season, published_at=timezone.now()), season)
    snapshot.published_at = snapshot.computed_at
    snapshot.save(update_fields=["published_at"])
    published_pages_changed(season.club_id)
    return snapshot


# --------------------------------------------------------------------------------------------
# A season's rules, changed by its club admin


@dataclass(frozen=True)
class RankingChange:
    """One player's place before and after a change of the season's rules."""

    player: Player
    before: SeasonStanding | None  # None: not in the ranking before (a guest now ranked)
    after: SeasonStanding | None

    @property
    def moved(self) -> bool:
        return (self.before and self.before.rank) != (self.after and self.after.rank)


def _rules_of(season: Season) -> RankingRules:
    return season.ranking_rules()


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


# --------------------------------------------------------------------------------------------
# A point table's change, tried on the club's last night


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
        deals = sorted(poule.deals.all(), key=lambda deal: deal.number)
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
        key=lambda line: (-line.after, line.player.display_name),
    )
    return Rescored(tournament, lines, problems)


# moves to scoring/services/nights.py
@transaction.atomic
def tournament_unpublish(tournament: Tournament) -> Tournament:
    """A club admin takes a published night's score sheets back from members and the public
    (published by mistake, a sheet to check again). The night stays closed: it still counts in
    the season ranking, which does not change."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.PUBLISHED:
        raise ValidationError(_("Seule une soirée publiée peut être dépubliée."))
    tournament.status = Tournament.Status.CLOSED
    tournament.save(update_fields=["status"])
    published_pages_changed(tournament.club_id)
    return tournament
