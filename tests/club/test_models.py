"""Clubs, players, memberships and seasons keep their own invariants."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from club.models import Club, Membership, Player, Season
from club.names import PUBLIC, name_shown
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, SeasonFactory

pytestmark = pytest.mark.django_db


def test_a_player_has_one_open_membership_per_club(club):
    player = PlayerFactory(club=club)

    second = Membership(club=club, player=player, start=datetime.date(2024, 6, 1))
    with pytest.raises(ValidationError, match="déjà membre de ce club"):
        second.full_clean()
    with transaction.atomic(), pytest.raises(IntegrityError):
        second.save()


def test_a_former_member_may_join_the_club_again(club):
    player = PlayerFactory()
    MembershipFactory(
        club=club, player=player, start=datetime.date(2020, 1, 1), end=datetime.date(2022, 6, 30)
    )

    again = Membership(club=club, player=player, start=datetime.date(2024, 1, 1))
    again.full_clean()
    again.save()

    assert player.memberships.count() == 2


def test_a_player_may_be_a_member_of_two_clubs(club):
    player = PlayerFactory(club=club)

    MembershipFactory(club=ClubFactory(), player=player)

    assert player.memberships.count() == 2


def test_a_membership_cannot_end_before_it_starts(club):
    membership = Membership(
        club=club,
        player=PlayerFactory(),
        start=datetime.date(2024, 6, 1),
        end=datetime.date(2024, 5, 31),
    )

    with pytest.raises(ValidationError, match="précède son début"):
        membership.full_clean()


def test_a_season_that_ends_before_it_starts_is_refused(club):
    season = Season(
        club=club, name="2024", start=datetime.date(2024, 12, 31), end=datetime.date(2024, 1, 1)
    )

    with pytest.raises(ValidationError, match="se termine avant de commencer"):
        season.full_clean()
    with transaction.atomic(), pytest.raises(IntegrityError):
        season.save()


def test_two_seasons_of_a_club_cannot_share_a_name(club):
    SeasonFactory(club=club, year=2024)

    with pytest.raises(ValidationError):
        SeasonFactory.build(club=club, year=2024).full_clean()


def test_the_club_rules_default_to_rcwhist_and_validate():
    club = ClubFactory.build()

    club.full_clean()

    assert club.tournament_points == "rcwhist"
    assert club.ranking_precedence == ["tournament_points", "game_points"]


@pytest.mark.parametrize(
    ("scheme", "place"),
    [
        ("rcwist", 'unknown scheme "rcwist"'),
        ({"places": [5, -3, 1]}, "tournament_points.places"),
        ({"places": [5, 3, 1], "positive_from_place": 0}, "tournament_points.positive_from_place"),
    ],
)
def test_a_club_with_a_bad_tournament_points_scheme_gets_a_field_error(scheme, place):
    club = ClubFactory.build(tournament_points=scheme)

    with pytest.raises(ValidationError) as refused:
        club.full_clean()

    assert list(refused.value.message_dict) == ["tournament_points"]
    assert place in refused.value.message_dict["tournament_points"][0]


def test_a_club_with_no_ranking_precedence_list_gets_a_field_error():
    club = ClubFactory.build(ranking_precedence=None)

    with pytest.raises(ValidationError) as refused:
        club.clean()

    assert list(refused.value.message_dict) == ["ranking_precedence"]


@pytest.mark.parametrize("precedence", [["tournament_points", "luck"], []])
def test_a_club_with_a_bad_ranking_precedence_gets_a_field_error(precedence):
    club = ClubFactory.build(ranking_precedence=precedence)

    with pytest.raises(ValidationError) as refused:
        club.full_clean()

    assert list(refused.value.message_dict) == ["ranking_precedence"]


def test_a_season_with_a_bad_best_n_override_gets_a_field_error(club):
    season = SeasonFactory.build(club=club, ranking_best_n=0)

    with pytest.raises(ValidationError) as refused:
        season.full_clean()

    assert "ranking_best_n" in refused.value.message_dict


def test_a_season_without_overrides_follows_the_club_rules(club):
    club.ranking_best_n = 8
    club.ranking_min_tournaments = 3
    club.save()

    rules = SeasonFactory(club=club).ranking_rules()

    assert (rules.best_n, rules.min_tournaments) == (8, 3)
    assert rules.precedence == ("tournament_points", "game_points")


def test_a_season_override_wins_over_the_club_rules(club):
    club.ranking_best_n = 8
    club.save()

    rules = SeasonFactory(club=club, ranking_best_n=5, ranking_min_tournaments=2).ranking_rules()

    assert (rules.best_n, rules.min_tournaments) == (5, 2)


def test_a_player_who_chose_full_name_is_shown_by_full_name():
    player = PlayerFactory.build(first_name="Anne", last_name="Dupont", display_name="Anne Dupont")

    assert name_shown(player, PUBLIC) == "Anne Dupont"


def test_a_player_who_chose_initials_is_shown_by_initials():
    player = PlayerFactory.build(
        first_name="Anne",
        last_name="Dupont",
        display_name="Anne Dupont",
        public_name=Player.PublicName.INITIALS,
    )

    assert name_shown(player, PUBLIC) == "A.D."


def test_initials_come_from_the_display_name_when_first_and_last_names_are_blank():
    player = PlayerFactory.build(
        first_name="",
        last_name="",
        display_name="chloé van der berg",
        public_name=Player.PublicName.INITIALS,
    )

    assert name_shown(player, PUBLIC) == "C.V.D.B."


def test_a_player_needs_a_display_name():
    with transaction.atomic(), pytest.raises(IntegrityError):
        Player.objects.create(display_name="")


def test_players_in_a_club_are_its_members_only(club):
    inside = PlayerFactory(club=club)
    PlayerFactory(club=ClubFactory())

    assert list(Player.objects.in_club(club)) == [inside]


def test_a_club_name_is_unique(club):
    with pytest.raises(ValidationError):
        Club(name=club.name, slug="another").full_clean()
