"""A federation's administrators run it here: its clubs (invited, never enrolled: a club joins
once one of its admins accepts), its administrators (found among its clubs' members, by the name
they show the public), its seasons and their ranking rules. Every page asks
``require_federation_admin`` first: a club admin of one of its clubs, another federation's
admin or a member is refused (403), a visitor is sent to the login page. The services in
``club.services`` do the work; a season's ranking follows its rules through
``scoring.services`` (queued with the change, recomputed by a task)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from infra.converters import typed_id
from infra.typography import named
from scoring import services as scoring_services

from .. import services
from ..models import (
    GAME_CHOICES,
    Club,
    Federation,
    FederationInvitation,
    FederationSeason,
    Player,
)
from ..name_order import by_name, name_sorted
from ..name_search import name_holds, typed_words
from ..names import PUBLIC, name_shown, searched_by_name
from ..permissions import require_federation_admin
from .common import form_errors
from .ranking_rules_form import RankingRulesForm

# Enough names to find the one meant; a longer list means the name typed is too short.
ADMIN_SEARCH_LIMIT = 20


def admin_federation(request: HttpRequest, slug: str) -> Federation:
    federation = get_object_or_404(Federation, slug=slug)
    require_federation_admin(request.user, federation)
    return federation


def _refused(request: HttpRequest, error: ValidationError) -> None:
    messages.error(request, " ".join(error.messages))


def _admin_candidates(federation: Federation, typed: str) -> list[Player]:
    """The members of its clubs who may run it (``federation_admin_candidates``) whose public
    name holds each typed word, shown by it: one who chose his initials is found by them, and
    his full name, which the federation does not see, finds nobody (``searched_by_name`` as
    the public searches). One query whatever the federation's size: the full names matched by
    the database, the few who chose initials matched here (their initials are made from their
    names as they are shown)."""
    words = typed_words(typed)
    if not words:
        return []
    pool = services.federation_admin_candidates(federation).only(*Player.PUBLIC_NAME_FIELDS)
    found = pool.filter(searched_by_name(PUBLIC, words)).order_by(*by_name())
    shown = [p for p in found if name_holds(name_shown(p, PUBLIC), words)]
    return sorted(shown, key=lambda p: name_sorted(name_shown(p, PUBLIC)))[:ADMIN_SEARCH_LIMIT]


def _invitations(federation: Federation, members: list[Club]) -> list[FederationInvitation]:
    """Each club's latest answer that left it outside (refused, withdrawn) or its question
    still open, for the clubs that are not members: what became of each invitation."""
    latest: dict[int, FederationInvitation] = {}
    joined = {club.pk for club in members}
    rows = federation.invitations.select_related("club").order_by("-invited_at", "-pk")
    for invitation in rows.exclude(status=FederationInvitation.Status.ACCEPTED):
        if invitation.club_id not in joined:
            latest.setdefault(invitation.club_id, invitation)
    return sorted(latest.values(), key=lambda invitation: invitation.club.name)


@login_required
def federation_admin(request: HttpRequest, slug: str) -> TemplateResponse:
    """The federation's clubs, administrators and seasons, with what may be added to each."""
    federation = admin_federation(request, slug)
    typed = request.GET.get("q", "").strip()[:120]
    clubs = list(federation.clubs.order_by("name"))
    invitations = _invitations(federation, clubs)
    asked = {i.club_id for i in invitations if i.status == FederationInvitation.Status.PENDING}
    context = {
        "federation": federation,
        "clubs": clubs,
        "invitations": invitations,
        "other_clubs": [
            club
            for club in Club.objects.exclude(federations=federation).order_by("name")
            if club.pk not in asked
        ],
        "admins": list(federation.admins.select_related("player").order_by(*by_name("player__"))),
        "typed": typed,
        "candidates": _admin_candidates(federation, typed),
        "seasons": list(federation.seasons.order_by("-start")),
    }
    return TemplateResponse(request, "club/federation/admin_index.html", context)


def _back(federation: Federation) -> HttpResponse:
    return redirect("federation-admin", slug=federation.slug)


@login_required
@require_POST
def club_invite(request: HttpRequest, slug: str) -> HttpResponse:
    """The club is asked, not enrolled: it joins once one of its admins accepts (told by
    e-mail, answering on the club's management page)."""
    federation = admin_federation(request, slug)
    club = Club.objects.filter(pk=_posted_pk(request, "club")).first()
    if club is None:
        messages.error(request, _("Choisissez un club du site."))
        return _back(federation)
    try:
        services.federation_club_invite(federation, club, by=request.user)
    except ValidationError as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            _(
                "%(club)s est invité à rejoindre %(federation)s : il en fera partie quand "
                "un de ses administrateurs aura accepté."
            )
            % {"club": club, "federation": federation},
        )
    return _back(federation)


@login_required
@require_POST
def invitation_withdraw(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    federation = admin_federation(request, slug)
    invitation = get_object_or_404(federation.invitations.select_related("club"), pk=pk)
    try:
        services.federation_invitation_withdraw(invitation, by=request.user)
    except ValidationError as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            named(_("L'invitation de %(club)s est retirée."), club=invitation.club),
        )
    return _back(federation)


@login_required
@require_POST
def club_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    federation = admin_federation(request, slug)
    club = get_object_or_404(federation.clubs, pk=pk)
    services.federation_club_remove(federation, club)
    messages.success(
        request,
        named(
            _(
                "%(club)s ne fait plus partie de %(federation)s ; ses soirées inter-clubs déjà "
                "jouées restent dans leur saison."
            ),
            club=club,
            federation=federation,
        ),
    )
    return _back(federation)


def _posted_pk(request: HttpRequest, name: str) -> int | None:
    return typed_id(request.POST.get(name, ""))


@login_required
@require_POST
def admin_add(request: HttpRequest, slug: str) -> HttpResponse:
    federation = admin_federation(request, slug)
    # Only whom the search offers: a number typed into the form names nobody else.
    candidates = services.federation_admin_candidates(federation)
    player = candidates.filter(pk=_posted_pk(request, "player")).first()
    if player is None:
        messages.error(
            request,
            _(
                "Cherchez le joueur parmi les membres des clubs de la fédération, puis "
                "choisissez-le."
            ),
        )
        return _back(federation)
    try:
        services.federation_admin_add(federation, player)
    except ValidationError as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            _("%(player)s administre %(federation)s.")
            % {"player": name_shown(player, PUBLIC), "federation": federation},
        )
    return _back(federation)


@login_required
@require_POST
def admin_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    federation = admin_federation(request, slug)
    role = get_object_or_404(federation.admins.select_related("player"), player_id=pk)
    try:
        services.federation_admin_remove(federation, role.player)
    except ValidationError as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            _("%(player)s n'administre plus %(federation)s.")
            % {"player": role.player, "federation": federation},
        )
    return _back(federation)


# Seasons


class FederationSeasonForm(RankingRulesForm):
    game = forms.ChoiceField(label=gettext_lazy("Jeu"), choices=GAME_CHOICES)
    counts = forms.ChoiceField(
        label=gettext_lazy("Soirées comptées"),
        choices=FederationSeason.Counts.choices,
        widget=forms.RadioSelect,
    )
    field_order = ["name", "start", "end", "game", "counts"]

    @staticmethod
    def initial_for(season: FederationSeason) -> dict[str, Any]:
        return {
            "name": season.name,
            "start": season.start,
            "end": season.end,
            "game": season.game,
            "counts": season.counts,
            "ranking_best_n": season.ranking_best_n,
            "ranking_min_tournaments": season.ranking_min_tournaments,
            **FederationSeasonForm.precedence_initial(season.ranking_precedence),
        }

    def rules(self) -> dict[str, Any]:
        """The season's dates and ranking rules, as ``federation_season_rules_set`` takes them."""
        data = self.cleaned_data
        return {
            "start": data["start"],
            "end": data["end"],
            "counts": data["counts"],
            "ranking_best_n": data["ranking_best_n"],
            "ranking_min_tournaments": data["ranking_min_tournaments"] or 0,
            "ranking_precedence": data["ranking_precedence"],
        }


@login_required
def season_add(request: HttpRequest, slug: str) -> TemplateResponse | HttpResponse:
    federation = admin_federation(request, slug)
    initial = {"counts": FederationSeason.Counts.CHAMPIONSHIP, "game": "belgian_whist"}
    initial.update(precedence_1="tournament_points", precedence_2="game_points")
    form = FederationSeasonForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            season = services.federation_season_create(
                federation,
                data["name"],
                data["start"],
                data["end"],
                game=data["game"],
                counts=data["counts"],
                best_n=data["ranking_best_n"],
                min_tournaments=data["ranking_min_tournaments"],
                precedence=data["ranking_precedence"],
            )
        except ValidationError as error:
            form_errors(form, error)
        else:
            messages.success(request, _("Saison %(name)s créée.") % {"name": season.name})
            return _back(federation)
    context = {"federation": federation, "form": form, "season": None}
    return TemplateResponse(request, "club/federation/admin_season.html", context)


@login_required
def season_edit(request: HttpRequest, slug: str, season: str) -> TemplateResponse | HttpResponse:
    """A season's dates and ranking rules; its name (its address) and its game stay. A change
    has its ranking recomputed, queued in the same transaction."""
    federation = admin_federation(request, slug)
    season_obj = get_object_or_404(FederationSeason, federation=federation, slug=season)
    form = FederationSeasonForm(
        request.POST or None, initial=FederationSeasonForm.initial_for(season_obj)
    )
    form.fields["name"].disabled = True
    form.fields["game"].disabled = True
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                services.federation_season_rules_set(season_obj, **form.rules())
                if form.has_changed():
                    scoring_services.federation_ranking_queue(season_obj.pk)
        except ValidationError as error:
            form_errors(form, error)
        else:
            messages.success(
                request,
                _(
                    "Règles de la saison %(name)s enregistrées : son classement est recalculé "
                    "avec elles."
                )
                % {"name": season_obj.name},
            )
            return redirect("federation-season-edit", slug=federation.slug, season=season_obj.slug)
    context = {"federation": federation, "form": form, "season": season_obj}
    return TemplateResponse(request, "club/federation/admin_season.html", context)
