"""Path converters: a number in an address is an id only when the database can hold it."""

from __future__ import annotations


class IdConverter:
    """An id or a round number: ASCII digits that fit a 64-bit integer. A longer number (or
    "²") is no page of the site: 404, never an overflow in the database."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
