"""What the calendar pages show of the planned nights: counts, the tables the expected count
(the yeses and their guests) gives, the viewer's own answer and her place in line; for the
secretary, who said what and who has not answered. Plain data, no request; a fixed number of
queries whatever the number of nights and members."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from club.models import Club, Player
from club.name_order import name_sorted

from ..models import ClubCalendar, PlannedNight, Reply
from .reminders import TablePlan, table_plan
from .replies import deadline, silent_members


@dataclass
class CalendarEntry:
    night: PlannedNight
    yes: int
    maybe: int
    no: int
    waiting: int
    guests: int
    tables: TablePlan
    open: bool
    deadline: datetime.datetime
    mine: Reply | None = None
    names: dict[str, list[Reply]] = field(default_factory=dict)
    # The secretary's: the members who have not answered, and how many of them have an
    # address for her reminder.
    silent: list[Silent] = field(default_factory=list)

    @property
    def taken(self) -> int:
        """The places taken: the yeses with a place and their guests."""
        return self.yes + self.guests

    @property
    def full(self) -> bool:
        return self.night.cap is not None and self.taken >= self.night.cap

    @property
    def reachable(self) -> int:
        return sum(1 for s in self.silent if s.reminded)


@dataclass(frozen=True)
class Silent:
    """A member who has not answered: whether the secretary's reminder reaches her (an
    address, reminders on); if not, the secretary sends her her link herself."""

    player: Player
    address: str
    reminded: bool


def _tables(night: PlannedNight) -> TablePlan:
    """The tables the expected count gives; with nobody coming yet, words for a night still
    ahead (the draw's "no player present" is for the door)."""
    expected = night.yes_count + night.guests_count
    if expected:
        return table_plan(expected)
    answered = night.maybe_count + night.no_count
    words = _("Personne n'a encore dit oui") if answered else _("Pas encore de réponse")
    return TablePlan(0, 0, 0, words)


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
        guests=night.guests_count,
        tables=_tables(night),
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
        {r.night_id: r for r in Reply.objects.with_place().filter(player=player, night__in=nights)}
        if player is not None and nights
        else {}
    )
    return [_entry(night, settings, now, mine.get(night.pk)) for night in nights]


def next_to_open(entries: list[CalendarEntry]) -> PlannedNight | None:
    """The first of these nights still to be started at the door (neither cancelled nor
    opened): the one a scorer starts from the calendar or the club page."""
    return next(
        (
            entry.night
            for entry in entries
            if not entry.night.is_cancelled and entry.night.tournament_id is None
        ),
        None,
    )


def night_replies(night: PlannedNight, now: datetime.datetime) -> CalendarEntry:
    """One night for its club admin: the counts, who said what (waiting list in order, each
    with his comment and guests) and who has not answered."""
    night = PlannedNight.objects.with_counts().select_related("club__calendar").get(pk=night.pk)
    entry = _entry(night, _settings(night.club), now, None)
    replies = Reply.objects.filter(night=night).select_related("player").order_by("answered", "pk")
    names: dict[str, list[Reply]] = {"yes": [], "waiting": [], "maybe": [], "no": []}
    for reply in replies:
        names["waiting" if reply.waiting else reply.answer].append(reply)
    for key in ("yes", "maybe", "no"):
        names[key].sort(key=lambda r: name_sorted(r.player.display_name, night.club))
    entry.names = names
    silent = silent_members(night).select_related("user", "calendar")
    entry.silent = [_silent(player) for player in silent]
    return entry


def _silent(player: Player) -> Silent:
    address = player.email or (player.user.email if player.user_id else "")
    try:
        reminders = player.calendar.reminders
    except Player.calendar.RelatedObjectDoesNotExist:
        reminders = True
    return Silent(player, address, bool(address) and reminders)
