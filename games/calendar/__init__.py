"""The club's calendar, one room: nights planned ahead (alone or weekly), members' replies with
a cap and its waiting list, the reminders, the night opened at the door, its e-mails, its
iCalendar feeds and its pages.

Bottom up, the domain: ``models`` (planned nights, series, replies, reminders sent, the club's
and each member's calendar settings; registered in the ``games`` app by ``games.models``),
``replies`` (an answer, its guests, the places and the waiting list, the signed link),
``planning`` (a night or a series planned, changed, deleted, cancelled), ``reminders`` (the
settings, the reminders queued, the secretary's reminder to the silent, the night opened at
the door). The interface: ``forms``, ``mailing`` (e-mails, messages to share), ``feed``
(iCalendar), ``views/members.py`` (the members' pages) and ``views/secretary.py`` (the
secretary's). ``manage.py calendar_reminders`` is beat's work from cron.

Every service name is importable from here (``from games import calendar``;
``calendar.night_plan(…)``). The domain modules take their own models from ``.models`` and
only the rest of the app's from ``games.models``: ``games.models`` imports this package while
it loads, before it has finished."""

from .planning import (  # noqa: F401
    SERIES_MAX_NIGHTS,
    NightPlan,
    SeriesPlanned,
    night_cancel,
    night_change,
    night_delete,
    night_plan,
    series_dates,
    series_plan,
    short_date,
)
from .reminders import (  # noqa: F401
    OPEN_EARLY,
    REMINDERS_OFF_SALT,
    PresenceCheck,
    TablePlan,
    club_calendar_set,
    feed_key_renew,
    member_calendar,
    member_nights,
    member_reminders_set,
    night_open,
    opens_early,
    presence_check,
    reminder_recipients,
    reminders_off_read,
    reminders_off_token,
    reminders_queue,
    silent_recipients,
    silent_remind,
    table_plan,
)
from .replies import (  # noqa: F401
    LINK_MAX_AGE,
    REPLY_SALT,
    LinkRefused,
    club_calendar,
    deadline,
    places_fill,
    reply_link_read,
    reply_set,
    reply_token,
    seats_taken,
    silent_members,
)
