"""The Celery app: tasks run in-process when no broker is configured (see settings). Services
never queue a task themselves: they record the work with their change (``infra.outbox``)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("clubwhist")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
