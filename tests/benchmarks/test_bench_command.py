"""``manage.py bench`` with no benchmark named runs every measure and prints it as a row of
numbers. Only that: a test never asserts a time (a benchmark measures; the machine decides)."""

import io

import pytest
from django.core.management import CommandError, call_command

# The command makes and drops its own throw-away database, so it needs a real transaction;
# --quick keeps it to a few seconds (tiny sizes, three requests).
pytestmark = pytest.mark.django_db(transaction=True)

MEASURES = [
    "results page (games:results)",
    "results page, cached",
    "record a deal (score sheet POST)",
    "season ranking task",
    "season ranking, its sums",
    "current ranking (ranking)",
    "past season (ranking-season)",
    "player page (player)",
    "import nights (tournaments_import)",
    "Mes résultats (my-results)",
    "Mes résultats, first view",
    "player statistics, first view",
    "engine: score_deal into totals",
]
HEADER = ["p50 ms", "p95 ms", "queries", "baseline p50 ms", "ratio"]


def table_rows(output: str) -> list[str]:
    lines = output.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith("measure "))
    assert all(column in lines[start] for column in HEADER)
    rows = []
    for line in lines[start + 2 :]:
        if not line.strip():
            break
        rows.append(line)
    return rows


def test_bench_prints_a_row_of_numbers_for_every_measure_at_both_sizes():
    out = io.StringIO()

    call_command("bench", "--quick", stdout=out)

    rows = table_rows(out.getvalue())
    for measure in MEASURES:
        measured = [row for row in rows if row.startswith(measure + " ")]
        assert len(measured) == 2, measure
        sizes = set()
        for row in measured:
            *label, p50, p95, queries, baseline, ratio = row.split()
            assert all(float(n) >= 0 for n in (p50, p95, queries, baseline, ratio)), row
            sizes.add(" ".join(label))
        assert len(sizes) == 2, measure
    assert len(rows) == len(MEASURES) * 2
    assert "goals (printed, never asserted):" in out.getvalue()


def test_bench_runs_only_the_measures_named():
    out = io.StringIO()

    call_command("bench", "--quick", "--only", "ranking,engine", stdout=out)

    rows = table_rows(out.getvalue())
    assert {row.split("  ")[0] for row in rows} == {
        "season ranking task",
        "season ranking, its sums",
        "engine: score_deal into totals",
    }
    assert "judged on a full run only" in out.getvalue()


def test_bench_refuses_a_measure_it_does_not_know():
    with pytest.raises(CommandError, match="unknown measure rankings"):
        call_command("bench", "--quick", "--only", "rankings")


def test_bench_runs_on_a_site_configured_for_production(settings):
    """DEBUG off means hashed static files, which a machine that never ran collectstatic does
    not have: the benchmark measures the pages with the plain names."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    out = io.StringIO()

    call_command("bench", "--quick", "--only", "results", stdout=out)

    assert [row.split("  ")[0] for row in table_rows(out.getvalue())][:1] == [
        "results page (games:results)"
    ]
