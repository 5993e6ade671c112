"""Timing inside the site's process: a call's wall time and queries, a measure side by side
with its baseline, a page requested many times through the test client."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from django.core.cache import caches
from django.db import connection
from django.test import Client

from .report import Row, percentile

WARM_UP = 3  # untimed calls of each side first: templates compiled, connection open


class _QueryCount:
    """Counts the statements run on the connection (cheaper than logging them)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute: Callable[..., Any], *args: Any) -> Any:
        self.count += 1
        return execute(*args)


def timed(call: Callable[[], Any]) -> tuple[float, int, Any]:
    """``call()``'s wall time in ms, its queries, and what it returned."""
    counter = _QueryCount()
    with connection.execute_wrapper(counter):
        start = time.perf_counter()
        result = call()
        elapsed = time.perf_counter() - start
    return elapsed * 1000, counter.count, result


def ok(response: Any, what: str) -> Any:
    if response.status_code != 200:
        raise RuntimeError(f"{what}: status {response.status_code}")
    return response


def page(client: Client, address: str) -> Callable[[], Any]:
    """A GET of ``address`` that must answer 200."""
    return lambda: ok(client.get(address), address)


def caches_cleared() -> None:
    for cache in caches.all():
        cache.clear()


def side_by_side(
    row: Row,
    measured: Callable[[], Any],
    baseline: Callable[[], Any],
    requests: int,
    before: Callable[[], None] | None = None,
) -> Row:
    """``requests`` calls of each, in turn; ``before`` runs untimed before every call."""
    for _ in range(WARM_UP):
        measured()
        baseline()
    for _ in range(requests):
        if before:
            before()
        first = timed(measured)
        if before:
            before()
        row.add(first, timed(baseline))
    return row


def measure_page(
    client: Client, path: str, requests: int, *, warm_up: int = 5, cold: bool = False
) -> dict[str, Any]:
    """``requests`` timed GETs of ``path`` after ``warm_up`` untimed ones, and the queries of
    one. ``cold``: the caches emptied before each request (the first reader after a
    publication); else as every later reader finds the page."""
    for _ in range(warm_up):  # the template cache and the connection warmed
        ok(client.get(path), path)
    if cold:
        caches_cleared()
    queries = timed(page(client, path))[1]
    times = []
    for _ in range(requests):
        if cold:
            caches_cleared()
        elapsed, _queries, response = timed(lambda: client.get(path))
        ok(response, path)
        times.append(elapsed)
    return {
        "path": path,
        "queries": queries,
        "p50_ms": statistics.median(times),
        "p95_ms": percentile(times, 0.95),
        "max_ms": max(times),
    }
