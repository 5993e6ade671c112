"""Every list of players in the reader's order, the same on SQLite and PostgreSQL (CI runs
this file on both; so does ``DATABASE_URL=postgres://… pytest tests/club/test_name_order.py``)."""

import pytest

from club.models import Player, sort_key
from club.name_order import by_name, name_sorted
from club.services.members import members_search
from tests.factories import PlayerFactory

NAMES = [
    "raphaël Dubois",
    "Éloïse Martin",
    "Zoé Lambert",
    "Van den Broeck Jan",
    "Vandamme Piet",
    "Umberto Eco",
    "D'Hondt Marc",
    "Daniel Denis",
    "Œdipe Roi",
    "émile Zola",
    "Eric Sarre",
    "Walter Broeck",
]

AS_WRITTEN = [
    "Daniel Denis",
    "D'Hondt Marc",
    "Éloïse Martin",
    "émile Zola",
    "Eric Sarre",
    "Œdipe Roi",
    "raphaël Dubois",
    "Umberto Eco",
    "Van den Broeck Jan",
    "Vandamme Piet",
    "Walter Broeck",
    "Zoé Lambert",
]

# Without the opening particles: « Van den Broeck Jan » as « Broeck Jan » (before « Daniel »),
# « D'Hondt Marc » as « Hondt Marc ».
PARTICLES_PASSED = [
    "Van den Broeck Jan",
    "Daniel Denis",
    "Éloïse Martin",
    "émile Zola",
    "Eric Sarre",
    "D'Hondt Marc",
    "Œdipe Roi",
    "raphaël Dubois",
    "Umberto Eco",
    "Vandamme Piet",
    "Walter Broeck",
    "Zoé Lambert",
]


def test_the_key_folds_case_accents_ligatures_and_apostrophes():
    assert sort_key("Éloïse") < sort_key("Raphaël")
    assert sort_key("émile") < sort_key("Eric") < sort_key("Œdipe")
    assert sort_key("D'Hondt") == "dhondt"
    assert sort_key("Jean-Pierre  Ïlo") == "jean pierre ilo"
    assert sort_key("Van den Broeck", particles=False) == "broeck"
    assert sort_key("van der Meer Ann", particles=False) == "meer ann"
    assert sort_key("Van", particles=False) == "van"


@pytest.fixture
def members(club):
    for name in NAMES:
        PlayerFactory(display_name=name, club=club)
    return club


def test_players_are_listed_as_a_french_reader_sorts_them(members):
    names = list(
        Player.objects.in_club(members).order_by(*by_name()).values_list("display_name", flat=True)
    )
    assert names == AS_WRITTEN


def test_python_sorts_as_the_database(members):
    assert sorted(NAMES, key=name_sorted) == AS_WRITTEN


def test_the_members_page_follows_the_club_setting(members):
    listed = [m.player.display_name for m in members_search(members)]
    assert listed == AS_WRITTEN
    members.sort_ignores_particles = True
    members.save()
    listed = [m.player.display_name for m in members_search(members)]
    assert listed == PARTICLES_PASSED
    assert sorted(NAMES, key=lambda name: name_sorted(name, members)) == PARTICLES_PASSED


def test_a_renamed_player_moves_in_the_list(members):
    player = Player.objects.get(display_name="Zoé Lambert")
    player.display_name = "Aline Lambert"
    player.save()
    first = Player.objects.in_club(members).order_by(*by_name()).first()
    assert first.display_name == "Aline Lambert"
    assert Player.objects.order_by("sort_key", "pk").first() == first
