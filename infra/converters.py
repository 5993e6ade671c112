"""Path converters: a number in an address is an id only when the database can hold it; and
the same rule for an id a form posts (``typed_id``)."""

from __future__ import annotations

import re

_ID = re.compile(r"[0-9]{1,18}")


def typed_id(value: str) -> int | None:
    """The id a form's field holds (ASCII digits that fit a 64-bit integer, as in an address),
    or None for anything else: "²".isdigit() is True, and int("²") fails."""
    return int(value) if _ID.fullmatch(value) else None


class IdConverter:
    """An id or a round number: ASCII digits that fit a 64-bit integer. A longer number (or
    "²") is no page of the site: 404, never an overflow in the database."""

    regex = _ID.pattern

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
