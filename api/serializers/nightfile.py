"""The club-night file (docs/night-format.md) as the API documents it: what the night import
accepts and what the night export gives, one schema for both, so that a client generated from
the OpenAPI schema can send the site's own export back. The document itself travels as it is
(``games.nightfile`` reads it, the engine refuses it in words); these serializers only draw
the schema."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from club.models import GAME_CHOICES

from .common import POINTS_HELP

# The night-format doc's own example, as a scorer's tool would send it.
NIGHT_FILE_EXAMPLE = {
    "format": "club-night/1",
    "club": "RCWhist La Chevalerie",
    "season": "2024",
    "date": "2024-03-14",
    "game": "belgian_whist",
    "rules": "rcwhist",
    "tournament_points": "rcwhist",
    "players": ["Anne Dupont", "Bruno Lemaire", "Chloé Martin", "Didier Peeters"],
    "poules": [
        {
            "round": 1,
            "table": 1,
            "seats": ["Anne Dupont", "Bruno Lemaire", "Chloé Martin", "Didier Peeters"],
            "deals": [
                {
                    "contract": "emballage",
                    "bid": 8,
                    "declarers": ["Anne Dupont", "Chloé Martin"],
                    "tricks": 9,
                },
                {"contract": "solo", "bid": 6, "declarers": ["Bruno Lemaire"], "tricks": 5},
                {"contract": "pass"},
            ],
        }
    ],
}


def _name_or_object(name: str, example: str, inline: str) -> dict:
    """A field the file writes as a preset's name or as the thing itself, inline."""
    return {
        "oneOf": [
            {"type": "string", "description": name, "example": example},
            {"type": "object", "additionalProperties": True, "description": inline},
        ]
    }


@extend_schema_field(
    _name_or_object(
        "A point table preset's name: rcwhist, whisthub, iwwa, coeurs, besigue …",
        "rcwhist",
        "A point table inline, in the shape of the presets' data files (what the export "
        "writes for a club's own table).",
    )
)
class RulesField(serializers.JSONField):
    pass


@extend_schema_field(
    _name_or_object(
        "A tournament points scheme's name: rcwhist or freewhist.",
        "rcwhist",
        'A scheme inline: {"places": [5, 3, 1], "positive_from_place": 2, "ties": "average"}.',
    )
)
class SchemeField(serializers.JSONField):
    pass


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": True,
        "description": (
            "A deal as the game writes it (docs/night-format.md): for Belgian whist "
            "``contract``, ``bid``, ``declarers`` (names), ``tricks``, optional ``dealer`` and "
            "``penalties``; the export adds ``points`` (name → points) and ``dealer`` (a name, "
            "or null)."
        ),
        "example": {"contract": "solo", "bid": 6, "declarers": ["Bruno Lemaire"], "tricks": 5},
    }
)
class DealEntryField(serializers.JSONField):
    pass


class FederationEntrySerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The federation's name.")
    season = serializers.CharField(help_text="Its season's name.")


class FileStandingSerializer(serializers.Serializer):
    player = serializers.CharField(help_text="The player's name, as in ``players``.")
    rank = serializers.IntegerField(help_text="Rank (1 …); tied players share it.")
    tied = serializers.BooleanField(help_text="Shares the rank.")
    tournament_points = serializers.CharField(help_text=POINTS_HELP)
    game_points = serializers.IntegerField(help_text="Game points.")
    poules_played = serializers.IntegerField(
        required=False, help_text="The night's standings only: poules played."
    )
    poules_won = serializers.IntegerField(
        required=False, help_text="The night's standings only: poules won."
    )


class FilePouleSerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=1, help_text="Round (1 …).")
    table = serializers.IntegerField(min_value=1, help_text="Table within the round (1 …).")
    seats = serializers.ListField(
        child=serializers.CharField(), help_text="Names in seating order; seat 1 deals first."
    )
    deals = serializers.ListField(child=DealEntryField(), help_text="In playing order.")
    standings = FileStandingSerializer(
        many=True, required=False, help_text="The export's: the poule's standings."
    )
    longer = serializers.BooleanField(
        required=False, help_text="The poule has more deals than the club plays, on purpose."
    )


@extend_schema_serializer(
    examples=[OpenApiExample("docs/night-format.md's example", value=NIGHT_FILE_EXAMPLE)]
)
class NightFileSerializer(serializers.Serializer):
    """A club-night file: ``club-night/1`` as written by hand or a scorer's tool, or the
    export's ``club-night-result/1`` (the same with points and standings), which imports
    back as it is."""

    format = serializers.ChoiceField(
        choices=["club-night/1", "club-night-result/1"], help_text="The document's format."
    )
    club = serializers.CharField(help_text="The club's name (must be this club's).")
    season = serializers.CharField(help_text="The season's name.")
    federation = FederationEntrySerializer(
        required=False, help_text="An inter-club night's federation season."
    )
    date = serializers.DateField(help_text="The night's day.")
    name = serializers.CharField(required=False, help_text="The night's name, if it has one.")
    game = serializers.ChoiceField(choices=GAME_CHOICES, help_text="The game played.")
    rules = RulesField(help_text="The point table: a preset's name or the table inline.")
    tournament_points = SchemeField(
        required=False, help_text="The tournament points scheme (rcwhist when absent)."
    )
    players = serializers.ListField(
        child=serializers.CharField(), help_text="Every player's name, each once."
    )
    poules = FilePouleSerializer(many=True, help_text="Poules with their deals.")
    standings = FileStandingSerializer(
        many=True, required=False, help_text="The export's: the night's standings."
    )
    warnings = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="The export's: what looked odd but was scored.",
    )
