"""Accounts: a club admin invites a player; the member claims him with a password.

Login, logout, password change and reset are Django's own views (``django.contrib.auth.urls``)
with the site's templates in ``templates/registration/``.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.views import (
    LoginView,
    PasswordChangeView,
    PasswordResetConfirmView,
    PasswordResetView,
)
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from infra import throttle
from infra.typography import named
from scoring import services as scoring_services

from .. import invitations, services, tokens
from ..auth_forms import MemberAuthenticationForm, ThrottledPasswordResetForm
from ..club_pages import club_page
from ..language import remember_language
from ..models import Invitation, Membership, Player
from ..permissions import CLUB_ADMIN
from . import club_admin

# The invitation's account signs in with its username and password: the model backend,
# named so that adding another backend to the settings does not break the welcome login.
PASSWORD_BACKEND = "club.backends.EmailOrUsernameBackend"


@dataclass
class MemberRow:
    """One line of the members page: the membership and where the player's account stands."""

    membership: Membership
    invitation: Invitation | None
    invitation_expires: datetime.datetime | None
    locked: bool = False

    @property
    def player(self) -> Player:
        return self.membership.player

    @property
    def invitation_expired(self) -> bool:
        return self.invitation_expires is not None and self.invitation_expires <= timezone.now()


def _row(membership: Membership, locked: set[int] | None = None) -> MemberRow:
    pending = membership.player.pending_invitations
    invitation = pending[0] if pending else None
    return MemberRow(
        membership=membership,
        invitation=invitation,
        invitation_expires=invitations.invitation_expires(invitation) if invitation else None,
        locked=membership.player.user_id in (locked or set()),
    )


class MemberSearch(forms.Form):
    """The members page's search box: a form field, so that a search longer than any name is
    refused in words (a NUL never comes this far: ``config.middleware.NulInQueryRefused``)."""

    q = forms.CharField(max_length=100, required=False)

    def clean_q(self) -> str:
        return self.cleaned_data["q"][:100]


@login_required
@club_page(CLUB_ADMIN)
def members(request: HttpRequest, slug: str) -> TemplateResponse:
    """The club's members and their accounts; players without one can be invited."""
    club = request.club
    locked = throttle.locked_accounts()
    search = MemberSearch(request.GET)
    # A search the field refuses lists everybody and says why.
    text = search.cleaned_data["q"] if search.is_valid() else ""
    filters = [f for f in request.GET.getlist("filtre") if f in services.MEMBER_FILTERS]
    rows = [
        _row(m, locked)
        for m in invitations.with_pending_invitations(
            club, services.members_search(club, text, filters)
        )
    ]
    context = {
        "club": club,
        "rows": rows,
        "claims": list(invitations.claims_to_approve(club)),
        "invitation_days": invitations.INVITATION_DAYS,
        "q": text,
        "search_errors": [e for errors in search.errors.values() for e in errors],
        "filters": filters,
        "filter_choices": list(club_admin.FILTER_LABELS.items()),
        "roles": Membership.Role.choices,
        "add_form": club_admin.MemberAddForm(initial={"start": timezone.localdate()}),
        "today": timezone.localdate(),
        "back": request.GET.urlencode(),
    }
    return TemplateResponse(request, "club/members.html", context)


@login_required
@require_POST
@club_page(CLUB_ADMIN)
def invite(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Send (or send again) a player his invitation. An htmx request gets only the player's
    line back, with the outcome in it."""
    club = request.club
    player = get_object_or_404(Player.objects.in_club(club), pk=pk)
    form = invitations.InvitationForm(request.POST)
    sent = False
    if not form.is_valid():
        notice = " ".join(form.errors["email"])
    else:
        email = form.cleaned_data["email"]
        try:
            invitation = invitations.invitation_send(
                club,
                player,
                email,
                by=request.user,
                link_for=lambda token: request.build_absolute_uri(
                    reverse("invitation-accept", args=[token])
                ),
            )
        except ValidationError as refused:
            notice = " ".join(refused.messages)
        else:
            sent = True
            notice = _("Invitation envoyée à %(player)s (%(email)s).") % {
                "player": player,
                "email": invitation.email,
            }
    if request.htmx:
        membership = invitations.memberships_with_accounts(club).filter(player=player).first()
        if membership is not None:
            context = {
                "club": club,
                "row": _row(membership),
                "notice": notice,
                "sent": sent,
                "roles": Membership.Role.choices,
                "today": timezone.localdate(),
            }
            return TemplateResponse(request, "club/members.html#member", context)
    if sent:
        messages.success(request, notice)
    else:
        messages.error(request, notice)
    members_url = reverse("members", args=[club.slug])
    if request.htmx:
        # The player has left the club meanwhile: no line to swap, the whole page reloads.
        return HttpResponseClientRedirect(members_url)
    return redirect(members_url)


@sensitive_post_parameters("new_password1", "new_password2")
@never_cache
def invitation_accept(request: HttpRequest, token: str) -> TemplateResponse | HttpResponse:
    """The invitation link: whom it is for and a password to choose; the account opens and
    the member is signed in.

    A visitor already signed in is asked to sign out first rather than signed out here: his
    session is never ended behind his back, and one person never ends up holding two
    players.
    """
    invitation = invitations.invitation_for_token(token)
    if invitation is None:
        return TemplateResponse(request, "club/invitation_invalid.html", {}, status=404)
    context: dict[str, object] = {"invitation": invitation, "club": invitation.club}
    holder = invitations.account_of_address(invitation.email)
    if holder is not None:
        return _invitation_join(request, invitation, holder, context)
    if request.user.is_authenticated:
        status = 403 if request.method == "POST" else 200
        return TemplateResponse(
            request, "club/invitation_accept.html", {**context, "signed_in": True}, status=status
        )
    form = SetPasswordForm(invitations.account_for(invitation), request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = invitations.invitation_accept(
                invitation,
                form.cleaned_data["new_password1"],
                confirm_link_for=lambda value: request.build_absolute_uri(
                    reverse("claim-confirm", args=[value])
                ),
            )
        except ValidationError as refused:
            form.add_error(None, refused.messages)
        else:
            login(request, user, backend=PASSWORD_BACKEND)
            if Player.objects.filter(user=user).exists():
                messages.success(
                    request,
                    _("Bienvenue, %(player)s : votre compte est ouvert.")
                    % {"player": invitation.player},
                )
                return redirect("profile")
            messages.warning(request, _claim_waiting_text(invitation))
            return redirect("home")
    return TemplateResponse(request, "club/invitation_accept.html", {**context, "form": form})


def _invitation_join(
    request: HttpRequest, invitation: Invitation, holder: Any, context: dict[str, object]
) -> TemplateResponse | HttpResponse:
    """The invited address has an account: its owner signs in (no second account, no new
    password) and accepts. His account gets the club's player; or, when it has a player
    already, the two records are proposed for merging (the club's admin confirms)."""
    user = request.user
    if not user.is_authenticated or user.pk != holder.pk:
        # Somebody else signed in is asked to sign out, never signed out behind his back.
        status = 403 if request.method == "POST" and user.is_authenticated else 200
        return TemplateResponse(
            request,
            "club/invitation_accept.html",
            {**context, "sign_in": True, "signed_in": user.is_authenticated},
            status=status,
        )
    own = Player.objects.filter(user=user).first()
    context = {**context, "joining": True, "own_player": own}
    if request.method != "POST":
        return TemplateResponse(request, "club/invitation_accept.html", context)

    def confirm_link_for(value: str) -> str:
        return request.build_absolute_uri(reverse("claim-confirm", args=[value]))

    try:
        if own is not None:
            scoring_services.merge_from_invitation(invitation, user)
        else:
            invitations.invitation_join(invitation, user, confirm_link_for)
    except ValidationError as refused:
        return TemplateResponse(
            request, "club/invitation_accept.html", {**context, "refusal": refused.messages}
        )
    if own is not None:
        messages.success(
            request,
            named(
                _(
                    "Invitation acceptée : votre fiche et celle de %(player)s au club %(club)s "
                    "seront réunies dès que le club l'aura confirmé."
                ),
                player=invitation.player,
                club=invitation.club,
            ),
        )
        return redirect("profile")
    if Player.objects.filter(user=user).exists():
        messages.success(
            request,
            _("Bienvenue, %(player)s : votre compte est relié à votre fiche du club.")
            % {"player": invitation.player},
        )
        return redirect("profile")
    messages.warning(request, _claim_waiting_text(invitation))
    return redirect("home")


def _claim_waiting_text(invitation: Invitation) -> str:
    if invitation.player.email:
        return _(
            "Votre compte est ouvert. Pour le relier à %(player)s, ouvrez le lien que nous "
            "venons d'envoyer à l'adresse connue du club pour ce joueur."
        ) % {"player": invitation.player}
    return _(
        "Votre compte est ouvert. %(player)s est aussi membre d'un autre club : votre compte "
        "lui sera relié quand son administrateur l'aura approuvé."
    ) % {"player": invitation.player}


@never_cache
def claim_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link sent to the player's address on file: GET shows whose account asks for him,
    POST confirms (a mail scanner that opens links confirms nothing)."""
    claim = invitations.claim_for_token(token)
    if claim is None:
        return TemplateResponse(request, "club/invitation_invalid.html", {}, status=404)
    if request.method == "POST":
        try:
            invitations.claim_confirm(claim)
        except ValidationError as refused:
            messages.error(request, " ".join(refused.messages))
        else:
            messages.success(
                request,
                _("Le compte %(email)s est relié à %(player)s.")
                % {"email": claim.email, "player": claim.player},
            )
        return redirect("home")
    return TemplateResponse(request, "club/claim_confirm.html", {"claim": claim})


@login_required
@require_POST
@club_page(CLUB_ADMIN)
def claim_approve(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A club admin approves that an account opened by another club's invitation is his
    member's."""
    club = request.club
    claim = get_object_or_404(invitations.claims_to_approve(club), pk=pk)
    try:
        linked = invitations.claim_approve(claim, club)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
    else:
        messages.success(
            request,
            named(_("Compte relié à %(player)s."), player=claim.player)
            if linked
            else named(
                _("Approuvé ; les autres clubs de %(player)s doivent encore l'approuver."),
                player=claim.player,
            ),
        )
    return redirect("members", slug=club.slug)


class MemberLoginView(LoginView):
    """Django's login, with the club's limit on wrong passwords; the member's interface
    switches to the language of his profile on whatever device he logs in from."""

    authentication_form = MemberAuthenticationForm

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        player = Player.objects.filter(user=form.get_user()).only("language").first()
        return remember_language(response, player.language) if player else response


class MemberPasswordResetView(PasswordResetView):
    form_class = ThrottledPasswordResetForm


class MemberPasswordResetConfirmView(PasswordResetConfirmView):
    """A new password chosen from the member's mailbox also lifts a login lock, and removes
    his API tokens (whoever had the old password may have made one)."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        throttle.account_unlock(form.user.pk)
        tokens.tokens_revoke_all(form.user)
        return response


class MemberPasswordChangeView(PasswordChangeView):
    """Django's password change; the member's API tokens go with the old password (the
    confirmation page says so)."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        tokens.tokens_revoke_all(form.user)
        return response


@login_required
@require_POST
@club_page(CLUB_ADMIN)
def member_unlock(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A club admin lets a member locked out by wrong passwords try again at once."""
    club = request.club
    player = get_object_or_404(Player.objects.in_club(club).filter(user__isnull=False), pk=pk)
    throttle.account_unlock(player.user_id)
    messages.success(request, named(_("Le compte de %(player)s est débloqué."), player=player))
    return redirect("members", slug=club.slug)
