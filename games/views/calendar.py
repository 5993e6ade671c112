"""The club's calendar: the public page and feed, a member's answer (on the site or from the
signed link of an e-mail, without login), the club admin's planning and replies, the night made
at the door from its entry, and the member's own calendar (reminders, private feed)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from club.models import Club, Player
from club.permissions import is_club_admin, is_member, is_scorer, require_club_admin
from club.permissions import require_scorer as require_club_scorer

from .. import calendar
from ..calendar_feed import feed
from ..calendar_forms import ClubCalendarForm, SeriesForm, SingleNightForm
from ..models import MemberCalendar, PlannedNight, Reply
from ..presenters.calendar import calendar_entries, night_replies

ICS = "text/calendar; charset=utf-8"


def _player(request: HttpRequest) -> Player | None:
    if not request.user.is_authenticated:
        return None
    return Player.objects.filter(user=request.user).first()


def _night(slug: str, pk: int) -> PlannedNight:
    return get_object_or_404(PlannedNight.objects.select_related("club"), pk=pk, club__slug=slug)


def calendar_page(request: HttpRequest, slug: str) -> TemplateResponse:
    """The club's coming nights: public; a member sees and changes his answer here."""
    club = get_object_or_404(Club, slug=slug)
    member = is_member(request.user, club)
    player = _player(request) if member else None
    context = {
        "club": club,
        "entries": calendar_entries(club, player, timezone.now()),
        "is_member": member,
        "can_admin": is_club_admin(request.user, club),
        "feed_url": settings.SITE_URL + reverse("games:calendar-feed", args=[club.slug]),
    }
    return TemplateResponse(request, "games/calendar/calendar.html", context)


@login_required
@require_POST
def calendar_answer(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A signed-in member answers for himself."""
    night = _night(slug, pk)
    if not is_member(request.user, night.club):
        raise Http404("members only")
    player = _player(request)
    try:
        calendar.reply_set(night, player, request.POST.get("answer", ""))
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
    else:
        messages.success(request, _("Réponse enregistrée."))
    return redirect("games:calendar", slug=slug)


def calendar_reply(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The e-mail's link: this member, this night, no login. Each answer until the deadline."""
    try:
        night, player = calendar.reply_link_read(token)
    except calendar.LinkRefused:
        return _link_refused(request)
    if night.club.slug != slug:
        return _link_refused(request)
    error = None
    if request.method == "POST":
        try:
            calendar.reply_set(night, player, request.POST.get("answer", ""))
        except ValidationError as refused:
            error = " ".join(refused.messages)
        else:
            messages.success(request, _("Réponse enregistrée."))
            return redirect(request.path)
    entry = next(
        (e for e in calendar_entries(night.club, player, timezone.now()) if e.night.pk == night.pk),
        None,
    )
    context = {
        "club": night.club,
        "night": night,
        "player": player,
        "entry": entry,
        "reply": Reply.objects.filter(night=night, player=player).first(),
        "error": error,
        "answers": Reply.Answer.choices,
    }
    return TemplateResponse(
        request, "games/calendar/reply.html", context, status=400 if error else 200
    )


def _link_refused(request: HttpRequest) -> TemplateResponse:
    return TemplateResponse(request, "games/calendar/link_refused.html", {}, status=404)


def calendar_feed(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's public iCalendar feed."""
    club = get_object_or_404(Club, slug=slug)
    nights = PlannedNight.objects.filter(club=club).select_related("club")
    return HttpResponse(feed(club.name, nights), content_type=ICS)


def member_feed(request: HttpRequest, key: str) -> HttpResponse:
    """A member's private feed: his clubs' nights with his answer; its address is the key."""
    settings_row = MemberCalendar.objects.filter(feed_key=key).exclude(feed_key="").first()
    if settings_row is None:
        raise Http404("no such feed")
    player = settings_row.player
    nights = PlannedNight.objects.filter(calendar.member_nights(player, today=None)).select_related(
        "club"
    )
    replies = {r.night_id: r for r in Reply.objects.filter(player=player)}
    return HttpResponse(feed(player.display_name, nights, replies), content_type=ICS)


@login_required
def calendar_manage(request: HttpRequest, slug: str) -> HttpResponse:
    """The club admin plans nights (alone or weekly) and sets reminders and the deadline."""
    club = get_object_or_404(Club, slug=slug)
    require_club_admin(request.user, club)
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
                series = calendar.series_plan(
                    club,
                    first=form.cleaned_data["first"],
                    last=form.cleaned_data["last"],
                    weekday=form.cleaned_data["weekday"],
                    months=form.cleaned_data["months"],
                    exceptions=form.cleaned_data["exceptions"],
                    plan=form.plan(),
                )
                added = series.nights.count()
                messages.success(
                    request,
                    ngettext(
                        "%(count)s soirée ajoutée au calendrier.",
                        "%(count)s soirées ajoutées au calendrier.",
                        added,
                    )
                    % {"count": added},
                )
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
def calendar_replies(request: HttpRequest, slug: str, pk: int) -> TemplateResponse:
    """One night's replies for the club admin: counts, names, the waiting list in order."""
    night = _night(slug, pk)
    require_club_admin(request.user, night.club)
    context = {
        "club": night.club,
        "entry": night_replies(night, timezone.now()),
        "can_open": is_scorer(request.user, night.club),
    }
    return TemplateResponse(request, "games/calendar/replies.html", context)


@login_required
@require_POST
def calendar_cancel(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    night = _night(slug, pk)
    require_club_admin(request.user, night.club)
    try:
        calendar.night_cancel(night)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
    else:
        messages.success(request, _("Soirée annulée."))
    return redirect("games:calendar-replies", slug=slug, pk=pk)


@login_required
@require_POST
def calendar_open(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """At the door: the club night made from its entry, those who said yes ticked present."""
    night = _night(slug, pk)
    require_club_scorer(request.user, night.club)
    try:
        tournament = calendar.night_open(night)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
        return redirect("games:calendar", slug=slug)
    messages.success(request, _("Soirée créée : ceux qui ont dit oui sont cochés."))
    return redirect("games:presence", slug=slug, pk=tournament.pk)


@login_required
def my_calendar(request: HttpRequest) -> TemplateResponse:
    """The member's calendar: reminders on or off, his private feed's address."""
    player = _player(request)
    if player is None:
        raise Http404("no player")
    settings_row = calendar.member_calendar(player)
    if request.method == "POST":
        settings_row = calendar.member_reminders_set(player, request.POST.get("reminders") == "on")
        messages.success(request, _("Réglages enregistrés."))
    feed_url = (
        settings.SITE_URL + reverse("member-feed", args=[settings_row.feed_key])
        if settings_row.feed_key
        else ""
    )
    context = {"player": player, "settings": settings_row, "feed_url": feed_url}
    return TemplateResponse(request, "games/calendar/mine.html", context)


@login_required
@require_POST
def my_feed_renew(request: HttpRequest) -> HttpResponse:
    """A new secret address for the private feed (the old one answers 404 from now)."""
    player = _player(request)
    if player is None:
        raise Http404("no player")
    calendar.feed_key_renew(player)
    messages.success(
        request, _("Nouvelle adresse du calendrier privé : l'ancienne ne marche plus.")
    )
    return redirect("my-calendar")


def reminders_off(request: HttpRequest, token: str) -> TemplateResponse:
    """The e-mail's "no more reminders" link: asks, then turns them off (no login)."""
    try:
        player = calendar.reminders_off_read(token)
    except calendar.LinkRefused:
        return _link_refused(request)
    done = False
    if request.method == "POST":
        calendar.member_reminders_set(player, False)
        done = True
    return TemplateResponse(
        request, "games/calendar/reminders_off.html", {"player": player, "done": done}
    )
