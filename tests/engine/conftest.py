"""Hypothesis on a shared two-core machine: examples are judged on what they show, never on how
long one took (speed is the benchmark's business, not a test's)."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "club", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("club")
