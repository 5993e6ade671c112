"""The calendar as iCalendar (RFC 5545), made with the ``icalendar`` library: the club's public
feed and a member's private one (his clubs' nights, his answer in each title).

Each planned night keeps one UID for ever (its id and the site's host), so a calendar
application updates an entry when the night changes (SEQUENCE) or is cancelled (STATUS), never
adds it twice. Times are given in Europe/Brussels with its VTIMEZONE, as the club lives them."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from urllib.parse import urlsplit

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from icalendar import Calendar, Event, Timezone

from infra.site_address import absolute

from ..models import PlannedNight, Reply
from .models import CLUB_TIME_ZONE

PRODID = "-//clubwhist//Calendrier du club//FR"
# A club night lasts an evening; the calendar only needs an end for the block it draws.
NIGHT_LENGTH = datetime.timedelta(hours=4)


def night_uid(night: PlannedNight) -> str:
    # The entry's name for good, whatever address the feed is read at: SITE_URL, never the
    # request's host (a calendar application would take one night for two).
    host = urlsplit(settings.SITE_URL).hostname or "clubwhist"
    return f"planned-night-{night.pk}@{host}"


def _answer_words(reply: Reply | None) -> str:
    if reply is None:
        return _("pas encore répondu")
    if reply.waiting:
        return _("liste d'attente")
    return str(reply.get_answer_display())


def feed(
    name: str, nights: Iterable[PlannedNight], replies: dict[int, Reply] | None = None
) -> bytes:
    """A VCALENDAR of ``nights``; with ``replies`` (a member's, by night), each title says his
    answer."""
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", name)
    cal.add("x-wr-timezone", settings.TIME_ZONE)
    nights = list(nights)
    if nights:
        # The rules of the years the nights fall in (the whole table takes long to make).
        first = datetime.date(min(n.date for n in nights).year, 1, 1)
        last = datetime.date(max(n.date for n in nights).year + 1, 1, 1)
        cal.add_component(
            Timezone.from_tzinfo(
                CLUB_TIME_ZONE, tzid=settings.TIME_ZONE, first_date=first, last_date=last
            )
        )
    stamp = timezone.now()
    for night in nights:
        event = Event()
        event.add("uid", night_uid(night))
        event.add("dtstamp", stamp)
        event.add("last-modified", night.changed)
        event.add("sequence", night.sequence)
        event.add("dtstart", night.starts_at)
        event.add("dtend", night.starts_at + NIGHT_LENGTH)
        title = night.name or _("Soirée de whist")
        summary = f"{night.club.short} – {title}"
        if replies is not None:
            summary += f" ({_answer_words(replies.get(night.pk))})"
        event.add("summary", summary)
        if night.place:
            event.add("location", night.place)
        event.add(
            "url",
            absolute(reverse("games:calendar", kwargs={"slug": night.club.slug})),
        )
        event.add("status", "CANCELLED" if night.is_cancelled else "CONFIRMED")
        cal.add_component(event)
    return cal.to_ical()
