"""The CSV and Excel downloads: what a spreadsheet opens, and a name never run as a formula."""

import datetime
import io
from fractions import Fraction

import pandas
from openpyxl import load_workbook

from club.exports import (
    PLAIN_CSV,
    SignForReaders,
    Text,
    csv_response,
    table_response,
    xlsx_response,
)

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
    assert response["Content-Disposition"] == 'attachment; filename="classement-tableur.csv"'


def test_the_plain_csv_is_read_by_pandas_with_its_defaults_numbers_and_accents_whole():
    rows = [[datetime.date(2024, 3, 14), *row] for row in ROWS]
    response = table_response("csv", "soiree", "x", ["Date", *HEADER], rows)

    assert response["Content-Disposition"] == 'attachment; filename="soiree.csv"'
    text = response.content.decode("utf-8")
    assert text.startswith("Date,Rang,Joueur,Points de tournoi,Points de jeu\r\n")  # no BOM
    assert "2024-03-14,1,Anne Dupont,15,120\r\n" in text
    frame = pandas.read_csv(io.BytesIO(response.content))
    assert list(frame.columns) == ["Date", *HEADER]
    assert frame["Points de tournoi"].tolist() == [15.0, 1.33, 0.5]
    assert frame["Points de jeu"].tolist() == [120, -5, 0]
    assert frame["Joueur"][0] == "Anne Dupont"
    assert frame["Joueur"][2] == "'-Bruno"  # never run as a formula, here either


def test_the_spreadsheets_csv_writes_dates_and_signs_as_a_belgian_reader_does():
    rows = [[datetime.date(2024, 3, 14), "Anne", SignForReaders("–"), Fraction(1, 2)]]
    header = ["Date", "Joueur", "Points 1", "Points 2"]

    spreadsheet = table_response("csv-tableur", "donnes", "x", header, rows)
    plain = csv_response("donnes", header, rows, PLAIN_CSV).content.decode("utf-8")

    assert spreadsheet["Content-Disposition"] == 'attachment; filename="donnes-tableur.csv"'
    assert spreadsheet.content.decode("utf-8").endswith("\r\n14/03/2024;Anne;–;0,50\r\n")
    assert plain.endswith("\r\n2024-03-14,Anne,,0.50\r\n")


def test_a_name_that_looks_like_a_formula_is_written_as_text_in_both_formats():
    csv_text = csv_response("x", HEADER, ROWS).content.decode("utf-8")
    sheet = load_workbook(io.BytesIO(xlsx_response("x", "x", HEADER, ROWS).content)).active

    assert "2;\"'=HYPERLINK(" in csv_text
    assert ";'-Bruno;" in csv_text
    # A workbook types its cells: the name is a text cell, exactly as typed, no quote shown.
    assert sheet["B3"].data_type == "s"
    assert sheet["B3"].value == '=HYPERLINK("http://example.org","clic")'
    assert (sheet["B4"].data_type, sheet["B4"].value) == ("s", "-Bruno")


def test_the_sites_own_tie_mark_is_written_as_it_is():
    rows = [[1, "Anne Dupont", Text("=")], [2, "Bruno", ""]]
    csv_text = csv_response("x", ["Rang", "Joueur", "Ex aequo"], rows).content.decode("utf-8")
    book = xlsx_response("x", "x", ["Rang", "Joueur", "Ex aequo"], rows).content
    sheet = load_workbook(io.BytesIO(book)).active

    assert "1;Anne Dupont;=\r\n" in csv_text
    assert (sheet["C2"].data_type, sheet["C2"].value) == ("s", "=")


def test_an_excel_file_has_a_bold_header_and_numbers_as_numbers():
    response = table_response("xlsx", "soiree", "Soirée du 14/03/2024 [salle]", HEADER, ROWS)

    sheet = load_workbook(io.BytesIO(response.content)).active
    assert sheet.title == "Soirée du 14032024 salle"
    assert [cell.value for cell in sheet[1]] == HEADER
    assert sheet["A1"].font.bold
    assert [sheet["C2"].value, sheet["C3"].value, sheet["D3"].value] == [15, 1.33, -5]
    assert response["Content-Disposition"] == 'attachment; filename="soiree.xlsx"'
