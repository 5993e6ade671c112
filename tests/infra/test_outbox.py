"""The outbox's task names (infra.outbox.TaskName): each is a task the site's Celery app runs,
and each task that finishes pending work is named there. A name that resolves to nothing
would leave its rows pending forever (beat would hand them again every few minutes)."""

from django.conf import settings

from config.celery import app
from infra.outbox import TaskName

# The site's own packages: Celery's own tasks (``celery.*``) are none of the outbox's.
SITE_PACKAGES = ("club.", "games.", "scoring.", "infra.", "api.")
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
