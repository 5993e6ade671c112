"""The calendar's planning: a night or a weekly series put on the calendar, a planned night
changed, deleted or cancelled. It refuses the mistakes a secretary makes with a calendar: a
second night at a date and time the club has one already (a series skips those dates and says
which), a night deleted after members answered (it can only be cancelled then, and the feeds
say so), a date moved under members' answers, places cut below those already taken. Every
name here is importable from ``games.calendar``."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from dateutil import rrule
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from club.models import Club
from infra.dates import day_written

from ..models import DrawMethod
from .models import PlannedNight, PlannedSeries, ReminderEmail, Reply
from .replies import places_fill, seats_taken

# A series longer than this is a mistake (a year typed wrong), not a calendar.
SERIES_MAX_NIGHTS = 200

# The weekday as a calendar abbreviates it ("ven. 4 déc."): Django's own has no dot.
SHORT_WEEKDAYS = (
    pgettext_lazy("jour abrégé", "lun."),
    pgettext_lazy("jour abrégé", "mar."),
    pgettext_lazy("jour abrégé", "mer."),
    pgettext_lazy("jour abrégé", "jeu."),
    pgettext_lazy("jour abrégé", "ven."),
    pgettext_lazy("jour abrégé", "sam."),
    pgettext_lazy("jour abrégé", "dim."),
)


def short_date(date: datetime.date) -> str:
    """A date as a secretary reads it in a list: "ven. 4 déc."."""
    return f"{SHORT_WEEKDAYS[date.weekday()]} {day_written(date)} {formats.date_format(date, 'N')}"


@dataclass(frozen=True)
class NightPlan:
    """What each planned night of a series (or a single one) starts from."""

    start: datetime.time = datetime.time(20, 0)
    name: str = ""
    place: str = ""
    rules: str = "rcwhist"
    rounds: int = 3
    draw_method: str = DrawMethod.AVOID_REPEATS
    cap: int | None = None


def _night(club: Club, date: datetime.date, plan: NightPlan, **extra: object) -> PlannedNight:
    if plan.draw_method not in DrawMethod.values:
        raise ValidationError({"draw_method": _("Méthode de tirage inconnue.")})
    night = PlannedNight(
        club=club,
        date=date,
        start=plan.start,
        name=plan.name,
        place=plan.place or club.contact_address,
        rules=plan.rules,
        rounds=plan.rounds,
        draw_method=plan.draw_method,
        cap=plan.cap,
        **extra,
    )
    night.full_clean()
    return night


def _taken(club: Club, dates: Iterable[datetime.date], start: datetime.time, name: str) -> Q:
    """The club's nights that hold one of ``dates`` for a night at ``start`` named ``name``:
    one at that very time (cancelled too: a night called off was a decision, not a gap to
    fill), or one of that name that day (the calendar holds one of a name a day)."""
    return Q(club=club, date__in=list(dates)) & (Q(start=start) | Q(name=name))


def _slot_refusal(night: PlannedNight) -> str:
    return _("Le club a déjà une soirée le %(date)s à %(time)s.") % {
        "date": short_date(night.date),
        "time": night.start.strftime("%H:%M"),
    }


@transaction.atomic
def night_plan(club: Club, date: datetime.date, plan: NightPlan) -> PlannedNight:
    """One night on the calendar; refused at a date and time the club has a night already."""
    clash = PlannedNight.objects.filter(_taken(club, [date], plan.start, plan.name)).first()
    if clash is not None:
        raise ValidationError(_slot_refusal(clash))
    night = _night(club, date, plan)
    night.save()
    return night


def series_dates(
    first: datetime.date,
    last: datetime.date,
    weekday: int,
    months: Iterable[int] = (),
    exceptions: Iterable[datetime.date] = (),
) -> list[datetime.date]:
    """The dates of "every <weekday> from ``first`` to ``last``", in ``months`` only (empty:
    all; the club's summer break is months 7 and 8 left out), without the ``exceptions``."""
    rule = rrule.rrule(
        rrule.WEEKLY,
        dtstart=datetime.datetime.combine(first, datetime.time()),
        until=datetime.datetime.combine(last, datetime.time()),
        byweekday=weekday,
        bymonth=tuple(months) or None,
    )
    skipped = set(exceptions)
    return [moment.date() for moment in rule if moment.date() not in skipped]


@dataclass(frozen=True)
class SeriesPlanned:
    """A series planned: its nights added, and the dates it left alone (a night stood there)."""

    series: PlannedSeries
    added: list[PlannedNight]
    skipped: list[datetime.date]


@transaction.atomic
def series_plan(
    club: Club,
    *,
    first: datetime.date,
    last: datetime.date,
    weekday: int,
    plan: NightPlan,
    months: Iterable[int] = (),
    exceptions: Iterable[datetime.date] = (),
) -> SeriesPlanned:
    """Every ``weekday`` from ``first`` to ``last`` (in ``months``), except ``exceptions``: one
    planned night each. A date where the club has a night at that time already is skipped and
    named (a series planned twice adds nothing); a series whose every date is taken is
    refused."""
    months, exceptions = sorted(set(months)), sorted(set(exceptions))
    if last < first:
        raise ValidationError(_("La série finit avant de commencer."))
    dates = series_dates(first, last, weekday, months, exceptions)
    if not dates:
        raise ValidationError(_("Aucune date dans cette série."))
    if len(dates) > SERIES_MAX_NIGHTS:
        raise ValidationError(
            _("Une série compte au plus %(count)s soirées.") % {"count": SERIES_MAX_NIGHTS}
        )
    taken = set(
        PlannedNight.objects.filter(_taken(club, dates, plan.start, plan.name)).values_list(
            "date", flat=True
        )
    )
    free = [date for date in dates if date not in taken]
    if not free:
        raise ValidationError(
            _("Le club a déjà une soirée à chaque date de cette série : rien n'est ajouté.")
        )
    series = PlannedSeries.objects.create(
        club=club,
        rule=str(
            rrule.rrule(
                rrule.WEEKLY,
                dtstart=datetime.datetime.combine(first, plan.start),
                until=datetime.datetime.combine(last, plan.start),
                byweekday=weekday,
                bymonth=tuple(months) or None,
            )
        ),
        first=first,
        last=last,
        months=months,
        exceptions=[d.isoformat() for d in exceptions],
    )
    added = PlannedNight.objects.bulk_create(
        _night(club, date, plan, series=series) for date in free
    )
    return SeriesPlanned(series, added, sorted(taken))


def _started_refusal(night: PlannedNight) -> None:
    if night.tournament_id:
        raise ValidationError(_("Cette soirée a déjà commencé."))


@transaction.atomic
def night_change(
    night: PlannedNight,
    *,
    date: datetime.date,
    start: datetime.time,
    place: str,
    cap: int | None,
) -> PlannedNight:
    """A planned night moved, given another place or another number of places. Its date
    moves only while nobody has answered (an answer is for a date); its places never drop
    below those taken, and more places go to those who wait, in order. Calendar
    applications see the change (SEQUENCE); a night moved is reminded again at its new date."""
    night = PlannedNight.objects.select_for_update().select_related("club").get(pk=night.pk)
    _started_refusal(night)
    if night.is_cancelled:
        raise ValidationError(_("Cette soirée est annulée : elle ne se modifie plus."))
    moved = date != night.date
    if moved and Reply.objects.filter(night=night).exists():
        raise ValidationError(
            _(
                "Des membres ont déjà répondu pour le %(date)s : la date ne change plus. "
                "Annulez cette soirée et planifiez-en une autre."
            )
            % {"date": short_date(night.date)}
        )
    if (date, start) != (night.date, night.start):
        clash = (
            PlannedNight.objects.filter(_taken(night.club, [date], start, night.name))
            .exclude(pk=night.pk)
            .first()
        )
        if clash is not None:
            raise ValidationError(_slot_refusal(clash))
    taken = seats_taken(night)
    if cap is not None and cap < taken:
        raise ValidationError(
            ngettext(
                "%(taken)s place est déjà prise : le nombre de places ne descend pas en dessous.",
                "%(taken)s places sont déjà prises : le nombre de places ne descend pas en "
                "dessous.",
                taken,
            )
            % {"taken": taken}
        )
    before = (night.date, night.start, night.place, night.cap)
    night.date, night.start, night.place, night.cap = date, start, place, cap
    if (date, start, place, cap) == before:
        return night
    night.full_clean()
    night.sequence += 1
    if moved:
        night.reminders_queued = None
        ReminderEmail.objects.filter(night=night).delete()
    night.save()
    places_fill(night, timezone.now())
    return night


@transaction.atomic
def night_delete(night: PlannedNight) -> None:
    """A night planned by mistake taken off the calendar, while nobody has answered; after
    that it can only be cancelled (its members and their calendars are told)."""
    night = PlannedNight.objects.select_for_update().get(pk=night.pk)
    _started_refusal(night)
    if Reply.objects.filter(night=night).exists():
        raise ValidationError(
            _("Des membres ont déjà répondu : cette soirée ne peut plus qu'être annulée.")
        )
    night.delete()


@transaction.atomic
def night_cancel(night: PlannedNight) -> PlannedNight:
    """The night will not take place (an exception to its series, or called off): it stays on
    the calendar, marked cancelled, so the feeds tell the calendar applications."""
    night = PlannedNight.objects.select_for_update().get(pk=night.pk)
    _started_refusal(night)
    night.status = PlannedNight.Status.CANCELLED
    night.sequence += 1
    night.save(update_fields=["status", "sequence", "changed"])
    return night
