"""Logging for production: one line per event, and no traceback for an ordinary refusal."""

from __future__ import annotations

import logging


class OneLineFormatter(logging.Formatter):
    """A record and its traceback on one line (`` ⏎ `` between the traceback's lines): a log
    collector keeps each event whole, and ``grep`` finds it."""

    def format(self, record: logging.LogRecord) -> str:
        return super().format(record).replace("\r", "").replace("\n", " ⏎ ")


class ClientErrorWithoutTraceback(logging.Filter):
    """Django logs a refused request (403 permission denied, 400, 404) with the exception that
    refused it: for a 4xx that is the site working as meant, so the line stays and its
    traceback goes. A 500 keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status is not None and status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
