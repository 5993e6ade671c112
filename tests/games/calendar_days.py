"""What the calendar's tests share: the Fridays ahead, a series as the planning page posts it,
and what a page said to its user."""

from __future__ import annotations

import datetime

from django.contrib.messages import get_messages
from django.http import HttpResponse
from django.utils import timezone


def next_friday(weeks: int = 1) -> datetime.date:
    today = timezone.localdate()
    return today + datetime.timedelta(days=(4 - today.weekday()) % 7 + 7 * weeks)


def said(response: HttpResponse) -> list[str]:
    """The messages waiting for the user after ``response`` (the ones before too)."""
    return [str(m) for m in get_messages(response.wsgi_request)]


def series_form(first: datetime.date, last: datetime.date, **extra: str) -> dict:
    """The planning page's series form: every Friday from ``first`` to ``last``, all months."""
    return {
        "form": "series",
        "series-weekday": "4",
        "series-first": first.isoformat(),
        "series-last": last.isoformat(),
        "series-months": [str(m) for m in range(1, 13)],
        "series-exceptions": "",
        "series-start": "20:00",
        "series-rules": "rcwhist",
        "series-rounds": "3",
        "series-draw_method": "avoid_repeats",
        "series-place": "",
        "series-name": "",
        "series-cap": "",
        **extra,
    }
