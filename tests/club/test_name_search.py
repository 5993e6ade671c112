"""A name is searched as the site compares names: each player keeps his shown name folded
(``Player.name_key``), and the typed words, folded the same way, are looked for in it."""

from __future__ import annotations

import pytest

from club.models import Player, name_key
from club.name_search import name_filter, name_holds, typed_words
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def found(typed: str) -> set[str]:
    return set(
        Player.objects.filter(name_filter(typed_words(typed))).values_list(
            "display_name", flat=True
        )
    )


def test_the_fold_writes_ligatures_out_and_drops_case_and_accents():
    assert name_key("Straße") == name_key("STRASSE") == "strasse"
    assert name_key("Lœtitia Cœur") == name_key("loetitia coeur")
    assert name_key("Æsa Dæwoo") == name_key("aesa daewoo")
    assert name_key("Chloé  Lefèvre") == "chloe lefevre"


def test_a_player_keeps_his_folded_name_when_saved_and_renamed():
    player = PlayerFactory(display_name="Zoé Straße")
    assert Player.objects.get(pk=player.pk).name_key == "zoe strasse"
    player.display_name = "Lœtitia Dupont"
    player.save()
    assert Player.objects.get(pk=player.pk).name_key == "loetitia dupont"


def test_players_written_together_keep_their_folded_names_too():
    Player.objects.bulk_create([Player(display_name="Éric Æbersold")])
    assert Player.objects.get(display_name="Éric Æbersold").name_key == "eric aebersold"


def test_a_name_is_found_whatever_its_case_accents_and_ligatures():
    for name in ("Hans Straße", "Lœtitia Cœur", "Chloé Dæwoo", "Bruno Strasse"):
        PlayerFactory(display_name=name)

    assert found("strasse") == {"Hans Straße", "Bruno Strasse"}
    assert found("STRAßE") == {"Hans Straße", "Bruno Strasse"}
    assert found("loetitia") == found("lœtitia") == {"Lœtitia Cœur"}
    assert found("coeur") == {"Lœtitia Cœur"}
    assert found("DAEWOO chloe") == found("dæwoo") == {"Chloé Dæwoo"}
    assert found("chlo dae") == {"Chloé Dæwoo"}
    assert found("zzz") == set()


def test_a_typed_percent_or_underscore_is_a_letter_not_a_wildcard():
    PlayerFactory(display_name="Anne Dupont")
    assert found("%") == found("_") == set()


def test_a_shown_name_is_held_by_the_same_rule():
    assert name_holds("Cercle Éloïse CÉ", typed_words("ELOISE ce"))
    assert not name_holds("B.S.", typed_words("berenice"))
