"""One function per state change of a club night. Views, the API, admin actions, importers and
tasks all call these; each validates with the engine and writes in one transaction."""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from club.models import Club, Membership, Player, Season
from scoring import services as scoring
from scoring.engine.games import game_module
from scoring.models import PointTable

from . import draw
from .models import Deal, DealChange, DrawMethod, Poule, RoundDraw, Seat, Tournament


def tournament_create(
    *,
    club: Club,
    season: Season,
    date: datetime.date,
    game: str,
    point_table: PointTable,
    name: str = "",
    tournament_points: Any = None,
    rounds: int | None = None,
    draw_method: str = DrawMethod.AVOID_REPEATS,
) -> Tournament:
    tournament = Tournament(
        draw_method=draw_method,
        club=club,
        season=season,
        date=date,
        name=name,
        game=game,
        point_table=point_table,
        tournament_points=tournament_points or club.tournament_points,
        rounds=rounds or club.rounds_per_night,
    )
    tournament.full_clean()
    tournament.save()
    return tournament


def season_for_date(club: Club, date: datetime.date) -> Season:
    """The club's season covering ``date``; when there is none yet, the calendar year's
    season is opened (RCWhist's seasons are calendar years)."""
    season = club.seasons.filter(start__lte=date, end__gte=date).order_by("-start").first()
    if season is not None:
        return season
    name = str(date.year)
    if club.seasons.filter(name=name).exists():
        raise ValidationError(
            _("Aucune saison du club ne couvre le %(date)s.") % {"date": date.strftime("%d/%m/%Y")}
        )
    season = Season(
        club=club,
        name=name,
        start=datetime.date(date.year, 1, 1),
        end=datetime.date(date.year, 12, 31),
    )
    season.full_clean()
    season.save()
    return season


def _require_open(tournament: Tournament, *, closed_ok: bool = False) -> None:
    if tournament.is_locked and not closed_ok:
        raise ValidationError(_("La soirée est clôturée : ses feuilles ne peuvent plus changer."))


def _after_closed_correction(tournament: Tournament) -> None:
    """A closed night corrected by a club admin: its season ranking follows once committed."""
    from scoring.tasks import season_ranking_update

    if tournament.is_locked:
        season_id = tournament.season_id
        transaction.on_commit(lambda: season_ranking_update.delay(season_id))


@transaction.atomic
def presence_set(tournament: Tournament, players: Iterable[Player]) -> None:
    """Tonight's present players (the members ticked on the list)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_open(tournament)
    players = list(players)
    members = set(
        Player.objects.in_club(tournament.club)
        .filter(pk__in=[p.pk for p in players])
        .values_list("pk", flat=True)
    )
    strangers = [p for p in players if p.pk not in members]
    if strangers:
        raise ValidationError(
            _("Pas membre du club : %(players)s.")
            % {"players": ", ".join(str(p) for p in strangers)}
        )
    tournament.present.set(players)


@transaction.atomic
def player_add_to_night(
    tournament: Tournament, display_name: str, *, guest: bool, by: AbstractBaseUser | None = None
) -> Player:
    """A guest or a new member arrives: create the player, his membership, and tick him
    present, in one step. A name already in the club is refused rather than doubled."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_open(tournament)
    display_name = " ".join(display_name.split())
    if not display_name:
        raise ValidationError(_("Donnez le nom du joueur."))
    if Player.objects.in_club(tournament.club).filter(display_name__iexact=display_name).exists():
        raise ValidationError(
            _("%(name)s est déjà dans la liste du club : cochez-le parmi les présents.")
            % {"name": display_name}
        )
    first, _sep, last = display_name.partition(" ")
    player = Player(display_name=display_name, first_name=first, last_name=last)
    player.full_clean()
    player.save()
    membership = Membership(
        club=tournament.club,
        player=player,
        start=tournament.date,
        status=Membership.Status.GUEST if guest else Membership.Status.ACTIVE,
    )
    membership.full_clean()
    membership.save()
    tournament.present.add(player)
    return player


def _draw_order_by_standings(tournament: Tournament, present: list[int]) -> list[int]:
    """Present players best first by tonight's standings; those not yet ranked last."""
    from scoring.models import TournamentStanding

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
    _require_open(tournament)
    if not 1 <= round <= tournament.rounds:
        raise ValidationError(
            _("La soirée compte %(rounds)s tours : pas de tour %(round)s.")
            % {"rounds": tournament.rounds, "round": round}
        )
    if Deal.objects.filter(poule__tournament=tournament, poule__round=round).exists():
        raise ValidationError(
            _("Le tour %(round)s a déjà des donnes encodées : son tirage ne peut plus être refait.")
            % {"round": round}
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
        poule_create(tournament, round=round, table=number, players=[players[p] for p in table])
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


@transaction.atomic
def poule_create(
    tournament: Tournament, *, round: int, table: int, players: Sequence[Player]
) -> Poule:
    """Seat ``players`` (in clockwise order, seat 1 deals first) at a new poule."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_open(tournament)
    sizes = game_module(tournament.game).PLAYERS
    if len(players) not in sizes:
        raise ValidationError(
            _("Une table compte de %(low)s à %(high)s joueurs, pas %(count)s.")
            % {"low": sizes.start, "high": sizes.stop - 1, "count": len(players)}
        )
    if not 1 <= round <= tournament.rounds:
        raise ValidationError(
            _("La soirée compte %(rounds)s tours : pas de tour %(round)s.")
            % {"rounds": tournament.rounds, "round": round}
        )
    poule = Poule(tournament=tournament, round=round, table=table)
    poule.full_clean()
    poule.save()
    seats = [
        Seat(poule=poule, player=player, number=number, tournament=tournament, round=round)
        for number, player in enumerate(players, start=1)
    ]
    for seat in seats:
        try:
            with transaction.atomic():
                seat.save()
        except IntegrityError:
            raise ValidationError(
                _("%(player)s est déjà assis à une autre table du tour %(round)s.")
                % {"player": seat.player, "round": round}
            ) from None
    return poule


@transaction.atomic
def deals_record(
    poule: Poule, deals_data: Sequence[dict[str, Any]], by: AbstractBaseUser | None = None
) -> list[Deal]:
    """Append deals to a poule's score sheet, score it, and update the standings.

    Deals name players by seat number ("1" … "5"). The engine checks the whole sheet before
    anything is written, so a refused deal leaves the sheet as it was.
    """
    poule = (
        Poule.objects.select_for_update().select_related("tournament__point_table").get(pk=poule.pk)
    )
    _require_open(poule.tournament)
    sheet = list(poule.deals.order_by("number"))
    new = [
        Deal(poule=poule, number=len(sheet) + index, data=data, recorded_by=by)
        for index, data in enumerate(deals_data, start=1)
    ]
    scoring.poule_sheet_save(poule, [*sheet, *new])
    scoring.tournament_standings_update(poule.tournament)
    return new


def deal_record(poule: Poule, data: dict[str, Any], by: AbstractBaseUser | None = None) -> Deal:
    return deals_record(poule, [data], by)[0]


@transaction.atomic
def deal_correct(
    deal: Deal,
    data: dict[str, Any],
    by: AbstractBaseUser | None = None,
    *,
    closed_ok: bool = False,
) -> Deal:
    """Replace a deal's data; every later point and standing follows, and the change is kept
    (who, when, before → after). ``closed_ok``: a club admin corrects a closed night."""
    deal = Deal.objects.select_for_update().select_related("poule__tournament").get(pk=deal.pk)
    poule = deal.poule
    _require_open(poule.tournament, closed_ok=closed_ok)
    sheet = list(poule.deals.order_by("number"))
    corrected = next(d for d in sheet if d.pk == deal.pk)
    if corrected.data == data:
        return corrected
    before = corrected.data
    corrected.data = data
    corrected.recorded_by = by
    scoring.poule_sheet_save(poule, sheet)
    corrected.save(update_fields=["data", "recorded_by", "recorded_at"])
    DealChange.objects.create(
        poule=poule,
        deal=corrected,
        number=corrected.number,
        action=DealChange.Action.CORRECTED,
        before=before,
        after=data,
        by=by,
    )
    scoring.tournament_standings_update(poule.tournament)
    _after_closed_correction(poule.tournament)
    return corrected


@transaction.atomic
def deal_delete(deal: Deal, by: AbstractBaseUser | None = None, *, closed_ok: bool = False) -> None:
    """Remove a deal; later deals move up one number so the sheet has no gap. The removed deal
    stays in the poule's history."""
    deal = Deal.objects.select_for_update().select_related("poule__tournament").get(pk=deal.pk)
    poule = deal.poule
    _require_open(poule.tournament, closed_ok=closed_ok)
    DealChange.objects.create(
        poule=poule,
        deal=None,
        number=deal.number,
        action=DealChange.Action.DELETED,
        before=deal.data,
        by=by,
    )
    deal.delete()
    later = list(poule.deals.filter(number__gt=deal.number).order_by("number"))
    for moved in later:
        moved.number -= 1
        moved.save(update_fields=["number"])
    scoring.poule_rescore(poule)
    scoring.tournament_standings_update(poule.tournament)
    _after_closed_correction(poule.tournament)


@transaction.atomic
def tournament_start(tournament: Tournament) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.PLANNED:
        raise ValidationError(_("Seule une soirée prévue peut commencer."))
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    return tournament


@transaction.atomic
def tournament_close(tournament: Tournament) -> Tournament:
    """Lock the night and, once the close is committed, have the season ranking recomputed
    and the results e-mailed to the participants."""
    from scoring.tasks import season_ranking_update

    from .tasks import night_results_email

    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.is_locked:
        raise ValidationError(_("La soirée est déjà clôturée."))
    if not tournament.poules.exists():
        raise ValidationError(_("La soirée n'a aucune poule."))
    if Deal.objects.filter(poule__tournament=tournament).count() == 0:
        raise ValidationError(_("Aucune donne n'a été encodée."))
    tournament.status = Tournament.Status.CLOSED
    tournament.save(update_fields=["status"])
    season_id, tournament_id = tournament.season_id, tournament.pk
    transaction.on_commit(lambda: season_ranking_update.delay(season_id))
    transaction.on_commit(lambda: night_results_email.delay(tournament_id))
    return tournament


@transaction.atomic
def tournament_publish(tournament: Tournament) -> Tournament:
    """A closed night's score sheets become visible to members and the public."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.CLOSED:
        raise ValidationError(_("Seule une soirée clôturée peut être publiée."))
    tournament.status = Tournament.Status.PUBLISHED
    tournament.save(update_fields=["status"])
    return tournament


@transaction.atomic
def tournament_reopen(tournament: Tournament) -> Tournament:
    """A club admin reopens a closed night to correct it; the ranking follows when re-closed."""
    from scoring.tasks import season_ranking_update

    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.CLOSED:
        raise ValidationError(_("Seule une soirée clôturée peut être rouverte."))
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    season_id = tournament.season_id
    transaction.on_commit(lambda: season_ranking_update.delay(season_id))
    return tournament
