"""Durable background work with the real components: a Celery worker process on Redis and
PostgreSQL (the production stage of .ci/run). A worker killed in the middle of the season's
ranking runs it again at once (acks late, rejected on worker loss); a night closed while the
broker is unreachable catches up through the real worker once the broker is back, once.

Each test uses Redis DB 3 with a queue of its own and the PostgreSQL test database; without
PostgreSQL and Redis on 127.0.0.1 they are skipped, saying so."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from config.celery import app
from games.models import ResultEmail, Tournament
from infra.models import PendingWork
from infra.outbox import FRESH, TaskName, pending_requeue
from scoring import services as scoring_services
from scoring.models import PlayerRating, RankingSnapshot

REDIS = ("127.0.0.1", 6379)
BROKER = "redis://127.0.0.1:6379/3"
ROOT = Path(__file__).resolve().parents[2]
EMBALLAGE = {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9}


def _redis_up() -> bool:
    try:
        with socket.create_connection(REDIS, timeout=1):
            return True
    except OSError:
        return False


pytestmark = [
    pytest.mark.production,
    pytest.mark.skipif(
        "postgres" not in os.environ.get("DATABASE_URL", ""),
        reason="needs PostgreSQL (DATABASE_URL): the worker is another process on the same DB",
    ),
    pytest.mark.skipif(not _redis_up(), reason="needs Redis on 127.0.0.1:6379 (DB 3)"),
    pytest.mark.django_db(transaction=True),
]


def wait_for(what: str, ready: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if ready():
            return
        time.sleep(0.2)
    raise AssertionError(f"gave up waiting: {what}")


def children(pid: int) -> list[int]:
    found = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True)
    return [int(line) for line in found.stdout.split()]


def broker_at(url: str) -> None:
    """Where the site sends its tasks now (Celery takes the environment's broker first)."""
    os.environ["CELERY_BROKER_URL"] = url
    app.conf.CELERY_BROKER_URL = url
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def queue(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The site sends its tasks to Redis DB 3, to a queue of this test's own."""
    name = f"prod-test-{uuid.uuid4().hex[:8]}"
    saved = (
        app.conf.CELERY_TASK_ALWAYS_EAGER,
        app.conf.CELERY_BROKER_URL,
        app.conf.CELERY_TASK_DEFAULT_QUEUE,
    )
    monkeypatch.setenv("CELERY_BROKER_URL", BROKER)
    app.conf.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.CELERY_TASK_DEFAULT_QUEUE = name
    broker_at(BROKER)
    try:
        yield name
    finally:
        (
            app.conf.CELERY_TASK_ALWAYS_EAGER,
            app.conf.CELERY_BROKER_URL,
            app.conf.CELERY_TASK_DEFAULT_QUEUE,
        ) = saved
        app._pool = None
        app.amqp._producer_pool = None


@pytest.fixture
def worker(queue: str, tmp_path: Path) -> Iterator[subprocess.Popen]:
    """A real Celery worker (prefork, one child) on the test database and the test's queue."""
    database = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_SECRET_KEY": "production-stage-worker-test",
        "DATABASE_URL": (
            f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/"
            f"{database['NAME']}"
        ),
        "CELERY_BROKER_URL": BROKER,
        "CELERY_QUEUE": queue,
    }
    env.pop("DJANGO_DEBUG", None)
    log = tmp_path / "worker.log"
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue, "-c", "1"),
            *("-l", "info", "-n", f"{queue}@%h", "--without-gossip", "--without-mingle"),
        ],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    process.log = log  # type: ignore[attr-defined]
    try:
        wait_for("the worker is ready", lambda: "ready." in log.read_text(), 60)
        yield process
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            for child in children(process.pid):
                os.kill(child, signal.SIGKILL)
            process.kill()
            process.wait(timeout=10)


@pytest.fixture
def played_night(running_night: Tournament) -> Tournament:
    for poule in running_night.poules.all():
        scoring_services.deal_record(poule, EMBALLAGE)
        for seat in poule.seats.select_related("player"):
            seat.player.email = f"joueur{seat.player.pk}@example.org"
            seat.player.save(update_fields=["email"])
    return running_night


def locked_waiters(database: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'",
            [database],
        )
        return cursor.fetchone()[0]


def test_a_worker_killed_mid_task_runs_the_task_again(played_night, worker):
    night = played_night
    database = settings.DATABASES["default"]
    # Another session holds the season's row: the ranking task blocks there, mid-task. Not its
    # key: the close's own rows that name the season (its players' season summaries) go on.
    holder = psycopg.connect(
        host=database["HOST"], port=database["PORT"], user=database["USER"], dbname=database["NAME"]
    )
    holder.execute("SELECT id FROM club_season WHERE id = %s FOR NO KEY UPDATE", [night.season_id])
    try:
        scoring_services.tournament_close(night, unfinished_ok=True, send_results=False)
        wait_for("the ranking task waits on the lock", lambda: locked_waiters(database["NAME"]) > 0)
        (child,) = children(worker.pid)
        os.kill(child, signal.SIGKILL)
        wait_for("the pool replaces the killed child", lambda: child not in children(worker.pid))
    finally:
        holder.rollback()
        holder.close()

    wait_for("the ranking is computed again", lambda: not PendingWork.objects.exists())
    snapshot = RankingSnapshot.objects.get(season=night.season, published_at__isnull=True)
    assert snapshot.tournaments == 1
    log = worker.log.read_text()
    assert "SIGKILL" in log or "WorkerLostError" in log
    assert log.count("scoring.tasks.season_ranking_update") >= 2


def test_a_night_closed_while_the_broker_is_unreachable_catches_up_through_the_worker(
    played_night, worker
):
    night = played_night
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    broker_at(f"redis://127.0.0.1:{closed}/3")

    scoring_services.tournament_close(night, unfinished_ok=True)

    night.refresh_from_db()
    assert night.is_locked
    # The season's ranking, the night's « cote » and its result e-mails wait for the broker.
    assert PendingWork.objects.count() == 3
    time.sleep(1)
    assert not RankingSnapshot.objects.exists()

    broker_at(BROKER)
    # Beat's next run, once the fresh rows are old enough to be its.
    later = PendingWork.objects.latest("requested_at").requested_at + FRESH * 2
    assert pending_requeue(later) == 3
    wait_for("the worker catches up", lambda: not PendingWork.objects.exists())

    assert RankingSnapshot.objects.filter(season=night.season).count() == 1
    assert PlayerRating.objects.filter(tournament=night).exists()
    mailed = ResultEmail.objects.filter(tournament=night).count()
    assert mailed == 9
    # Delivered again (beat after a lost acknowledgement): nobody is mailed twice.
    app.tasks[TaskName.RESULTS_EMAIL].delay(night.pk)
    time.sleep(2)
    assert ResultEmail.objects.filter(tournament=night).count() == mailed
