"""The words a page's address may not take: every first word of a club's addresses."""

from __future__ import annotations

from django.urls import reverse

from clubsite.reserved import reserved_slugs


def test_the_club_apps_addresses_are_read_from_the_resolver():
    words = reserved_slugs()
    for word in ("gestion", "classement", "soirees", "membres", "joueurs", "tableaux", "saisons"):
        assert word in words
    assert reverse("ranking-archive", args=["x"]).split("/")[3] in words


def test_the_club_sites_own_addresses_are_reserved_before_they_are_merged():
    assert {"actualites", "photos", "palmares", "contact", "table-des-points"} <= reserved_slugs()


def test_a_pages_own_address_pattern_is_not_a_word():
    assert not any(word.startswith("<") for word in reserved_slugs())
