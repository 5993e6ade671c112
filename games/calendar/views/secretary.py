"""The club admin's calendar (the secretary's): planning nights (a series skips the dates
already taken and says which), a planned night changed, deleted or cancelled, its replies
(who has not answered, a reminder to just them, an answer recorded by hand, the words to share
with the club's chat group or with a member without an address), and the night made at the
door from its entry (asked to be sure more than a day ahead)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from club.club_pages import access_for, club_page
from club.permissions import CLUB_ADMIN
from club.permissions import require_scorer as require_club_scorer
from infra.typography import named

from ... import calendar
from ...models import PlannedNight, Reply
from ..forms import (
    ClubCalendarForm,
    NightChangeForm,
    ReplyRecordForm,
    SeriesForm,
    SingleNightForm,
)
from ..mailing import group_message, member_message
from ..presenters import calendar_entries, night_replies
from .members import planned_night


def _series_words(planned: calendar.SeriesPlanned) -> str:
    """ "3 soirées ajoutées, 1 date déjà prise : ven. 4 déc."."""
    count = len(planned.added)
    if not planned.skipped:
        return ngettext(
            "%(count)s soirée ajoutée au calendrier.",
            "%(count)s soirées ajoutées au calendrier.",
            count,
        ) % {"count": count}
    added = ngettext("%(count)s soirée ajoutée", "%(count)s soirées ajoutées", count) % {
        "count": count
    }
    skipped = ngettext(
        "%(count)s date déjà prise : %(dates)s",
        "%(count)s dates déjà prises : %(dates)s",
        len(planned.skipped),
    ) % {
        "count": len(planned.skipped),
        "dates": ", ".join(calendar.short_date(d) for d in planned.skipped),
    }
    return _("%(added)s, %(skipped)s.") % {"added": added, "skipped": skipped}


@login_required
@club_page(CLUB_ADMIN)
def calendar_manage(request: HttpRequest, slug: str) -> HttpResponse:
    """The club admin plans nights (alone or weekly) and sets reminders and the deadline."""
    club = request.club
    which = request.POST.get("form") if request.method == "POST" else None
    data = request.POST if request.method == "POST" else None
    settings_form = ClubCalendarForm(
        data if which == "settings" else None,
        instance=calendar.club_calendar(club),
        prefix="settings",
    )
    night_form = SingleNightForm(data if which == "night" else None, club=club, prefix="night")
    series_form = SeriesForm(data if which == "series" else None, club=club, prefix="series")
    form = {"settings": settings_form, "night": night_form, "series": series_form}.get(which)
    if form is not None and form.is_valid():
        try:
            if which == "settings":
                calendar.club_calendar_set(club, **form.cleaned_data)
                messages.success(request, _("Réglages du calendrier enregistrés."))
            elif which == "night":
                calendar.night_plan(club, form.cleaned_data["date"], form.plan())
                messages.success(request, _("Soirée ajoutée au calendrier."))
            else:
                planned = calendar.series_plan(
                    club,
                    first=form.cleaned_data["first"],
                    last=form.cleaned_data["last"],
                    weekday=form.cleaned_data["weekday"],
                    months=form.cleaned_data["months"],
                    exceptions=form.cleaned_data["exceptions"],
                    plan=form.plan(),
                )
                messages.success(request, _series_words(planned))
        except ValidationError as refused:
            form.add_error(None, refused)
        else:
            return redirect("games:calendar-manage", slug=slug)
    context = {
        "club": club,
        "settings_form": settings_form,
        "night_form": night_form,
        "series_form": series_form,
        "entries": calendar_entries(club, None, timezone.now()),
    }
    return TemplateResponse(request, "games/calendar/manage.html", context)


@login_required
def calendar_change(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A planned night moved, given another place or number of places; or deleted while
    nobody has answered."""
    night = planned_night(slug, pk)
    access_for(request, night.club).require_club_admin()
    form = NightChangeForm(request.POST or None, instance=night)
    if request.method == "POST" and form.is_valid():
        try:
            calendar.night_change(night, **form.cleaned_data)
        except ValidationError as refused:
            form.add_error(None, refused)
        else:
            messages.success(request, _("Soirée modifiée."))
            return redirect("games:calendar-manage", slug=slug)
    if request.method == "POST":
        night.refresh_from_db()  # the form's checks wrote on it: show the night as stored
    context = {
        "club": night.club,
        "night": night,
        "form": form,
        "answered": Reply.objects.filter(night=night).exists(),
    }
    return TemplateResponse(request, "games/calendar/change.html", context)


def _night_act(
    request: HttpRequest,
    slug: str,
    pk: int,
    act: Callable[[PlannedNight], object],
    done: Callable[[PlannedNight], str],
) -> bool:
    """The club admin's change to a planned night (deleted, cancelled): said in words, done
    or refused; whether it was done."""
    night = planned_night(slug, pk)
    access_for(request, night.club).require_club_admin()
    try:
        act(night)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
        return False
    messages.success(request, done(night))
    return True


@login_required
@require_POST
def calendar_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A night planned by mistake deleted; once answered, the page says it can only be
    cancelled."""
    if _night_act(
        request,
        slug,
        pk,
        calendar.night_delete,
        lambda night: _("Soirée du %(date)s supprimée.")
        % {"date": calendar.short_date(night.date)},
    ):
        return redirect("games:calendar-manage", slug=slug)
    return redirect("games:calendar-change", slug=slug, pk=pk)


def _replies_page(
    request: HttpRequest, night: PlannedNight, record_form: ReplyRecordForm, status: int = 200
) -> TemplateResponse:
    entry = night_replies(night, timezone.now())
    context = {
        "club": night.club,
        "entry": entry,
        "can_open": access_for(request, night.club).is_scorer,
        "record_form": record_form,
        "group_message": group_message(entry.night),
        "silent": [(s, member_message(entry.night, s.player)) for s in entry.silent],
    }
    return TemplateResponse(request, "games/calendar/replies.html", context, status=status)


@login_required
def calendar_replies(request: HttpRequest, slug: str, pk: int) -> TemplateResponse:
    """One night's replies for the club admin: counts, names with their comments and guests,
    the waiting list in order, who has not answered."""
    night = planned_night(slug, pk)
    access_for(request, night.club).require_club_admin()
    return _replies_page(request, night, ReplyRecordForm(club=night.club, prefix="record"))


@login_required
@require_POST
def calendar_record(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The secretary records the answer a member gave her (by phone, at the bar): the same
    rules as the member's own (deadline, places, guests)."""
    night = planned_night(slug, pk)
    access_for(request, night.club).require_club_admin()
    form = ReplyRecordForm(request.POST, club=night.club, prefix="record")
    if form.is_valid():
        player = form.cleaned_data["player"]
        try:
            calendar.reply_set(night, player, form.cleaned_data["answer"], **form.extras())
        except ValidationError as refused:
            form.add_error(None, refused)
        else:
            messages.success(
                request,
                named(_("Réponse de %(name)s enregistrée."), name=player.display_name),
            )
            return redirect("games:calendar-replies", slug=slug, pk=pk)
    return _replies_page(request, night, form, status=400)


@login_required
@require_POST
def calendar_remind(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The secretary's reminder to the members who have not answered (by e-mail, through the
    outbox): once per press, the same press posted twice sends nothing more."""
    night = planned_night(slug, pk)
    access_for(request, night.club).require_club_admin()
    try:
        press = int(request.POST.get("press", ""))
    except ValueError:
        press = 0
    try:
        count = calendar.silent_remind(night, press)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
    else:
        if count is None:
            messages.info(request, _("Ce rappel est déjà parti."))
        else:
            messages.success(
                request,
                ngettext(
                    "Rappel envoyé à %(count)s membre sans réponse.",
                    "Rappel envoyé aux %(count)s membres sans réponse.",
                    count,
                )
                % {"count": count},
            )
    return redirect("games:calendar-replies", slug=slug, pk=pk)


@login_required
@require_POST
def calendar_cancel(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    _night_act(request, slug, pk, calendar.night_cancel, lambda night: _("Soirée annulée."))
    return redirect("games:calendar-replies", slug=slug, pk=pk)


@login_required
@require_POST
def calendar_open(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """At the door: the club night made from its entry, those who said yes ticked present.
    More than a day ahead, a step first says so and asks to be sure (``confirm``)."""
    night = planned_night(slug, pk)
    require_club_scorer(request.user, night.club)
    early = calendar.opens_early(night)
    asks = early and not night.tournament_id and not night.is_cancelled
    if asks and request.POST.get("confirm") != "1":
        context = {"club": night.club, "night": night}
        return TemplateResponse(request, "games/calendar/open_confirm.html", context)
    try:
        tournament = calendar.night_open(night, early=early)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
        return redirect("games:calendar", slug=slug)
    messages.success(request, _("Soirée créée : ceux qui ont dit oui sont cochés."))
    return redirect("games:presence", slug=slug, pk=tournament.pk)
