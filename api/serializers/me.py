"""The member's own: his profile and his nights."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from club.models import Membership, Player
from scoring.engine.standings import decimal_string

from .common import POINTS_HELP
from .nights import NightSerializer


class ClubRoleSerializer(serializers.Serializer):
    club = serializers.SlugField(help_text="The club's identifier.")
    name = serializers.CharField(help_text="The club's name.")
    role = serializers.ChoiceField(
        choices=Membership.Role.choices, help_text="His role there (what the token may do)."
    )


class ProfileSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True, help_text="His player's number.")
    display_name = serializers.CharField(
        max_length=120, help_text="The name his club sees (unique in his clubs)."
    )
    public_name = serializers.ChoiceField(
        choices=Player.PublicName.choices,
        help_text="How public pages and exports name him: full name or initials.",
    )
    public_display_name = serializers.CharField(
        read_only=True, help_text="What public pages show of him."
    )
    initials = serializers.CharField(read_only=True, help_text="His initials.")
    email = serializers.CharField(
        read_only=True,
        help_text="His address, empty if the club has none (changed in his profile page).",
    )
    phone = serializers.CharField(max_length=30, allow_blank=True, help_text="His phone.")
    language = serializers.ChoiceField(
        choices=settings.LANGUAGES, help_text="The site's and the e-mails' language."
    )
    result_emails = serializers.BooleanField(help_text="Results by e-mail after each night.")
    clubs = ClubRoleSerializer(many=True, read_only=True, help_text="His clubs and roles.")


class MyResultSerializer(serializers.Serializer):
    night = NightSerializer(source="tournament")
    rank = serializers.IntegerField(help_text="His rank that night.")
    tied = serializers.BooleanField(help_text="Shares the rank.")
    tournament_points = serializers.SerializerMethodField(help_text=POINTS_HELP)
    game_points = serializers.IntegerField(help_text="His game points.")
    poules_played = serializers.IntegerField(help_text="Poules played.")
    poules_won = serializers.IntegerField(help_text="Poules won.")

    def get_tournament_points(self, line: Any) -> str:
        return decimal_string(line.tournament_points)
