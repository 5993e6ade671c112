"""A club's answer to a federation that invites it, from the club's management page (where
the invitation's e-mail leads). Only the club's admins answer (``require_club_admin``: 403 for
its members, 404 for anybody else — the federation's admin and other clubs' admins too); the
site's operator may answer for a club. Accepted, the club joins the federation; until then the
federation sees nothing of it but its public pages."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from infra.typography import named

from .. import services
from ..club_pages import club_page
from ..models import FederationInvitation
from ..permissions import CLUB_ADMIN

# The address's last word: the answer, and what the admin is told once it is recorded.
ANSWERS = {
    "accepter": (
        True,
        gettext_lazy(
            "%(club)s fait partie de %(federation)s : ses membres entrent dans son classement "
            "et peuvent jouer ses soirées inter-clubs."
        ),
    ),
    "refuser": (
        False,
        gettext_lazy("%(club)s a refusé l'invitation de %(federation)s."),
    ),
}


@login_required
@require_POST
@club_page(CLUB_ADMIN)
def federation_answer(request: HttpRequest, slug: str, pk: int, answer: str) -> HttpResponse:
    club = request.club
    if answer not in ANSWERS:
        raise Http404("no such answer")
    invitation = get_object_or_404(
        FederationInvitation.objects.select_related("federation", "club"), pk=pk, club=club
    )
    accept, done = ANSWERS[answer]
    try:
        services.federation_invitation_answer(invitation, accept=accept, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        names = {"club": club.name, "federation": invitation.federation.name}
        messages.success(request, named(done, **names))
    return redirect("club-admin", slug=club.slug)
