"""The merges' reads (club/selectors/merges.py), asked with no request: the records a club
admin may find to merge with his member and the merges his club sees, each in a fixed number
of queries however many they are."""

import pytest

from club.names import name_reader_of
from club.selectors.merges import club_merges, merge_candidates, player_merges_open
from scoring.services import merge_propose
from tests.factories import ClubFactory, PlayerFactory
from tests.scoring.merge_setup import two_records

pytestmark = pytest.mark.django_db


@pytest.fixture
def records(club, season, point_table, django_capture_on_commit_callbacks):
    return two_records(club, season, point_table, django_capture_on_commit_callbacks)


def test_the_candidates_are_read_in_two_queries_however_many(
    records, club_admin, django_assert_num_queries
):
    reader = name_reader_of(club_admin)
    with django_assert_num_queries(2):  # the players with their nights, then their clubs
        few = merge_candidates(records.kept, "dupont", reader)
    PlayerFactory.create_batch(10, display_name="Dupont", club=ClubFactory())
    with django_assert_num_queries(2):
        many = merge_candidates(records.kept, "dupont", reader)
        clubs = [m.club.name for player in many for m in player.memberships.all()]
    # The same name first, whatever its accents; the member himself never.
    assert few[0] == many[0] == records.merged
    assert records.kept not in many and len(many) == len(few) + 10
    assert "Cercle voisin" in clubs


def test_a_club_sees_its_merges_with_both_sides_clubs_in_three_queries(
    records, club_admin, django_assert_num_queries
):
    merge_propose(records.kept, records.merged, records.club, club_admin)
    with django_assert_num_queries(3):  # the merges, then each side's memberships and clubs
        merges = list(club_merges(records.club))
        sides = {m.club for merge in merges for m in merge.merged.memberships.all()}
    assert [(m.kept, m.merged) for m in merges] == [(records.kept, records.merged)]
    assert records.neighbour in sides
    assert list(club_merges(ClubFactory())) == []
    assert [m.kept for m in player_merges_open(records.merged)] == [records.kept]
