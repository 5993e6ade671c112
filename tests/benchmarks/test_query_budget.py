"""The query budget: ``bench --quick`` fails when a hot path gains a query, and says which."""

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from benchmarks import query_budget
from benchmarks.report import Row


def sqlite_only() -> None:
    """The stored counts are SQLite's (CI's quick run): on PostgreSQL a few paths differ by a
    savepoint, and the run says it does not check them."""
    if connection.vendor != "sqlite":
        pytest.skip("the query budget is counted on SQLite")


def row(measure: str, size: str, *queries: int) -> Row:
    return Row(measure, size, queries=list(queries))


def test_a_path_above_its_budget_or_without_one_is_named_and_one_below_is_told():
    budget = {"record a deal | 4 players": 12, "results page | 4 players": 6}

    over, under = query_budget.over_budget(
        [
            row("record a deal", "4 players", 11, 13, 12),
            row("results page", "4 players", 5),
            row("new page", "1 season", 2),
        ],
        budget,
    )

    assert over == [
        "record a deal | 4 players: 13 queries, 1 more than its 12",
        "new page | 1 season: 2 queries and no stored budget",
    ]
    assert under == ["results page | 4 players: 5 queries, below its 6"]


def test_the_budget_is_written_from_sqlite_only_and_keeps_the_rows_not_run(tmp_path):
    path = tmp_path / "budget.json"
    path.write_text(json.dumps({"engine | 50 deals": 0, "results page | 4 players": 9}))

    query_budget.store([row("results page", "4 players", 6, 6)], "sqlite", path)

    assert json.loads(path.read_text()) == {"engine | 50 deals": 0, "results page | 4 players": 6}
    with pytest.raises(ValueError, match="SQLite's"):
        query_budget.store([row("results page", "4 players", 6)], "postgresql", path)


def test_the_stored_budget_names_every_measure_of_the_quick_run():
    measures = {key.split(" | ")[0] for key in query_budget.stored()}

    assert {
        "results page (games:results)",
        "record a deal (score sheet POST)",
        "season ranking task",
        "import nights (tournaments_import)",
        "Mes résultats, first view",
    } <= measures


@pytest.mark.django_db(transaction=True)
def test_the_quick_run_fails_when_a_path_gains_a_query(tmp_path, monkeypatch):
    sqlite_only()
    lowered = query_budget.stored()
    key = "results page (games:results) | 4 players"
    lowered[key] -= 1
    path = tmp_path / "budget.json"
    path.write_text(json.dumps(lowered))
    monkeypatch.setattr(query_budget, "BUDGET", path)

    with pytest.raises(
        CommandError,
        match=r"a path gains queries:\n  results page \(games:results\) \| 4 players: "
        r"4 queries, 1 more than its 3",
    ):
        call_command("bench", "--quick", "--only", "results", stdout=io.StringIO())


@pytest.mark.django_db(transaction=True)
def test_the_quick_run_within_its_budget_says_so():
    sqlite_only()
    out = io.StringIO()

    call_command("bench", "--quick", "--only", "results,record", stdout=out)

    assert "query budget: 6 paths within their stored counts" in out.getvalue()
