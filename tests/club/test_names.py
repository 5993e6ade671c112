"""The one rule that names a player to whoever reads (``club.names``), case by case as its
table says, and what it costs: nothing for the public or where nobody chose initials, one
query a reader otherwise, however many players a page names."""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache
from django.db import connection
from django.template import Context, Template
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.models import Membership, Player
from club.name_search import name_holds, typed_words
from club.names import (
    PUBLIC,
    full_name_searchable,
    name_reader_of,
    name_shown,
    recipients,
    searched_by_name,
)
from scoring.services import ranking_publish
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def shy(club) -> Player:
    return PlayerFactory(
        first_name="Zébulon",
        last_name="Quarré",
        display_name="Zébulon Quarré",
        club=club,
        public_name=Player.PublicName.INITIALS,
    )


def reader(club=None, **membership) -> object:
    """A user whose player is a member of ``club`` (none: of no club)."""
    user = UserFactory()
    player = PlayerFactory(user=user, club=None)
    if club is not None:
        MembershipFactory(club=club, player=player, **membership)
    return user


def test_the_public_reads_initials_and_asks_nothing(shy, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert name_shown(shy, PUBLIC) == "Z.Q."
        assert name_shown(shy, None) == "Z.Q."


def test_a_member_who_keeps_his_name_is_named_by_it_to_all_without_a_query(
    club, django_assert_num_queries
):
    open_name = PlayerFactory(display_name="Anne Dupont", club=club)
    name_reader = name_reader_of(reader(ClubFactory()))
    with django_assert_num_queries(0):
        assert name_shown(open_name, PUBLIC) == name_shown(open_name, name_reader) == "Anne Dupont"


def test_a_member_of_his_club_reads_his_name_in_one_query_for_the_whole_request(
    club, shy, django_assert_num_queries
):
    others = PlayerFactory.create_batch(5, club=club, public_name=Player.PublicName.INITIALS)
    name_reader = name_reader_of(reader(club))
    with django_assert_num_queries(1):
        assert name_shown(shy, name_reader) == "Zébulon Quarré"
        assert [name_shown(p, name_reader) for p in others] == [p.display_name for p in others]


def test_the_player_himself_reads_his_name_even_in_no_club(shy):
    user = UserFactory()
    Player.objects.filter(pk=shy.pk).update(user=user)
    Membership.objects.filter(player=shy).update(
        end=datetime.date.today(), status=Membership.Status.FORMER
    )
    assert name_shown(shy, name_reader_of(user)) == "Zébulon Quarré"


def test_another_clubs_member_and_admin_read_initials(shy):
    other = ClubFactory()
    assert name_shown(shy, name_reader_of(reader(other))) == "Z.Q."
    assert name_shown(shy, name_reader_of(reader(other, role=Membership.Role.ADMIN))) == "Z.Q."


def test_a_member_of_any_of_his_clubs_reads_his_name(shy):
    second = ClubFactory()
    MembershipFactory(club=second, player=shy)
    assert name_shown(shy, name_reader_of(reader(second))) == "Zébulon Quarré"


def test_his_old_club_still_reads_his_name_and_a_guest_of_his_club_too(club, shy):
    Membership.objects.filter(player=shy).update(
        end=datetime.date.today(), status=Membership.Status.FORMER
    )
    assert name_shown(shy, name_reader_of(reader(club))) == "Zébulon Quarré"
    assert name_shown(shy, name_reader_of(reader(club, status=Membership.Status.GUEST))) == (
        "Zébulon Quarré"
    )


def test_who_left_the_club_no_longer_reads_its_members_names(club, shy):
    user = reader(club, end=datetime.date.today(), status=Membership.Status.FORMER)
    assert name_shown(shy, name_reader_of(user)) == "Z.Q."


def test_the_sites_operator_reads_every_name(shy):
    assert name_shown(shy, name_reader_of(UserFactory(is_superuser=True))) == "Zébulon Quarré"


def test_readers_of_the_same_clubs_share_an_audience_and_the_public_has_its_own(club):
    assert name_reader_of(reader(club)).audience == name_reader_of(reader(club)).audience
    assert name_reader_of(reader(club)).audience != name_reader_of(reader(ClubFactory())).audience
    assert PUBLIC.audience == name_reader_of(UserFactory()).audience == "public"


def test_a_search_finds_by_full_name_only_whom_the_searcher_may_see_named(club, shy):
    found = Player.objects.filter(display_name__icontains="Quarré")
    outsider, member = name_reader_of(reader(ClubFactory())), name_reader_of(reader(club))
    assert not found.filter(full_name_searchable(outsider)).exists()
    assert found.filter(full_name_searchable(member)).get() == shy


def test_every_search_by_name_keeps_initials_for_a_check_as_shown_and_full_names_for_who_knows(
    club, shy
):
    PlayerFactory(display_name="Zoé Quarré-Ouvert", club=club)
    outsider, member = name_reader_of(reader(ClubFactory())), name_reader_of(reader(club))

    def searched(name_reader, typed, **how):
        words = typed_words(typed)
        players = Player.objects.filter(searched_by_name(name_reader, words, **how))
        return {p.display_name for p in players if name_holds(name_shown(p, name_reader), words)}

    # His full name finds him for a member of his club only, whatever the accents.
    assert searched(member, "quarre") == {"Zébulon Quarré", "Zoé Quarré-Ouvert"}
    assert searched(outsider, "quarre") == {"Zoé Quarré-Ouvert"}
    assert searched(PUBLIC, "zebulon") == set()
    # His initials, as the outsider reads them, find him; not where a search asks no initials.
    assert searched(outsider, "z.q.") == {"Zébulon Quarré"}
    assert searched(outsider, "z.q.", by_initials=False) == set()
    # Through a relation: a ranking's lines find their player the same way.
    assert (
        Membership.objects.filter(
            searched_by_name(outsider, typed_words("quarre"), through="player", by_initials=False)
        )
        .get()
        .player.display_name
        == "Zoé Quarré-Ouvert"
    )


def test_e_mail_recipients_read_names_by_the_same_rule_in_two_queries(
    club, shy, django_assert_num_queries
):
    mate = PlayerFactory(club=club)
    visitor = PlayerFactory(club=ClubFactory())
    with django_assert_num_queries(2):
        name_readers = recipients([shy, mate, visitor], [shy])
    assert [name_shown(shy, name_readers[p.pk]) for p in (shy, mate, visitor)] == [
        "Zébulon Quarré",
        "Zébulon Quarré",
        "Z.Q.",
    ]


def test_the_template_filter_asks_the_same_rule(club, shy):
    template = Template("{% load names %}{{ player|name_for:name_reader }}")
    member = name_reader_of(reader(club))
    assert template.render(Context({"player": shy, "name_reader": PUBLIC})) == "Z.Q."
    assert template.render(Context({"player": shy, "name_reader": member})) == "Zébulon Quarré"


def test_a_ranking_page_names_its_members_in_as_many_queries_for_many_as_for_one(
    client, club, season, imported_night
):
    """A club member reads the ranking: everybody chose initials, one more query than
    nobody, not one a row."""
    user = reader(club)
    client.force_login(user)
    address = reverse("ranking-season", args=[club.slug, season.slug])
    ranking_publish(season)

    def count() -> int:
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            page = client.get(address)
        assert page.status_code == 200
        return len(queries)

    nobody = count()
    Player.objects.filter(memberships__club=club).update(public_name=Player.PublicName.INITIALS)
    everybody = count()
    page = client.get(address).content.decode()
    assert everybody == nobody + 1
    assert all(p.display_name in page for p in Player.objects.filter(seats__isnull=False))
