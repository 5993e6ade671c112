"""The CSV and Excel downloads: what a spreadsheet opens, and a name never run as a formula."""

import io
from fractions import Fraction

from openpyxl import load_workbook

from club.exports import csv_response, table_response, xlsx_response

HEADER = ["Rang", "Joueur", "Points de tournoi", "Points de jeu"]
ROWS = [
    [1, "Anne Dupont", Fraction(15), 120],
    [2, '=HYPERLINK("http://example.org","clic")', Fraction(4, 3), -5],
    [3, "-Bruno", Fraction(1, 2), 0],
]


def test_a_csv_opens_in_a_belgian_spreadsheet_with_accents_and_decimal_commas():
    response = csv_response("classement", HEADER, ROWS)

    text = response.content.decode("utf-8")
    assert text.startswith("\ufeffRang;Joueur;Points de tournoi;Points de jeu\r\n")
    assert "1;Anne Dupont;15;120\r\n" in text
    assert ";1,33;-5\r\n" in text
    assert response["Content-Disposition"] == 'attachment; filename="classement.csv"'


def test_a_name_that_looks_like_a_formula_is_written_as_text_in_both_formats():
    csv_text = csv_response("x", HEADER, ROWS).content.decode("utf-8")
    sheet = load_workbook(io.BytesIO(xlsx_response("x", "x", HEADER, ROWS).content)).active

    assert "2;\"'=HYPERLINK(" in csv_text
    assert ";'-Bruno;" in csv_text
    assert sheet["B3"].data_type == "s"
    assert sheet["B3"].value.startswith("'=HYPERLINK(")
    assert sheet["B4"].value == "'-Bruno"


def test_an_excel_file_has_a_bold_header_and_numbers_as_numbers():
    response = table_response("xlsx", "soiree", "Soirée du 14/03/2024 [salle]", HEADER, ROWS)

    sheet = load_workbook(io.BytesIO(response.content)).active
    assert sheet.title == "Soirée du 14032024 salle"
    assert [cell.value for cell in sheet[1]] == HEADER
    assert sheet["A1"].font.bold
    assert [sheet["C2"].value, sheet["C3"].value, sheet["D3"].value] == [15, 1.33, -5]
    assert response["Content-Disposition"] == 'attachment; filename="soiree.xlsx"'
