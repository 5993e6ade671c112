"""The club's calendar: the public page and feed, a member's answer (on the site or from the
signed link of an e-mail, without login) and the member's own calendar (reminders, private
feed). The club admin's planning and replies are in ``secretary``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.club_pages import access_for, club_page
from club.models import Player
from infra.site_address import absolute

from ... import calendar
from ...models import MemberCalendar, PlannedNight, Reply
from ..feed import feed
from ..forms import ReplyForm
from ..models import COMMENT_MAX_LENGTH, MAX_GUESTS
from ..presenters import calendar_entries, next_to_open

ICS = "text/calendar; charset=utf-8"
# What the answer's folded fields offer (templates/games/calendar/_reply_extras.html).
REPLY_EXTRAS = {"guest_choices": range(MAX_GUESTS + 1), "comment_max": COMMENT_MAX_LENGTH}


def _player(request: HttpRequest) -> Player | None:
    if not request.user.is_authenticated:
        return None
    return Player.objects.filter(user=request.user).first()


def planned_night(slug: str, pk: int) -> PlannedNight:
    return get_object_or_404(PlannedNight.objects.select_related("club"), pk=pk, club__slug=slug)


def reply_from(request: HttpRequest, night: PlannedNight, player: Player) -> str:
    """The posted answer (with its comment and guests) set for ``player``; the refusal in
    words, or "" when it is stored."""
    form = ReplyForm(request.POST)
    if not form.is_valid():
        return " ".join(m for errors in form.errors.values() for m in errors)
    try:
        calendar.reply_set(night, player, form.cleaned_data["answer"], **form.extras())
    except ValidationError as refused:
        return " ".join(refused.messages)
    return ""


@club_page()
def calendar_page(request: HttpRequest, slug: str) -> TemplateResponse:
    """The club's coming nights: public; a member sees and changes his answer here."""
    club, viewer = request.club, request.club_access
    member = viewer.is_member
    player = _player(request) if member else None
    entries = calendar_entries(club, player, timezone.now())
    context = {
        "club": club,
        "entries": entries,
        "is_member": member,
        "can_admin": viewer.is_club_admin,
        # The first night still to start, that a scorer starts from here at the door.
        "to_open": next_to_open(entries) if viewer.is_scorer else None,
        "feed_url": absolute(reverse("games:calendar-feed", args=[club.slug])),
        **REPLY_EXTRAS,
    }
    return TemplateResponse(request, "games/calendar/calendar.html", context)


@login_required
@require_POST
def calendar_answer(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A signed-in member answers for himself."""
    night = planned_night(slug, pk)
    if not access_for(request, night.club).is_member:
        raise Http404("members only")
    error = reply_from(request, night, _player(request))
    if error:
        messages.error(request, error)
    else:
        messages.success(request, _("Réponse enregistrée."))
    return redirect(reverse("games:calendar", args=[slug]) + f"#soiree-{night.pk}")


def calendar_reply(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The e-mail's link: this member, this night, no login. Each answer until the deadline."""
    try:
        night, player = calendar.reply_link_read(token)
    except calendar.LinkRefused:
        return _link_refused(request)
    if night.club.slug != slug:
        return _link_refused(request)
    error = ""
    if request.method == "POST":
        error = reply_from(request, night, player)
        if not error:
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
        "reply": Reply.objects.with_place().filter(night=night, player=player).first(),
        "error": error,
        "answers": Reply.Answer.choices,
        **REPLY_EXTRAS,
    }
    return TemplateResponse(
        request, "games/calendar/reply.html", context, status=400 if error else 200
    )


def _link_refused(request: HttpRequest) -> TemplateResponse:
    return TemplateResponse(request, "games/calendar/link_refused.html", {}, status=404)


@club_page()
def calendar_feed(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's public iCalendar feed."""
    club = request.club
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
        absolute(reverse("member-feed", args=[settings_row.feed_key]))
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
    renewed = bool(calendar.member_calendar(player).feed_key)
    calendar.feed_key_renew(player)
    if renewed:
        messages.success(
            request, _("Nouvelle adresse du calendrier privé : l'ancienne ne marche plus.")
        )
    else:
        messages.success(request, _("L'adresse de votre calendrier privé est prête."))
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
