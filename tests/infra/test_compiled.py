"""Statements compiled once (``infra.compiled``): each call reads the rows the queryset itself
reads for its ids, in one query, whatever was asked before; a build whose ids are not its
parameters is refused the first time."""

from __future__ import annotations

import pytest
from django.db.models import Count, Exists, OuterRef, Q

from club.models import Club, Membership, Season
from infra.compiled import Compiled
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, SeasonFactory

pytestmark = pytest.mark.django_db


def _seasons(club: int) -> object:
    return (
        Season.objects.filter(club=club)
        .annotate(members=Count("club__memberships"))
        .select_related("club")
        .order_by("-start")
    )


def _members_since(club: int, player: int) -> object:
    others = Membership.objects.filter(club=OuterRef("pk")).exclude(player=player)
    return Club.objects.filter(Exists(others), pk=club).values_list("pk", "name").order_by("pk")[:1]


def test_each_call_reads_what_the_queryset_reads_for_its_ids(django_assert_num_queries):
    first, second = ClubFactory(), ClubFactory()
    SeasonFactory(club=first, year=2023)
    SeasonFactory(club=first, year=2024)
    SeasonFactory(club=second, year=2024)
    MembershipFactory(club=first, player=PlayerFactory())
    seasons = Compiled(_seasons)

    for club in (first, second, first):
        with django_assert_num_queries(1):
            read = seasons(club.pk)
        expected = list(_seasons(club.pk))
        assert read == expected
        assert [(s.club.name, s.members) for s in read] == [
            (s.club.name, s.members) for s in expected
        ]


def test_ids_in_a_subquery_and_a_slice():
    club = ClubFactory()
    anne, bruno = PlayerFactory(), PlayerFactory()
    MembershipFactory(club=club, player=anne)
    members = Compiled(_members_since)

    # Anne alone: no other member; then Bruno joins.
    assert members(club.pk, anne.pk) == []
    MembershipFactory(club=club, player=bruno)
    assert members(club.pk, anne.pk) == [(club.pk, club.name)]
    assert members(club.pk, anne.pk) == list(_members_since(club.pk, anne.pk))


def test_a_build_whose_id_is_not_a_parameter_is_refused():
    ClubFactory()
    # The id is read only through Q's negation of an empty list: it never reaches the SQL.
    ignored = Compiled(lambda club: Club.objects.filter(~Q(pk__in=[]) | Q(pk=club) | ~Q()))

    with pytest.raises(ValueError, match="not all its parameters"):
        ignored(1)


def test_ids_only():
    with pytest.raises(TypeError):
        Compiled(_seasons)(None)


def test_a_text_compared_whole_is_bound_as_an_id_is():
    first, second = ClubFactory(), ClubFactory()
    by_slug = Compiled(lambda slug: Club.objects.filter(slug=slug))

    assert by_slug(first.slug) == [first]
    assert by_slug(second.slug) == [second]
    assert by_slug("no-such-club") == []


def test_a_text_matched_in_part_is_refused():
    ClubFactory()
    starting = Compiled(lambda slug: Club.objects.filter(slug__startswith=slug))

    with pytest.raises(ValueError, match="not all its parameters"):
        starting("a")
