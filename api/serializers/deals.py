"""A deal as the API answers it and as a client records or corrects it."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from scoring.engine.games.belgian_whist import CONTRACTS, PASS

from .common import has_nul

# A deal as the club-night file writes it (docs/night-format.md), players by seat number. Its
# keys depend on the game: documented here, checked by the engine (located refusals).
DEAL_SCHEMA = {
    "type": "object",
    "additionalProperties": True,
    "description": (
        "A deal in the club-night file's words (docs/night-format.md), players named by seat "
        "number. Belgian whist: contract, bid, declarers, tricks (an integer, or seat → tricks "
        "for misères); whist: tricks {team, tricks}, honours, revokes; hearts: hearts "
        "(seat → count), queen_of_spades; bésigue: declarations, brisques, last_trick. Any "
        "game: penalties [{player, points}]."
    ),
    "properties": {
        "contract": {
            "type": "string",
            "enum": [*CONTRACTS, PASS],
            "description": "Belgian whist: the contract's code (scoring-rules.md §1.1).",
        },
        "bid": {"type": "integer", "description": "The tricks bid, where the contract has one."},
        "declarers": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Seat numbers of the declaring side.",
        },
        "tricks": {
            "oneOf": [{"type": "integer"}, {"type": "object"}],
            "description": "Tricks of the declaring side, or seat → tricks (misères).",
        },
        "dealer": {"type": "string", "description": "Seat number of the dealer (optional)."},
    },
    "example": {"contract": "emballage", "bid": 8, "declarers": ["1", "3"], "tricks": 9},
}


@extend_schema_field(DEAL_SCHEMA)
class DealDataField(serializers.DictField):
    def to_internal_value(self, data: Any) -> dict[str, Any]:
        value = super().to_internal_value(data)
        if has_nul(value):
            raise serializers.ValidationError(
                "a NUL character (\\u0000) cannot be recorded", code="null_characters_not_allowed"
            )
        return value


class DealSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The deal's number on the site.")
    number = serializers.IntegerField(
        allow_null=True,
        help_text=(
            "Its number on the score sheet (1, 2 …), as every page shows it; null for a deal "
            "that takes none (everybody passed)."
        ),
    )
    code = serializers.CharField(
        help_text="Its short code on the score sheet (e.g. « E8 ✓9 »), in the reader's language."
    )
    description = serializers.CharField(
        help_text="The deal in words, players by name, as the score sheet and results say it."
    )
    data = DealDataField(
        help_text=(
            "The deal as the scorer recorded it, in the club-night file's words "
            "(docs/night-format.md), players named by seat number."
        )
    )
    dealer = serializers.IntegerField(allow_null=True, help_text="The dealer's seat number.")
    mort = serializers.IntegerField(
        allow_null=True,
        help_text="The seat that sits the deal out (the mort, at a table of 5); null if none.",
    )
    points = serializers.ListField(
        child=serializers.IntegerField(), help_text="Game points of each seat, in seat order."
    )
    counted = serializers.BooleanField(help_text="False for a pass that is not numbered.")
    version = serializers.CharField(
        help_text="When it was last written: send it back with a correction (409 if changed)."
    )
    replayed = serializers.BooleanField(
        required=False, help_text="True: this key was recorded before; nothing new was written."
    )


DEAL_EXAMPLE = {"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 7}


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "A solo of 6 made with 7 tricks",
            value={
                "client_key": "0d8f5f9e-3a55-4a55-9f7c-6c7a8b3c2f10",
                "seen": 4,
                "deal": DEAL_EXAMPLE,
            },
            request_only=True,
        )
    ]
)
class DealRecordSerializer(serializers.Serializer):
    deal = DealDataField(
        help_text=(
            "The deal in the club-night file's words, players by seat number: e.g. "
            '{"contract": "solo", "bid": 6, "declarers": ["3"], "tricks": 7}.'
        )
    )
    client_key = serializers.UUIDField(
        required=False,
        allow_null=True,
        help_text=(
            "A key the client makes for this deal (a UUID): sent again after a lost answer, "
            "the deal is not recorded twice (the stored one comes back, ``replayed``)."
        ),
    )
    seen = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=10_000,
        help_text="How many deals the client's sheet showed: another count answers 409.",
    )
    longer = serializers.BooleanField(
        default=False,
        help_text="The poule is longer tonight: a table at its deal count takes more deals.",
    )


class DealCorrectSerializer(serializers.Serializer):
    deal = DealDataField(help_text="The corrected deal (players by seat number).")
    version = serializers.CharField(
        required=False,
        allow_null=True,
        max_length=64,
        help_text=(
            "The deal's ``version`` as the client read it (required, or If-Match: 428 "
            "without it); changed since, 409."
        ),
    )
