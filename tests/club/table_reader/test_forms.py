"""The table's form speaks of the import's own file (club/table_reader/forms.py): the same
refusal of the reader names a ranking on the ranking's import and a list of members on the
members' import, in the reader's language."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation

from club.views.member_import import MembersTableForm
from club.views.ranking_import import RankingTableForm
from tests.club.table_reader.crafted_workbooks import huge_cell_workbook

TOO_WIDE = b"1;" * 41 + b"x"


@pytest.fixture(scope="module")
def zip_bomb() -> bytes:
    return huge_cell_workbook(20)


def refusal(form_class, name: str, data: bytes) -> str:
    form = form_class({}, {"file": SimpleUploadedFile(name, data)})
    assert not form.is_valid()
    (message,) = form.non_field_errors()
    return message


def test_a_zip_bomb_is_refused_in_each_imports_words(zip_bomb):
    assert refusal(MembersTableForm, "membres.xlsx", zip_bomb) == (
        "Ce fichier Excel fait 20 Mo une fois décompressé, plus que les 16 Mo d'une liste "
        "de membres (8 Mo pour une de ses parties)."
    )
    assert refusal(RankingTableForm, "classement.xlsx", zip_bomb) == (
        "Ce fichier Excel fait 20 Mo une fois décompressé, plus que les 16 Mo d'un "
        "classement (8 Mo pour une de ses parties)."
    )


def test_a_table_too_wide_is_refused_in_each_imports_words():
    assert refusal(MembersTableForm, "membres.csv", TOO_WIDE) == (
        "Cette liste de membres a plus de 40 colonnes : la ligne 1 a une valeur après la "
        "colonne AN."
    )
    assert refusal(RankingTableForm, "classement.csv", TOO_WIDE).startswith(
        "Ce classement a plus de 40 colonnes"
    )


@pytest.mark.parametrize(
    ("language", "members", "ranking"),
    [
        ("en", "This list of members has more than", "This ranking has more than"),
        ("nl", "Deze ledenlijst heeft meer dan", "Dit klassement heeft meer dan"),
    ],
)
def test_the_imports_words_are_translated(language, members, ranking):
    with translation.override(language):
        assert refusal(MembersTableForm, "membres.csv", TOO_WIDE).startswith(members)
        assert refusal(RankingTableForm, "classement.csv", TOO_WIDE).startswith(ranking)
