from django.apps import AppConfig


class BenchmarksConfig(AppConfig):
    """Benchmarks and load tests, outside the club's apps: ``manage.py bench``."""

    name = "benchmarks"
