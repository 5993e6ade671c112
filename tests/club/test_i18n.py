"""The site speaks French by default; a visitor can switch it to Dutch or English, and both
catalogues translate every message."""

import re
from pathlib import Path

import pytest
from django.template import engines
from django.utils import translation

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
