"""What every answer shares: how players are referred to, how tournament points are written,
how a refusal is told."""

from __future__ import annotations

import json
from typing import Any

from rest_framework import serializers

POINTS_HELP = (
    "Tournament points as the club-night file writes them: exact when they can be "
    '("5", "0.5"), else two decimals ("1.33").'
)


def has_nul(value: Any) -> bool:
    """A NUL character anywhere inside: PostgreSQL cannot store it in text or JSON."""
    return "\\u0000" in json.dumps(value)


class PlayerRef(serializers.Serializer):
    id = serializers.IntegerField(help_text="The player's number on the site.")
    name = serializers.CharField(
        help_text=(
            "The name the site shows this reader: outside the club, the member's chosen "
            "public name (his initials if he chose them)."
        )
    )


class ProblemSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="A stable code (e.g. declarer_count).")
    place = serializers.CharField(
        help_text="Where, in the document or the deal: e.g. poules[2].deals[7].tricks."
    )
    message = serializers.CharField(help_text="The problem in words, in the request's language.")


class DetailSerializer(serializers.Serializer):
    """A refusal that is not about the body: a missing or unknown token (401), a role that
    may not (403), nothing there for this reader (404)."""

    detail = serializers.CharField(help_text="Why, in the request's language.")


class RefusalSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="Every problem in one sentence.")
    problems = ProblemSerializer(many=True, required=False)
