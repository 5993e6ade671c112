"""manage.py bench — every measure of the site's speed at two sizes, each next to a baseline.

DJANGO_SECRET_KEY=bench python manage.py bench            # about two minutes
DJANGO_SECRET_KEY=bench python manage.py bench --full     # the import on 500 nights
DATABASE_URL=postgres://… DJANGO_SECRET_KEY=bench python manage.py bench
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test.utils import override_settings

from club import benchmarks
from club.bench import BENCH_SETTINGS
from club.celery import app


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


class Command(BaseCommand):
    help = (
        "Benchmark: pages, recording a deal, the season ranking, the import and the engine, "
        "at two sizes each, next to their baselines, in a throw-away database."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument(
            "--only",
            default=",".join(benchmarks.MEASURES),
            help=f"measures to run, comma-separated, among {', '.join(benchmarks.MEASURES)}",
        )
        parser.add_argument(
            "--requests",
            type=int,
            default=None,
            help="requests (or runs) per measure and size; default 50, 3 with --quick",
        )
        sizes = parser.add_mutually_exclusive_group()
        sizes.add_argument(
            "--full", action="store_true", help="import 500 nights (10 seasons of 50)"
        )
        sizes.add_argument(
            "--quick", action="store_true", help="tiny sizes: checks that every measure runs"
        )

    def handle(
        self,
        *args: Any,
        seed: int,
        requests: int | None,
        full: bool,
        quick: bool,
        only: str,
        **options: Any,
    ) -> None:
        measures = [name.strip() for name in only.split(",") if name.strip()]
        unknown = sorted(set(measures) - set(benchmarks.MEASURES))
        if unknown or not measures:
            raise CommandError(
                f"--only: unknown measure {', '.join(unknown) or '(none)'}; "
                f"known: {', '.join(benchmarks.MEASURES)}"
            )
        if requests is None:
            requests = 3 if quick else 50
        if requests < 1:
            raise CommandError("--requests must be at least 1")
        sizes = benchmarks.QUICK if quick else benchmarks.FULL if full else benchmarks.DEFAULT
        # A throw-away database, as the test runner makes one: the benchmark never touches
        # the club's own data. No test-environment set-up: its instrumented template
        # rendering would be timed too.
        old_name = connection.settings_dict["NAME"]
        connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            with (
                override_settings(
                    **BENCH_SETTINGS,
                    # The site's addresses and the baseline's bare view.
                    ROOT_URLCONF="club.benchmarks",
                    EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
                    # A cache of its own too: the results page is measured with the cache
                    # emptied, which must not empty the club's Redis.
                    CACHES={
                        "default": {
                            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                            "LOCATION": "bench",
                        }
                    },
                ),
                tasks_in_process(),
            ):
                benchmarks.run(
                    self.stdout.write, sizes=sizes, requests=requests, seed=seed, only=measures
                )
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
