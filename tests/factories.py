"""Factories for the club site: the smallest valid object, every field overridable by keyword.

Objects that have a service (a night, a poule) are built through it, so a factory can never
make a row the site itself would refuse.
"""

from __future__ import annotations

import datetime
from typing import Any

import factory
from django.contrib.auth import get_user_model
from django.utils.text import slugify

from club.models import Club, Membership, Player, Season, season_slug
from games import services as games
from games.demo import FIRST_NAMES, LAST_NAMES
from games.models import PointTable, Poule, Tournament
from games.services import point_table_for_preset

PASSWORD = "un-mot-de-passe-de-membre"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"membre{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.org")
    password = factory.django.Password(PASSWORD)


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Whist Club {n}")
    slug = factory.LazyAttribute(lambda club: slugify(club.name)[:60])


class PlayerFactory(factory.django.DjangoModelFactory):
    """A player; ``PlayerFactory(club=club, club__role="scorer")`` also makes them a member."""

    class Meta:
        model = Player
        skip_postgeneration_save = True

    # Any 27 × 28 players in a row have different (first, last) pairs: night files need unique
    # names. A last name is never the first name's partner in the lists (Anne Dupont, Bruno
    # Lemaire …), the pairs the ``club_members`` fixture uses: the sequence goes on from test to
    # test in a worker, and a member's twin made a name file's name ambiguous.
    first_name = factory.Sequence(lambda n: FIRST_NAMES[n % len(FIRST_NAMES)])
    last_name = factory.Sequence(
        lambda n: LAST_NAMES[
            (n + 1 + n // len(FIRST_NAMES) % (len(FIRST_NAMES) - 1)) % len(LAST_NAMES)
        ]
    )
    display_name = factory.LazyAttribute(lambda player: f"{player.first_name} {player.last_name}")

    @factory.post_generation
    def club(player: Player, create: bool, extracted: Club | None, **kwargs: Any) -> None:
        if create and extracted is not None:
            MembershipFactory(player=player, club=extracted, **kwargs)


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    player = factory.SubFactory(PlayerFactory)
    start = datetime.date(2024, 1, 1)
    role = Membership.Role.MEMBER


class SeasonFactory(factory.django.DjangoModelFactory):
    """A calendar-year season: ``SeasonFactory(club=club, year=2025)``."""

    class Meta:
        model = Season

    class Params:
        year = 2024

    club = factory.SubFactory(ClubFactory)
    name = factory.LazyAttribute(lambda season: str(season.year))
    slug = factory.LazyAttribute(lambda season: season_slug(season.name))
    start = factory.LazyAttribute(lambda season: datetime.date(season.year, 1, 1))
    end = factory.LazyAttribute(lambda season: datetime.date(season.year, 12, 31))


class PointTableFactory(factory.django.DjangoModelFactory):
    """The latest stored version of a preset (``rcwhist`` unless named), as the site loads it."""

    class Meta:
        model = PointTable

    name = "rcwhist"

    @classmethod
    def _create(cls, model_class: type[PointTable], *args: Any, **kwargs: Any) -> PointTable:
        return point_table_for_preset(kwargs["name"])


class TournamentFactory(factory.django.DjangoModelFactory):
    """A planned Belgian whist night of the club's season, created by ``tournament_create``."""

    class Meta:
        model = Tournament

    club = factory.SubFactory(ClubFactory)
    season = factory.SubFactory(SeasonFactory, club=factory.SelfAttribute("..club"))
    date = factory.LazyAttribute(
        lambda tournament: tournament.season.start + datetime.timedelta(days=13)
    )
    name = factory.Sequence(lambda n: f"Soirée {n}")
    game = "belgian_whist"
    point_table = factory.SubFactory(PointTableFactory)

    @classmethod
    def _create(cls, model_class: type[Tournament], *args: Any, **kwargs: Any) -> Tournament:
        return games.tournament_create(**kwargs)


def night_started(tournament: Tournament) -> Tournament:
    """The night running, as its first draw leaves it (``scoring.services.round_draw``), for a
    test that seats its tables itself (``poule_create``); returned as stored."""
    Tournament.objects.filter(pk=tournament.pk, status=Tournament.Status.PLANNED).update(
        status=Tournament.Status.RUNNING
    )
    return Tournament.objects.get(pk=tournament.pk)


class PouleFactory(factory.django.DjangoModelFactory):
    """A table of ``size`` new club members (or the given ``players``), seated by
    ``poule_create``."""

    class Meta:
        model = Poule

    class Params:
        size = 4

    tournament = factory.SubFactory(TournamentFactory)
    round = 1
    table = 1
    players = factory.LazyAttribute(
        lambda poule: PlayerFactory.create_batch(poule.size, club=poule.tournament.club)
    )

    @classmethod
    def _create(cls, model_class: type[Poule], *args: Any, **kwargs: Any) -> Poule:
        return games.poule_create(
            kwargs["tournament"],
            round=kwargs["round"],
            table=kwargs["table"],
            players=kwargs["players"],
        )
