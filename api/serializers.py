"""What the API answers and accepts, each field documented (the OpenAPI schema is drawn from
these). The vocabulary is the site's and the club-night file's (docs/night-format.md):
a night is a ``tournament`` in the code and a *night* here, its tables are *poules*, players
are named by seat number ("1" … "5") inside a deal, as on the score sheet."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from club.models import GAME_CHOICES, Membership, Player
from games.models import Tournament
from scoring.engine.games.belgian_whist import CONTRACTS, PASS
from scoring.engine.standings import decimal_string
from scoring.engine.tables import PRESETS

PRESET_CHOICES = sorted(name for names in PRESETS.values() for name in names)
POINTS_HELP = (
    "Tournament points as the club-night file writes them: exact when they can be "
    '("5", "0.5"), else two decimals ("1.33").'
)


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


def has_nul(value: Any) -> bool:
    """A NUL character anywhere inside: PostgreSQL cannot store it in text or JSON."""
    return "\\u0000" in json.dumps(value)


@extend_schema_field(DEAL_SCHEMA)
class DealDataField(serializers.DictField):
    def to_internal_value(self, data: Any) -> dict[str, Any]:
        value = super().to_internal_value(data)
        if has_nul(value):
            raise serializers.ValidationError(
                "a NUL character (\\u0000) cannot be recorded", code="null_characters_not_allowed"
            )
        return value


class PlayerRef(serializers.Serializer):
    id = serializers.IntegerField(help_text="The player's number on the site.")
    name = serializers.CharField(
        help_text=(
            "The name the site shows this reader: outside the club, the member's chosen "
            "public name (his initials if he chose them)."
        )
    )


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


class RankingLineSerializer(serializers.Serializer):
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
    tournaments = serializers.IntegerField(help_text="Nights of the season it counts.")
    rules = serializers.DictField(help_text="The ranking rules applied (best n, minimum …).")
    lines = RankingLineSerializer(many=True, help_text="In ranking order, those apart last.")


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


class DealSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The deal's number on the site.")
    number = serializers.IntegerField(help_text="Its place on the sheet (1, 2 …).")
    data = DealDataField(
        help_text=(
            "The deal as the scorer recorded it, in the club-night file's words "
            "(docs/night-format.md), players named by seat number."
        )
    )
    dealer = serializers.IntegerField(allow_null=True, help_text="The dealer's seat number.")
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


class ProblemSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="A stable code (e.g. declarer_count).")
    place = serializers.CharField(
        help_text="Where, in the document or the deal: e.g. poules[2].deals[7].tricks."
    )
    message = serializers.CharField(help_text="The problem in words, in the request's language.")


class RefusalSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="Every problem in one sentence.")
    problems = ProblemSerializer(many=True, required=False)


@extend_schema_field(OpenApiTypes.OBJECT)
class DocumentField(serializers.JSONField):
    pass


@extend_schema_serializer(
    examples=[OpenApiExample("docs/night-format.md's example", value=NIGHT_FILE_EXAMPLE)]
)
class NightFileSerializer(serializers.Serializer):
    """Only for the schema: the document travels as it is."""

    format = serializers.ChoiceField(
        choices=["club-night/1", "club-night-result/1"], help_text="The document's format."
    )
    club = serializers.CharField(help_text="The club's name (must be this club's).")
    season = serializers.CharField(help_text="The season's name.")
    date = serializers.DateField(help_text="The night's day.")
    game = serializers.ChoiceField(choices=GAME_CHOICES, help_text="The game played.")
    rules = DocumentField(help_text="A preset's name (e.g. rcwhist) or a point table.")
    poules = serializers.ListField(child=DocumentField(), help_text="Poules with their deals.")


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
