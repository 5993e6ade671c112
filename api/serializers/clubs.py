"""Clubs, seasons, players and the yearly ranking."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema_serializer
from rest_framework import serializers

from club.models import GAME_CHOICES
from scoring.engine.tables import PRESETS

from .common import POINTS_HELP, PlayerRef

PRESET_CHOICES = sorted(name for names in PRESETS.values() for name in names)


class PlayerSerializer(PlayerRef):
    initials = serializers.CharField(help_text="His initials, e.g. « J.D. ».")


class ClubSerializer(serializers.Serializer):
    slug = serializers.SlugField(help_text="The club's identifier in every address.")
    name = serializers.CharField(help_text="The club's name.")
    game = serializers.ChoiceField(
        choices=GAME_CHOICES, source="default_game", help_text="The game its nights play."
    )
    rules = serializers.ChoiceField(
        choices=PRESET_CHOICES,
        source="default_rules",
        help_text="The preset point table its new nights play by (e.g. rcwhist).",
    )
    rounds_per_night = serializers.IntegerField(help_text="Rounds of a night, by default.")


class SeasonSerializer(serializers.Serializer):
    slug = serializers.SlugField(help_text="The season's identifier (``?season=`` filters).")
    name = serializers.CharField(help_text="Its name, e.g. « 2024 ».")
    start = serializers.DateField(help_text="First day.")
    end = serializers.DateField(help_text="Last day.")
    ranking_published_at = serializers.DateTimeField(
        allow_null=True, help_text="When its ranking was last published (null: not yet)."
    )
    imported = serializers.BooleanField(
        help_text="True: its published ranking was imported from the club's past tables "
        "(rank, name, points, nights played), with no nights on the site behind it."
    )


class RankedLineSerializer(serializers.Serializer):
    """A line of a ranking computed from nights (a federation's): every figure known."""

    rank = serializers.IntegerField(
        allow_null=True,
        help_text="Rank; null for a player listed apart (fewer nights than the minimum).",
    )
    tied = serializers.BooleanField(help_text="Shares the rank with another player.")
    player = PlayerRef()
    tournament_points = serializers.CharField(help_text=POINTS_HELP)
    game_points = serializers.IntegerField(help_text="Game points of the nights counted.")
    tournaments_played = serializers.IntegerField(help_text="Nights played.")
    tournaments_counted = serializers.IntegerField(help_text="Nights counted (best n).")
    tournaments_won = serializers.IntegerField(help_text="Nights won.")


UNKNOWN = "; null: unknown, not in the table an imported ranking was read from."


class RankingLineSerializer(RankedLineSerializer):
    """A club season's line: an imported ranking's table may not give every figure."""

    game_points = serializers.IntegerField(
        allow_null=True, help_text="Game points of the nights counted" + UNKNOWN
    )
    tournaments_played = serializers.IntegerField(
        allow_null=True, help_text="Nights played" + UNKNOWN
    )
    tournaments_counted = serializers.IntegerField(
        allow_null=True, help_text="Nights counted (best n)" + UNKNOWN
    )
    tournaments_won = serializers.IntegerField(allow_null=True, help_text="Nights won" + UNKNOWN)


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "A published ranking",
            value={
                "club": "rcwhist",
                "season": "2024",
                "provisional": False,
                "published_at": "2024-12-20T21:30:00Z",
                "computed_at": "2024-12-20T21:30:00Z",
                "tournaments": 42,
                "rules": {"best_n": 30, "min_tournaments": 5},
                "imported": False,
                "lines": [
                    {
                        "rank": 1,
                        "tied": False,
                        "player": {"id": 7, "name": "Marc Dupont"},
                        "tournament_points": "123.5",
                        "game_points": 412,
                        "tournaments_played": 38,
                        "tournaments_counted": 30,
                        "tournaments_won": 9,
                    }
                ],
            },
        )
    ]
)
class RankingSerializer(serializers.Serializer):
    club = serializers.SlugField(help_text="The club's identifier.")
    season = serializers.SlugField(help_text="The season's identifier.")
    provisional = serializers.BooleanField(
        help_text="True: the live ranking, not published yet (club admins only)."
    )
    published_at = serializers.DateTimeField(allow_null=True, help_text="When it was published.")
    computed_at = serializers.DateTimeField(help_text="When it was computed.")
    tournaments = serializers.IntegerField(
        allow_null=True,
        help_text="Nights of the season it counts; null for an imported ranking (unknown).",
    )
    rules = serializers.DictField(help_text="The ranking rules applied (best n, minimum …).")
    imported = serializers.BooleanField(
        help_text="True: imported from the club's past published table, without nights on the "
        "site: what the table did not give (game points, nights won …) is null, unknown."
    )
    lines = RankingLineSerializer(many=True, help_text="In ranking order, those apart last.")
