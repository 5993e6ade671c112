"""A club night's set-up and running: create it, draw the rounds, close it (who is present:
presence.py; publishing, unpublishing and reopening: publication.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from club import services as club_services
from club.club_pages import access_for, club_page
from club.models import FederationSeason, Player
from club.permissions import SCORER
from front.views.errors import bad_request
from scoring import services as scoring
from scoring.engine.standings import scheme

from .. import services
from ..calendar.models import PlannedNight
from ..forms import TournamentForm
from ..mailing import result_recipients
from ..models import Poule, RoundDraw, Seat, Tournament
from ..visibility import require_room_viewer
from .common import (
    MAX_SEED,
    can_read_sheets,
    night_viewed,
    posted_number,
    require_sheet_reader,
    tournament_for,
)


def error_text(error: ValidationError) -> str:
    return " ".join(error.messages)


@login_required
@club_page(SCORER)
def tournament_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = request.club
    form = TournamentForm(request.POST or None, club=club)
    # The night of that date on the club's calendar, offered rather than a second one: started
    # from its entry, those who said yes come ticked. "second": the scorer wants another.
    date = form.cleaned_data["date"] if form.is_valid() else timezone.localdate()
    planned = PlannedNight.objects.filter(club=club, date=date).to_open().first()
    if (
        request.method == "POST"
        and form.is_valid()
        and (planned is None or "second" in request.POST)
    ):
        data = form.cleaned_data
        try:
            tournament = services.tournament_create(
                club=club,
                season=club_services.season_for_date(club, data["date"]),
                date=data["date"],
                name=data["name"],
                game=form.game,
                point_table=services.point_table_for_preset(data["rules"], club),
                tournament_points=data["tournament_points"],
                rounds=data["rounds"],
                draw_method=data["draw_method"],
                federation_season=data.get("federation_season"),
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Soirée créée : cochez les joueurs présents."))
            return redirect("games:presence", slug=slug, pk=tournament.pk)
    context = {"club": club, "form": form, "planned": planned}
    return TemplateResponse(request, "games/tournament_form.html", context)


def tournament_detail(request: HttpRequest, slug: str, pk: int) -> TemplateResponse:
    """The night's rounds and tables: the scorers' board, and the public results once
    published. A member of the club who may not read the sheets yet sees what is his: the
    room screen and the tables he sits at."""
    tournament = tournament_for(slug, pk)
    if not can_read_sheets(request, tournament):
        return _member_night(request, tournament)
    poules = list(tournament.poules.with_seated_players().order_by("round", "table"))
    # The service's rule: a round can be drawn again until its first deal, even a pass.
    dealt_rounds = tournament.dealt_rounds()
    draws = {d.round: d for d in RoundDraw.objects.filter(tournament=tournament)}
    rounds = []
    for number in range(1, tournament.rounds + 1):
        tables = [p for p in poules if p.round == number]
        for poule in tables:
            poule.expected_deals = poule.deals_tonight(len(poule.seats.all()))
        rounds.append(
            {
                "number": number,
                "poules": tables,
                "draw": draws.get(number),
                "started": number in dealt_rounds,
                # Rounds are drawn in order: the next one once the one before has its tables.
                "drawable": number == 1 or any(p.round == number - 1 for p in poules),
            }
        )
    viewer = access_for(request, tournament.club)
    can_score = viewer.is_scorer and not tournament.is_locked
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "rounds": rounds,
        "present_count": tournament.present.count(),
        "can_score": can_score,
        # Closing is offered once round 1 has its tables.
        "can_close": can_score and any(p.round == 1 for p in poules),
        "can_admin": viewer.is_club_admin,
        "federation_season": _federation_season(tournament),
    }
    return TemplateResponse(request, "games/tournament_detail.html", context)


def _federation_season(tournament: Tournament) -> FederationSeason | None:
    """An inter-club night's season with its federation, in one query (none for a club's)."""
    if tournament.federation_season_id is None:
        return None
    return FederationSeason.objects.select_related("federation").get(
        pk=tournament.federation_season_id
    )


def _member_night(request: HttpRequest, tournament: Tournament) -> TemplateResponse:
    """A member's view of a night whose sheets are not his to read: the room screen and the
    tables he sits at (the public and other clubs are refused as before)."""
    require_room_viewer(access_for(request, tournament.club), tournament)
    player = Player.objects.filter(user=request.user).first()
    seats = (
        list(
            Seat.objects.filter(tournament=tournament, player=player)
            .select_related("poule")
            .order_by("round")
        )
        if player
        else []
    )
    poules = {
        poule.pk: poule
        for poule in Poule.objects.filter(pk__in=[s.poule_id for s in seats]).with_seated_players()
    }
    tables = [poules[seat.poule_id] for seat in seats]
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "tables": tables,
        "player": player,
    }
    return TemplateResponse(request, "games/tournament_member.html", context)


def confirm_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    title: str,
    consequences: list[str],
    button: str,
    warning: str = "",
    tables: list[str] | None = None,
    keep: dict[str, str] | None = None,
) -> TemplateResponse:
    """The step before an action that cannot be taken back: what will happen, and a button
    that posts the same form again with ``confirm``. A POST without it never acts."""
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "title": title,
        "consequences": consequences,
        "warning": warning,
        "tables": tables or [],
        "button": button,
        "action": request.path,
        "keep": sorted((keep or {}).items()),
    }
    return TemplateResponse(request, "games/confirm.html", context)


def _unfinished_line(table: scoring.UnfinishedTable, tournament: Tournament) -> str:
    """What closing does with one unfinished table (scoring-rules.md §5): one that played
    deals still counts, ranked on them, and awards its tournament points; one without a deal
    awards none."""
    where = {"round": table.round, "table": table.table}
    if not table.played:
        return (
            _("Tour %(round)s, table %(table)s : aucune donne jouée, aucun point de tournoi.")
            % where
        )
    places = "/".join(str(points) for points in scheme(tournament.tournament_points).places)
    return ngettext(
        "Tour %(round)s, table %(table)s : %(played)s donne sur %(expected)s. Elle compte "
        "quand même : ses joueurs sont classés sur cette donne et reçoivent leurs points de "
        "tournoi (%(places)s).",
        "Tour %(round)s, table %(table)s : %(played)s donnes sur %(expected)s. Elle compte "
        "quand même : ses joueurs sont classés sur ces donnes et reçoivent leurs points de "
        "tournoi (%(places)s).",
        table.played,
    ) % {**where, "played": table.played, "expected": table.expected, "places": places}


def confirmed(request: HttpRequest) -> bool:
    return request.POST.get("confirm") == "1"


@login_required
@require_POST
def round_draw(request: HttpRequest, slug: str, pk: int, round: int) -> HttpResponse:
    tournament = night_viewed(request, slug, pk, SCORER)
    typed = request.POST.get("seed", "").strip()
    seed = posted_number(typed, MAX_SEED) if typed else None
    if typed and seed is None:
        return bad_request(
            request,
            _("La graine du tirage est un nombre entier de 0 à %(max)s.") % {"max": MAX_SEED},
        )
    tables = Poule.objects.filter(tournament=tournament, round=round).count()
    # Drawing a round again moves its players: asked first, unless the service will refuse it
    # anyway (a dealt round, a closed night), which it then says.
    if (
        tables
        and not confirmed(request)
        and not tournament.is_locked
        and round not in tournament.dealt_rounds()
    ):
        consequences = [
            ngettext(
                "La table du tour %(round)s sera tirée à nouveau : ses joueurs changent de place.",
                "Les %(count)s tables du tour %(round)s seront tirées à nouveau : chaque joueur "
                "peut changer de table.",
                tables,
            )
            % {"count": tables, "round": round},
            _("Le placement déjà affiché ou imprimé ne vaudra plus."),
        ]
        if Poule.objects.filter(tournament=tournament, round=round + 1).exists():
            consequences.append(
                _("Le tour %(next)s, déjà tiré, ne change pas.") % {"next": round + 1}
            )
        return confirm_page(
            request,
            tournament,
            title=_("Refaire le tirage du tour %(round)s ?") % {"round": round},
            consequences=consequences,
            button=_("Refaire le tirage"),
            keep={"seed": typed} if typed else None,
        )
    try:
        drawn = scoring.round_draw(tournament, round, seed=seed, by=request.user)
    except ValidationError as refused:
        messages.error(request, error_text(refused))
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
    }
    return TemplateResponse(request, "games/seating.html", context)


@login_required
@require_POST
def tournament_close(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Closing is confirmed first, with what it leaves unplayed and who gets the e-mails."""
    tournament = night_viewed(request, slug, pk, SCORER)
    try:
        check = scoring.tournament_close_check(tournament)
    except ValidationError as refused:
        messages.error(request, error_text(refused))
        return redirect("games:tournament", slug=slug, pk=pk)
    if not confirmed(request):
        recipients = len(result_recipients(tournament))
        consequences = [
            _(
                "La soirée sera verrouillée : seul un administrateur du club pourra encore la "
                "corriger."
            ),
            _("Le classement de la saison sera recalculé avec ses résultats."),
            ngettext(
                "Les résultats seront envoyés par e-mail à %(count)s joueur.",
                "Les résultats seront envoyés par e-mail à %(count)s joueurs.",
                recipients,
            )
            % {"count": recipients}
            if recipients
            else _("Aucun joueur ne recevra de résultats par e-mail."),
        ]
        return confirm_page(
            request,
            tournament,
            title=_("Clôturer la soirée ?"),
            consequences=consequences,
            warning=str(check) if not check.finished else "",
            tables=[_unfinished_line(table, tournament) for table in check.unfinished],
            button=_("Clôturer quand même") if not check.finished else _("Clôturer la soirée"),
        )
    try:
        scoring.tournament_close(tournament, unfinished_ok=True)
    except ValidationError as refused:
        messages.error(request, error_text(refused))
    else:
        if scoring.ranking_pending(tournament.season):
            messages.success(request, _("Soirée clôturée : le classement est en cours de calcul."))
        else:
            messages.success(
                request, _("Soirée clôturée : le classement de la saison est mis à jour.")
            )
    return redirect("games:tournament", slug=slug, pk=pk)
