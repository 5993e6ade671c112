"""The outbox's task names (infra.outbox.TaskName): each is a task the site's Celery app runs,
and each task that finishes pending work is named there. A name that resolves to nothing
would leave its rows pending forever (beat would hand them again every few minutes)."""

from __future__ import annotations

import datetime
import logging
import socket
import sys
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.core import mail
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from config.celery import app
from games.models import ResultEmail, Tournament
from infra.logs import ClientErrorWithoutTraceback, OneLineFormatter
from infra.models import PendingWork
from infra.outbox import TaskName, pending_requeue, pending_summary, work_queue, work_run
from scoring import services as scoring_services
from scoring.models import RankingSnapshot

# The site's own packages: Celery's own tasks (``celery.*``) are none of the outbox's.
SITE_PACKAGES = ("club.", "games.", "scoring.", "infra.", "api.", "clubsite.")
# A task's former name, still registered for one release so that messages queued before the
# upgrade run (games.tasks); it hands the work to the task of the new name.
FORMER_NAMES = {"games.tasks.night_results_email"}


def site_tasks() -> set[str]:
    # Every app's tasks module is registered when imported: autodiscovery, as a worker does.
    app.loader.import_default_modules()
    return {name for name in app.tasks if name.startswith(SITE_PACKAGES)}


def beat_tasks() -> set[str]:
    return {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}


def test_every_task_name_of_the_outbox_is_a_task_the_site_runs():
    assert {str(name) for name in TaskName} - site_tasks() == set()


def test_every_task_of_the_site_is_queued_through_the_outbox_or_by_beat():
    # A new task is either work that follows a commit (its name goes in TaskName) or a
    # periodic one (beat's schedule names it).
    unnamed = site_tasks() - set(TaskName) - beat_tasks() - FORMER_NAMES
    assert unnamed == set()


def test_every_task_beat_runs_is_a_task_of_the_site():
    assert beat_tasks() - site_tasks() == set()


def test_a_task_name_is_the_text_stored_in_a_pending_row():
    # The rows store plain text and beat hands them by it: a name compares equal to its text.
    assert TaskName.RESULTS_EMAIL == "games.tasks.tournament_results_email"
    assert app.tasks[TaskName.RESULTS_EMAIL].name == TaskName.RESULTS_EMAIL


# Work that follows a commit survives a broker outage (infra.outbox): a night closed while the
# broker is down is closed, without a 500; its ranking and result e-mails are recorded as
# pending and catch up once the broker is back, once. Also /healthz and the production logs.

EMBALLAGE = {"contract": "emballage", "bid": 8, "declarers": ["2", "4"], "tricks": 9}


def closed_port() -> int:
    """A port of 127.0.0.1 where nothing listens (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def broker_down(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The site as in production (tasks go to a broker), its broker on a closed port."""
    # The app reads its settings under Django's names (the CELERY_ namespace); Celery takes
    # the environment's broker first.
    saved = (app.conf.CELERY_TASK_ALWAYS_EAGER, app.conf.CELERY_BROKER_URL)
    closed = f"redis://127.0.0.1:{closed_port()}/3"
    monkeypatch.setenv("CELERY_BROKER_URL", closed)
    app.conf.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.CELERY_BROKER_URL = closed
    # Producers made earlier for another broker are not reused.
    app._pool = None
    app.amqp._producer_pool = None
    try:
        yield
    finally:
        app.conf.CELERY_TASK_ALWAYS_EAGER, app.conf.CELERY_BROKER_URL = saved
        # The next test gets a producer pool for the broker it configures.
        app._pool = None
        app.amqp._producer_pool = None


class Said(logging.Handler):
    """What the outbox logged, line by line."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def broker_back() -> None:
    """The broker and a worker are back: tasks handed to it now run (in-process here)."""
    app.conf.CELERY_TASK_ALWAYS_EAGER = True


@pytest.fixture
def played_night(running_night: Tournament) -> Tournament:
    for poule in running_night.poules.all():
        scoring_services.deal_record(poule, EMBALLAGE)
        for seat in poule.seats.select_related("player"):
            seat.player.email = f"joueur{seat.player.pk}@example.org"
            seat.player.save(update_fields=["email"])
    return running_night


def later() -> datetime.datetime:
    """Beat's next run, past the time a fresh row is left to its own send."""
    return timezone.now() + datetime.timedelta(minutes=1)


@pytest.mark.django_db(transaction=True)
def test_a_night_closed_while_the_broker_is_down_closes_and_catches_up_once(
    client, played_night, scorer, broker_down
):
    night = played_night
    client.force_login(scorer)
    url = reverse("games:close", kwargs={"slug": night.club.slug, "pk": night.pk})

    said = Said()
    outbox_log = logging.getLogger("infra.outbox")
    # Another test may have configured logging anew (which disables existing loggers).
    was_disabled, outbox_log.disabled = outbox_log.disabled, False
    outbox_log.addHandler(said)
    try:
        response = client.post(url, {"confirm": "1"})
    finally:
        outbox_log.removeHandler(said)
        outbox_log.disabled = was_disabled

    assert response.status_code == 302
    night.refresh_from_db()
    assert night.status == Tournament.Status.CLOSED
    page = client.get(response["Location"]).content.decode()
    assert "le classement est en cours de calcul" in page
    pending = set(PendingWork.objects.values_list("task", "key"))
    assert pending == {
        (TaskName.SEASON_RANKING_UPDATE, night.season_id),
        (TaskName.RESULTS_EMAIL, night.pk),
        (TaskName.RATINGS_UPDATE, night.pk),
    }
    assert len(said.lines) == 3
    assert all("not queued (OperationalError" in line for line in said.lines)
    assert not RankingSnapshot.objects.filter(season=night.season).exists()
    assert mail.outbox == []
    assert pending_summary().count == 3

    # Beat runs while the broker is still down: nothing is lost, nothing is done.
    assert pending_requeue(later()) == 0
    assert PendingWork.objects.count() == 3

    broker_back()
    assert pending_requeue(later()) == 3

    assert PendingWork.objects.count() == 0
    snapshot = RankingSnapshot.objects.get(season=night.season, published_at__isnull=True)
    assert snapshot.tournaments == 1
    sent = len(mail.outbox)
    assert sent == ResultEmail.objects.filter(tournament=night).count() == 9
    # Beat again, a message delivered twice: nobody gets his results a second time.
    assert pending_requeue(later()) == 0
    app.tasks[TaskName.RESULTS_EMAIL].delay(night.pk)
    assert len(mail.outbox) == sent
    page = client.get(reverse("ranking", args=[night.club.slug])).content.decode()
    assert "en cours de calcul" not in page


@pytest.mark.django_db(transaction=True)
def test_reopening_and_publishing_while_the_broker_is_down_answer_without_a_500(
    client, played_night, club_admin, broker_down
):
    night = played_night
    scoring_services.tournament_close(night, unfinished_ok=True)
    client.force_login(club_admin)

    reopen = reverse("games:reopen", kwargs={"slug": night.club.slug, "pk": night.pk})
    assert client.post(reopen, {"confirm": "1"}).status_code == 302
    night.refresh_from_db()
    assert night.status == Tournament.Status.RUNNING
    scoring_services.tournament_close(night, unfinished_ok=True)
    publish = reverse("ranking-publish", args=[night.club.slug, night.season.slug])
    response = client.post(publish)
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Publication du classement" in page
    assert "Classement en cours de calcul" in page
    assert not RankingSnapshot.objects.published().exists()

    broker_back()
    pending_requeue(later())
    assert RankingSnapshot.objects.published().count() == 1
    # A publication delivered twice publishes once.
    app.tasks[TaskName.RANKING_PUBLISH].delay(night.season_id)
    assert RankingSnapshot.objects.published().count() == 1
    assert PendingWork.objects.count() == 0


@pytest.mark.django_db
def test_work_asked_again_while_it_runs_stays_pending(season, django_capture_on_commit_callbacks):
    """A change that asks for the ranking while the task computes it: the task's end leaves the
    row, so the ranking is computed once more (beat queues it)."""
    work_queue(TaskName.SEASON_RANKING_UPDATE, season.pk)
    row = PendingWork.objects.get()

    def meanwhile() -> int:
        PendingWork.objects.filter(pk=row.pk).update(
            requested_at=row.requested_at + datetime.timedelta(seconds=1)
        )
        return 1

    assert work_run(TaskName.SEASON_RANKING_UPDATE, season.pk, meanwhile) == 1
    assert PendingWork.objects.filter(pk=row.pk).exists()


@pytest.mark.django_db
def test_healthz_is_green_with_the_database_and_no_old_pending_work(client, season):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "broker": "in-process",
        "cache": "in-process",
        "pending_work": {"count": 0, "oldest_seconds": 0},
    }

    PendingWork.objects.create(
        task=TaskName.SEASON_RANKING_UPDATE,
        key=season.pk,
        requested_at=timezone.now() - datetime.timedelta(hours=1),
    )
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json()["pending_work"]["count"] == 1
    assert response.json()["pending_work"]["oldest_seconds"] >= 3600


@pytest.mark.django_db
def test_healthz_is_red_when_the_broker_is_unreachable(client, broker_down):
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json()["broker"].startswith("error")


def test_a_traceback_is_logged_on_one_line_and_a_403_without_it():
    try:
        raise PermissionError("refused")
    except PermissionError:
        exc_info = sys.exc_info()
    formatter = OneLineFormatter("%(levelname)s %(message)s")
    refused = logging.LogRecord("django.request", logging.WARNING, "", 0, "Forbidden", (), exc_info)
    refused.status_code = 403
    assert ClientErrorWithoutTraceback().filter(refused)
    assert formatter.format(refused) == "WARNING Forbidden"

    failed = logging.LogRecord("django.request", logging.ERROR, "", 0, "Server error", (), exc_info)
    failed.status_code = 500
    ClientErrorWithoutTraceback().filter(failed)
    line = formatter.format(failed)
    assert "\n" not in line
    assert "Traceback" in line
    assert "PermissionError: refused" in line


@override_settings(MEDIA_ACCEL_REDIRECT="")
def test_an_upload_is_served_with_debug_off_and_nothing_outside_media(client, tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path
    (tmp_path / "players").mkdir()
    (tmp_path / "players" / "anne.jpg").write_bytes(b"\xff\xd8\xff photo")
    (tmp_path.parent / "secret.txt").write_text("no")

    response = client.get("/media/players/anne.jpg")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/jpeg"
    assert b"".join(response.streaming_content) == b"\xff\xd8\xff photo"
    assert client.get("/media/../secret.txt").status_code == 404
    assert client.get("/media/players/absent.jpg").status_code == 404

    settings.MEDIA_ACCEL_REDIRECT = "/protected-media/"
    response = client.get("/media/players/anne.jpg")
    assert response["X-Accel-Redirect"] == "/protected-media/players/anne.jpg"
    assert response.content == b""


@pytest.mark.django_db
def test_a_real_403_is_logged_as_one_line_without_traceback(client, member, running_night):
    """A member asking for a scorer's page: Django logs the refusal; our handler's filter and
    formatter make it one line, no traceback."""
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    handler = Collect()
    handler.addFilter(ClientErrorWithoutTraceback())
    handler.setFormatter(OneLineFormatter("%(levelname)s %(name)s %(message)s"))
    request_log = logging.getLogger("django.request")
    was_disabled, request_log.disabled = request_log.disabled, False
    request_log.addHandler(handler)
    try:
        client.force_login(member)
        url = reverse(
            "games:presence", kwargs={"slug": running_night.club.slug, "pk": running_night.pk}
        )
        assert client.get(url).status_code == 403
    finally:
        request_log.removeHandler(handler)
        request_log.disabled = was_disabled
    assert lines == [f"WARNING django.request Forbidden (Permission denied): {url}"]


@pytest.mark.django_db
def test_work_sent_and_not_done_is_sent_again_after_the_setting_says(season, settings):
    settings.PENDING_RESEND_SECONDS = 120
    now = timezone.now()
    PendingWork.objects.create(
        task=TaskName.SEASON_RANKING_UPDATE,
        key=season.pk,
        requested_at=now - datetime.timedelta(seconds=119),
        sent_at=now - datetime.timedelta(seconds=119),
    )
    assert pending_requeue(now) == 0  # its worker may still be at it
    assert pending_requeue(now + datetime.timedelta(seconds=2)) == 1


def test_beat_looks_for_pending_work_as_often_as_the_setting_says(settings):
    schedule = settings.CELERY_BEAT_SCHEDULE["pending-work-requeue"]["schedule"]
    assert schedule == settings.PENDING_REQUEUE_SECONDS == 60
    assert settings.PENDING_RESEND_SECONDS == 300
