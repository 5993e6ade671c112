"""Files as people have them (club/table_reader/files.py): a table saved by Excel as « Texte
Unicode » (UTF-16 with its byte-order mark, tab-separated), as UTF-8 with or without a
byte-order mark, or as Windows-1252 (Excel's « CSV » in French) reads the same rows, for the
members' import and the ranking's alike (both read through ``table_read``)."""

from __future__ import annotations

import codecs

import pytest

from club.table_reader.files import table_read

ROWS = [["Rang", "Nom", "Points"], ["1", "Zoé Lefèvre", "42"], ["2", "Jérôme Œillet", "40"]]


def text(separator: str) -> str:
    return "\r\n".join(separator.join(row) for row in ROWS) + "\r\n"


@pytest.mark.parametrize(
    "saved",
    [
        pytest.param(codecs.BOM_UTF16_LE + text("\t").encode("utf-16-le"), id="Texte Unicode"),
        pytest.param(codecs.BOM_UTF16_BE + text("\t").encode("utf-16-be"), id="UTF-16 BE"),
        pytest.param(codecs.BOM_UTF8 + text(";").encode("utf-8"), id="UTF-8 with BOM"),
        pytest.param(text(",").encode("utf-8"), id="UTF-8"),
        pytest.param(text(";").encode("cp1252"), id="Windows-1252"),
    ],
)
def test_a_table_reads_the_same_rows_whatever_its_encoding(saved):
    assert table_read("classement.csv", saved) == ROWS
    assert table_read("classement.txt", saved) == ROWS
