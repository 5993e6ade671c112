"""Errors that say where the problem is.

Every error carries a *place* — a path into the input such as ``poules[2].deals[7].tricks``
or ``rows[3].declarer[5]`` — so a scorer, an importer or a club bringing its own point table
can find the faulty value without reading code.
"""

from __future__ import annotations

from collections.abc import Iterable


def at(place: str, field: str | int) -> str:
    """Join a place and a field: ``at("deals[3]", "tricks")`` → ``deals[3].tricks``."""
    if isinstance(field, int):
        return f"{place}[{field}]"
    return f"{place}.{field}" if place else field


class EngineError(ValueError):
    """One problem at one place of the input."""

    def __init__(self, place: str, message: str) -> None:
        self.place = place
        self.message = message
        super().__init__(f"{place}: {message}" if place else message)

    def moved(self, prefix: str) -> EngineError:
        """The same problem seen from the enclosing document (``poules[1]`` + ``deals[3]``)."""
        return EngineError(at(prefix, self.place) if self.place else prefix, self.message)


class DocumentRefused(ValueError):
    """A document that cannot be scored, with every problem found (each one located)."""

    def __init__(self, problems: Iterable[str | EngineError]) -> None:
        self.problems = tuple(str(p) for p in problems)
        count = len(self.problems)
        summary = f"{count} problem{'s' if count != 1 else ''}"
        super().__init__(summary + ":\n" + "\n".join(self.problems))
