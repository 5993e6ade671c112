"""The reader's language, everywhere: an unnamed night is "Club night of 9 May 2024" on an
English page (never the French default stored as its name, as the demo's nights were), and a
list of languages names each in itself (Français, English, Nederlands), with its lang."""

from __future__ import annotations

import datetime
import importlib
import random
import re

import pytest
from django.apps import apps
from django.conf import settings
from django.urls import reverse

from games.demo import random_night
from games.models import Tournament
from scoring import services as scoring_services
from tests.club.test_player_page import published_night
from tests.factories import PlayerFactory, TournamentFactory

# The migration that unnames the nights stored under the French default name of their date.
UNNAMED = importlib.import_module("games.migrations.0016_unnamed_nights_default_name")
MAY_9 = datetime.date(2024, 5, 9)


def in_language(client, language: str) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language


@pytest.fixture
def best_night(club, season):
    """Anne's one night, stored (as the demo stored its nights) as "Soirée du 9 mai 2024"."""
    players = PlayerFactory.create_batch(4, club=club)
    night = published_night(season, players, day=(MAY_9 - season.start).days)
    Tournament.objects.filter(pk=night.pk).update(name="Soirée du 9 mai 2024")
    scoring_services.ratings_rebuild(club)  # his statistics, as the night's close has them
    return players[0]


@pytest.mark.parametrize(
    "language, title",
    [
        ("en", "Club night of 9 May 2024"),
        ("nl", "Clubavond van 9 mei 2024"),
        ("fr", "Soirée du 9 mai 2024"),
    ],
)
def test_the_best_night_of_a_player_is_named_in_the_readers_language(
    client, club, best_night, language, title
):
    UNNAMED.default_names_cleared(apps, None)
    in_language(client, language)

    page = client.get(reverse("player-statistics", args=[club.slug, best_night.pk]))

    best = re.search(r"<li>[^<]*<a href=\"[^\"]+\">([^<]+)</a> \(", page.content.decode())
    assert best is not None and best.group(1) == title


def test_a_night_named_by_its_club_keeps_its_name_and_one_date_keeps_one_unnamed_night(
    club, season
):
    kept = TournamentFactory(
        club=club, season=season, date=MAY_9, name="Soirée du 9 mai 2024 (annulée)"
    )
    unnamed = TournamentFactory(club=club, season=season, date=MAY_9, name="")
    second = TournamentFactory(club=club, season=season, date=MAY_9, name="Soirée du 9 mai 2024")
    first = TournamentFactory(
        club=club, season=season, date=datetime.date(2024, 5, 1), name="Soirée du 1er mai 2024"
    )

    UNNAMED.default_names_cleared(apps, None)

    names = dict(Tournament.objects.values_list("pk", "name"))
    assert names[kept.pk] == "Soirée du 9 mai 2024 (annulée)"
    assert names[unnamed.pk] == "" and names[second.pk] == "Soirée du 9 mai 2024"
    assert names[first.pk] == ""


def test_the_demos_nights_are_unnamed_so_each_reader_gets_his_language():
    night = random_night(
        random.Random(1),
        club="Demo",
        season="2024",
        date=MAY_9,
        members=[f"Joueur {n}" for n in range(8)],
        present=8,
    )
    assert "name" not in night


# The list of languages ------------------------------------------------------------------------

OWN_NAMES = [("fr", "Français"), ("en", "English"), ("nl", "Nederlands")]


def options(page: str, select_name: str) -> list[tuple[str, str, str]]:
    """Each option of the select ``select_name``: (value, lang, text)."""
    select = re.search(rf'<select name="{select_name}"[^>]*>(.*?)</select>', page, re.S)
    assert select is not None, select_name
    found = []
    for attributes, text in re.findall(r"<option([^>]*)>([^<]+)</option>", select.group(1)):
        value = re.search(r'value="(\w*)"', attributes)
        lang = re.search(r'lang="(\w*)"', attributes)
        found.append((value and value.group(1), lang and lang.group(1), text))
    return found


@pytest.mark.parametrize("language", ["fr", "en", "nl"])
def test_the_profiles_languages_are_each_named_in_itself_with_its_lang(client, member, language):
    client.force_login(member)
    in_language(client, language)

    page = client.get(reverse("profile")).content.decode()

    assert options(page, "language") == [(code, code, name) for code, name in OWN_NAMES]


def test_the_club_settings_name_each_language_in_itself(client, club, club_admin):
    client.force_login(club_admin)
    in_language(client, "en")

    page = client.get(reverse("club-settings", args=[club.slug])).content.decode()

    assert options(page, "language") == [(code, code, name) for code, name in OWN_NAMES]
    assert "French" not in page and "Dutch" not in page


def test_the_headers_language_switch_marks_each_option_with_its_lang(client, club):
    in_language(client, "nl")
    page = client.get(reverse("club-detail", args=[club.slug])).content.decode()
    switch = page.split('<select id="language"')[1].split("</select>")[0]
    assert re.findall(r'value="(\w+)" lang="(\w+)"', switch) == [
        (code, code) for code, _name in OWN_NAMES
    ]
