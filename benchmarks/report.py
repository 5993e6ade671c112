"""What every benchmark prints: percentiles, numbers as the club writes them, and the table of
``manage.py bench`` (measure, size, p50, p95, queries, baseline, ratio).

Pure Python: the engine's benchmark (``python -m benchmarks.engine``) uses it without Django.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest rank: never below the median, however few the values (0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def p50(times: Sequence[float]) -> float:
    return statistics.median(times)


def p95(times: Sequence[float]) -> float:
    return percentile(times, 0.95)


def ms(value: float) -> str:
    """A time in ms: one decimal from 10 ms, two below."""
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def count(number: int, thing: str) -> str:
    """``1 night``, ``10 000 deals``."""
    return f"{number:,} {thing}{'s' if number > 1 else ''}".replace(",", " ")


def thin(value: float, width: int = 0) -> str:
    """A number with thin groups, as the club writes them: 200 000."""
    return f"{value:>{width},.0f}".replace(",", " ")


def names(number: int) -> list[str]:
    """``Joueur 01`` … : the players of the generated nights."""
    return [f"Joueur {n:02d}" for n in range(1, number + 1)]


@dataclass
class Row:
    """One measure at one size: its times (ms) and queries per call, its baseline's times."""

    measure: str
    size: str
    times: list[float] = field(default_factory=list)
    queries: list[int] = field(default_factory=list)
    baseline: list[float] = field(default_factory=list)

    def add(self, measured: tuple[float, int, Any], baseline: tuple[float, int, Any]) -> None:
        self.times.append(measured[0])
        self.queries.append(measured[1])
        self.baseline.append(baseline[0])

    @property
    def ratio(self) -> float:
        return p50(self.times) / p50(self.baseline)

    # What one call does: the import takes a whole batch of nights in one call.
    items: int = 1

    @property
    def rate(self) -> float:
        """Items a second: nights a second, for the import."""
        return self.items * len(self.times) / (sum(self.times) / 1000)

    @property
    def baseline_rate(self) -> float:
        return self.items * len(self.baseline) / (sum(self.baseline) / 1000)


def table(rows: Sequence[Row]) -> list[str]:
    header = (
        f"{'measure':36} {'size':12} {'p50 ms':>9} {'p95 ms':>9} {'queries':>8} "
        f"{'baseline p50 ms':>16} {'ratio':>8}"
    )
    lines = [header, "-" * len(header)]
    for row in rows:
        lines.append(
            f"{row.measure:36} {row.size:12} {ms(p50(row.times)):>9} "
            f"{ms(p95(row.times)):>9} {statistics.median(row.queries):>8g} "
            f"{ms(p50(row.baseline)):>16} {row.ratio:>8.2f}"
        )
    return lines


def markdown(rows: Sequence[Row]) -> list[str]:
    """The same table in Markdown, for docs/benchmarks.md (``manage.py bench --figures``)."""
    lines = [
        "| measure | size | p50 ms | p95 ms | queries | baseline p50 ms | ratio |",
        "|---|---|--:|--:|--:|--:|--:|",
    ]
    for row in rows:
        lines.append(
            f"| {row.measure} | {row.size} | {ms(p50(row.times))} | {ms(p95(row.times))} | "
            f"{statistics.median(row.queries):g} | {ms(p50(row.baseline))} | {row.ratio:.2f}× |"
        )
    return lines
