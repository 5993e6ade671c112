"""manage.py bench_public_pages — time the ranking and player pages on ten seasons of data."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import connection
from django.test.utils import override_settings

from club.bench import BENCH_SETTINGS, run


class Command(BaseCommand):
    help = "Benchmark: server time and queries of the ranking and player pages (10 seasons)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument("--requests", type=int, default=200, help="requests per page")

    def handle(self, *args: Any, seed: int, requests: int, **options: Any) -> None:
        # A throw-away database, as the test runner makes one: the benchmark never touches
        # the club's own data. No test-environment set-up: its instrumented template
        # rendering would be timed too.
        old_name = connection.settings_dict["NAME"]
        connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            with override_settings(**BENCH_SETTINGS):
                run(self.stdout.write, seed=seed, requests=requests)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
