"""``manage.py bench ratings`` prints the prediction quality of each model and the rating's
speeds (never a time asserted)."""

import io
import re

import pytest
from django.core.management import call_command

from scoring.statistics.cote import DRIFT_TOLERANCE


@pytest.mark.django_db(transaction=True)
def test_bench_ratings_prints_each_models_prediction_its_drift_and_the_speeds():
    out = io.StringIO()
    # The command makes and drops its own throw-away database (hence a real transaction).
    call_command(
        "bench",
        "ratings",
        "--seasons",
        "2",
        "--nights",
        "2",
        "--players",
        "8",
        "--requests",
        "2",
        stdout=out,
    )
    text = out.getvalue()
    for model in ("deals", "poules", "mix"):
        row = re.search(
            rf"^{model}\s+([\d.]+)\s+(-?[\d.]+)\s+([-+][\d.]+)\s+([\d.]+)\s", text, re.M
        )
        assert row, model
        assert 0 < float(row.group(1)) < 5  # a log-loss
        assert -1 <= float(row.group(2)) <= 1  # a correlation
        # The players' mean μ, less the start: after the last night, the farthest it went.
        assert abs(float(row.group(3))) <= float(row.group(4)) < DRIFT_TOLERANCE
    assert re.search(r"^rebuild: 4 nights, \d+ deals in [\d.]+ s", text, re.M)
    assert "update after one night:" in text
    queries = re.search(r"statistics page uncached: .* (\d+) queries", text)
    assert queries and int(queries.group(1)) <= 6
