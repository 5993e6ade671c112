"""A name is one name wherever it comes from: accents composed, single spaces, and a character
no page shows (a zero-width space, a right-to-left override, a NUL) refused, so that "Bruno
\\u200bLemaire" never passes the club's unique-name rule as someone else (import, profile,
guests, API)."""

from __future__ import annotations

import copy
import datetime
import unicodedata

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from club import services as club_services
from club.models import Player, name_key
from games import services as games_services
from games.nightfile import tournament_import
from tests.club.test_member_space import profile_post

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
