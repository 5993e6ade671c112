"""Two records of one person merged: a club admin finds the other record (any club of the
site) and proposes it from the member's page; the side that loses its record confirms it (its
account from Mon profil, or its club's admin from the club's merges page), anybody concerned
may refuse it, the proposing club or the losing side undoes it. Who may is asked of
``scoring.services.merge_rights`` only: each view asks it before the service asks again in its
transaction, and a refusal says who may, in its words."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect
from django.template import loader
from django.template.response import TemplateResponse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.models import Tournament
from infra.typography import named
from scoring import services as scoring_services

from ..club_pages import club_page
from ..models import Club, Player, PlayerMerge
from ..names import name_reader_of, name_shown
from ..permissions import CLUB_ADMIN
from ..selectors import merges as selectors
from ..services import role_ended_line
from .common import membership_of

StrOrPromise = str | Promise


def _forbidden(request: HttpRequest, club: Club | None, message: str) -> HttpResponse:
    """A 403 that says why, in the service's words."""
    body = loader.render_to_string("403.html", {"club": club, "message": message}, request)
    return HttpResponseForbidden(body)


@login_required
@club_page(CLUB_ADMIN)
def member_merge_search(request: HttpRequest, slug: str, pk: int) -> TemplateResponse:
    """Find the member's other record: by name across the site's clubs. Each is named as the
    admin may see him (``club.names``): another club's member who chose initials, by them."""
    club = request.club
    player = membership_of(club, pk).player
    text = request.GET.get("q", player.last_name or player.display_name)
    context = {
        "club": club,
        "player": player,
        "q": text,
        "candidates": (
            selectors.merge_candidates(player, text, name_reader_of(request.user))
            if text.strip()
            else []
        ),
    }
    return TemplateResponse(request, "club/admin/merge_search.html", context)


@login_required
@club_page(CLUB_ADMIN)
def member_merge_propose(request: HttpRequest, slug: str, pk: int, other: int) -> HttpResponse:
    """What the merge would move (nights, clubs), and the proposal. The member of this club is
    kept unless the admin chooses the other record (``garder``)."""
    club = request.club
    player = membership_of(club, pk).player
    found = get_object_or_404(selectors.mergeable_players(), pk=other)
    wanted = request.POST.get("garder") or request.GET.get("garder")
    kept, merged = (found, player) if wanted == str(found.pk) else (player, found)
    # Each named as the admin may see him (``club.names``), as in the search.
    reader = name_reader_of(request.user)
    player.shown_name = name_shown(player, reader)
    found.shown_name = name_shown(found, reader)
    if request.method == "POST":
        try:
            scoring_services.merge_propose(kept, merged, club, request.user)
        except PermissionDenied as error:
            return _forbidden(request, club, str(error))
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(
                request,
                _(
                    "Fusion proposée : %(merged)s dans %(kept)s. Elle se confirme par "
                    "%(merged)s lui-même ou, s'il n'a pas de compte, par son club."
                )
                % {"merged": merged.shown_name, "kept": kept.shown_name},
            )
            return redirect("club-merges", slug=club.slug)
    preview = scoring_services.merge_preview(kept, merged, club)
    shown = [
        night
        for night in preview.nights
        if night.club_id == club.pk or night.status == Tournament.Status.PUBLISHED
    ]
    context = {
        "club": club,
        "player": player,
        "other": found,
        "kept": kept,
        "merged": merged,
        "preview": dataclasses.replace(preview, nights=shown),
    }
    return TemplateResponse(request, "club/admin/merge_propose.html", context)


def _actions(
    merges: list[PlayerMerge], user: User | AnonymousUser, club: Club | None = None
) -> list[PlayerMerge]:
    """Each merge with what this user may do with it (no query: memberships are prefetched),
    and on a club's page the roles in that club it ended."""
    for merge in merges:
        merge.roles_lines = [
            role_ended_line(entry)
            for entry in merge.roles_ended
            if club is not None and entry.get("club") == club.pk
        ]
        proposed = merge.status == PlayerMerge.Status.PROPOSED
        merge.may_confirm = proposed and scoring_services.merge_may_confirm(merge, user)
        merge.may_refuse = proposed and scoring_services.merge_may_refuse(merge, user)
        merge.may_undo = merge.status == PlayerMerge.Status.DONE and (
            scoring_services.merge_may_undo(merge, user)
        )
    return merges


@login_required
@club_page(CLUB_ADMIN)
def club_merges(request: HttpRequest, slug: str) -> TemplateResponse:
    """The club's merges: those awaiting its confirmation, those it proposed, those done."""
    club = request.club
    merges = _actions(list(selectors.club_merges(club)[:100]), request.user, club)
    context = {
        "club": club,
        "awaiting": [m for m in merges if m.may_confirm],
        "merges": [m for m in merges if not m.may_confirm],
    }
    return TemplateResponse(request, "club/admin/merges.html", context)


# An action's address, who may (``merge_rights``), the service, what is said once done, and the
# action's name for ``merge_rights.merge_refused``.
ACTIONS: dict[str, tuple[Callable, Callable, StrOrPromise, str]] = {
    "confirmer": (
        scoring_services.merge_may_confirm,
        scoring_services.merge_confirm,
        gettext_lazy("Fusion faite : l'historique de %(merged)s est maintenant celui de %(kept)s."),
        "confirm",
    ),
    "refuser": (
        scoring_services.merge_may_refuse,
        scoring_services.merge_refuse,
        gettext_lazy("Fusion refusée : %(merged)s et %(kept)s restent deux fiches."),
        "refuse",
    ),
    "annuler": (
        scoring_services.merge_may_undo,
        scoring_services.merge_undo,
        gettext_lazy(
            "Fusion annulée : %(merged)s et %(kept)s ont retrouvé chacun leur historique."
        ),
        "undo",
    ),
}


def _decide(
    request: HttpRequest, merge: PlayerMerge, action: str, club: Club | None
) -> HttpResponse | None:
    may, service, done, name = ACTIONS[action]
    if not may(merge, request.user):
        return _forbidden(request, club, scoring_services.merge_refused(merge, request.user, name))
    try:
        service(merge, request.user)
    except PermissionDenied as error:
        return _forbidden(request, club, str(error))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        shown = name_reader_of(request.user).name  # the decider may be of the other club
        messages.success(
            request,
            named(done, merged=shown(merge.merged), kept=shown(merge.kept)),
        )
    return None


@login_required
@require_POST
@club_page(CLUB_ADMIN)
def club_merge_decide(request: HttpRequest, slug: str, pk: int, action: str) -> HttpResponse:
    club = request.club
    if action not in ACTIONS:
        raise Http404("no such action")
    merge = get_object_or_404(selectors.club_merges(club), pk=pk)
    return _decide(request, merge, action, club) or redirect("club-merges", slug=club.slug)


@login_required
@require_POST
def my_merge_decide(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """The player decides a merge of one of his records (his account's record)."""
    player = getattr(request.user, "player", None)
    if player is None or action not in ACTIONS:
        raise Http404("no record of yours")
    merge = get_object_or_404(selectors.player_merges(player), pk=pk)
    return _decide(request, merge, action, None) or redirect("profile")


def player_merges(player: Player, user: User | AnonymousUser) -> list[PlayerMerge]:
    """The merges of the member's record still to decide or undoable, for Mon profil."""
    return _actions(list(selectors.player_merges_open(player)), user)
