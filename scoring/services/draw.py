"""The draw of a round: tonight's present players seated at tables of the game's sizes, at
random for round 1 and by the night's method after, the seed stored so that a draw can be
reproduced. The seating itself is ``games.draw``'s; this module checks and stores it.
"""

from __future__ import annotations

import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from club.models import Player
from club.name_order import by_name
from club.services import federation_pages_changed
from games import draw
from games import services as games
from games.models import DrawMethod, Poule, RoundDraw, Seat, Tournament
from games.services import require_open
from scoring.engine.games import game_module

from ..models import TournamentStanding


def _draw_order_by_standings(tournament: Tournament, present: list[int]) -> list[int]:
    """Present players best first by tonight's standings; those not yet ranked last."""
    ranked = list(
        TournamentStanding.objects.filter(tournament=tournament, player_id__in=present)
        .order_by("rank", *by_name("player__"))
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
        # The first draw starts the night.
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        if tournament.federation_season_id:
            # Its federation's calendar lists planned nights only: it leaves the "coming" list.
            federation_pages_changed(tournament.federation_season.federation_id)
    return drawn
