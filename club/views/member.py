"""The member's own space: profile, results, statistics, data download.

No view takes a player id: each works on the logged-in user's own player, so a member can
never reach another player's profile or data, whatever he puts in the URL or the form.
"""

from __future__ import annotations

import copy
import datetime
import html
import json
from fractions import Fraction
from functools import partial
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import get_template
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format, get_format
from django.utils.functional import SimpleLazyObject
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from games.models import night_title
from infra.addresses import address_parts
from infra.dates import in_figures
from infra.typography import colon
from scoring import member_data
from scoring.engine.standings import points_text, ratio_text
from scoring.fields import POINT_UNITS
from scoring.statistics import member as member_results

from .. import tokens
from ..language import remember_language
from ..models import ApiToken, Player
from ..names import name_reader_of
from ..profile import (
    MAX_PHOTO_BYTES,
    ProfileForm,
    email_change_confirm,
    email_change_for_token,
    profile_update,
)
from ..published import fragment_key
from ..templatetags.charts import line_chart
from ..templatetags.figures import figure
from .merges import player_merges
from .ratings import signed

# A member's season is recomputed at the latest this long after it was cached, whatever else
# (a night renamed in the admin) changed meanwhile.
MY_RESULTS_SECONDS = 6 * 3600


def _own_player(request: HttpRequest) -> Player | None:
    # An account without a player (a site admin, an invitation not yet claimed) has no space.
    return getattr(request.user, "player", None)


def _no_player(request: HttpRequest) -> TemplateResponse:
    return TemplateResponse(request, "club/member/no_player.html")


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    player = _own_player(request)
    if player is None:
        return _no_player(request)
    if request.method == "POST":
        # The form works on a copy: a refused form must not leave half its values on the
        # player the page shows as "current".
        form = ProfileForm(request.POST, request.FILES, instance=copy.copy(player))
        if form.is_valid():
            change = profile_update(
                player,
                form,
                link_for=lambda token: request.build_absolute_uri(
                    reverse("email-change-confirm", args=[token])
                ),
            )
            player.refresh_from_db()
            translation.activate(player.language)
            messages.success(request, _("Votre profil est enregistré."))
            if change is not None:
                messages.info(
                    request,
                    _(
                        "Pour changer d'adresse, ouvrez le lien que nous venons d'envoyer à "
                        "%(email)s : d'ici là, votre adresse reste %(current)s."
                    )
                    % {"email": change.email, "current": player.email or request.user.email},
                )
            return remember_language(redirect("profile"), player.language)
    else:
        form = ProfileForm(instance=player)
    context = {
        "player": player,
        "form": form,
        "pending_email": player.email_changes.first(),
        "max_photo_mb": MAX_PHOTO_BYTES // (1024 * 1024),
        "merges": player_merges(player, request.user),
    }
    return TemplateResponse(request, "club/member/profile.html", context)


@login_required
def my_results(request: HttpRequest) -> TemplateResponse:
    """His nights of one season (``?saison=`` a season's name or id; the latest by default),
    the chart against the club average, his contracts and his partners."""
    player = _own_player(request)
    if player is None:
        return _no_player(request)
    seasons = member_results.seasons_played(player)
    season = member_results.season_choice(seasons, request.GET.get("saison"))
    results = season_part = partners = key = None
    if season is not None:
        # Drawn once per change of the club's results (closing, correcting, reopening a night
        # moves the club's stamp, so the key) and served from the cache until then. Computed
        # only if the page's cached parts are missing; partners are named as each chooses to
        # be named today, so their few lines are cached apart and named on every view.
        key = fragment_key(season.club, "my-results", player.pk, season.pk)
        results = SimpleLazyObject(partial(member_results.season_results, player, season))
        season_part = SimpleLazyObject(partial(_season_part, player, results, season, seasons))
        partners = cache.get_or_set(
            f"{key}:partners", lambda: results.partners, timeout=MY_RESULTS_SECONDS
        )
        partners = member_results.partners_named_today(partners, name_reader_of(request.user))
    # A season's name is its link when it is unambiguous (one club); else its id.
    names = [s.name for s in seasons]
    choices = [(s, s.name if names.count(s.name) == 1 else s.pk) for s in seasons]
    context = {
        "player": player,
        "seasons": choices,
        "several_clubs": len({s.club_id for s in seasons}) > 1,
        "season": season,
        "results": results,
        "season_part": season_part,
        "partners": partners,
        "results_cache_key": key,
        "results_cache_seconds": MY_RESULTS_SECONDS,
    }
    return TemplateResponse(request, "club/member/my_results.html", context)


def _percent(made: int, played: int) -> str:
    """``{% widthratio made played 100 %}``: the share in whole percents, rounded as Python
    rounds (a half to the even), "0" of nothing played."""
    return str(round(made / played * 100)) if played else "0"


def _season_part(
    player: Player, results: member_results.SeasonResults, season: Any, seasons: list[Any]
) -> str:
    """The season's part of the page that is kept in the cache (his totals and cote, his
    nights, the chart, his contracts), drawn by its Jinja2 template (``jinja2/club/
    my_season.html``): Django's template language's look-ups around the rows were the
    page's largest cost once the rows were Jinja2's."""
    chart = results.chart_data()
    # The page's own words, written as they are (as Django writes a template's text).
    drawn = line_chart(
        "season-chart",
        chart["labels"],
        chart["mine"],
        chart["average"],
        title=mark_safe(
            _(
                "Graphique : mes points de tournoi cumulés et la moyenne du club, soirée après "
                "soirée"
            )
        ),
        line_label=mark_safe(_("Mes points de tournoi (cumul)")),
        reference_label=mark_safe(_("Moyenne du club (cumul)")),
        y_label=mark_safe(_("Points de tournoi")),
        # Whole numbers on the axis, from zero: a night of 5 points is not drawn on a 0.5
        # scale.
        from_zero=True,
        whole=True,
        reference_dot=2,
    )
    context = {
        "results": results,
        "rows": _season_rows(results, season.club.slug),
        "cote": _cote_words(player, season, seasons),
        "chart": drawn,
        "colon": colon(),
        "percent": _percent,
        "notes": {
            "average": mark_safe(
                _(
                    "Moyenne du club : à chaque soirée de la saison, tous les points de tournoi "
                    "distribués jusque-là, divisés par le nombre de joueurs différents qui ont "
                    "joué jusque-là. Les soirées où vous n'étiez pas comptent aussi : votre "
                    "courbe reste alors plate."
                )
            ),
            "contracts": mark_safe(
                _(
                    "Les contrats que vous avez joués comme déclarant lors des soirées de whist "
                    "belge de la saison, et combien vous en avez réussi."
                )
            ),
        },
    }
    return mark_safe(get_template("club/my_season.html", using="jinja2").render(context))


def _cote_words(player: Player, season: Any, seasons: list[Any]) -> dict[str, str] | None:
    """His cote at the season's club and its change at his latest night there, with that
    night's cote page (which tells what moved it), written as the cote's pages write them:
    as his seasons there (``seasons``) keep it, else read now."""
    club = season.club
    now = member_results.season_cote(player, season, seasons)
    if now is None:
        return None
    point = get_format("DECIMAL_SEPARATOR")
    return {
        "cote": f"{now.mu:.2f}".replace(".", point),
        "change": signed(now.change, point),
        "date": date_format(now.date, "DATE_FORMAT"),
        "address": reverse("night-ratings", args=[club.slug, now.tournament_id]),
    }


def _season_rows(results: member_results.SeasonResults, slug: str) -> dict[str, SafeString]:
    """His nights' rows and the chart's table rows: each cell written here once (the reader's
    decimal point looked up once, not per figure), the rows drawn by their Jinja2 templates
    (``jinja2/club/``): a season is hundreds of rows, and Django's template language's
    look-ups and filters per cell were most of the page."""
    point = get_format("DECIMAL_SEPARATOR")
    # « d/m/Y » is figures alone, the same in every language: each date written by its
    # writer (``infra.dates.in_figures``, as ``date_written`` writes it), the format not
    # looked up again for each of the season's dates.
    written_date = in_figures("d/m/Y")
    assert written_date is not None
    # The address of a night's results around its id, escaped as the page writes it (an id is
    # digits: the address escaped whole reads the same).
    before, after = (escape(part) for part in address_parts("games:results", slug))
    # A season's points take a handful of values, its dates and nights are on both tables:
    # each written once (a night's title escaped once).
    written: dict[Fraction, str] = {}
    dates: dict[datetime.date, str] = {}
    titles: dict[tuple[str, datetime.date], str] = {}

    def points(value: Fraction) -> str:
        text = written.get(value)
        if text is None:
            text = written[value] = points_text(value, point)
        return text

    def day(date: datetime.date) -> str:
        text = dates.get(date)
        if text is None:
            text = dates[date] = written_date(date)
        return text

    def title(name: str, date: datetime.date) -> str:
        text = titles.get((name, date))
        if text is None:
            # As Django's escape writes it (html.escape's text, marked safe): without its
            # check for lazy texts, two thirds of its time a night (the rows' template takes
            # the text as it is).
            text = titles[name, date] = html.escape(str(night_title(name, date)))
        return text

    nights = [
        (
            day(line.date),
            title(line.name, line.date),
            f"{before}{line.tournament_id}{after}" if line.published else "",
            line.rank,
            line.tied,
            points(line.tournament_points),
            figure(line.game_points),
            f"{line.poules_won} / {line.poules_played}",
        )
        for line in results.tournaments
    ]
    chart = [
        (
            day(night.date),
            title(night.name, night.date),
            night.played,
            # From the running totals in whole units, no Fraction made of each.
            ratio_text(night.mine_units, POINT_UNITS, point),
            ratio_text(night.awarded, POINT_UNITS * night.seen, point, places_always=True),
        )
        for night in results.chart
    ]
    # Each row ends its line: the last one's end dropped (a row's template asking whether it
    # is the first was a tenth of its time).
    return {
        "nights": mark_safe(
            get_template("club/my_nights.html", using="jinja2")
            .render({"lines": nights})
            .removesuffix("\n")
        ),
        "chart": mark_safe(
            get_template("club/my_chart.html", using="jinja2")
            .render({"lines": chart})
            .removesuffix("\n")
        ),
    }


@never_cache
@login_required
def my_data(request: HttpRequest) -> HttpResponse:
    """All his own data as a JSON file to keep (GDPR's right of access and portability)."""
    player = _own_player(request)
    if player is None:
        return _no_player(request)
    document = member_data.member_data(request.user, player)
    response = HttpResponse(
        json.dumps(document, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2),
        content_type="application/json; charset=utf-8",
    )
    filename = f"mes-donnees-{timezone.localdate().isoformat()}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@never_cache
def email_change(request: HttpRequest, token: str) -> HttpResponse:
    """The link sent to a member's new address: GET says what it will do, POST does it (a
    mail scanner opening the link changes nothing)."""
    change = email_change_for_token(token)
    if change is None:
        return TemplateResponse(request, "club/member/email_change_invalid.html", status=404)
    if request.method == "POST":
        try:
            email_change_confirm(change)
        except ValidationError as refused:
            messages.error(request, " ".join(refused.messages))
        else:
            messages.success(
                request, _("Votre adresse est maintenant %(email)s.") % {"email": change.email}
            )
        return redirect("profile" if request.user.is_authenticated else "login")
    return TemplateResponse(request, "club/member/email_change.html", {"change": change})


class TokenName(forms.Form):
    """A new key's name: a form field, so that what no name holds (a NUL) is refused in
    words. Its length and emptiness are the token service's to say."""

    name = forms.CharField(required=False, strip=False)


@never_cache
@login_required
def api_tokens(request: HttpRequest) -> HttpResponse:
    """His personal API tokens: named, made (the key shown this once, on this very answer:
    never stored, never in a redirect's address) and revoked."""
    made = None
    error = ""
    if request.method == "POST":
        named = TokenName(request.POST)
        try:
            if not named.is_valid():
                raise ValidationError([e for errors in named.errors.values() for e in errors])
            token, key = tokens.token_create(
                request.user,
                named.cleaned_data["name"],
                read_only=bool(request.POST.get("read_only")),
            )
        except ValidationError as refused:
            error = " ".join(refused.messages)
        else:
            made = {"token": token, "key": key}
    context = {
        "tokens": list(ApiToken.objects.filter(user=request.user)),
        "made": made,
        "error": error,
        "name_max": ApiToken._meta.get_field("name").max_length,
        "api_base": request.build_absolute_uri("/api/v1/"),
    }
    return TemplateResponse(
        request, "club/member/api_tokens.html", context, status=400 if error else 200
    )


@require_POST
@login_required
def api_token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """Revoked at once: the next request with its key is refused."""
    if not tokens.token_revoke(request.user, pk):
        raise Http404("no such token of yours")
    messages.success(request, _("La clé est retirée : elle ne donne plus accès à rien."))
    return redirect("api-tokens")
