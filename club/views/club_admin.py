"""The club admin's area: members and roles, seasons and their ranking rules (the club's
settings: ``club_settings.py``). Every page is his club's only (``club_page(CLUB_ADMIN)``: 403
for its members, 404 for anybody else); forms only read what was typed, the services in
``club.services`` and ``scoring.services`` do the work (the API calls the same ones)."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.forms import TOURNAMENT_POINTS_CHOICES
from games.labels import point_table_label, rules_choices
from infra.typography import named
from scoring import services as scoring_services

from .. import services
from ..club_pages import club_page
from ..models import Club, Membership, Player, Season
from ..permissions import CLUB_ADMIN
from ..profile import PHONE
from .common import form_errors, membership_of
from .ranking_rules_form import RankingRulesForm

# The season form's choice for a tournament-points scheme of the season's own.
CUSTOM_POINTS = "custom"
FILTER_LABELS = {
    "active": gettext_lazy("Actifs"),
    "former": gettext_lazy("Anciens"),
    "guest": gettext_lazy("Invités"),
    "admin": gettext_lazy("Administrateurs"),
    "scorer": gettext_lazy("Marqueurs"),
    "invited": gettext_lazy("Invitation en cours"),
    "account": gettext_lazy("Avec compte"),
    "no_account": gettext_lazy("Sans compte"),
}


def _refused(request: HttpRequest, error: ValidationError) -> None:
    messages.error(request, " ".join(error.messages))


def _members_url(club: Club, request: HttpRequest) -> str:
    """Back to the members page as it was filtered."""
    back = request.POST.get("back", "")
    base = reverse("members", args=[club.slug])
    return f"{base}?{back}" if back and "//" not in back else base


@login_required
@club_page(CLUB_ADMIN)
def club_admin(request: HttpRequest, slug: str) -> TemplateResponse:
    """Where a club admin finds everything he runs, and the federations waiting for his
    answer (``club_federations``)."""
    club = request.club
    context = {
        "club": club,
        "invitations": services.federation_invitations_pending(club),
        "federations": list(club.federations.order_by("name")),
    }
    return TemplateResponse(request, "club/admin/index.html", context)


# Members and roles


class MemberAddForm(forms.Form):
    display_name = forms.CharField(label=gettext_lazy("Nom"), max_length=120)
    email = forms.EmailField(label=gettext_lazy("E-mail (facultatif)"), required=False)
    role = forms.ChoiceField(label=gettext_lazy("Rôle"), choices=Membership.Role.choices)
    start = forms.DateField(
        label=gettext_lazy("Membre depuis"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )


@login_required
@require_POST
@club_page(CLUB_ADMIN)
def member_add(request: HttpRequest, slug: str) -> HttpResponse:
    club = request.club
    form = MemberAddForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
        return redirect(_members_url(club, request))
    data = form.cleaned_data
    try:
        player = services.member_add(
            club, data["display_name"], start=data["start"], role=data["role"], email=data["email"]
        )
    except ValidationError as error:
        _refused(request, error)
    else:
        messages.success(request, _("%(player)s est membre du club.") % {"player": player})
    return redirect(_members_url(club, request))


class MemberEditForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["display_name", "first_name", "last_name", "email", "phone"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["phone"].validators.append(PHONE)
        if self.instance.user_id:
            self.fields["email"].disabled = True
            self.fields["email"].help_text = _("Le membre change son adresse lui-même.")


@login_required
@club_page(CLUB_ADMIN)
def member_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = request.club
    membership = membership_of(club, pk)
    player = membership.player
    form = MemberEditForm(request.POST or None, instance=Player.objects.get(pk=player.pk))
    # A player of several clubs is not one club's to rename (club.services.member_edit).
    shared = player.memberships.exclude(club=club).exists()
    if shared:
        for field in form.fields.values():
            field.disabled = True
    if request.method == "POST" and shared:
        form_errors(form, ValidationError(services.member_edit_refusal(player)))
    elif request.method == "POST" and form.is_valid():
        fields = {name: form.cleaned_data[name] for name in form.changed_data}
        try:
            services.member_edit(club, player, **fields)
        except ValidationError as error:
            form_errors(form, error)
        else:
            messages.success(request, named(_("Fiche de %(player)s enregistrée."), player=player))
            return redirect("members", slug=club.slug)
    context = {
        "club": club,
        "membership": membership,
        "player": player,
        "form": form,
        "shared": shared,
        "roles": Membership.Role.choices,
        "today": timezone.localdate(),
    }
    return TemplateResponse(request, "club/admin/member_edit.html", context)


@login_required
@require_POST
@club_page(CLUB_ADMIN)
def member_role(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = request.club
    membership = membership_of(club, pk)
    try:
        membership = services.role_set(membership, request.POST.get("role", ""))
    except ValidationError as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            _("%(player)s : %(role)s.")
            % {"player": membership.player, "role": membership.get_role_display()},
        )
    return redirect(_members_url(club, request))


class DayField(forms.Field):
    """A day as the page's date input sends it (ISO); today when left empty."""

    default_error_messages = {"invalid": gettext_lazy("« %(value)s » n'est pas une date.")}

    def to_python(self, value: Any) -> datetime.date:
        if not value:
            return timezone.localdate()
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            raise ValidationError(
                self.error_messages["invalid"], code="invalid", params={"value": value}
            ) from None


class MembershipDayForm(forms.Form):
    """The day a membership ends (``end``) or starts again (``start``)."""

    start = DayField(required=False)
    end = DayField(required=False)

    def day(self, name: str) -> datetime.date:
        """The day typed in field ``name``; its refusal raised as the services' are."""
        if not self.is_valid() and name in self.errors:
            raise ValidationError(self.errors[name])
        return self.cleaned_data[name]


@login_required
@require_POST
@club_page(CLUB_ADMIN)
def member_end(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = request.club
    membership = membership_of(club, pk)
    if "confirm" not in request.POST:
        # Asked first: one tap on a phone must not end somebody's membership.
        context = {
            "club": club,
            "membership": membership,
            "today": timezone.localdate(),
            "back": request.POST.get("back", ""),
        }
        return TemplateResponse(request, "club/admin/member_end.html", context)
    try:
        membership = services.membership_end(membership, MembershipDayForm(request.POST).day("end"))
    except ValidationError as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            _("%(player)s n'est plus membre depuis le %(date)s.")
            % {"player": membership.player, "date": membership.end.strftime("%d/%m/%Y")},
        )
    return redirect(_members_url(club, request))


@login_required
@require_POST
@club_page(CLUB_ADMIN)
def member_resume(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = request.club
    membership = membership_of(club, pk)
    try:
        day = MembershipDayForm(request.POST).day("start")
        services.membership_resume(club, membership.player, day)
    except ValidationError as error:
        _refused(request, error)
    else:
        messages.success(
            request, _("%(player)s est de nouveau membre.") % {"player": membership.player}
        )
    return redirect(_members_url(club, request))


@login_required
@require_POST
@club_page(CLUB_ADMIN)
def member_from_guest(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = request.club
    membership = membership_of(club, pk)
    try:
        services.guest_to_member(membership)
    except ValidationError as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            _("%(player)s devient membre ; ses résultats restent les siens.")
            % {"player": membership.player},
        )
    return redirect(_members_url(club, request))


# Seasons


class SeasonForm(RankingRulesForm):
    ranking_guests = forms.BooleanField(
        label=gettext_lazy("Les invités sont classés"), required=False
    )
    default_rules = forms.ChoiceField(
        label=gettext_lazy("Jeu et tableau des points des soirées"), required=False
    )
    tournament_points = forms.ChoiceField(label=gettext_lazy("Points de tournoi"), required=False)

    # The guests rule beside the other ranking rules, as before the criteria.
    field_order = [
        "name",
        "start",
        "end",
        "ranking_best_n",
        "ranking_min_tournaments",
        "ranking_guests",
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Empty: the season follows the club's default (and its later changes).
        self.fields["default_rules"].choices = [("", _("Celui du club")), *rules_choices()]
        points = [("", _("Ceux du club")), *TOURNAMENT_POINTS_CHOICES]
        if self.initial.get("tournament_points") == CUSTOM_POINTS:
            # A scheme of its own (set by the operator or an import) is not one of the choices:
            # kept as it is unless another is chosen.
            points.append((CUSTOM_POINTS, _("Barème propre à la saison (inchangé)")))
        self.fields["tournament_points"].choices = points

    @staticmethod
    def initial_for(season: Season) -> dict[str, Any]:
        rules = season.ranking_rules()
        points = season.tournament_points
        return {
            "name": season.name,
            "start": season.start,
            "end": season.end,
            "ranking_best_n": rules.best_n,
            "ranking_min_tournaments": rules.min_tournaments,
            "ranking_guests": season.ranking_guests,
            **SeasonForm.precedence_initial(rules.precedence),
            "default_rules": season.default_rules,
            "tournament_points": CUSTOM_POINTS if isinstance(points, dict) else points or "",
        }

    def rules(self) -> dict[str, Any]:
        """What the services take: the season's rules."""
        data = self.cleaned_data
        rules = {
            "ranking_best_n": data["ranking_best_n"],
            "ranking_min_tournaments": data["ranking_min_tournaments"] or 0,
            "ranking_precedence": data["ranking_precedence"],
            "ranking_guests": data["ranking_guests"],
            "default_rules": data["default_rules"],
            "tournament_points": data["tournament_points"] or None,
        }
        if data["tournament_points"] == CUSTOM_POINTS:
            del rules["tournament_points"]  # the season's own scheme stays
        return rules


@login_required
@club_page(CLUB_ADMIN)
def seasons(request: HttpRequest, slug: str) -> TemplateResponse | HttpResponse:
    """The club's seasons, and the next one to create (its dates and rules suggested)."""
    club = request.club
    suggested = services.season_next(club)
    form = SeasonForm(request.POST or None, initial=SeasonForm.initial_for(suggested))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        rules = form.rules()
        # "Unchanged" for a new season: the last season's own scheme carries on.
        rules.setdefault("tournament_points", suggested.tournament_points)
        try:
            season = services.season_create(club, data["name"], data["start"], data["end"], **rules)
        except ValidationError as error:
            form_errors(form, error)
        else:
            messages.success(request, _("Saison %(name)s créée.") % {"name": season.name})
            return redirect("season-edit", slug=club.slug, season=season.slug)
    context = {"club": club, "seasons": list(club.seasons.all()), "form": form}
    return TemplateResponse(request, "club/admin/seasons.html", context)


@login_required
@club_page(CLUB_ADMIN)
def season_edit(request: HttpRequest, slug: str, season: str) -> TemplateResponse | HttpResponse:
    """A season's dates and rules. "Aperçu" shows the ranking before and after; saving applies
    the rules to the provisional ranking at once (the published one stays)."""
    club = request.club
    season_obj = get_object_or_404(Season, club=club, slug=season)
    form = SeasonForm(request.POST or None, initial=SeasonForm.initial_for(season_obj))
    form.fields["name"].disabled = True
    preview = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if "preview" in request.POST:
                preview = scoring_services.season_rules_preview(season_obj, **form.rules())
            else:
                # Dates and rules together or not at all.
                with transaction.atomic():
                    if (data["start"], data["end"]) != (season_obj.start, season_obj.end):
                        services.season_dates_set(season_obj, data["start"], data["end"])
                    scoring_services.season_rules_set(season_obj, **form.rules())
                messages.success(
                    request,
                    _(
                        "Règles de la saison %(name)s enregistrées : le classement provisoire "
                        "en tient compte ; le classement publié reste jusqu'à la prochaine "
                        "publication."
                    )
                    % {"name": season_obj.name},
                )
                return redirect("season-edit", slug=club.slug, season=season_obj.slug)
        except ValidationError as error:
            form_errors(form, error)
    context = {
        "club": club,
        "season": season_obj,
        "form": form,
        "preview": preview,
        "rules_label": point_table_label(season_obj.rules_name),
    }
    return TemplateResponse(request, "club/admin/season_edit.html", context)
