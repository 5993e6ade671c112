"""A club night's set-up and running: create it, tick who is present, draw the rounds,
close and publish it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from club.models import Club, Membership, Player
from club.permissions import is_club_admin, is_scorer, require_club_admin, require_scorer
from scoring.services import point_table_for_preset

from .. import services
from ..forms import NightForm
from ..models import Deal, Poule, RoundDraw
from .common import night_for, require_sheet_reader, shows_public_names


def _error_text(error: ValidationError) -> str:
    return " ".join(error.messages)


@login_required
def night_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club.objects.select_related("default_point_table"), slug=slug)
    require_scorer(request.user, club)
    form = NightForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            night = services.tournament_create(
                club=club,
                season=services.season_for_date(club, data["date"]),
                date=data["date"],
                name=data["name"],
                game=form.game,
                point_table=point_table_for_preset(data["rules"]),
                tournament_points=data["tournament_points"],
                rounds=data["rounds"],
                draw_method=data["draw_method"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Soirée créée : cochez les joueurs présents."))
            return redirect("games:presence", slug=slug, pk=night.pk)
    return TemplateResponse(request, "games/night_form.html", {"club": club, "form": form})


def night_detail(request: HttpRequest, slug: str, pk: int) -> TemplateResponse:
    """The night's rounds and tables: the scorers' board, and the public results once
    published."""
    night = night_for(slug, pk)
    require_sheet_reader(request, night)
    poules = list(night.poules.with_seated_players().order_by("round", "table"))
    # The service's rule: a round can be drawn again until its first deal, even a pass.
    dealt_rounds = set(
        Deal.objects.filter(poule__tournament=night)
        .values_list("poule__round", flat=True)
        .distinct()
    )
    draws = {d.round: d for d in RoundDraw.objects.filter(tournament=night)}
    rounds = []
    for number in range(1, night.rounds + 1):
        tables = [p for p in poules if p.round == number]
        for poule in tables:
            poule.expected_deals = night.deals_per_poule(len(poule.seats.all()))
        rounds.append(
            {
                "number": number,
                "poules": tables,
                "draw": draws.get(number),
                "started": number in dealt_rounds,
            }
        )
    context = {
        "club": night.club,
        "night": night,
        "rounds": rounds,
        "present_count": night.present.count(),
        "can_score": is_scorer(request.user, night.club) and not night.is_locked,
        "can_admin": is_club_admin(request.user, night.club),
        "public": shows_public_names(request, night),
    }
    return TemplateResponse(request, "games/night_detail.html", context)


@login_required
def presence(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Tick tonight's present players from the club list (searchable on the page)."""
    night = night_for(slug, pk)
    require_scorer(request.user, night.club)
    members = list(
        Player.objects.filter(
            memberships__club=night.club,
            memberships__end__isnull=True,
        )
        .exclude(memberships__status=Membership.Status.FORMER)
        .order_by("display_name")
        .distinct()
    )
    present = set(night.present.values_list("pk", flat=True))
    error = None
    if request.method == "POST":
        chosen = {int(v) for v in request.POST.getlist("present") if v.isdigit()}
        try:
            services.presence_set(night, [p for p in members if p.pk in chosen])
        except ValidationError as refused:
            error = _error_text(refused)
        else:
            count = len(chosen & {p.pk for p in members})
            messages.success(
                request,
                ngettext("%(count)s joueur présent.", "%(count)s joueurs présents.", count)
                % {"count": count},
            )
            return redirect("games:night", slug=slug, pk=pk)
        present = chosen
    context = {
        "club": night.club,
        "night": night,
        "members": members,
        "present": present,
        "error": error,
    }
    return TemplateResponse(request, "games/presence.html", context)


@login_required
@require_POST
def player_add(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A guest or a new member, created and ticked present in one step."""
    night = night_for(slug, pk)
    require_scorer(request.user, night.club)
    try:
        player = services.player_add_to_night(
            night,
            request.POST.get("display_name", ""),
            guest=request.POST.get("guest") == "on",
            by=request.user,
        )
    except ValidationError as refused:
        messages.error(request, _error_text(refused))
    else:
        messages.success(request, _("%(name)s est ajouté et présent.") % {"name": player})
    return redirect("games:presence", slug=slug, pk=pk)


@login_required
@require_POST
def round_draw(request: HttpRequest, slug: str, pk: int, round: int) -> HttpResponse:
    night = night_for(slug, pk)
    require_scorer(request.user, night.club)
    seed = request.POST.get("seed", "").strip()
    try:
        drawn = services.round_draw(
            night, round, seed=int(seed) if seed.isdigit() else None, by=request.user
        )
    except ValidationError as refused:
        messages.error(request, _error_text(refused))
    else:
        text = _("Tour %(round)s tiré (graine %(seed)s).") % {"round": round, "seed": drawn.seed}
        if drawn.repeats:
            text += " " + ngettext(
                "%(count)s rencontre répétée n'a pas pu être évitée.",
                "%(count)s rencontres répétées n'ont pas pu être évitées.",
                drawn.repeats,
            ) % {"count": drawn.repeats}
        messages.success(request, text)
    return redirect("games:night", slug=slug, pk=pk)


def seating(request: HttpRequest, slug: str, pk: int, round: int) -> TemplateResponse:
    """The printable seating list of a round: who sits where, table by table."""
    night = night_for(slug, pk)
    require_sheet_reader(request, night)
    poules = list(
        Poule.objects.filter(tournament=night, round=round).with_seated_players().order_by("table")
    )
    draw = RoundDraw.objects.filter(tournament=night, round=round).first()
    context = {
        "club": night.club,
        "night": night,
        "round": round,
        "poules": poules,
        "draw": draw,
        "public": shows_public_names(request, night),
    }
    return TemplateResponse(request, "games/seating.html", context)


@login_required
@require_POST
def night_close(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    night = night_for(slug, pk)
    require_scorer(request.user, night.club)
    try:
        services.tournament_close(night)
    except ValidationError as refused:
        messages.error(request, _error_text(refused))
    else:
        messages.success(request, _("Soirée clôturée : le classement de la saison est mis à jour."))
    return redirect("games:night", slug=slug, pk=pk)


@login_required
@require_POST
def night_publish(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    night = night_for(slug, pk)
    require_club_admin(request.user, night.club)
    try:
        services.tournament_publish(night)
    except ValidationError as refused:
        messages.error(request, _error_text(refused))
    else:
        messages.success(request, _("Soirée publiée : ses feuilles sont visibles de tous."))
    return redirect("games:night", slug=slug, pk=pk)


@login_required
@require_POST
def night_reopen(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    night = night_for(slug, pk)
    require_club_admin(request.user, night.club)
    try:
        services.tournament_reopen(night)
    except ValidationError as refused:
        messages.error(request, _error_text(refused))
    else:
        messages.success(request, _("Soirée rouverte."))
    return redirect("games:night", slug=slug, pk=pk)
