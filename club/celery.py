"""The Celery app: tasks run in-process when no broker is configured (see settings)."""

import os
from functools import partial

from celery import Celery
from django.db import transaction

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")

app = Celery("club")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def enqueue_on_commit(task_name: str, *args: int) -> None:
    """Queue the task named ``task_name`` once the current transaction commits (at once
    outside one). Services name the work that follows them and never import a tasks module:
    the tasks are the interface's, and the dependency would point up."""
    transaction.on_commit(partial(_send, task_name, args))


def _send(task_name: str, args: tuple[int, ...]) -> None:
    if task_name not in app.tasks:
        # Every app's tasks module is registered when first imported: autodiscovery does it.
        app.loader.import_default_modules()
    app.tasks[task_name].delay(*args)
