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

from club import services as club_services
from club.models import Club, Membership, Player
from club.permissions import is_club_admin, is_scorer, require_club_admin, require_scorer
from scoring import services as scoring

from .. import services
from ..forms import TournamentForm
from ..models import Poule, RoundDraw
from .common import (
    MAX_SEED,
    bad_request,
    posted_number,
    require_sheet_reader,
    shows_public_names,
    tournament_for,
)


def _error_text(error: ValidationError) -> str:
    return " ".join(error.messages)


@login_required
def tournament_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    require_scorer(request.user, club)
    form = TournamentForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.tournament_create(
                club=club,
                season=club_services.season_for_date(club, data["date"]),
                date=data["date"],
                name=data["name"],
                game=form.game,
                point_table=services.point_table_for_preset(data["rules"]),
                tournament_points=data["tournament_points"],
                rounds=data["rounds"],
                draw_method=data["draw_method"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Soirée créée : cochez les joueurs présents."))
            return redirect("games:presence", slug=slug, pk=tournament.pk)
    return TemplateResponse(request, "games/tournament_form.html", {"club": club, "form": form})


def tournament_detail(request: HttpRequest, slug: str, pk: int) -> TemplateResponse:
    """The night's rounds and tables: the scorers' board, and the public results once
    published."""
    tournament = tournament_for(slug, pk)
    require_sheet_reader(request, tournament)
    poules = list(tournament.poules.with_seated_players().order_by("round", "table"))
    # The service's rule: a round can be drawn again until its first deal, even a pass.
    dealt_rounds = tournament.dealt_rounds()
    draws = {d.round: d for d in RoundDraw.objects.filter(tournament=tournament)}
    rounds = []
    for number in range(1, tournament.rounds + 1):
        tables = [p for p in poules if p.round == number]
        for poule in tables:
            poule.expected_deals = tournament.deals_per_poule(len(poule.seats.all()))
        rounds.append(
            {
                "number": number,
                "poules": tables,
                "draw": draws.get(number),
                "started": number in dealt_rounds,
            }
        )
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "rounds": rounds,
        "present_count": tournament.present.count(),
        "can_score": is_scorer(request.user, tournament.club) and not tournament.is_locked,
        "can_admin": is_club_admin(request.user, tournament.club),
        "public": shows_public_names(request, tournament),
    }
    return TemplateResponse(request, "games/tournament_detail.html", context)


@login_required
def presence(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Tick tonight's present players from the club list (searchable on the page)."""
    tournament = tournament_for(slug, pk)
    require_scorer(request.user, tournament.club)
    members = list(
        Player.objects.filter(
            memberships__club=tournament.club,
            memberships__end__isnull=True,
        )
        .exclude(memberships__status=Membership.Status.FORMER)
        .order_by("display_name")
        .distinct()
    )
    present = set(tournament.present.values_list("pk", flat=True))
    error = None
    if request.method == "POST":
        posted = [posted_number(v, MAX_SEED) for v in request.POST.getlist("present")]
        if None in posted:
            return bad_request(
                request, _("La liste des présents envoyée est illisible : rechargez la page.")
            )
        chosen = set(posted)
        try:
            services.presence_set(tournament, [p for p in members if p.pk in chosen])
        except ValidationError as refused:
            error = _error_text(refused)
        else:
            count = len(chosen & {p.pk for p in members})
            messages.success(
                request,
                ngettext("%(count)s joueur présent.", "%(count)s joueurs présents.", count)
                % {"count": count},
            )
            return redirect("games:tournament", slug=slug, pk=pk)
        present = chosen
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "members": members,
        "present": present,
        "error": error,
    }
    return TemplateResponse(request, "games/presence.html", context)


@login_required
@require_POST
def player_add(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A guest or a new member, created and ticked present in one step."""
    tournament = tournament_for(slug, pk)
    require_scorer(request.user, tournament.club)
    try:
        player = services.player_add_to_tournament(
            tournament,
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
    tournament = tournament_for(slug, pk)
    require_scorer(request.user, tournament.club)
    typed = request.POST.get("seed", "").strip()
    seed = posted_number(typed, MAX_SEED) if typed else None
    if typed and seed is None:
        return bad_request(
            request,
            _("La graine du tirage est un nombre entier de 0 à %(max)s.") % {"max": MAX_SEED},
        )
    try:
        drawn = scoring.round_draw(tournament, round, seed=seed, by=request.user)
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
    return redirect("games:tournament", slug=slug, pk=pk)


def seating(request: HttpRequest, slug: str, pk: int, round: int) -> TemplateResponse:
    """The printable seating list of a round: who sits where, table by table."""
    tournament = tournament_for(slug, pk)
    require_sheet_reader(request, tournament)
    poules = list(
        Poule.objects.filter(tournament=tournament, round=round)
        .with_seated_players()
        .order_by("table")
    )
    draw = RoundDraw.objects.filter(tournament=tournament, round=round).first()
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "round": round,
        "poules": poules,
        "draw": draw,
        "public": shows_public_names(request, tournament),
    }
    return TemplateResponse(request, "games/seating.html", context)


@login_required
@require_POST
def tournament_close(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for(slug, pk)
    require_scorer(request.user, tournament.club)
    try:
        scoring.tournament_close(tournament)
    except ValidationError as refused:
        messages.error(request, _error_text(refused))
    else:
        messages.success(request, _("Soirée clôturée : le classement de la saison est mis à jour."))
    return redirect("games:tournament", slug=slug, pk=pk)


@login_required
@require_POST
def tournament_publish(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for(slug, pk)
    require_club_admin(request.user, tournament.club)
    try:
        scoring.tournament_publish(tournament)
    except ValidationError as refused:
        messages.error(request, _error_text(refused))
    else:
        messages.success(request, _("Soirée publiée : ses feuilles sont visibles de tous."))
    return redirect("games:tournament", slug=slug, pk=pk)


@login_required
@require_POST
def tournament_reopen(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for(slug, pk)
    require_club_admin(request.user, tournament.club)
    try:
        scoring.tournament_reopen(tournament)
    except ValidationError as refused:
        messages.error(request, _error_text(refused))
    else:
        messages.success(request, _("Soirée rouverte."))
    return redirect("games:tournament", slug=slug, pk=pk)
