"""What the calendar pages show of the planned nights: counts, the tables the expected count
gives, the viewer's own answer. Plain data, no request; a fixed number of queries whatever the
number of nights."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from club.models import Club, Player

from ..calendar import TablePlan, deadline, table_plan
from ..models import ClubCalendar, PlannedNight, Reply


@dataclass
class CalendarEntry:
    night: PlannedNight
    yes: int
    maybe: int
    no: int
    waiting: int
    tables: TablePlan
    open: bool
    deadline: datetime.datetime
    mine: Reply | None = None
    names: dict[str, list[Reply]] = field(default_factory=dict)

    @property
    def full(self) -> bool:
        return self.night.cap is not None and self.yes >= self.night.cap


def _entry(
    night: PlannedNight, settings: ClubCalendar, now: datetime.datetime, mine: Reply | None
) -> CalendarEntry:
    closes = deadline(night, settings)
    return CalendarEntry(
        night=night,
        yes=night.yes_count,
        maybe=night.maybe_count,
        no=night.no_count,
        waiting=night.waiting_count,
        tables=table_plan(night.yes_count),
        open=not night.is_cancelled and not night.tournament_id and now < closes,
        deadline=closes,
        mine=mine,
    )


def _settings(club: Club) -> ClubCalendar:
    """The club's calendar settings as read with its nights; a club that never changed them
    has none stored: the defaults."""
    try:
        return club.calendar
    except ClubCalendar.DoesNotExist:
        return ClubCalendar(club=club)


def calendar_entries(
    club: Club,
    player: Player | None,
    now: datetime.datetime,
    limit: int | None = None,
) -> list[CalendarEntry]:
    """The club's coming nights (from today), each with its counts and ``player``'s answer."""
    nights = PlannedNight.objects.filter(club=club).coming(now.date()).with_counts()
    # The club's calendar settings come with the nights (one query for both).
    nights = nights.select_related("club__calendar")
    nights = list(nights[:limit] if limit else nights)
    settings = _settings(nights[0].club) if nights else None
    mine = (
        {r.night_id: r for r in Reply.objects.filter(player=player, night__in=nights)}
        if player is not None and nights
        else {}
    )
    return [_entry(night, settings, now, mine.get(night.pk)) for night in nights]


def night_replies(night: PlannedNight, now: datetime.datetime) -> CalendarEntry:
    """One night for its club admin: the counts and who said what (waiting list in order)."""
    night = PlannedNight.objects.with_counts().select_related("club__calendar").get(pk=night.pk)
    entry = _entry(night, _settings(night.club), now, None)
    replies = Reply.objects.filter(night=night).select_related("player").order_by("answered", "pk")
    names: dict[str, list[Reply]] = {"yes": [], "waiting": [], "maybe": [], "no": []}
    for reply in replies:
        names["waiting" if reply.waiting else reply.answer].append(reply)
    for key in ("yes", "maybe", "no"):
        names[key].sort(key=lambda r: r.player.display_name)
    entry.names = names
    return entry
