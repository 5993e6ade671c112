"""The engine's refusals reach the scorer in the club's language: every code the engine gives
has a French sentence naming the contract, the players and the deal; the command line and the
night-file import keep the engine's English."""

from __future__ import annotations

import ast
import io
import json
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.utils import translation

from games.dealforms import deal_post
from games.models import Tournament
from games.views.problems import ENGINE_MESSAGES, engine_problem, refusal_texts
from scoring.engine.__main__ import main as engine_main
from scoring.engine.errors import DocumentRefused, EngineError
from scoring.engine.night import score_poule_deals
from scoring.engine.tables import preset
from scoring.services import engine_validation_error, refused_as_validation_error
from tests.games.views.test_tournament import table_of, url

ENGINE = Path(__file__).resolve().parents[3] / "scoring" / "engine"
TWO_DECLARERS = {"contract": "solo", "bid": 6, "declarers": ["2", "3"], "tricks": 7}
FRENCH = "Donne 1 : Solo se joue avec un seul déclarant : 2 sont cochés."
ENGLISH = 'contract "solo" needs exactly 1 declarer, got 2'


def engine_errors() -> list[tuple[str, int, ast.Call]]:
    """Every ``EngineError(…)`` the engine builds, but the two in errors.py that pass an
    existing error's code on (``moved``, a problem given as a string)."""
    calls = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "EngineError":
                if path.name == "errors.py" and not (
                    len(node.args) > 2 and isinstance(node.args[2], ast.Constant)
                ):
                    continue
                calls.append((path.name, node.lineno, node))
    return calls


def codes_and_params(call: ast.Call) -> list[tuple[str, list[str]]]:
    code = call.args[2] if len(call.args) > 2 else None
    codes = [code.body.value, code.orelse.value] if isinstance(code, ast.IfExp) else [code.value]
    params = call.args[3] if len(call.args) > 3 else None
    names = [key.value for key in params.keys] if isinstance(params, ast.Dict) else []
    return [(c, names) for c in codes]


def test_every_error_the_engine_builds_carries_a_code():
    uncoded = [
        f"{name}:{line}"
        for name, line, call in engine_errors()
        if not (
            len(call.args) > 2
            and (
                isinstance(call.args[2], ast.Constant)
                or (
                    isinstance(call.args[2], ast.IfExp)
                    and isinstance(call.args[2].body, ast.Constant)
                    and isinstance(call.args[2].orelse, ast.Constant)
                )
            )
        )
    ]
    assert uncoded == []


def test_every_engine_code_has_a_french_sentence_that_takes_its_parameters():
    found = {}
    for _name, _line, call in engine_errors():
        for code, params in codes_and_params(call):
            found.setdefault(code, set()).update(params)
    assert len(found) > 60
    missing = sorted(set(found) - set(ENGINE_MESSAGES))
    assert missing == [], "give each code a sentence in games/views/problems.py"
    names = {"1": "Anne", "2": "Bruno"}
    with translation.override("fr"):
        for code, params in found.items():
            values = {key: 1 for key in params}
            values.update({k: "solo" for k in params if k == "contract"})
            text = engine_problem(code, values, "english", names, "deals[2].x")
            assert text.startswith("Donne 3 : ") and "english" not in text, code
            assert "%(" not in text, code


def test_an_unknown_code_shows_the_english_message_made_readable():
    with translation.override("fr"):
        text = engine_problem(
            "from_a_newer_engine", {}, "deals[6].declarers: seat 5 is odd", {"5": "Eva"}
        )
    assert text == 'Donne 7 : "Eva" is odd'


def test_a_percent_sign_in_a_value_survives_the_trip_through_django():
    error = EngineError(
        "deals[0].contract", 'unknown contract "50%"', "contract_unknown", {"got": '"50%"'}
    )
    refusal = ValidationError([engine_validation_error(error)])
    assert refusal.messages == ['deals[0].contract: unknown contract "50%"']
    with translation.override("fr"):
        assert refusal_texts(refusal, {}) == ['Donne 1 : Contrat inconnu : "50%".']


def whist_refusal(raw_deals) -> ValidationError:
    with pytest.raises(DocumentRefused) as refused:
        score_poule_deals(preset("whist7"), ["1", "2", "3", "4"], raw_deals)
    return refused_as_validation_error(refused.value)


NAMES = {"1": "Anne", "2": "Bruno", "3": "Chloé", "4": "Didier"}


def tricks(team, count):
    return {"tricks": {"team": team, "tricks": count}}


def test_a_whist_deal_out_of_turn_names_the_partners_in_french():
    refusal = whist_refusal([tricks(["1", "3"], 13), tricks(["1", "3"], 9)])
    with translation.override("fr"):
        assert refusal_texts(refusal, NAMES) == [
            "Donne 2 : Les équipes sont Anne + Chloé contre Bruno + Didier, mais la partie 2 de "
            "la partie générale se joue Anne + Bruno contre Chloé + Didier."
        ]


def test_a_deal_after_the_partie_generale_is_refused_in_french():
    deals = [tricks(["1", "3"], 13), tricks(["1", "2"], 13), tricks(["1", "4"], 13)]
    refusal = whist_refusal([*deals, tricks(["1", "3"], 7)])
    with translation.override("fr"):
        assert refusal_texts(refusal, NAMES) == [
            "Donne 4 : La partie générale est finie : ses 3 parties sont jouées, cette donne est "
            "de trop."
        ]


def test_other_refusals_are_shown_as_they_were_said():
    with translation.override("fr"):
        assert refusal_texts(ValidationError("La soirée est clôturée."), NAMES) == [
            "La soirée est clôturée."
        ]
        by_field = ValidationError({"data": ["Donne illisible."]})
        assert refusal_texts(by_field, NAMES) == ["Donne illisible."]


# --------------------------------------------------------------------------------------------
# On the score sheet


def refused_on_sheet(client, night: Tournament, scorer, deal: dict, language: str | None):
    """``deal`` sent from the sheet of the night's table of 4: the response, nothing recorded."""
    poule = table_of(night, 4)
    client.force_login(scorer)
    if language:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.post(
        url("sheet", night, poule_pk=poule.pk), deal_post(poule, deal), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert not poule.deals.exists()
    return response


def refused_solo(client, night: Tournament, scorer, language: str | None = None) -> list[str]:
    response = refused_on_sheet(client, night, scorer, TWO_DECLARERS, language)
    assert ENGLISH not in response.content.decode() or language == "en"
    return list(response.context["form"].non_field_errors())


@pytest.mark.django_db
def test_a_solo_with_two_declarers_is_refused_in_french_naming_the_contract(
    client, running_night, scorer
):
    assert refused_solo(client, running_night, scorer) == [FRENCH]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "nl"])
def test_in_english_and_dutch_the_refusal_is_translated_or_falls_back(
    client, running_night, scorer, language
):
    errors = refused_solo(client, running_night, scorer, language)
    msgid = "%(contract)s se joue avec un seul déclarant : %(got)s sont cochés."
    with translation.override(language):
        translated = translation.gettext(msgid)
        number = translation.gettext("Donne %(number)s : ") % {"number": 1}
        contract = str(translation.gettext("Solo"))
    if translated != msgid:
        assert errors == [number + translated % {"contract": contract, "got": 2}]
    elif language == "en":  # not translated yet: the engine's own English
        assert errors == [number + ENGLISH]
    else:  # not translated yet: the French sentence, as every untranslated text of the site
        assert errors == [number + msgid % {"contract": contract, "got": 2}]


@pytest.mark.django_db
def test_the_mort_named_as_a_declarer_is_refused_with_his_name(client, running_night, scorer):
    poule = table_of(running_night, 5)  # seat 1 deals first and is the mort
    client.force_login(scorer)
    response = client.post(
        url("sheet", running_night, poule_pk=poule.pk),
        deal_post(poule, {"contract": "solo", "bid": 6, "declarers": ["1"], "tricks": 7}),
        HTTP_HX_REQUEST="true",
    )
    mort = poule.seats.get(number=1).player.display_name
    assert list(response.context["form"].non_field_errors()) == [
        f"Donne 1 : {mort} est le mort de cette donne (le donneur à une table de 5) : "
        "il ne peut pas être déclarant."
    ]


# --------------------------------------------------------------------------------------------
# The command line and the night-file import keep English


def night_with_two_declarers() -> dict:
    return {
        "format": "club-night/1",
        "club": "RCWhist",
        "season": "2026",
        "date": "2026-03-14",
        "game": "belgian_whist",
        "rules": "rcwhist",
        "players": ["Anne", "Bruno", "Chloé", "Didier"],
        "poules": [
            {
                "round": 1,
                "table": 1,
                "seats": ["Anne", "Bruno", "Chloé", "Didier"],
                "deals": [{**TWO_DECLARERS, "declarers": ["Bruno", "Chloé"]}],
            }
        ],
    }


def test_the_command_line_says_it_in_english(tmp_path, capsys):
    path = tmp_path / "night.json"
    path.write_text(json.dumps(night_with_two_declarers()), encoding="utf-8")
    with translation.override("fr"):
        assert engine_main(["score", str(path)]) == 1
    assert capsys.readouterr().err == f"poules[0].deals[0].declarers: {ENGLISH}\n"


@pytest.mark.django_db
def test_the_night_file_import_says_it_in_english(tmp_path):
    path = tmp_path / "night.json"
    path.write_text(json.dumps(night_with_two_declarers()), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with translation.override("fr"), pytest.raises(CommandError):
        call_command("import_nights", str(path), stdout=out, stderr=err)
    assert f"  poules[0].deals[0].declarers: {ENGLISH}\n" in err.getvalue()
