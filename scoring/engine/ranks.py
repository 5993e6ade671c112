"""Competition ranking (1, 1, 3, 4): equal keys share a rank, never broken at random."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

T = TypeVar("T")


def competition_ranks(
    items: Sequence[T], key: Callable[[T], Hashable]
) -> list[tuple[T, int, bool]]:
    """Sort ``items`` by ``key`` (smaller key = better) and give each ``(item, rank, tied)``.

    The sort is stable, so tied items keep their input order: the output is deterministic.
    """
    ordered = sorted(items, key=key)
    keys = [key(item) for item in ordered]
    ranked: list[tuple[T, int, bool]] = []
    for index, item in enumerate(ordered):
        rank = index + 1
        if index and keys[index] == keys[index - 1]:
            rank = ranked[index - 1][1]
        tied = (index > 0 and keys[index] == keys[index - 1]) or (
            index + 1 < len(keys) and keys[index] == keys[index + 1]
        )
        ranked.append((item, rank, tied))
    return ranked
