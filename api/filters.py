"""Filters of the list endpoints (django-filter): by season, date and game."""

from __future__ import annotations

import django_filters

from club.models import GAME_CHOICES
from games.models import Tournament
from scoring.models import TournamentStanding


class NightFilter(django_filters.FilterSet):
    season = django_filters.CharFilter(
        field_name="season__slug", help_text="The season's identifier (its slug, e.g. 2024)."
    )
    date = django_filters.DateFilter(field_name="date", help_text="Nights of this day.")
    date_after = django_filters.DateFilter(
        field_name="date", lookup_expr="gte", help_text="Nights on or after this day."
    )
    date_before = django_filters.DateFilter(
        field_name="date", lookup_expr="lte", help_text="Nights on or before this day."
    )
    game = django_filters.ChoiceFilter(choices=GAME_CHOICES, help_text="The game played.")
    status = django_filters.ChoiceFilter(
        choices=Tournament.Status.choices, help_text="Where the night stands."
    )

    class Meta:
        model = Tournament
        fields = ["season", "date", "date_after", "date_before", "game", "status"]


class ResultFilter(django_filters.FilterSet):
    season = django_filters.CharFilter(
        field_name="tournament__season__slug", help_text="The season's identifier (its slug)."
    )
    club = django_filters.CharFilter(field_name="tournament__club__slug", help_text="A club.")
    date_after = django_filters.DateFilter(
        field_name="tournament__date", lookup_expr="gte", help_text="Nights on or after this day."
    )
    date_before = django_filters.DateFilter(
        field_name="tournament__date", lookup_expr="lte", help_text="Nights on or before this day."
    )
    game = django_filters.ChoiceFilter(
        field_name="tournament__game", choices=GAME_CHOICES, help_text="The game played."
    )

    class Meta:
        model = TournamentStanding
        fields = ["season", "club", "date_after", "date_before", "game"]
