"""The « cote » on a scale that does not drift: the club's mean μ stays where everybody starts,
a newcomer starts there and moves by what he played, and each night's change and the deals
that moved it most are written with the cote."""

from __future__ import annotations

import datetime
import importlib
import random

import pytest
from django.apps import apps

from benchmarks.ratings import generated_nights
from games.demo import random_night
from games.models import Deal, Tournament
from games.nightfile import tournament_import
from games.numbering import deal_numbers
from scoring.models import PlayerRating
from scoring.statistics.cote import (
    DRIFT_TOLERANCE,
    INITIAL_MU,
    MARGIN_SIGMAS,
    MOVES,
    DealSides,
    NightRecord,
    PouleRecord,
    Rating,
    mean_drift,
    rate_night,
)


def drifts(rows: list[tuple[int, int, float]]) -> list[float]:
    """The club's mean μ less the start after each night, from ``(night, player, μ)`` rows in
    the nights' order: each player at his latest value."""
    latest: dict[int, float] = {}
    result = []
    for index, (night, player, mu) in enumerate(rows):
        latest[player] = mu
        if index + 1 == len(rows) or rows[index + 1][0] != night:
            result.append(mean_drift(latest.values()))
    return result


def test_the_mean_stays_at_the_start_over_generated_seasons():
    """The bench's nights (players of a hidden skill, solos mostly made): a side of three
    losing to a lone declarer used to lose three shares, and every μ sank below zero."""
    ratings: dict[int, Rating] = {}
    farthest = 0.0
    for night, _skills in generated_nights(seed=3, seasons=2, nights=6, players=16):
        rate_night(ratings, night)
        farthest = max(farthest, abs(mean_drift(r.mu for r in ratings.values())))
    assert farthest < DRIFT_TOLERANCE


def newcomer_night(night: NightRecord, replaced: int, newcomer: int) -> NightRecord:
    """``night`` with ``newcomer`` in the seat of ``replaced``."""

    def swap(player: int) -> int:
        return newcomer if player == replaced else player

    return NightRecord(
        key=night.key,
        season=night.season,
        poules=tuple(
            PouleRecord(
                players=tuple(swap(p) for p in poule.players),
                ranks=poule.ranks,
                deals=tuple(
                    DealSides(
                        sides=tuple(tuple(swap(p) for p in side) for side in deal.sides),
                        ranks=deal.ranks,
                        key=(tuple(swap(p) for p in poule.players), number),
                    )
                    for number, deal in enumerate(poule.deals)
                ),
            )
            for poule in night.poules
        ),
    )


def test_a_newcomer_starts_at_the_start_and_his_first_cote_stays_within_his_margin_of_it():
    """A club of a season's history: the newcomer's first night starts from 25, whatever the
    club played before him (he used to fall from 25 to the club's sunken level, about 0)."""
    ratings: dict[int, Rating] = {}
    for night, _skills in generated_nights(seed=7, seasons=1, nights=6, players=12):
        rate_night(ratings, night)
    (night, _skills), *_rest = generated_nights(seed=8, seasons=1, nights=1, players=12)
    newcomer = 100

    lines = rate_night(ratings, newcomer_night(night, replaced=0, newcomer=newcomer))

    line = next(line for line in lines if line.player == newcomer)
    assert line.change == pytest.approx(line.mu - INITIAL_MU)
    assert abs(line.mu - INITIAL_MU) <= MARGIN_SIGMAS * line.sigma
    assert line.night_deals == 36
    # The deals that moved him most, largest first, each one of his own.
    assert len(line.moves) == MOVES
    sizes = [abs(change) for _key, change in line.moves]
    assert sizes == sorted(sizes, reverse=True)
    assert all(newcomer in players for (players, _number), _change in line.moves)
    # What he won or lost, the club lost or won: its mean, his cote with it, stays at 25.
    assert abs(mean_drift(r.mu for r in ratings.values())) < DRIFT_TOLERANCE


@pytest.fixture
def demo_like_nights(club, club_members, django_capture_on_commit_callbacks) -> list[Tournament]:
    """Eight nights as the demo club plays them (random results), two seasons, ten of the
    twelve members each night: two tables of five or of four and a half."""
    rng = random.Random(2024)
    nights = []
    for index in range(8):
        date = datetime.date(2024 + index // 4, 1 + 2 * (index % 4), 10)
        doc = random_night(
            rng,
            club=club.name,
            season=str(date.year),
            date=date,
            members=[p.display_name for p in club_members],
            present=10,
        )
        with django_capture_on_commit_callbacks(execute=True):
            nights.append(tournament_import(doc))
    return nights


def stored_rows() -> list[tuple[int, int, float]]:
    return list(
        PlayerRating.objects.order_by("tournament__date", "tournament_id").values_list(
            "tournament_id", "player_id", "mu"
        )
    )


@pytest.mark.django_db
def test_the_mean_stays_at_the_start_over_demo_like_nights(demo_like_nights):
    after_each_night = drifts(stored_rows())
    assert len(after_each_night) == 8
    assert max(abs(drift) for drift in after_each_night) < DRIFT_TOLERANCE
    # Nobody sank below zero, as every member of the demo club had.
    assert min(row[2] for row in stored_rows()) > INITIAL_MU / 2


@pytest.mark.django_db
def test_each_night_stores_the_change_of_the_cote_and_the_deals_that_moved_it_most(
    demo_like_nights,
):
    before: dict[int, float] = {}
    for row in PlayerRating.objects.order_by("tournament__date", "tournament_id"):
        assert row.change == pytest.approx(row.mu - before.get(row.player_id, INITIAL_MU))
        before[row.player_id] = row.mu
        assert len(row.moves) == MOVES
        sizes = [abs(move["change"]) for move in row.moves]
        assert sizes == sorted(sizes, reverse=True)
        # Each deal named as the sheet numbers it, with his part and his points in it.
        for move in row.moves:
            poule = row.tournament.poules.get(round=move["round"], table=move["table"])
            deals = list(Deal.objects.filter(poule=poule).order_by("position"))
            numbers = deal_numbers(row.game, deals)
            deal = deals[numbers.index(move["number"])]
            seat = poule.seats.get(player=row.player_id).number
            assert (deal.data["contract"], deal.data.get("bid")) == (move["contract"], move["bid"])
            assert deal.points[seat - 1] == move["points"]
            declaring = str(seat) in {str(s) for s in deal.data.get("declarers", ())}
            assert move["role"] == ("declarer" if declaring else "defender")


@pytest.mark.django_db
def test_the_migration_rewrites_a_stored_cote_that_drifted(demo_like_nights):
    """Sites upgrading keep their nights: the data migration rewrites the cote they stored."""
    stored = {(r[0], r[1]): r[2] for r in stored_rows()}
    PlayerRating.objects.update(mu=-1.7, change=0.0, moves=[])
    migration = importlib.import_module("scoring.migrations.0013_cote_rewritten")

    migration.rewrite_the_cote(apps, None)

    assert {(r[0], r[1]): r[2] for r in stored_rows()} == pytest.approx(stored)
    assert all(row.moves for row in PlayerRating.objects.all())
