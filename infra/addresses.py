"""An address reversed once for a whole list: a ranking of thousands of rows would otherwise
reverse one a row, and ``reverse`` is the dearest thing such a row does."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

# An id no address holds: reversed in its place, then each row's own id goes there.
ID_MARK = 987_654_321


def address_parts(name: str, *args: Any) -> tuple[str, str]:
    """The address of ``name`` with ``args`` and an id last, split around that id: each row
    writes ``before + str(id) + after``."""
    before, _mark, after = reverse(name, args=[*args, ID_MARK]).rpartition(str(ID_MARK))
    return before, after
