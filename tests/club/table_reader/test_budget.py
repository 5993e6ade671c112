"""A past ranking's file is read within a budget: what it becomes once read (its workbook's
parts expanded, its cells, their characters) is held to limits while it is read, and a file
past one is answered 400 on the import page, naming the limit, with nothing kept of it.

The hostile workbooks are written here, part by part (``crafted_workbooks``): a few hundred
kilobytes each, which took a worker to gigabytes before."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from club.table_reader.budget import MAX_CELL_CHARACTERS
from club.table_reader.files import table_from_csv, table_from_paste, table_read
from club.table_reader.workbook_budget import MAX_PART_BYTES, MAX_PART_ELEMENTS
from tests.club.table_reader.crafted_workbooks import (
    MAIN,
    huge_cell_workbook,
    number_cell,
    row_xml,
    shared,
    shared_string_bomb,
    widest_sheet,
    workbook_bytes,
)

# What reading one of these files may add to the worker's memory (tracemalloc's peak, over the
# whole request, the page warmed up). Measured after the change: the files refused here peak
# between 2 and 16 MB (16: a cell of 8 MB, just under a part's expanded limit, read before it
# is refused); the costliest file the limits let through, a sheet of 300 000 empty elements,
# 31 MB. Before: the shared-string bomb 3.2 GB, the 600 MB cell 1.8 GB, the 16 384-column
# sheet 266 MB.
READ_BUDGET = 32_000_000


@pytest.fixture(scope="module")
def cell_of_600_mb() -> bytes:
    """Written once (600 MB through deflate: about 4 s), 585 kB."""
    return huge_cell_workbook(600)


@pytest.fixture
def import_page(client, club, club_admin) -> Callable[[str, bytes], tuple]:
    """Posts a file to the import's first page and answers (the answer, the peak memory the
    request took); the page is read once before, so the peak is the file's, not Django's
    first request's."""
    client.force_login(club_admin)
    url = reverse("ranking-import", args=[club.slug])
    # Warmed up on two files refused (nothing kept): openpyxl, the CSV reader, the page.
    long_cell = workbook_bytes([row_xml(1, [number_cell(1, 1, 10 ** (MAX_CELL_CHARACTERS + 1))])])
    client.post(url, {"file": SimpleUploadedFile("warm.xlsx", long_cell)})
    client.post(url, {"file": SimpleUploadedFile("warm.csv", b"1;" * 41 + b"x")})

    def post(name: str, data: bytes) -> tuple:
        tracemalloc.start()
        try:
            answer = client.post(url, {"file": SimpleUploadedFile(name, data)})
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        return answer, peak

    return post


def refusal(import_page, club, name: str, data: bytes) -> str:
    """The refusal's words, once checked that the page said them with a 400, within the
    budget, and kept nothing of the file for the next page."""
    answer, peak = import_page(name, data)
    assert answer.status_code == 400
    assert f"ranking_import_{club.pk}" not in answer.wsgi_request.session
    (message,) = answer.context["form"].non_field_errors()
    assert message in answer.content.decode().replace("&#x27;", "'")
    assert peak < READ_BUDGET
    return message


def test_a_shared_string_bomb_is_refused_at_its_first_cell(import_page, club):
    assert refusal(import_page, club, "bombe.xlsx", shared_string_bomb()) == (
        "Une cellule dépasse 1\xa0000 caractères (ligne 1, colonne A) : "
        "est-ce bien le bon fichier ?"
    )


def test_a_cell_of_600_mb_is_refused_before_the_workbook_is_opened(
    import_page, club, cell_of_600_mb
):
    assert len(cell_of_600_mb) < 2_000_000
    assert refusal(import_page, club, "cellule.xlsx", cell_of_600_mb) == (
        "Ce fichier Excel fait 600 Mo une fois décompressé, plus que les 16 Mo d'un "
        "classement (8 Mo pour une de ses parties)."
    )


def test_a_cell_just_under_a_parts_limit_is_refused_as_a_cell(import_page, club):
    rows = ['<row r="1"><c r="A1" t="inlineStr"><is><t>', "y" * (MAX_PART_BYTES - 1000)]
    data = workbook_bytes([*rows, "</t></is></c></row>"])
    assert refusal(import_page, club, "cellule.xlsx", data).startswith(
        "Une cellule dépasse 1\xa0000 caractères (ligne 1, colonne A)"
    )


def test_a_sheet_16_384_columns_wide_is_refused_at_its_first_row(import_page, club):
    assert refusal(import_page, club, "large.xlsx", widest_sheet()) == (
        "Ce classement a plus de 40 colonnes : la ligne 1 a une valeur après la colonne AN."
    )


def test_a_sheet_that_says_it_is_16_384_columns_wide_is_read_as_wide_as_its_cells(
    import_page, club
):
    rows = [
        row_xml(r, [number_cell(r, 1, r), shared(r, 2, 0), number_cell(r, 3, 100 - r)])
        for r in range(1, 51)
    ]
    data = workbook_bytes(rows, shared_strings=["Anne Dupont"], dimension="A1:XFD2000")
    answer, peak = import_page("classement.xlsx", data)
    assert answer.status_code == 302
    table = answer.wsgi_request.session[f"ranking_import_{club.pk}"]["rows"]
    assert len(table) == 50 and {len(row) for row in table} == {3}
    assert table[0] == ["1", "Anne Dupont", "99"]
    assert peak < READ_BUDGET


def test_a_stylesheet_of_too_many_elements_is_refused_before_the_workbook_is_opened(
    import_page, club
):
    styles = [f'<styleSheet xmlns="{MAIN}"><cellXfs>', "<xf/>" * (MAX_PART_ELEMENTS + 1)]
    data = workbook_bytes(
        [row_xml(1, [number_cell(1, 1, 1)])],
        parts={"xl/styles.xml": [*styles, "</cellXfs></styleSheet>"]},
    )
    assert refusal(import_page, club, "styles.xlsx", data) == (
        "Une partie de ce fichier Excel (xl/styles.xml) a plus de 20\xa0000 éléments : "
        "est-ce bien le bon fichier ?"
    )


def test_a_part_declaring_entities_is_refused(import_page, club):
    strings = [
        '<!DOCTYPE sst [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>',
        f'<sst xmlns="{MAIN}"><si><t>&b;</t></si></sst>',
    ]
    data = workbook_bytes([row_xml(1, [shared(1, 1, 0)])], parts={"xl/sharedStrings.xml": strings})
    assert refusal(import_page, club, "entites.xlsx", data) == "Ce fichier Excel ne s'ouvre pas."


def test_a_workbook_of_more_than_fifty_sheets_is_refused(import_page, club):
    data = workbook_bytes([row_xml(1, [number_cell(1, 1, 1)])], sheets=51)
    assert refusal(import_page, club, "saisons.xlsx", data) == (
        "Ce classeur a plus de 50 feuilles : gardez la feuille à importer seule."
    )


def test_a_chart_sheet_holds_every_part_to_the_lower_limit():
    """openpyxl reads a chart sheet whole, with its drawings wherever they are: with one in
    the workbook, no part is trusted to be only streamed."""
    rows = [row_xml(r, [number_cell(r, 1, r)]) for r in range(1, MAX_PART_ELEMENTS // 3 + 2)]
    with pytest.raises(ValidationError) as refused:
        table_read("saison.xlsx", workbook_bytes(rows, chart_sheet=True))
    assert refused.value.messages == [
        "Une partie de ce fichier Excel (xl/worksheets/sheet1.xml) a plus de 20\xa0000 "
        "éléments : est-ce bien le bon fichier ?"
    ]
    with pytest.raises(ValidationError) as refused:
        table_read("saison.xlsx", workbook_bytes(rows))
    assert refused.value.messages == [
        "Ce tableau a plus de 2\xa0000 lignes : est-ce bien le bon fichier ?"
    ]


# CSV and pasted tables -----------------------------------------------------------------------


def test_a_csv_field_past_pythons_own_limit_is_refused_in_words(import_page, club):
    data = b"Rang;Nom;Points\n1;" + b"z" * 131_073 + b";10\n"
    assert refusal(import_page, club, "classement.csv", data) == (
        "Une cellule dépasse 1\xa0000 caractères (ligne 2) : est-ce bien le bon fichier ?"
    )


def test_a_csv_cell_past_the_limit_is_refused_with_its_place(import_page, club):
    data = b"Rang;Nom;Points\n1;Anne;10\n2;" + b"z" * (MAX_CELL_CHARACTERS + 1) + b";9\n"
    assert refusal(import_page, club, "classement.csv", data) == (
        "Une cellule dépasse 1\xa0000 caractères (ligne 3, colonne B) : "
        "est-ce bien le bon fichier ?"
    )


def test_a_table_past_a_million_characters_is_refused_at_the_line_that_passes_it(import_page, club):
    line = "1;" + "n" * 998 + ";5\n"
    assert refusal(import_page, club, "classement.csv", (line * 1100).encode()) == (
        "Ce tableau dépasse 1\xa0000\xa0000 caractères en tout (à la ligne 1001) : "
        "est-ce bien le bon fichier ?"
    )


def test_a_file_over_2_mb_is_refused_unread(import_page, club):
    assert (
        refusal(import_page, club, "classement.csv", b"1;Anne;10\n" * 200_001)
        == "Ce fichier est trop gros (2 Mo au plus)."
    )


def test_empty_cells_past_the_last_column_are_not_refused_but_a_value_there_is():
    assert table_from_csv(b"1;Anne;10" + b";" * 60) == [["1", "Anne", "10"] + [""] * 37]
    pasted = "1\tAnne\t10" + "\t" * 60
    assert table_from_paste(pasted) == [["1", "Anne", "10"] + [""] * 37]
    with pytest.raises(
        ValidationError, match="plus de 40 colonnes : la ligne 2 a une valeur après la colonne AN"
    ):
        table_from_paste(pasted + "\n2\tBruno\t9" + "\t" * 49 + "x")


def test_a_pasted_cell_past_the_limit_is_refused_with_its_place():
    html = "<table><tr><td>1</td><td>Anne</td></tr><tr><td>2</td><td>" + "mot " * 300
    with pytest.raises(ValidationError, match=r"\(ligne 2, colonne B\)"):
        table_from_paste(html + "</td></tr></table>")


def test_a_csv_from_the_old_macs_excel_is_read():
    assert table_from_csv(b"Rang;Nom;Points\r1;Anne;10\r") == [
        ["Rang", "Nom", "Points"],
        ["1", "Anne", "10"],
    ]


def test_a_csv_with_a_nul_is_refused_as_unreadable_text(import_page, club):
    # No name holds a NUL, and PostgreSQL refuses one in text at the import's later steps.
    data = b"Rang;Nom;Points\n1;An\x00ne;10\n"
    assert refusal(import_page, club, "classement.csv", data) == (
        "Ce fichier n'est pas du texte lisible."
    )
