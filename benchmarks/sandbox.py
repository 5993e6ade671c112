"""Where the benchmarks run: a throw-away database, as the test runner makes one (the club's
own data never touched), the test client's host, static files by their plain names, and the
Celery tasks in this process."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection
from django.test.utils import override_settings

from config.celery import app

# What every benchmark runs with: the test client's host, and the static files by their plain
# names (the measured pages, not the collected and hashed files of a deployment, which a
# machine that never ran collectstatic does not have).
BENCH_SETTINGS: dict[str, Any] = {
    "ALLOWED_HOSTS": ["testserver"],
    "STORAGES": {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    },
}


@contextmanager
def tasks_in_process() -> Iterator[None]:
    """Closing an imported night queues the season ranking: with a broker configured, a
    worker would run it against the club's own database, with the throw-away one's ids."""
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = eager


@contextmanager
def throwaway_database(**settings: Any) -> Iterator[None]:
    """A test database made and dropped around the benchmark, with ``BENCH_SETTINGS`` and
    ``settings`` on top. No test-environment set-up: its instrumented template rendering
    would be timed too."""
    old_name = connection.settings_dict["NAME"]
    test = connection.settings_dict["TEST"]
    old_test_name = test.get("NAME")
    if old_test_name and old_test_name == old_name:
        # Already on a test database (the test suite's own file): never clobber it.
        test["NAME"] = f"{old_name}-bench"
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        with override_settings(**BENCH_SETTINGS, **settings), tasks_in_process():
            yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        test["NAME"] = old_test_name
