"""The one text rule for every stored name (``infra.name_text``): every model's name field
follows it, and the doors that store a name without a model form (the sign-up's club, an API
key) say the same words."""

from __future__ import annotations

import copy
import datetime
import unicodedata

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse

from club import services as club_services
from club.models import Club, ClubSignup, Player, name_key
from club.services.signup import signup_club_set, signup_season_set
from club.tokens import token_create
from games import services as games_services
from games.nightfile import tournament_import
from infra.name_text import NameField, NameFormField, name_checked
from tests.club.views.test_member import profile_post
from tests.factories import UserFactory

# The fields that hold a name somebody typed, by their name in the models. A field of these
# names that is not text (a slug, a choice) is a key, not a name.
NAME_FIELD_NAMES = {
    "name",
    "display_name",
    "first_name",
    "last_name",
    "short_name",
    "town",
    "label",
}
SPOOF = "Club \u202egnp.exe\u200b"
REFUSAL = "Ce nom contient un caractère invisible (U+202E, U+200B) : retapez-le."


def name_fields() -> list[models.Field]:
    fields = []
    for model in apps.get_models():
        if model._meta.app_label not in {"club", "games", "scoring", "infra", "api", "front"}:
            continue
        for field in model._meta.get_fields():
            if (
                field.name in NAME_FIELD_NAMES
                and isinstance(field, models.CharField)
                and not isinstance(field, (models.SlugField, models.EmailField))
                and not field.choices
            ):
                fields.append(field)
    return fields


def test_the_walk_finds_the_names_the_site_stores():
    found = {f"{f.model._meta.label}.{f.name}" for f in name_fields()}
    assert {
        "club.Club.name",
        "club.Club.short_name",
        "club.Club.town",
        "club.Player.display_name",
        "club.Federation.name",
        "club.Season.name",
        "club.FederationSeason.name",
        "club.ApiToken.name",
        "club.ClubSignup.name",
        "club.JoinRequest.name",
        "games.PointTable.label",
        "games.Tournament.name",
        "games.PlannedNight.name",
    } <= found


@pytest.mark.parametrize("field", name_fields(), ids=lambda f: f"{f.model.__name__}.{f.name}")
def test_every_name_field_follows_the_rule(field):
    assert isinstance(field, NameField)
    with pytest.raises(ValidationError) as refused:
        field.clean(SPOOF, None)
    assert refused.value.messages == [REFUSAL]
    # Stored composed, trimmed, its spaces folded.
    assert field.clean("  Zoe\u0301 \u00a0 Dupont ", None) == "Zo\u00e9 Dupont"
    with pytest.raises(ValidationError):
        field.clean("x" * (field.max_length + 1), None)
    # Its form field and a DRF model serializer read the same validator.
    assert isinstance(field.formfield(), NameFormField)


def test_a_tab_inside_a_name_is_refused_not_folded():
    with pytest.raises(ValidationError, match="U\\+0009"):
        name_checked("Bruno\tLemaire")


@pytest.mark.parametrize(
    "character", ["\u200e", "\u200f", "\u061c", "\u2066", "\u2069", "\u2060", "\ufeff", "\u00ad"]
)
def test_every_invisible_and_bidirectional_character_is_refused(character):
    with pytest.raises(ValidationError, match=f"U\\+{ord(character):04X}"):
        name_checked(f"Anne{character}Dupont")


@pytest.mark.django_db
def test_a_model_stores_the_name_tidied_through_full_clean():
    club = Club(name=" Cercle  de Namu\u0301r ", slug="cercle")
    club.clean_fields(exclude=["slug"])
    assert club.name == "Cercle de Nam\u00far"
    player = Player(display_name=SPOOF)
    with pytest.raises(ValidationError) as refused:
        player.full_clean()
    assert refused.value.message_dict["display_name"] == [REFUSAL]


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["name", "town"])
def test_the_signup_refuses_a_club_name_or_town_no_page_shows(field):
    signup = ClubSignup.objects.create(
        email="m@example.org", name="Marie", status=ClubSignup.Status.DRAFT
    )
    answers = {"name": "Club de Namur", "town": "Namur", field: SPOOF}
    with pytest.raises(ValidationError) as refused:
        signup_club_set(signup, default_rules="rcwhist", listed=True, **answers)
    assert refused.value.message_dict[field] == [REFUSAL]
    signup.refresh_from_db()
    assert "club" not in signup.answers


@pytest.mark.django_db
def test_the_signup_stores_the_club_and_season_names_composed():
    signup = ClubSignup.objects.create(
        email="m@example.org", name="Marie", status=ClubSignup.Status.DRAFT
    )
    signup_club_set(
        signup, name="Cafe\u0301  Whist", town=" Lie\u0300ge ", default_rules="rcwhist", listed=True
    )
    signup_season_set(
        signup,
        name="Saison\u00a0 2025",
        start=datetime.date(2025, 9, 1),
        end=datetime.date(2026, 6, 30),
        ranking_best_n=None,
        ranking_min_tournaments=0,
        ranking_precedence=["tournament_points"],
    )
    signup.refresh_from_db()
    assert signup.answers["club"]["name"] == "Caf\u00e9 Whist"
    assert signup.answers["club"]["town"] == "Li\u00e8ge"
    assert signup.answers["season"]["name"] == "Saison 2025"


@pytest.mark.django_db
def test_an_api_key_name_follows_the_rule():
    user = UserFactory()
    with pytest.raises(ValidationError) as refused:
        token_create(user, SPOOF)
    assert refused.value.messages == [REFUSAL]


# A name is one name wherever it comes from: accents composed, single spaces, and a character
# no page shows (a zero-width space, a right-to-left override, a NUL) refused, so that "Bruno
# \u200bLemaire" never passes the club's unique-name rule as someone else (import, profile,
# guests, API).

pytestmark = pytest.mark.django_db

ZERO_WIDTH = "\u200b"
RIGHT_TO_LEFT = "\u202e"


def test_name_key_sees_through_hidden_characters_and_decomposed_accents():
    assert name_key("Zoe\u0301 Dupont") == name_key("zoé dupont")
    assert name_key(f"Bruno{ZERO_WIDTH} Lemaire") == name_key("Bruno Lemaire")


@pytest.mark.parametrize("hidden", [ZERO_WIDTH, RIGHT_TO_LEFT, "\x00"])
def test_a_guest_with_a_hidden_character_is_refused_in_words(tonight, club_members, hidden):
    with pytest.raises(ValidationError, match="caractère invisible"):
        games_services.player_add_to_tournament(tonight, f"Bruno{hidden}Lemaire", guest=True)
    assert (
        not Player.objects.filter(display_name__contains="Lemaire")
        .exclude(pk__in=[p.pk for p in club_members])
        .exists()
    )


def test_a_guest_typed_with_a_decomposed_accent_is_the_clubs_own_name(tonight, club_members):
    existing = club_members[2].display_name  # Chloé Martin
    decomposed = unicodedata.normalize("NFD", existing)
    assert decomposed != existing
    with pytest.raises(ValidationError, match="déjà dans la liste"):
        games_services.player_add_to_tournament(tonight, decomposed, guest=True)


def test_a_night_file_with_a_lookalike_name_is_refused_with_its_place(night_document):
    doc = copy.deepcopy(night_document)
    doc["players"][0] = doc["players"][0].replace(" ", ZERO_WIDTH, 1)
    with pytest.raises(ValidationError, match=r"players\[0\].*U\+200B"):
        tournament_import(doc)
    assert not Player.objects.filter(display_name__contains=ZERO_WIDTH).exists()


def test_a_night_file_with_decomposed_accents_finds_the_clubs_players(night_document, club):
    members_before = Player.objects.in_club(club).count()
    doc = copy.deepcopy(night_document)

    def decomposed(value):
        if isinstance(value, str):
            return unicodedata.normalize("NFD", value)
        if isinstance(value, dict):
            return {decomposed(k): decomposed(v) for k, v in value.items()}
        if isinstance(value, list):
            return [decomposed(v) for v in value]
        return value

    doc = decomposed(doc)
    doc["club"], doc["season"] = night_document["club"], night_document["season"]
    tournament_import(doc)
    assert Player.objects.in_club(club).count() == members_before


def test_a_profile_rename_to_a_lookalike_name_is_refused(client, member):
    client.force_login(member)
    me = member.player
    response = client.post(
        reverse("profile"), profile_post(me, display_name=f"Bruno{RIGHT_TO_LEFT}Lemaire")
    )
    assert response.status_code == 200
    assert "caractère invisible" in response.content.decode()
    me.refresh_from_db()
    assert RIGHT_TO_LEFT not in me.display_name


def test_a_member_added_by_the_club_admin_is_stored_tidied(club):
    player = club_services.member_add(
        club, "  Zoe\u0301   Dupont ", start=datetime.date(2025, 1, 1)
    )
    assert player.display_name == "Zoé Dupont"
    assert len(player.display_name) == len("Zoé Dupont")
