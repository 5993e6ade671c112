"""import_nights keeps going: every malformed file is refused with its problems located, never
a traceback, nothing of it written, and the good file after it is imported. A table without a
single deal is imported as unplayed: its players get no standings."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Poule, Tournament
from games.nightfile import document_problems, tournament_import
from scoring.models import PouleStanding, TournamentStanding

pytestmark = pytest.mark.django_db


def deeply_nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def bad_documents(doc: dict[str, Any]) -> dict[str, Any]:
    """One broken file per kind of malformed input, each otherwise the good night."""
    long_name = copy.deepcopy(doc)
    long_name["players"][0] = "X" * 81
    long_name["poules"][0]["seats"][0] = "X" * 81
    nul = copy.deepcopy(doc)
    nul["name"] = "Soirée\x00"
    huge = copy.deepcopy(doc)
    huge["poules"][0]["deals"][0]["penalty"] = 10**30
    nested = copy.deepcopy(doc)
    nested["name"] = [[[[[[[[[[[[[[["deep"]]]]]]]]]]]]]]]
    return {"long_name": long_name, "nul": nul, "huge": huge, "nested": nested}


def test_each_malformed_input_is_a_located_problem(night_document):
    problems = {name: document_problems(doc) for name, doc in bad_documents(night_document).items()}

    assert problems["long_name"] == [
        "poules[0].seats[0]: 81 characters, at most 80",
        "players[0]: 81 characters, at most 80",
    ]
    assert problems["nul"] == ["name: contains a NUL character"]
    assert problems["huge"] == [
        f"poules[0].deals[0].penalty: {10**30} is out of range (±1000000000)"
    ]
    assert problems["nested"][0].startswith("name")
    assert "nested deeper than" in problems["nested"][0]
    assert document_problems(night_document) == []


def test_import_nights_refuses_each_bad_file_and_imports_the_good_one(
    tmp_path: Path, night_document, capsys
):
    files = []
    for name, doc in bad_documents(night_document).items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        files.append(str(path))
    recursion = tmp_path / "recursion.json"
    recursion.write_text(deeply_nested(100_000))
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(night_document), encoding="utf-8")

    with pytest.raises(CommandError, match="6 of 7 files refused"):
        call_command("import_nights", str(recursion), str(binary), *files, str(good))

    err = capsys.readouterr().err
    assert "recursion.json: refused" in err
    assert "nested too deeply" in err
    assert "not UTF-8" in err or "not JSON" in err
    assert "contains a NUL character" in err
    assert "Traceback" not in err
    assert Tournament.objects.count() == 1
    assert Tournament.objects.get().standings.count() == 9


def test_a_table_without_deals_is_imported_as_unplayed(night_document):
    doc = copy.deepcopy(night_document)
    unplayed = doc["poules"][-1]
    unplayed["deals"] = []
    tournament = tournament_import(doc)

    poule = Poule.objects.get(
        tournament=tournament, round=unplayed["round"], table=unplayed["table"]
    )
    assert poule.deals.count() == 0
    assert not PouleStanding.objects.filter(poule=poule).exists()
    # Its players have the standings of the tables they did play, and no table won here.
    other = PouleStanding.objects.filter(poule__tournament=tournament).exclude(poule=poule)
    assert TournamentStanding.objects.filter(tournament=tournament).count() == len(
        {line.player_id for line in other}
    )
    for line in TournamentStanding.objects.filter(tournament=tournament):
        played = other.filter(player_id=line.player_id)
        assert line.poules_played == played.count()
        assert line.poules_won == played.filter(rank=1).count()
