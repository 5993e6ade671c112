"""What a club admin does with a closed night: publish its sheets, take them back
(unpublish), or reopen it for corrections. Each is confirmed first where it cannot be taken
back without a word, then calls its one service."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from club.permissions import CLUB_ADMIN
from scoring import services as scoring

from ..models import Tournament
from .common import night_viewed
from .tournament import confirm_page, confirmed, error_text

# What a club admin is asked before a change he could regret, by the night's state then:
# reopening a closed night (the scorers may change it again, it leaves the ranking), and
# unpublishing a published one (its sheets leave the public's sight). Title, what will
# happen, the button.
QUESTIONS = {
    Tournament.Status.CLOSED: (
        gettext_lazy("Rouvrir la soirée ?"),
        (
            gettext_lazy("Les marqueurs pourront à nouveau encoder et corriger ses donnes."),
            gettext_lazy(
                "Elle ne comptera plus dans le classement de la saison jusqu'à ce qu'elle "
                "soit clôturée à nouveau."
            ),
            gettext_lazy(
                "À la nouvelle clôture, seuls les joueurs qui n'ont pas encore reçu leurs "
                "résultats les recevront par e-mail."
            ),
        ),
        gettext_lazy("Rouvrir la soirée"),
    ),
    Tournament.Status.PUBLISHED: (
        gettext_lazy("Dépublier la soirée ?"),
        (
            gettext_lazy(
                "Ses feuilles et ses résultats ne seront plus visibles des membres ni du "
                "public : seuls les marqueurs et les administrateurs du club les verront."
            ),
            gettext_lazy(
                "Elle reste clôturée : elle compte toujours dans le classement de la saison, "
                "qui ne change pas."
            ),
            gettext_lazy("Vous pourrez la publier à nouveau, ou la rouvrir pour la corriger."),
        ),
        gettext_lazy("Dépublier la soirée"),
    ),
}


def _state_change(
    request: HttpRequest,
    slug: str,
    pk: int,
    change: Callable[[Tournament], Tournament],
    done: str | Callable[[Tournament], str],
    *,
    ask_when: str | None = None,
) -> HttpResponse:
    """A club admin's change of a night's state: asked first while the night is ``ask_when``
    and the form did not confirm (the question is QUESTIONS[ask_when]); then the service,
    its refusal or ``done`` said on the night's page."""
    tournament = night_viewed(request, slug, pk, CLUB_ADMIN)
    if ask_when and tournament.status == ask_when and not confirmed(request):
        title, consequences, button = QUESTIONS[ask_when]
        return confirm_page(
            request, tournament, title=title, consequences=list(consequences), button=button
        )
    try:
        change(tournament)
    except ValidationError as refused:
        messages.error(request, error_text(refused))
    else:
        messages.success(request, done(tournament) if callable(done) else done)
    return redirect("games:tournament", slug=slug, pk=pk)


@login_required
@require_POST
def tournament_publish(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    def done(tournament: Tournament) -> str:
        # The season's ranking is published with it unless the club publishes it itself.
        if tournament.club.ranking_follows_nights and tournament.season_id:
            return _(
                "Soirée publiée : ses feuilles et le classement de la saison sont visibles de tous."
            )
        return _("Soirée publiée : ses feuilles sont visibles de tous.")

    return _state_change(request, slug, pk, scoring.tournament_publish, done)


@login_required
@require_POST
def tournament_reopen(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    done = _("Soirée rouverte.")
    return _state_change(
        request, slug, pk, scoring.tournament_reopen, done, ask_when=Tournament.Status.CLOSED
    )


@login_required
@require_POST
def tournament_unpublish(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Taking a night's sheets back from members and the public is confirmed first."""
    done = _("Soirée dépubliée : ses feuilles ne sont plus publiques.")
    return _state_change(
        request, slug, pk, scoring.tournament_unpublish, done, ask_when=Tournament.Status.PUBLISHED
    )
