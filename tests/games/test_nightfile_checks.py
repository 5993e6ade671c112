"""A club-night file's texts composed (NFC) as the site stores names; a file already composed
read as it is. Its limits are tested with the import (``test_import_nights.py``)."""

from __future__ import annotations

from games import nightfile_checks


def test_a_file_whose_texts_are_composed_is_read_as_it_is(night_document):
    assert nightfile_checks.composed(night_document) is night_document


def test_a_name_written_with_a_combining_accent_is_composed(night_document):
    decomposed = "Zoe\u0301 Martin"
    doc = {**night_document, "players": [*night_document["players"], decomposed]}

    composed = nightfile_checks.composed(doc)

    assert composed is not doc
    assert composed["players"][-1] == "Zoé Martin"
    assert composed["poules"] == night_document["poules"]
