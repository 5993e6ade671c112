"""A club's sign-up, page by page (``club.services.signup`` does the work): the secretary's
address and name, the link's page where she chooses her password, the club, its first season
and ranking rules, and the last look before she sends it. Each step's page is hers only (her
account's sign-up in progress); she resumes from the link or by logging in at ``/inscription/``.
"""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters

from games.labels import point_table_label, rules_choices
from infra.client_address import client_address
from scoring.engine.tables import PRESET_GAME

from ..models import GAME_LABELS, ClubSignup
from ..services import signup as service
from ..services.signup_opening import club_slug
from .accounts import PASSWORD_BACKEND
from .common import form_errors
from .ranking_rules_form import METRIC_LABELS, RankingRulesForm

Status = ClubSignup.Status
# The pages of the steps after the account, by the answers each records.
STEP_PAGES = {"club": "signup-club", "season": "signup-season", "review": "signup-review"}
# Where the secretary is in the five steps (the account's two come first).
STEP_NUMBERS = {"club": 3, "season": 4, "review": 5}


class Honeypot(forms.CharField):
    """A field no person sees (hidden from the eye and from screen readers): a robot that
    fills every field gives itself away."""

    def __init__(self) -> None:
        super().__init__(
            required=False,
            label=gettext_lazy("Ne pas remplir"),
            widget=forms.TextInput(attrs={"tabindex": "-1", "autocomplete": "off"}),
        )


class SignupStartForm(forms.Form):
    email = forms.EmailField(label=gettext_lazy("Votre adresse e-mail"), max_length=254)
    name = forms.CharField(
        label=gettext_lazy("Votre nom"),
        max_length=120,
        help_text=gettext_lazy("Vous serez l'administrateur du club ; d'autres le seront aussi."),
    )
    website = Honeypot()


class SignupClubForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Nom du club"), max_length=120)
    town = forms.CharField(label=gettext_lazy("Ville"), max_length=80, required=False)
    default_rules = forms.ChoiceField(
        label=gettext_lazy("Jeu et tableau des points"),
        help_text=gettext_lazy("Un tableau du site, que le club pourra modifier ensuite."),
    )
    listed = forms.BooleanField(
        label=gettext_lazy(
            "Montrer le club dans la liste de la page d'accueil (ville, jeu, prochaine "
            "soirée), avec un lien pour demander à le rejoindre"
        ),
        required=False,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["default_rules"].choices = rules_choices()


class SignupSeasonForm(RankingRulesForm):
    """The first season and the club's ranking rules (the season form's, without the rules
    of a season of its own: a new club's rules are the club's)."""


def _current(request: HttpRequest) -> ClubSignup | None:
    if not request.user.is_authenticated:
        return None
    return service.signup_of(request.user)


def _closed(request: HttpRequest) -> TemplateResponse:
    return TemplateResponse(request, "club/signup/closed.html", {})


def _resume(signup: ClubSignup) -> HttpResponse:
    return redirect(STEP_PAGES[service.signup_next_step(signup)])


@never_cache
def signup_start(request: HttpRequest) -> HttpResponse:
    """« Créer un club »: a stranger gives her address and name; a logged-in account starts
    (or resumes) its own sign-up."""
    if service.signup_mode() == "closed":
        return _closed(request)
    if request.user.is_authenticated:
        return _account_start(request)
    form = SignupStartForm(request.POST or None)
    if request.method == "POST" and "resend" in request.POST:
        try:
            service.signup_link_again(
                request.POST.get("email", ""), address=client_address(request)
            )
        except ValidationError as refused:
            form.errors.clear()
            form.add_error(None, refused.messages)
        else:
            return redirect("signup-sent")
    elif request.method == "POST" and form.is_valid():
        if form.cleaned_data["website"]:
            # A robot: told what a person is told, and nothing is made.
            return redirect("signup-sent")
        try:
            service.signup_start(
                form.cleaned_data["email"],
                form.cleaned_data["name"],
                (get_language() or "fr")[:2],
                address=client_address(request),
            )
        except ValidationError as refused:
            form_errors(form, refused)
        else:
            return redirect("signup-sent")
    context = {"form": form, "mode": service.signup_mode()}
    return TemplateResponse(request, "club/signup/start.html", context)


def _account_start(request: HttpRequest) -> HttpResponse:
    signup = service.signup_of(request.user)
    if signup is not None and signup.status == Status.DRAFT:
        return _resume(signup)
    if signup is not None and signup.status == Status.WAITING:
        return TemplateResponse(request, "club/signup/waiting.html", {"signup": signup})
    if request.method == "POST":
        try:
            signup = service.signup_begin(request.user, (get_language() or "fr")[:2])
        except ValidationError as refused:
            messages.error(request, " ".join(refused.messages))
        else:
            return _resume(signup)
    context = {"mode": service.signup_mode(), "last": signup}
    return TemplateResponse(request, "club/signup/account_start.html", context)


def signup_sent(request: HttpRequest) -> TemplateResponse:
    """Look in your mailbox (the same words whoever asked, and whatever was made)."""
    return TemplateResponse(request, "club/signup/sent.html", {"days": service.LINK_DAYS})


@never_cache
@sensitive_post_parameters()
def signup_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The e-mail's link: a password to choose, which opens the secretary's account and
    confirms her address. Once used, the link leads back to the sign-up (after a login)."""
    signup = service.signup_for_token(token)
    if signup is None:
        return TemplateResponse(request, "club/signup/invalid.html", {}, status=404)
    if signup.status != Status.UNCONFIRMED:
        if request.user.is_authenticated and request.user.pk == signup.user_id:
            return redirect("signup-start")
        messages.info(request, _("Votre adresse est confirmée : connectez-vous pour reprendre."))
        return redirect(f"{reverse('login')}?next={reverse('signup-start')}")
    context: dict[str, Any] = {"signup": signup}
    if request.user.is_authenticated:
        status = 403 if request.method == "POST" else 200
        context["signed_in"] = True
        return TemplateResponse(request, "club/signup/confirm.html", context, status=status)
    form = SetPasswordForm(service.signup_account_for(signup), request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = service.signup_confirm(signup, form.cleaned_data["new_password1"])
        except ValidationError as refused:
            form.add_error(None, refused.messages)
        else:
            login(request, user, backend=PASSWORD_BACKEND)
            messages.success(request, _("Adresse confirmée, compte ouvert : voici votre club."))
            return redirect("signup-club")
    return TemplateResponse(request, "club/signup/confirm.html", {**context, "form": form})


def _draft_or_resume(request: HttpRequest) -> ClubSignup | HttpResponse:
    signup = _current(request)
    if signup is None or signup.status != Status.DRAFT:
        return redirect("signup-start")
    return signup


def _step_page(
    request: HttpRequest, signup: ClubSignup, step: str, form: forms.Form
) -> TemplateResponse:
    context = {"signup": signup, "form": form, "step": STEP_NUMBERS[step], "steps": 5}
    return TemplateResponse(request, f"club/signup/step_{step}.html", context)


@login_required
@never_cache
def signup_club(request: HttpRequest) -> HttpResponse:
    """Step 3: the club's name, town, game and point table, and whether it is listed."""
    if service.signup_mode() == "closed":
        return _closed(request)
    signup = _draft_or_resume(request)
    if isinstance(signup, HttpResponse):
        return signup
    form = SignupClubForm(request.POST or None, initial=service.signup_answers(signup, "club"))
    if request.method == "POST" and form.is_valid():
        try:
            service.signup_club_set(signup, **form.cleaned_data)
        except ValidationError as refused:
            form_errors(form, refused)
        else:
            return redirect("signup-season")
    return _step_page(request, signup, "club", form)


def _season_initial(signup: ClubSignup) -> dict[str, Any]:
    answers = service.signup_answers(signup, "season")
    if answers:
        return {**answers, **RankingRulesForm.precedence_initial(answers["ranking_precedence"])}
    # A calendar year, as most clubs count; and the rules a club has until it changes them.
    year = datetime.date.today().year
    return {
        "name": str(year),
        "start": datetime.date(year, 1, 1),
        "end": datetime.date(year, 12, 31),
        "ranking_min_tournaments": 0,
        **RankingRulesForm.precedence_initial(["tournament_points", "game_points"]),
    }


@login_required
@never_cache
def signup_season(request: HttpRequest) -> HttpResponse:
    """Step 4: the first season and the club's ranking rules."""
    if service.signup_mode() == "closed":
        return _closed(request)
    signup = _draft_or_resume(request)
    if isinstance(signup, HttpResponse):
        return signup
    if "club" not in signup.answers:
        return redirect("signup-club")
    form = SignupSeasonForm(request.POST or None, initial=_season_initial(signup))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            service.signup_season_set(
                signup,
                name=data["name"],
                start=data["start"],
                end=data["end"],
                ranking_best_n=data["ranking_best_n"],
                ranking_min_tournaments=data["ranking_min_tournaments"],
                ranking_precedence=data["ranking_precedence"],
            )
        except ValidationError as refused:
            form_errors(form, refused)
        else:
            return redirect("signup-review")
    return _step_page(request, signup, "season", form)


@login_required
@never_cache
def signup_review(request: HttpRequest) -> HttpResponse:
    """Step 5: everything once more, then « Créer le club » (or « Envoyer la demande »)."""
    if service.signup_mode() == "closed":
        return _closed(request)
    signup = _draft_or_resume(request)
    if isinstance(signup, HttpResponse):
        return signup
    if service.signup_next_step(signup) != "review":
        return _resume(signup)
    problems: list[str] = []
    if request.method == "POST":
        try:
            club = service.signup_submit(signup)
        except ValidationError as refused:
            problems = refused.messages
        else:
            if club is None:
                return redirect("signup-start")
            messages.success(
                request,
                _("Le club %(club)s est ouvert : voici ses premiers pas.") % {"club": club.name},
            )
            return redirect("club-detail", slug=club.slug)
    club, season = signup.answers["club"], service.signup_answers(signup, "season")
    context = {
        "signup": signup,
        "club": club,
        "slug": club_slug(club["name"]),
        "table": point_table_label(club["default_rules"]),
        "game": GAME_LABELS.get(PRESET_GAME.get(club["default_rules"], ""), ""),
        "season": season,
        "criteria": [METRIC_LABELS[m] for m in season["ranking_precedence"]],
        "mode": service.signup_mode(),
        "problems": problems,
        "step": STEP_NUMBERS["review"],
        "steps": 5,
    }
    return TemplateResponse(request, "club/signup/review.html", context)
