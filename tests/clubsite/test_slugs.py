"""A page's address from its title, as the club reads it."""

from __future__ import annotations

import pytest

from clubsite.slugs import slug_of


@pytest.mark.parametrize(
    ("title", "slug"),
    [
        ("Règlement interne", "reglement-interne"),
        ("Règles du jeu", "regles-du-jeu"),
        ("Cercle des Cœurs", "cercle-des-coeurs"),
        ("Æther", "aether"),
        ("Straße", "strasse"),
        ("Øresund", "oresund"),
        ("Łódź", "lodz"),
        ("  Le club !  ", "le-club"),
        ("★★★", ""),
    ],
)
def test_a_title_becomes_its_address(title, slug):
    assert slug_of(title) == slug


def test_an_address_is_capped():
    assert len(slug_of("mot " * 100)) <= 60
