"""A night: its list entry, its standings, poules and deals, its draw, its closing (its
club-night file: ``nightfile.py``)."""

from __future__ import annotations

from rest_framework import serializers

from club.models import GAME_CHOICES
from games.models import Tournament

from .common import POINTS_HELP, PlayerRef
from .deals import DealSerializer


class NightSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The night's number on the site.")
    club = serializers.SlugField(source="club.slug", help_text="The club's identifier.")
    season = serializers.SlugField(source="season.slug", help_text="The season's identifier.")
    date = serializers.DateField(help_text="The day it was played.")
    name = serializers.CharField(help_text="Its name; empty for a night without one.")
    title = serializers.CharField(
        source="__str__",
        help_text="What the site calls it: its name, or « Soirée du 23 novembre 2026 ».",
    )
    game = serializers.ChoiceField(choices=GAME_CHOICES, help_text="The game played.")
    rules = serializers.CharField(
        source="point_table.name", help_text="The point table (a preset's name, e.g. rcwhist)."
    )
    status = serializers.ChoiceField(
        choices=Tournament.Status.choices,
        help_text="planned, running, closed (locked, results kept) or published (public).",
    )
    rounds = serializers.IntegerField(help_text="Rounds planned.")
    # An inter-club night: the federation and its season it is held for (null: a club night).
    federation = serializers.SlugField(
        source="federation_season.federation.slug",
        allow_null=True,
        help_text="The federation's identifier, for an inter-club night; null for a club night.",
    )
    federation_season = serializers.SlugField(
        source="federation_season.slug",
        allow_null=True,
        help_text="The federation season's identifier, for an inter-club night; else null.",
    )


class StandingSerializer(serializers.Serializer):
    player = PlayerRef()
    rank = serializers.IntegerField(help_text="Rank tonight.")
    tied = serializers.BooleanField(help_text="Shares the rank.")
    tournament_points = serializers.CharField(help_text=POINTS_HELP)
    game_points = serializers.IntegerField(help_text="Game points tonight.")
    poules_played = serializers.IntegerField(help_text="Poules played.")
    poules_won = serializers.IntegerField(help_text="Poules won.")


class PouleStandingSerializer(serializers.Serializer):
    player = PlayerRef()
    seat = serializers.IntegerField(help_text="Seat number at the table (1 … 5).")
    rank = serializers.IntegerField(help_text="Rank at the table.")
    tied = serializers.BooleanField(help_text="Shares the rank.")
    game_points = serializers.IntegerField(help_text="Game points at the table.")
    tournament_points = serializers.CharField(help_text=POINTS_HELP)


class SeatSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="Seat number (1 … 5); 1 deals first.")
    player = PlayerRef()


class PouleSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The poule's number on the site.")
    round = serializers.IntegerField(help_text="Round (1 …).")
    table = serializers.IntegerField(help_text="Table in the round (1 …).")
    seats = SeatSerializer(many=True)
    deals = DealSerializer(many=True)
    standings = PouleStandingSerializer(many=True)


class NightDetailSerializer(NightSerializer):
    tournament_points = serializers.JSONField(
        help_text=(
            "The tournament points scheme: a preset's name (rcwhist, freewhist) or "
            '{"places": [5, 3, 1], "positive_from_place": 2, "ties": "average"}.'
        )
    )
    standings = StandingSerializer(many=True, help_text="Tonight's standings, in rank order.")
    poules = PouleSerializer(many=True, help_text="Every poule, by round and table.")


class DrawSerializer(serializers.Serializer):
    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=2**63 - 1,
        help_text="Draw with this seed (the same seed draws the same tables).",
    )


class DrawResultSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="The round drawn.")
    seed = serializers.IntegerField(help_text="The seed used (stored with the night).")
    repeats = serializers.IntegerField(help_text="Players meeting again at a table.")
    poules = PouleSerializer(many=True)


class CloseSerializer(serializers.Serializer):
    unfinished_ok = serializers.BooleanField(
        default=False,
        help_text="Close even with unfinished tables or rounds not drawn (else 400, listed).",
    )
