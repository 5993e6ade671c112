"""Where the benchmarks run: a throw-away database, as the test runner makes one (the club's
own data never touched), the test client's host, static files by their plain names, and the
Celery tasks in this process."""

from __future__ import annotations

import atexit
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
        "photos": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    },
}


@contextmanager
def tasks_in_process() -> Iterator[None]:
    """Closing an imported night queues the season ranking: with a broker configured, a
    worker would run it against the club's own database, with the throw-away one's ids."""
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    # What a worker does once as it starts (Django's system checks, its tasks' modules), which
    # the first task run in this process would do otherwise, timed with the first import.
    app.loader.import_default_modules()
    try:
        yield
    finally:
        app.conf.task_always_eager = eager


# The test suite's migrated copies, one per test database: a benchmark run by a test starts
# from a copy of it, not from a database migrated from zero (some 9 s of CPU each time, a
# dozen times per test run, where copying the file takes a few milliseconds).
_MIGRATED: set[str] = set()


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
        _copy_of_migrated(test["NAME"])
    else:
        connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        with override_settings(**BENCH_SETTINGS, **settings), tasks_in_process():
            yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        test["NAME"] = old_test_name


def _copy_of_migrated(migrated: str) -> None:
    """Connects to a fresh copy of the database ``migrated``, made and migrated on the first
    call of this process (dropped when it ends): the same as a database migrated from zero,
    data migrations' rows included."""
    if migrated in _MIGRATED:
        connection.close()
        connection.settings_dict["NAME"] = migrated
    else:
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        _MIGRATED.add(migrated)
        atexit.register(_drop, migrated)
    # Copied closed: a SQLite file holds all its rows once its last connection has closed
    # (none left in its write-ahead log), and PostgreSQL copies a template no one is on.
    connection.close()
    connection.creation.clone_test_db(suffix="copy", verbosity=0, autoclobber=True)
    connection.settings_dict["NAME"] = connection.creation.get_test_db_clone_settings("copy")[
        "NAME"
    ]


def _drop(migrated: str) -> None:
    name = connection.settings_dict["NAME"]
    connection.settings_dict["NAME"] = migrated
    connection.creation.destroy_test_db(name, verbosity=0)
