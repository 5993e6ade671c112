import pytest

from club.models import Club
from club.models.seasons import season_slug
from club.services.clubs import free_slug
from infra.slugs import slug_of


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Cercle des Cœurs", "cercle-des-coeurs"),
        ("Æther Whist", "aether-whist"),
        ("Straße", "strasse"),
        ("Øresund", "oresund"),
        ("Łódź", "lodz"),
        ("Đakovo", "dakovo"),
        ("Þórshöfn", "thorshofn"),
        ("Les As de Gembloux", "les-as-de-gembloux"),
        ("Club d'Ans", "club-d-ans"),
        # A club's page from its title, and nothing when nothing is a letter.
        ("Règlement interne", "reglement-interne"),
        ("  Le club !  ", "le-club"),
        ("★★★", ""),
    ],
)
def test_a_name_is_spelled_in_ascii_letter_by_letter(name, slug):
    assert slug_of(name) == slug


def test_a_cut_slug_ends_on_a_letter_not_a_hyphen():
    assert slug_of("Cercle des Cœurs", 7) == "cercle"


def test_a_season_keeps_its_years_apart():
    assert season_slug("2025/2026") == "2025-2026"
    assert season_slug("Œuvre 2025") == "oeuvre-2025"


@pytest.mark.django_db
def test_a_new_club_gets_its_name_transliterated():
    assert free_slug(Club, "Cercle des Cœurs", "club") == "cercle-des-coeurs"
