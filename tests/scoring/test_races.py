"""Two scorers at once: a round drawn again while the first deal of that round is recorded.
On PostgreSQL (row locks; SQLite serialises whole transactions) each run ends with one of the
two done and the other refused in words — never a deadlock, never a half-written night."""

from __future__ import annotations

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from games import services as games
from games.models import Deal, Poule
from scoring import services as scoring
from tests.conftest import NIGHT_DATE

RUNS = 20
SOLO = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 6}


def at_once(*jobs):
    """Run the jobs in threads released together; each returns "done", "refused" or the
    unexpected error."""
    start = threading.Barrier(len(jobs))
    outcomes: list[str] = [""] * len(jobs)

    def run(index, job):
        start.wait()
        try:
            job()
            outcomes[index] = "done"
        except ValidationError:
            outcomes[index] = "refused"
        except Exception as error:
            outcomes[index] = repr(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_a_redraw_racing_the_first_deal_never_deadlocks(club, season, point_table, club_members):
    if connection.vendor != "postgresql":
        pytest.skip("row locks and deadlocks are PostgreSQL's; SQLite runs one writer at a time")
    for run in range(RUNS):
        night = games.tournament_create(
            club=club,
            season=season,
            date=NIGHT_DATE,
            name=f"Course {run}",
            game="belgian_whist",
            point_table=point_table,
        )
        games.presence_set(night, club_members[:8])
        scoring.round_draw(night, 1, seed=run)
        poule = Poule.objects.filter(tournament=night, round=1).first()

        outcomes = at_once(
            lambda night=night, run=run: scoring.round_draw(night, 1, seed=run + 1000),
            lambda poule=poule: scoring.deal_record(poule, SOLO),
        )

        assert sorted(outcomes) == ["done", "refused"], outcomes
        dealt = Deal.objects.filter(poule__tournament=night).count()
        assert dealt == (1 if outcomes[1] == "done" else 0)
