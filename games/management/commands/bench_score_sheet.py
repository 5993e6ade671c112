"""manage.py bench_score_sheet — time recording deals on score sheets in a 40-player night."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import connection
from django.test.utils import override_settings

from club.bench import BENCH_SETTINGS
from games.bench import run


class Command(BaseCommand):
    help = "Benchmark: server time and queries to record a deal during a 40-player night."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--seed", type=int, default=2026)

    def handle(self, *args: Any, seed: int, **options: Any) -> None:
        # A throw-away database, as the test runner makes one: the benchmark never touches
        # the club's own data. No test-environment set-up: its instrumented template
        # rendering would be timed too.
        old_name = connection.settings_dict["NAME"]
        connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            with override_settings(**BENCH_SETTINGS):
                run(self.stdout.write, seed=seed)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
