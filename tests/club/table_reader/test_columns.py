"""The column step both imports take (club/table_reader/columns.py): each column offered by
its letter and heading, a sample of its first line when the import asks for it, and the
table's first rows shown under their letters."""

from __future__ import annotations

from club.table_reader.columns import column_choices, columns_preview

ROWS = [["Nom", "E-mail"], ["Anne Lambert", "anne@example.org"], ["Paul Renard", ""]]


def test_each_column_is_offered_by_its_letter_and_heading():
    assert column_choices(ROWS, header=True) == [("0", "A – Nom"), ("1", "B – E-mail")]


def test_a_table_without_headings_offers_letters_only():
    assert column_choices(ROWS[1:], header=False) == [("0", "A"), ("1", "B")]


def test_the_members_import_sees_a_value_of_each_column_beside_its_heading():
    assert column_choices(ROWS, header=True, sample=True) == [
        ("0", "A – Nom (Anne Lambert)"),
        ("1", "B – E-mail (anne@example.org)"),
    ]


def test_a_long_sample_is_shortened_to_thirty_characters():
    rows = [["x" * 40]]
    [(_, label)] = column_choices(rows, header=False, sample=True)
    assert label == "A (" + "x" * 29 + "…)"


def test_the_preview_shows_eight_rows_and_counts_the_rest():
    rows = [[str(n), ""] for n in range(11)]
    preview = columns_preview(rows)
    assert preview["preview"] == rows[:8]
    assert preview["letters"] == ["A", "B"]
    assert preview["more"] == 3
