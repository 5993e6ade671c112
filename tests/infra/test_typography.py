import pytest
from django.utils import translation

from infra.typography import elided, named, of_name


@pytest.fixture
def french():
    with translation.override("fr"):
        yield


@pytest.mark.parametrize(
    ("name", "of", "to"),
    [
        ("Ann", "d'Ann", "à Ann"),
        ("Éloïse", "d'Éloïse", "à Éloïse"),
        ("Ïsa", "d'Ïsa", "à Ïsa"),
        ("Yves", "d'Yves", "à Yves"),
        ("Œdipe", "d'Œdipe", "à Œdipe"),
        ("Bernard", "de Bernard", "à Bernard"),
        ("Hélène", "d'Hélène", "à Hélène"),
        ("Hendrik", "de Hendrik", "à Hendrik"),
        ("L'As", "de l'As", "à l'As"),
        ("Les As de Gembloux", "des As de Gembloux", "aux As de Gembloux"),
        ("Le Cercle", "du Cercle", "au Cercle"),
        ("La Chevalerie", "de la Chevalerie", "à la Chevalerie"),
        ("Lebrun", "de Lebrun", "à Lebrun"),
        ("Laure", "de Laure", "à Laure"),
    ],
)
def test_a_name_after_de_and_a_is_written_as_french_writes_it(name, of, to):
    assert of_name("de", name) == of
    assert of_name("à", name) == to


def test_the_preposition_keeps_its_capital():
    assert of_name("De", "Ann") == "D'Ann"
    assert of_name("À", "Le Cercle") == "Au Cercle"


def test_a_sentence_joins_only_the_names_it_is_given(french):
    text = "la soirée de Les As de Gembloux, de Ann et de Alost"
    assert elided(text, "Les As de Gembloux", "Ann") == (
        "la soirée des As de Gembloux, d'Ann et de Alost"
    )


def test_a_name_inside_a_longer_word_is_left_alone(french):
    assert elided("de Annette", "Ann") == "de Annette"


def test_named_fills_the_sentence_then_elides(french):
    assert named("Calendrier de %(club)s", club="Les As") == "Calendrier des As"


def test_other_languages_keep_their_translation():
    with translation.override("nl"):
        assert named("Kalender van %(club)s", club="Les As") == "Kalender van Les As"
        assert elided("de Ann", "Ann") == "de Ann"
