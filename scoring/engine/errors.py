"""Errors that say where the problem is, and what it is in words any language can render.

Every error carries a *place* — a path into the input such as ``poules[2].deals[7].tricks``
or ``rows[3].declarer[5]`` — so a scorer, an importer or a club bringing its own point table
can find the faulty value without reading code.

It also carries a stable *code* and its *parameters*
(``code="declarer_count", params={"contract": "solo", "expected": 1, "got": 2}``): the English
``message`` is what the command line and the night-file import print, and a site speaking
another language renders the code with the parameters in its own words (the engine knows no
language but English and imports no translation machinery).

Parameters follow one convention, so that a site can name things as the club reads them:
``player``/``players`` are players as the document names them (one name, a list of names);
``seat``/``seats`` are seat numbers counted from 1; ``contract`` is a Belgian whist contract
code and ``combination`` a bésigue combination code; every other parameter is a plain number or
a value shown as the document wrote it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any


def at(place: str, field: str | int) -> str:
    """Join a place and a field: ``at("deals[3]", "tricks")`` → ``deals[3].tricks``."""
    if isinstance(field, int):
        return f"{place}[{field}]"
    return f"{place}.{field}" if place else field


# The code of a problem the engine only has in words (a string handed to DocumentRefused by
# a caller, e.g. a file that cannot be read): a site shows its English message.
UNCODED = "uncoded"


class EngineError(ValueError):
    """One problem at one place of the input: its English message, its code and parameters."""

    def __init__(
        self,
        place: str,
        message: str,
        code: str = UNCODED,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        self.place = place
        self.message = message
        self.code = code
        self.params: Mapping[str, Any] = MappingProxyType(dict(params or {}))
        super().__init__(f"{place}: {message}" if place else message)

    def moved(self, prefix: str) -> EngineError:
        """The same problem seen from the enclosing document (``poules[1]`` + ``deals[3]``)."""
        return EngineError(
            at(prefix, self.place) if self.place else prefix, self.message, self.code, self.params
        )


class DocumentRefused(ValueError):
    """A document that cannot be scored, with every problem found (each one located).

    ``problems`` are the located English lines (what the command line prints); ``errors`` the
    same problems as ``EngineError`` with their codes, in the same order."""

    def __init__(self, problems: Iterable[str | EngineError]) -> None:
        self.errors = tuple(
            p if isinstance(p, EngineError) else EngineError("", str(p)) for p in problems
        )
        self.problems = tuple(str(e) for e in self.errors)
        count = len(self.problems)
        summary = f"{count} problem{'s' if count != 1 else ''}"
        super().__init__(summary + ":\n" + "\n".join(self.problems))


def settings_error(place: str, message: str) -> EngineError:
    """A club's setting (tournament points scheme, ranking rules) the engine cannot use. Only a
    club admin meets it; a site shows the located English detail inside its own sentence."""
    return EngineError(place, message, "settings_invalid", {"detail": message})


def table_error(place: str, message: str) -> EngineError:
    """A point table (a preset or a club's own) that cannot be loaded. Only whoever edits a
    table meets it; a site shows the located English detail inside its own sentence."""
    return EngineError(place, message, "table_invalid", {"detail": message})


def file_error(place: str, message: str) -> EngineError:
    """A club-night file whose shape is wrong (night-format.md): only an import or the command
    line meets it; a site shows the located English detail inside its own sentence."""
    return EngineError(place, message, "night_file_invalid", {"detail": message})
