"""``manage.py bench --figures``: docs/benchmarks.md's table of figures rewritten from this run.

The figures of one run stand together (a ratio is only meaningful beside its own baseline), so
the whole block between the two markers is replaced, never a line of it.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Sequence
from pathlib import Path

from django.conf import settings

from .report import Row, markdown

# The page the figures are read on, from the repository's root.
PAGE = Path("docs") / "benchmarks.md"
START = "<!-- bench: the figures of one run, written by manage.py bench --figures -->"
END = "<!-- bench: end -->"


def block(rows: Sequence[Row], goals: Sequence[str], vendor: str, requests: int) -> list[str]:
    today = datetime.date.today().isoformat()
    return [
        START,
        f"One run on {today}: {vendor}, {os.cpu_count()} cores, {requests} requests (or runs) "
        "a measure and size.",
        "",
        *markdown(rows),
        "",
        "```text",
        *goals,
        "```",
        END,
    ]


def figures_rewritten(
    rows: Sequence[Row], goals: Sequence[str], vendor: str, requests: int
) -> Path:
    """Replaces the page's block (between ``START`` and ``END``) with this run's."""
    path = Path(settings.BASE_DIR) / PAGE
    block_rewritten(path, START, END, block(rows, goals, vendor, requests))
    return path


def block_rewritten(path: Path, start: str, end: str, lines: Sequence[str]) -> None:
    """Replaces the block of ``path`` from the line ``start`` to ``end`` with ``lines`` (which
    carry both markers): each benchmark that writes figures into a page has its own block."""
    text = path.read_text(encoding="utf-8")
    if start not in text or end not in text:
        raise ValueError(f"{path.name} has no bench block: put {start} and {end} where it goes")
    before, rest = text.split(start, 1)
    after = rest.split(end, 1)[1]
    path.write_text(before + "\n".join(lines) + after, encoding="utf-8")
