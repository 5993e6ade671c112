"""Shared fixtures: the club, its people (the personas) and a realistic imported night.

Personas are users linked to players of the club:
- ``club_admin`` runs the club (role admin), ``scorer`` keeps the score sheets, ``member``
  plays; ``outsider`` has an account and plays, but at another club.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.core.management import call_command
from django.test import override_settings
from django.utils import translation

import config.settings as site_settings
from club.models import Club, Membership, Player, Season
from front.views import offline
from games import services as games_services
from games.demo import random_night
from games.models import PointTable, Tournament
from games.nightfile import tournament_import
from scoring import services as scoring_services

from .factories import (
    ClubFactory,
    PlayerFactory,
    PointTableFactory,
    SeasonFactory,
    UserFactory,
)

CLUB_NAME = "RCWhist La Chevalerie"
NIGHT_DATE = datetime.date(2024, 3, 14)
NIGHT_SEED = 2024
# Twelve members: nine come to the night, which seats them at a table of 5 and a table of 4.
MEMBERS = [
    ("Anne", "Dupont"),
    ("Bruno", "Lemaire"),
    ("Chloé", "Martin"),
    ("Didier", "Peeters"),
    ("Eva", "Janssens"),
    ("François", "Dubois"),
    ("Geneviève", "Maes"),
    ("Henri", "Jacobs"),
    ("Isabelle", "Mertens"),
    ("Jacques", "Willems"),
    ("Karine", "Claes"),
    ("Louis", "Goossens"),
]


# The browser tests' groups, by file, of about the same time: these three files took 434 s of
# the 911 s the browser tests took in a run of the suite (--durations=0, machine under load).
BROWSER_GROUPS = dict.fromkeys(
    ["test_accessibility.py", "test_phone_sheet.py", "test_sheet_outage.py"], "browser-2"
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests (marked ``e2e``) form two groups for pytest-xdist's ``loadgroup``:
    each group runs on one worker, one test after the other, with its own chromium. In one
    group they all fell on one worker, whose share of the run they could outgrow as the rest
    gets faster; more than two would start a chromium per worker on a machine of two cores. The
    biggest units, the groups start first, and the other workers take the rest meanwhile. Two
    workers' browser tests share nothing: each has its own test database, its live server on a
    free port and its own temporary folder."""
    for item in items:
        if item.get_closest_marker("e2e"):
            group = BROWSER_GROUPS.get(item.path.name, "browser")
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(autouse=True)
def site_language() -> None:
    """Each test starts in the site's language (French). A request in Dutch leaves Dutch active
    in its thread; run after it on the same pytest-xdist worker, a test reading a message in
    French would find it in Dutch."""
    translation.deactivate()


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    """Each test starts with nothing cached (published pages keep fragments there)."""
    cache.clear()


# The site as deployed (config/settings.py with DEBUG off, deploy/Dockerfile): the static files
# collected under hashed names into STATIC_ROOT, with their manifest, and served by
# whitenoise from the web process. tests/settings.py uses plain names and no whitenoise.
PRODUCTION_STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "photos": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


@pytest.fixture(scope="session")
def collected_static(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``collectstatic`` as a deployment runs it, once per test run (about 5 s)."""
    root = tmp_path_factory.mktemp("staticfiles")
    with override_settings(STATIC_ROOT=root, STORAGES=PRODUCTION_STORAGES):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root


@pytest.fixture
def production_static(collected_static: Path) -> Iterator[Path]:
    """The site's static files as in production while the test runs: hashed names from the
    manifest, served by whitenoise (the site's own middleware list). A test client or server
    made inside it loads that middleware."""
    offline._version_of_files.cache_clear()
    with override_settings(
        DEBUG=False,
        STATIC_ROOT=collected_static,
        STORAGES=PRODUCTION_STORAGES,
        MIDDLEWARE=site_settings.MIDDLEWARE,
    ):
        yield collected_static
    offline._version_of_files.cache_clear()


@pytest.fixture
def club(db: None) -> Club:
    return ClubFactory(name=CLUB_NAME, slug="rcwhist")


@pytest.fixture
def season(club: Club) -> Season:
    return SeasonFactory(club=club, year=2024)


@pytest.fixture
def point_table(db: None) -> PointTable:
    return PointTableFactory()


def persona(club: Club, username: str, role: str | None) -> AbstractBaseUser:
    """A user whose player is a member of ``club`` with ``role`` (``None``: not a member)."""
    user = UserFactory(username=username)
    # Named after the username, never by the factory's sequence: a sequence name depends on how
    # many players the worker made before, and once in a while it was a member's (``MEMBERS``),
    # making the members' names ambiguous to a test that matches them.
    names = {"first_name": username.capitalize(), "last_name": "Témoin"}
    if role is None:
        PlayerFactory(user=user, club=ClubFactory(name="Whist Club de Namur"), **names)
    else:
        PlayerFactory(user=user, club=club, club__role=role, **names)
    return user


@pytest.fixture
def club_admin(club: Club) -> AbstractBaseUser:
    return persona(club, "president", Membership.Role.ADMIN)


@pytest.fixture
def scorer(club: Club) -> AbstractBaseUser:
    return persona(club, "marqueur", Membership.Role.SCORER)


@pytest.fixture
def member(club: Club) -> AbstractBaseUser:
    return persona(club, "membre", Membership.Role.MEMBER)


@pytest.fixture
def outsider(club: Club) -> AbstractBaseUser:
    return persona(club, "voisin", None)


@pytest.fixture
def superuser(db: None) -> AbstractBaseUser:
    return UserFactory(username="root", is_staff=True, is_superuser=True)


@pytest.fixture
def club_members(club: Club) -> list[Player]:
    return [
        PlayerFactory(first_name=first, last_name=last, display_name=f"{first} {last}", club=club)
        for first, last in MEMBERS
    ]


@pytest.fixture
def night_document(club: Club, club_members: list[Player]) -> dict[str, Any]:
    """A club night of three rounds as a club-night/1 file: nine of the twelve members are
    present, so each round has one table of 5 and one table of 4. Named: the running night of
    the same date (``tonight``) is the club's unnamed one."""
    night = random_night(
        random.Random(NIGHT_SEED),
        club=club.name,
        season="2024",
        date=NIGHT_DATE,
        members=[player.display_name for player in club_members],
        present=9,
    )
    return {**night, "name": "Soirée du 14 mars 2024"}


@pytest.fixture
def imported_night(
    night_document: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> Tournament:
    """The night imported (and so closed), with the season ranking its close triggers."""
    with django_capture_on_commit_callbacks(execute=True):
        tournament = tournament_import(night_document)
    tournament.refresh_from_db()
    return tournament


# A club night being run in the site: nine members present and round 1 drawn.
# Fixed, so that every test sees the same tables.
DRAW_SEED = 1234


@pytest.fixture
def tonight(club: Club, season: Season, point_table: PointTable) -> Tournament:
    return games_services.tournament_create(
        club=club, season=season, date=NIGHT_DATE, game="belgian_whist", point_table=point_table
    )


@pytest.fixture
def running_night(tonight: Tournament, club_members: list[Player]) -> Tournament:
    """Nine present: round 1 seats them at a table of 4 and a table of 5."""
    games_services.presence_set(tonight, club_members[:9])
    scoring_services.round_draw(tonight, 1, seed=DRAW_SEED)
    tonight.refresh_from_db()
    return tonight
