"""A night's life after its deals: what closing it would leave unplayed, closing it (the
season ranking and the result e-mails follow once committed), publishing and reopening it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club.models import Club
from club.services import published_pages_changed
from games.models import Deal, Tournament
from infra.outbox import TaskName, work_queue
from infra.typography import semicolon_join
from scoring.engine.games import game_module

from .federations import night_rankings_queue
from .rankings import season_ranking_queue
from .ratings import night_statistics_store, ratings_queue
from .season_stats import night_season_stats_store


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


def _close_refused(tournament: Tournament, dealt: bool | None = None) -> None:
    """What makes closing the night impossible, confirmed or not. ``dealt``: the caller wrote
    the night's poules and knows whether it has deals (an import): not asked again."""
    if tournament.is_locked:
        raise ValidationError(_("La soirée est déjà clôturée."))
    if dealt is None and not tournament.poules.exists():
        raise ValidationError(
            _("Aucun tour n'est tiré : tirez le tour 1 avant de clôturer la soirée.")
        )
    if dealt is None:
        dealt = Deal.objects.filter(poule__tournament=tournament).exists()
    if not dealt:
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
    rate: bool = True,
    dealt: bool | None = None,
) -> Tournament:
    """Lock the night and, once the close is committed, have the season ranking recomputed
    and the results e-mailed to the participants. An import of many nights ranks each season
    once at the end (``rank_season=False``), and sends no e-mail for nights of the past; it
    has the cote rewritten once, from its earliest night (``rate=False`` here, the import
    queues ``ratings_update`` itself).

    A night with unfinished tables or rounds not drawn is refused, with them listed, unless
    the scorer confirmed closing it as it is (``unfinished_ok``).

    ``dealt``: an import created the night in this transaction (its row locked already) and
    wrote its poules; it says whether they hold deals, and closes it as it is: the night is
    not read again."""
    if dealt is None:
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    else:
        unfinished_ok = True
    if not unfinished_ok:
        check = tournament_close_check(tournament)
        if not check.finished:
            raise ValidationError(
                _("La soirée n'est pas finie (%(what)s) : confirmez pour la clôturer ainsi.")
                % {"what": check}
            )
    else:
        _close_refused(tournament, dealt)
    tournament.status = Tournament.Status.CLOSED
    tournament.save(update_fields=["status"])
    # Its results now count: the members' own pages computed before are stale.
    published_pages_changed(tournament.club_id)
    if rank_season:
        season_ranking_queue(tournament.season_id)
        night_rankings_queue(tournament, published_changed=False)
        # Its statistics at once (the members' pages read them); an import's nights have them
        # written with the batch's cote, and are counted from the deals until then.
        night_statistics_store([tournament])
    if rate:
        ratings_queue(tournament.pk)
    if send_results:
        work_queue(TaskName.RESULTS_EMAIL, tournament.pk)
    return tournament


def _status_moved(tournament: Tournament, start: str, end: str, refusal: str) -> Tournament:
    """The night, locked, moved from ``start`` to ``end`` (refused with ``refusal`` in any
    other state); the published pages that show it are drawn again."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != start:
        raise ValidationError(refusal)
    tournament.status = end
    tournament.save(update_fields=["status"])
    published_pages_changed(tournament.club_id)
    # Published or taken back: the federation's ranking counts published nights only.
    published = Tournament.Status.PUBLISHED
    night_rankings_queue(tournament, published_changed=published in (start, end))
    if published in (start, end):
        # Its share picture drawn, or taken back with it (clubsite.share).
        work_queue(TaskName.NIGHT_SHARE_PICTURE, tournament.pk)
    # What his statistics add up: the public reads published nights, he every counted one.
    night_season_stats_store([tournament.pk])
    return tournament


@transaction.atomic
def tournament_publish(tournament: Tournament) -> Tournament:
    """A closed night's score sheets become visible to members and the public."""
    closed, published = Tournament.Status.CLOSED, Tournament.Status.PUBLISHED
    refusal = _("Seule une soirée clôturée peut être publiée.")
    tournament = _status_moved(tournament, closed, published, refusal)
    # The season's ranking is published with the night unless the club publishes it itself
    # (its setting): by the same task as « Publier le classement », once committed. An
    # inter-club night counts in it only when the club says so (its other setting).
    follows = Club.objects.filter(pk=tournament.club_id, ranking_follows_nights=True)
    if tournament.federation_season_id is not None:
        follows = follows.filter(ranking_interclub=True)
    if follows.exists() and tournament.season_id is not None:
        work_queue(TaskName.RANKING_PUBLISH, tournament.season_id)
    return tournament


@transaction.atomic
def tournament_reopen(tournament: Tournament) -> Tournament:
    """A club admin reopens a closed night to correct it; the ranking follows when re-closed."""
    closed, running = Tournament.Status.CLOSED, Tournament.Status.RUNNING
    refusal = _("Seule une soirée clôturée peut être rouverte.")
    tournament = _status_moved(tournament, closed, running, refusal)
    season_ranking_queue(tournament.season_id)
    ratings_queue(tournament.pk)
    return tournament


@transaction.atomic
def tournament_unpublish(tournament: Tournament) -> Tournament:
    """A club admin takes a published night's score sheets back from members and the public
    (published by mistake, a sheet to check again). The night stays closed: it still counts in
    the season ranking, which does not change."""
    published, closed = Tournament.Status.PUBLISHED, Tournament.Status.CLOSED
    refusal = _("Seule une soirée publiée peut être dépubliée.")
    return _status_moved(tournament, published, closed, refusal)
