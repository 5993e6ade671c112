"""Forms of a club night's set-up (the deal-entry forms are in ``dealforms``)."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from club.models import GAME_LABELS, Club, FederationSeason
from infra.typography import named
from scoring.engine.tables import PRESET_GAME

from .labels import rules_choices
from .models import DrawMethod

TOURNAMENT_POINTS_CHOICES = [
    ("rcwhist", _("5 / 3 / 1 (RCWhist : 2e et 3e seulement si positifs)")),
    ("freewhist", _("90 / 60 / 30 / 0 (tournois libres)")),
]


# How long after a federation season's end its inter-club nights may still be typed in.
INTERCLUB_LATE_ENTRY = datetime.timedelta(days=60)


def interclub_label(season: FederationSeason) -> str:
    return named(
        gettext("Soirée inter-clubs de %(federation)s %(season)s"),
        federation=season.federation.name,
        season=season.name,
    )


class TournamentForm(forms.Form):
    """Tonight's tournament: what is played and how."""

    # <input type=date> takes only an ISO value (2026-11-23), whatever the page's language: a
    # localised 23/11/2026 shows as an empty field.
    date = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    name = forms.CharField(label=_("Nom (facultatif)"), max_length=120, required=False)
    # Offered only to a club of a federation with a season not long over (a night is often
    # typed in days later); a plain club night unless the scorer chooses.
    federation_season = forms.ModelChoiceField(
        label=_("Soirée inter-clubs"),
        queryset=FederationSeason.objects.none(),
        required=False,
        empty_label=_("Non : une soirée du club"),
    )
    rules = forms.ChoiceField(label=_("Jeu et tableau des points"))
    tournament_points = forms.ChoiceField(
        label=_("Points de tournoi"), choices=TOURNAMENT_POINTS_CHOICES
    )
    rounds = forms.IntegerField(label=_("Nombre de tours"), min_value=1, max_value=10)
    draw_method = forms.ChoiceField(
        label=_("Tirage des tours 2 et suivants"),
        choices=DrawMethod.choices,
        widget=forms.RadioSelect,
        help_text=_("Le premier tour est toujours tiré au sort."),
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        today = datetime.date.today()
        # Exactly what the club chose, or what today's season says its nights are played with.
        season = club.seasons.filter(start__lte=today, end__gte=today).first()
        rules = season.rules_name if season else club.default_rules
        points = season.points_scheme if season else club.tournament_points
        kwargs.setdefault(
            "initial",
            {
                "date": today,
                "rules": rules,
                "tournament_points": points if isinstance(points, str) else "rcwhist",
                "rounds": club.rounds_per_night,
                "draw_method": DrawMethod.AVOID_REPEATS,
            },
        )
        super().__init__(*args, **kwargs)
        # One list grouped by game: choosing the point table chooses the game.
        self.fields["rules"].choices = rules_choices()
        seasons = list(
            FederationSeason.objects.filter(
                federation__clubs=club, end__gte=today - INTERCLUB_LATE_ENTRY
            )
            .select_related("federation")
            .order_by("federation__name", "-start")
        )
        if seasons:
            field = self.fields["federation_season"]
            field.queryset = FederationSeason.objects.filter(
                pk__in=[s.pk for s in seasons]
            ).select_related("federation")
            field.choices = [("", field.empty_label)] + [
                (season.pk, interclub_label(season)) for season in seasons
            ]
        else:
            del self.fields["federation_season"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        season = data.get("federation_season")
        if season is None:
            return data
        if data.get("date") and not season.start <= data["date"] <= season.end:
            self.add_error(
                "federation_season",
                gettext("%(season)s : du %(start)s au %(end)s ; la date n'y est pas.")
                % {
                    "season": interclub_label(season),
                    "start": season.start.strftime("%d/%m/%Y"),
                    "end": season.end.strftime("%d/%m/%Y"),
                },
            )
        if data.get("rules") and PRESET_GAME[data["rules"]] != season.game:
            # The federation ranks the nights of its season's game only.
            self.add_error(
                "rules",
                gettext("%(season)s compte les soirées de ce jeu : %(game)s.")
                % {"season": interclub_label(season), "game": GAME_LABELS[season.game]},
            )
        return data

    @property
    def game(self) -> str:
        return PRESET_GAME[self.cleaned_data["rules"]]


class PlayerAddForm(forms.Form):
    """A player added to tonight's night from the present list: his name, and whether he is a
    guest (else a new member of the club)."""

    # Read as typed: what a name may hold (a NUL, a name already taken) is the service's rule,
    # said in its words.
    display_name = forms.Field(required=False)
    guest = forms.BooleanField(required=False)
