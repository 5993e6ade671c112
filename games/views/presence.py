"""Who plays tonight: the scorer ticks the present players from the list, or adds a guest or a
new member at the door. At an inter-club night the list holds the players of every club of the
federation, each with his club: a visitor is ticked without joining the host club. Each is
named as the scorer may see him (``club.names``): another club's member who chose initials is
listed, and searched, by them."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Prefetch, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from club.club_pages import access_for
from club.models import Club, Membership, Player
from club.name_order import by_name
from club.name_search import name_holds, typed_words
from club.names import NameReader, name_reader_of, name_shown, searched_by_name
from front.views.errors import bad_request

from .. import calendar, services
from ..forms import PlayerAddForm
from ..models import Tournament
from .common import MAX_SEED, posted_number


def error_text(error: ValidationError) -> str:
    return " ".join(error.messages)


# Enough names to find the one meant at the door: a longer list means too few letters typed.
SEARCH_LIMIT = 25
SEARCH_LENGTH = 80


def _current(tournament: Tournament) -> QuerySet[Membership]:
    """The memberships that put a player on the night's list: the host club's current members
    (and guests) and, at an inter-club night, those of every club of the federation."""
    clubs = Q(club=tournament.club_id)
    if tournament.federation_season_id is not None:
        clubs |= Q(club__federations__seasons=tournament.federation_season_id)
    return (
        Membership.objects.current()
        .filter(clubs)
        .exclude(status=Membership.Status.FORMER)
        .distinct()
    )


def _with_clubs(tournament: Tournament, players: QuerySet[Player]) -> list[Player]:
    """``players`` each with ``clubs``, the names of his clubs on the night's list (read in
    one more query)."""
    found = list(
        players.prefetch_related(
            Prefetch(
                "memberships",
                queryset=_current(tournament).select_related("club").order_by("club__name"),
                to_attr="night_memberships",
            )
        ).order_by(*by_name())
    )
    for player in found:
        player.clubs = ", ".join(m.club.name for m in player.night_memberships)
    return found


def _night_list(tournament: Tournament, present: set[int]) -> list[Player]:
    """The players the page lists: the host club's members (and guests) and whoever is ticked
    already; at an inter-club night the other clubs' players are found by the search
    (``presence_search``), never all sent to the phone."""
    current = _current(tournament)
    listed = Q(pk__in=current.filter(club=tournament.club_id).values("player"))
    ticked = Q(pk__in=present) & Q(pk__in=current.values("player"))
    return _with_clubs(tournament, Player.objects.filter(listed | ticked))


def _ticked(tournament: Tournament, chosen: set[int]) -> list[Player]:
    """The players posted who may play tonight (one query)."""
    pool = _current(tournament).values("player")
    return list(Player.objects.filter(pk__in=chosen).filter(pk__in=pool).order_by("pk"))


def _found(tournament: Tournament, typed: str, reader: NameReader) -> list[Player]:
    """The federation's players the page does not list whose name, as the scorer reads it, or
    one of whose clubs holds each typed word (``club.name_search``: whatever the case and the
    accents), at most ``SEARCH_LIMIT``: four queries, whatever the federation's size."""
    words = typed_words(typed)
    if not words or tournament.federation_season_id is None:
        return []
    current = _current(tournament)
    candidates = (
        Player.objects.filter(pk__in=current.values("player"))
        .exclude(pk__in=current.filter(club=tournament.club_id).values("player"))
        .exclude(pk__in=tournament.present.values("pk"))
    )
    # The night's clubs are few: their names are matched here, by the site's rule.
    clubs = Club.objects.filter(pk__in=current.values("club")).values_list(
        "pk", "name", "short_name"
    )
    clubs_of = {pk: f"{name} {short}" for pk, name, short in clubs}
    for word in words:
        matched = [pk for pk, text in clubs_of.items() if name_holds(text, [word])]
        candidates = candidates.filter(
            searched_by_name(reader, [word])
            | Q(pk__in=current.filter(club__in=matched).values("player"))
        )
    found = []
    for player in _with_clubs(tournament, reader.annotate(candidates)):
        player.shown = name_shown(player, reader)
        if name_holds(f"{player.shown} {player.clubs}", words):
            found.append(player)
            if len(found) == SEARCH_LIMIT:
                break
    return found


def _presence_page(
    request: HttpRequest, tournament: Tournament, present: set[int], error: str | None
) -> TemplateResponse:
    typed = request.GET.get("q", "")[:SEARCH_LENGTH].strip()
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "members": _night_list(tournament, present),
        "present": present,
        "error": error,
        "federation_season": tournament.federation_season,
        "typed": typed,
        # Without the page's script the search reloads the page with what it found.
        "found": _found(tournament, typed, name_reader_of(request.user)),
        # Made from the calendar: who said yes and is not ticked, who is and did not answer.
        "replies": calendar.presence_check(tournament, present),
    }
    return TemplateResponse(request, "games/presence.html", context)


@login_required
def presence_search(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The federation's players a name or a club typed finds, as boxes to tick (the
    presence page's search, drawn into its list by htmx)."""
    tournament = _night(slug, pk)
    access_for(request, tournament.club).require_scorer()
    typed = request.GET.get("q", "")[:SEARCH_LENGTH].strip()
    context = {
        "tournament": tournament,
        "typed": typed,
        "found": _found(tournament, typed, name_reader_of(request.user)),
    }
    return TemplateResponse(request, "games/_presence_found.html", context)


def _night(slug: str, pk: int) -> Tournament:
    """The night with its federation season (an inter-club night names it on the page)."""
    return get_object_or_404(
        Tournament.objects.select_related(
            "club", "season", "point_table", "federation_season__federation"
        ),
        pk=pk,
        club__slug=slug,
    )


@login_required
def presence(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Tick tonight's present players from the list (searchable on the page)."""
    tournament = _night(slug, pk)
    access_for(request, tournament.club).require_scorer()
    present = set(tournament.present.values_list("pk", flat=True))
    error = None
    if request.method == "POST":
        posted = [posted_number(v, MAX_SEED) for v in request.POST.getlist("present")]
        if None in posted:
            return bad_request(
                request, _("La liste des présents envoyée est illisible : rechargez la page.")
            )
        chosen = set(posted)
        players = _ticked(tournament, chosen)
        try:
            services.presence_set(tournament, players)
        except ValidationError as refused:
            error = error_text(refused)
        else:
            count = len(players)
            messages.success(
                request,
                ngettext("%(count)s joueur présent.", "%(count)s joueurs présents.", count)
                % {"count": count},
            )
            return redirect("games:tournament", slug=slug, pk=pk)
        present = chosen
    return _presence_page(request, tournament, present, error)


@login_required
@require_POST
def player_add(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A guest or a new member, created and ticked present in one step. The button is in the
    present list's form: the boxes ticked so far are saved with him, not lost."""
    tournament = _night(slug, pk)
    access_for(request, tournament.club).require_scorer()
    ticked = None
    if "present" in request.POST or "presence_form" in request.POST:
        posted = [posted_number(v, MAX_SEED) for v in request.POST.getlist("present")]
        if None in posted:
            return bad_request(
                request, _("La liste des présents envoyée est illisible : rechargez la page.")
            )
        ticked = set(posted)
    form = PlayerAddForm(request.POST)
    form.is_valid()  # both fields take anything; the service refuses in words
    try:
        with transaction.atomic():
            if ticked is not None:
                services.presence_set(tournament, _ticked(tournament, ticked))
            player = services.player_add_to_tournament(
                tournament,
                form.cleaned_data["display_name"] or "",
                guest=form.cleaned_data["guest"],
                by=request.user,
            )
    except ValidationError as refused:
        messages.error(request, error_text(refused))
        if ticked is not None:
            # Nothing was saved: the page shows the boxes as they were ticked.
            return _presence_page(request, tournament, ticked, error=None)
    else:
        messages.success(request, _("%(name)s est ajouté et présent.") % {"name": player})
    return redirect("games:presence", slug=slug, pk=pk)
