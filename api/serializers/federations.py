"""Federations (leagues of clubs), their seasons and a season's ranking across the clubs."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema_serializer
from rest_framework import serializers

from club.models import GAME_CHOICES, FederationSeason

from .clubs import ClubSerializer, RankedLineSerializer

COUNTS_HELP = (
    "Which nights its ranking counts: championship (the inter-club nights its clubs host "
    "for the season) or all (every night of its clubs within the season's dates)."
)


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "A federation of three clubs",
            value={
                "slug": "ligue-belge-de-whist",
                "name": "Ligue de whist du Brabant",
                "short_name": "LWB",
                "clubs": ["rcwhist-la-chevalerie", "cercle-de-wavre", "whist-club-nivelles"],
            },
        )
    ]
)
class FederationSerializer(serializers.Serializer):
    slug = serializers.SlugField(help_text="The federation's identifier in every address.")
    name = serializers.CharField(help_text="Its name.")
    short_name = serializers.CharField(help_text="Its short name; may be empty.")
    clubs = serializers.ListField(
        child=serializers.SlugField(),
        help_text="Its clubs' identifiers (``slug`` of GET /api/v1/clubs/), by name.",
    )


class FederationSeasonSerializer(serializers.Serializer):
    slug = serializers.SlugField(help_text="The season's identifier in the federation's addresses.")
    name = serializers.CharField(help_text="Its name, e.g. « 2024-2025 ».")
    start = serializers.DateField(help_text="First day.")
    end = serializers.DateField(help_text="Last day.")
    game = serializers.ChoiceField(choices=GAME_CHOICES, help_text="The game it ranks.")
    counts = serializers.ChoiceField(choices=FederationSeason.Counts.values, help_text=COUNTS_HELP)
    ranking_computed_at = serializers.DateTimeField(
        allow_null=True, help_text="When its ranking was last computed (null: not yet)."
    )


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "A federation with its clubs and seasons",
            value={
                "slug": "ligue-belge-de-whist",
                "name": "Ligue de whist du Brabant",
                "short_name": "LWB",
                "description": "Les clubs de whist du Brabant wallon.",
                "clubs": [
                    {
                        "slug": "rcwhist-la-chevalerie",
                        "name": "RCWhist La Chevalerie",
                        "game": "belgian_whist",
                        "rules": "rcwhist",
                        "rounds_per_night": 3,
                    }
                ],
                "seasons": [
                    {
                        "slug": "2024-2025",
                        "name": "2024-2025",
                        "start": "2024-09-01",
                        "end": "2025-06-30",
                        "game": "belgian_whist",
                        "counts": "championship",
                        "ranking_computed_at": "2025-03-14T22:10:00Z",
                    }
                ],
            },
        )
    ]
)
class FederationDetailSerializer(serializers.Serializer):
    slug = serializers.SlugField(help_text="The federation's identifier in every address.")
    name = serializers.CharField(help_text="Its name.")
    short_name = serializers.CharField(help_text="Its short name; may be empty.")
    description = serializers.CharField(help_text="What it says of itself; may be empty.")
    clubs = ClubSerializer(many=True, help_text="Its clubs, by name, as GET /api/v1/clubs/.")
    seasons = FederationSeasonSerializer(many=True, help_text="Its seasons, newest first.")


class FederationRankingLineSerializer(RankedLineSerializer):
    clubs_played = serializers.IntegerField(
        help_text="How many different clubs' nights he played in the season."
    )


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "A federation season's ranking",
            value={
                "federation": "ligue-belge-de-whist",
                "season": "2024-2025",
                "computed_at": "2025-03-14T22:10:00Z",
                "tournaments": 12,
                "clubs": 3,
                "rules": {
                    "best_n": 8,
                    "min_tournaments": 3,
                    "precedence": ["tournament_points", "game_points"],
                    "counts": "championship",
                },
                "lines": [
                    {
                        "rank": 1,
                        "tied": False,
                        "player": {"id": 7, "name": "Marc Dupont"},
                        "tournament_points": "38.5",
                        "game_points": 212,
                        "tournaments_played": 10,
                        "tournaments_counted": 8,
                        "tournaments_won": 3,
                        "clubs_played": 3,
                    }
                ],
            },
        )
    ]
)
class FederationRankingSerializer(serializers.Serializer):
    federation = serializers.SlugField(help_text="The federation's identifier.")
    season = serializers.SlugField(help_text="The season's identifier.")
    computed_at = serializers.DateTimeField(help_text="When it was computed.")
    tournaments = serializers.IntegerField(help_text="Nights it counts (published by their club).")
    clubs = serializers.IntegerField(help_text="Clubs whose nights it counts.")
    rules = serializers.DictField(
        help_text="The rules applied: best_n, min_tournaments, precedence, counts."
    )
    lines = FederationRankingLineSerializer(
        many=True, help_text="In ranking order, those apart (too few nights) last."
    )
