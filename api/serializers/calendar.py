"""The club's calendar: planned nights with their counts, a member's reply, the admin's
replies with names."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.calendar.models import COMMENT_MAX_LENGTH, MAX_GUESTS
from games.models import PlannedNight

ANSWERS = [("yes", "yes"), ("maybe", "maybe"), ("no", "no")]


class TablePlanSerializer(serializers.Serializer):
    fours = serializers.IntegerField(help_text="Tables of 4 the expected count gives.")
    fives = serializers.IntegerField(help_text="Tables of 5 the expected count gives.")
    refusal = serializers.CharField(
        help_text="Why the expected count cannot be seated (1–3, 6, 7 or 11); empty if it can."
    )


# OpenAPI's "time" format is RFC 3339's, which requires an offset; a club's start is a local
# time of day with none ("20:00:00"), so the schema says what is sent.
@extend_schema_field({"type": "string", "pattern": r"^\d{2}:\d{2}:\d{2}$", "example": "20:00:00"})
class LocalTimeField(serializers.TimeField):
    pass


class PlannedNightSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    date = serializers.DateField()
    start = LocalTimeField(help_text="Local time (Europe/Brussels).")
    name = serializers.CharField()
    place = serializers.CharField()
    rules = serializers.CharField(help_text="The point table's preset name.")
    rounds = serializers.IntegerField()
    cap = serializers.IntegerField(allow_null=True, help_text="Places; null: no limit.")
    status = serializers.ChoiceField(choices=PlannedNight.Status.choices)
    deadline = serializers.DateTimeField(help_text="Answers close then.")
    open = serializers.BooleanField(help_text="Whether answers are still taken.")
    yes = serializers.IntegerField(help_text="Who said yes and has a place.")
    maybe = serializers.IntegerField()
    no = serializers.IntegerField()
    waiting = serializers.IntegerField(help_text="Who said yes past the cap, in line.")
    guests = serializers.IntegerField(help_text="The guests those with a place bring.")
    tables = TablePlanSerializer()
    night = serializers.IntegerField(
        allow_null=True, help_text="The club night made from this entry, once it started."
    )


class ReplySerializer(serializers.Serializer):
    night = serializers.IntegerField(read_only=True)
    answer = serializers.ChoiceField(choices=ANSWERS, allow_null=True)
    waiting = serializers.BooleanField(
        read_only=True, help_text="A yes past the cap: it moves up by itself when a place frees."
    )
    place = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="Its place in line while it waits (1: next)."
    )
    guests = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_GUESTS, help_text="With a yes: guests."
    )
    comment = serializers.CharField(required=False, allow_blank=True, max_length=COMMENT_MAX_LENGTH)
    answered = serializers.DateTimeField(read_only=True, allow_null=True)
    deadline = serializers.DateTimeField(read_only=True)


class ReplyNameSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    answered = serializers.DateTimeField()
    guests = serializers.IntegerField()
    comment = serializers.CharField()


class NightRepliesSerializer(PlannedNightSerializer):
    names = serializers.DictField(
        child=ReplyNameSerializer(many=True),
        help_text="yes, waiting (in line order), maybe, no: who answered what.",
    )
