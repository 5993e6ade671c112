"""The « cote » and a player's statistics."""

from __future__ import annotations

from rest_framework import serializers

from club.models import GAME_CHOICES

from .common import PlayerRef


class RatingSerializer(serializers.Serializer):
    player = PlayerRef(help_text="The player, by his public name.")
    game = serializers.ChoiceField(choices=GAME_CHOICES, help_text="The game rated.")
    rating = serializers.FloatField(
        help_text="The conservative figure μ − 3σ the page ranks by (« au moins »)."
    )
    mu = serializers.FloatField(
        help_text="The estimated skill μ: the cote the pages show. Everybody starts at 25 and "
        "the club's mean stays at 25."
    )
    sigma = serializers.FloatField(help_text="Its uncertainty σ (the pages show ± 3σ).")
    change = serializers.FloatField(
        help_text="How much μ moved over this night (from 25 at a player's first night)."
    )
    deals = serializers.IntegerField(help_text="The deals behind it.")
    night = serializers.IntegerField(help_text="The night after which it was computed (its id).")
    date = serializers.DateField(help_text="That night's date.")


class RoleSerializer(serializers.Serializer):
    role = serializers.ChoiceField(
        choices=["declarer", "partner", "defender"],
        help_text="declarer: a contract played alone; partner: in a pair; defender: the rest.",
    )
    deals = serializers.IntegerField()
    points_per_deal = serializers.FloatField()


class ContractStatSerializer(serializers.Serializer):
    contract = serializers.CharField(help_text="The contract's code (docs/night-format.md).")
    declared = serializers.IntegerField()
    made = serializers.IntegerField()


class PartnerStatSerializer(serializers.Serializer):
    player = PlayerRef()
    deals = serializers.IntegerField(help_text="Pair contracts declared together.")
    made = serializers.IntegerField()
    points = serializers.IntegerField(help_text="His points in those deals.")


class OpponentStatSerializer(serializers.Serializer):
    player = PlayerRef()
    deals = serializers.IntegerField(help_text="Deals played at the same table, both active.")
    points = serializers.IntegerField(help_text="His points in those deals.")
    opponent_points = serializers.IntegerField(help_text="The opponent's points in them.")


class PlayerStatisticsSerializer(serializers.Serializer):
    nights = serializers.IntegerField()
    deals = serializers.IntegerField()
    mort = serializers.IntegerField(help_text="Deals he sat out as the mort.")
    roles = RoleSerializer(many=True)
    contracts = ContractStatSerializer(many=True)
    best_partners = PartnerStatSerializer(many=True)
    worst_partners = PartnerStatSerializer(many=True)
    opponents = OpponentStatSerializer(many=True, help_text="His most regular opponents.")
    longest_streak = serializers.IntegerField(help_text="Most nights in a row in positive.")
    ratings = RatingSerializer(many=True, help_text="His « cote » after each night.")
