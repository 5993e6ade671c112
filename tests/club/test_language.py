"""The reader's language, everywhere: an unnamed night is "Club night of 9 May 2024" on an
English page (never the French default stored as its name, as the demo's nights were), and a
list of languages names each in itself (Français, English, Nederlands), with its lang."""

from __future__ import annotations

import datetime
import importlib
import random
import re
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.template import engines
from django.urls import reverse
from django.utils import translation

from games.demo import random_night
from games.models import Tournament
from scoring import services as scoring_services
from scoring.services.season_stats import season_stats_store
from tests.club.views.test_players import published_night
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
    client, club, season, best_night, language, title
):
    UNNAMED.default_names_cleared(apps, None)
    # The season's summaries, stored at close, read the nights' names as they are now (scoring
    # 0012 fills them after the names were cleared on a site that upgrades).
    season_stats_store([season.pk])
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


# The site speaks French by default; a visitor can switch it to Dutch or English, and both
# catalogues translate every message.

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = {lang: ROOT / "locale" / lang / "LC_MESSAGES" / "django.po" for lang in ("en", "nl")}
# One catalogue entry: its flags, its msgid and its msgstr (each possibly split over lines).
ENTRY = re.compile(
    r'^(?P<flags>(?:#.*\n)*)(?:msgctxt (?P<context>".*")\n)?'
    r'msgid (?P<msgid>(?:".*"\n)+)msgstr (?P<msgstr>(?:".*"\n?)+)',
    re.MULTILINE,
)
PLACEHOLDER = re.compile(r"%\(\w+\)s|%s")


def unquote(lines: str) -> str:
    """The text of a PO string split over quoted lines."""
    return "".join(
        re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m[1], m[1]), part)
        for part in re.findall(r'"(.*)"', lines)
    )


def entries(lang: str) -> list[tuple[str, str, str]]:
    """(flags, msgid, msgstr) of every message of the catalogue, the header left out."""
    text = CATALOGUES[lang].read_text(encoding="utf-8")
    found = [(m["flags"], unquote(m["msgid"]), unquote(m["msgstr"])) for m in ENTRY.finditer(text)]
    return [entry for entry in found if entry[1]]


@pytest.fixture(autouse=True)
def restore_language():
    """Switching languages in a request must not leak into the tests that follow."""
    language = translation.get_language()
    yield
    translation.activate(language)


@pytest.fixture
def set_language(client):
    def choose(language: str):
        return client.post("/i18n/setlang/", {"language": language, "next": "/"}, follow=True)

    return choose


@pytest.mark.django_db
def test_the_home_page_is_in_french_by_default(client, club):
    response = client.get("/")

    assert response.status_code == 200
    assert club.name in response.text
    assert '<html lang="fr">' in response.text
    assert "Pas encore de saison." in response.text


@pytest.mark.django_db
def test_a_visitor_who_chooses_dutch_gets_the_home_page_in_dutch(client, club, set_language):
    response = set_language("nl")

    assert response.redirect_chain == [("/", 302)]
    assert '<html lang="nl">' in response.text
    assert "Nog geen seizoen." in response.text
    assert "Pas encore de saison." not in response.text
    # The choice sticks for the next pages.
    assert "Nog geen seizoen." in client.get("/").text


@pytest.mark.django_db
def test_a_visitor_who_chooses_english_gets_the_home_page_in_english(client, club, set_language):
    response = set_language("en")

    assert response.redirect_chain == [("/", 302)]
    assert '<html lang="en">' in response.text
    assert "No season yet." in response.text
    assert "Pas encore de saison." not in response.text
    assert "No season yet." in client.get("/").text


@pytest.mark.django_db
def test_a_visitor_can_switch_back_to_french(client, club, set_language):
    set_language("nl")

    response = set_language("fr")

    assert "Pas encore de saison." in response.text
    assert "Nog geen seizoen." not in response.text


@pytest.mark.parametrize("lang", CATALOGUES)
def test_every_message_of_the_catalogue_is_translated(lang):
    messages = entries(lang)

    assert len(messages) > 100
    assert [msgid for _flags, msgid, msgstr in messages if not msgstr.strip()] == []
    assert [msgid for flags, msgid, _msgstr in messages if "fuzzy" in flags] == []


@pytest.mark.parametrize("lang", CATALOGUES)
def test_translations_keep_the_placeholders_of_the_french_message(lang):
    changed = [
        (msgid, msgstr)
        for _flags, msgid, msgstr in entries(lang)
        if sorted(PLACEHOLDER.findall(msgid)) != sorted(PLACEHOLDER.findall(msgstr))
    ]

    assert changed == []


@pytest.mark.parametrize("lang", CATALOGUES)
def test_the_site_serves_the_compiled_translations_of_the_catalogue(lang):
    text = CATALOGUES[lang].read_text(encoding="utf-8")
    contexts = {
        unquote(m["msgid"]): unquote(m["context"]) for m in ENTRY.finditer(text) if m["context"]
    }
    with translation.override(lang):
        served = {
            msgid: translation.pgettext(contexts[msgid], msgid)
            if msgid in contexts
            else translation.gettext(msgid)
            for _flags, msgid, _msgstr in entries(lang)
        }

    assert served == {msgid: msgstr for _flags, msgid, msgstr in entries(lang)}


@pytest.mark.parametrize("lang", CATALOGUES)
def test_the_catalogue_header_names_its_language_and_plural_forms(lang):
    header = CATALOGUES[lang].read_text(encoding="utf-8")

    assert f'"Language: {lang}\\n"' in header
    assert '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"' in header


def jinja2_messages() -> set[str]:
    """Every message the Jinja2 templates translate (``jinja2/``), found by Jinja2's own
    extractor: Django's ``makemessages`` reads only its own template language, so these
    messages live in the catalogues because this test keeps them there."""
    environment = engines["jinja2"].env
    found = set()
    for path in (ROOT / "jinja2").rglob("*.html"):
        for _line, _function, message in environment.extract_translations(path.read_text()):
            found.update([message] if isinstance(message, str) else [m for m in message if m])
    return found


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_every_message_of_the_jinja2_templates_is_translated(lang):
    messages = jinja2_messages()
    # Singular and plural ids of the live entries (an obsolete one is written "#~ msgid").
    text = CATALOGUES[lang].read_text(encoding="utf-8")
    live = set(re.findall(r'^msgid(?:_plural)? "(.+)"$', text, re.MULTILINE))
    untranslated = {msgid for _flags, msgid, msgstr in entries(lang) if not msgstr}

    assert "Classement de la poule" in messages
    assert "%(count)s donnes jouées" in messages
    assert messages - live == set()
    assert messages & untranslated == set()
