"""A club's admin answers the requests to join his club (accepted: a member, invited to open his
account; refused: nobody added), and ticks the steps of his new club's checklist that the
club's data cannot tell (the preset point table, the default colours suit it). His club's only
(``club_page(CLUB_ADMIN)``: 403 for its members, 404 for anybody else)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from infra.typography import named

from ..club_pages import club_page
from ..models import JoinRequest
from ..permissions import CLUB_ADMIN
from ..services.join_requests import (
    join_request_accept,
    join_request_refuse,
    join_requests_pending,
)
from ..services.signup_opening import club_step_confirm


@login_required
@club_page(CLUB_ADMIN)
def join_requests(request: HttpRequest, slug: str) -> TemplateResponse:
    """The requests waiting for the club's answer."""
    club = request.club
    context = {"club": club, "requests": join_requests_pending(club)}
    return TemplateResponse(request, "club/admin/join_requests.html", context)


@login_required
@require_POST
@club_page(CLUB_ADMIN)
def join_request_decide(request: HttpRequest, slug: str, pk: int, action: str) -> HttpResponse:
    """« Accepter » or « Refuser » a request of this club (another club's is not found)."""
    club = request.club
    if action not in ("accepter", "refuser"):
        raise Http404("no such answer")
    join_request = get_object_or_404(JoinRequest, club=club, pk=pk)
    try:
        if action == "accepter":
            join_request_accept(
                join_request,
                request.user,
                link_for=lambda token: request.build_absolute_uri(
                    reverse("invitation-accept", args=[token])
                ),
            )
        else:
            join_request_refuse(join_request, request.user)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
    else:
        names = {"name": join_request.name, "email": join_request.email}
        if action == "refuser":
            messages.success(request, named(_("Demande de %(name)s refusée."), **names))
        else:
            # The same words whether the address has an account or not: its owner is told,
            # by the invitation, how to accept.
            messages.success(
                request,
                _("%(name)s est membre du club ; son invitation est partie à %(email)s.") % names,
            )
    return redirect("join-requests", slug=club.slug)


@login_required
@require_POST
@club_page(CLUB_ADMIN)
def checklist_confirm(request: HttpRequest, slug: str, step: str) -> HttpResponse:
    """The admin ticks a step himself: « il nous convient tel quel »."""
    club = request.club
    try:
        club_step_confirm(club, step)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
    return redirect("club-detail", slug=club.slug)
