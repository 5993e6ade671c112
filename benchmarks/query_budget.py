"""The queries each hot path may make, stored with the benchmarks and checked by
``manage.py bench --quick`` (CI runs it): a path that gains a query fails the run.

Times are printed and never asserted (the machine decides them); a query count is exact on
one database, so it is the one figure a run can hold a change to. The budget is each row's
most queries in one call at the quick sizes on SQLite (the database CI's quick run uses; on
PostgreSQL a few paths differ by a savepoint). ``--store-queries`` writes the file anew after
a change that was meant to move a count, so the change shows in the diff of this file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from .report import Row

BUDGET = Path(__file__).with_name("query_budget.json")


def key(row: Row) -> str:
    return f"{row.measure} | {row.size}"


def most(row: Row) -> int:
    """A row's worst call: one deal of the poule may write more than the next."""
    return max(row.queries, default=0)


def stored(path: Path | None = None) -> dict[str, int]:
    path = path or BUDGET
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def store(rows: Iterable[Row], vendor: str, path: Path | None = None) -> dict[str, int]:
    """Write every row's count; rows of measures not run keep their stored figure."""
    path = path or BUDGET
    if vendor != "sqlite":
        raise ValueError(f"the query budget is SQLite's, this run is on {vendor}")
    budget = stored(path) | {key(row): most(row) for row in rows}
    path.write_text(
        json.dumps(dict(sorted(budget.items())), indent=2, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    return budget


def over_budget(rows: Iterable[Row], budget: dict[str, int]) -> tuple[list[str], list[str]]:
    """(paths above their budget or with none, paths now below it), each as a line of words."""
    over, under = [], []
    for row in rows:
        allowed = budget.get(key(row))
        made = most(row)
        if allowed is None:
            over.append(f"{key(row)}: {made} queries and no stored budget")
        elif made > allowed:
            over.append(f"{key(row)}: {made} queries, {made - allowed} more than its {allowed}")
        elif made < allowed:
            under.append(f"{key(row)}: {made} queries, below its {allowed}")
    return over, under
