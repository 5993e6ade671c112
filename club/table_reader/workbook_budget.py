"""An Excel workbook's parts checked before openpyxl opens it.

A workbook is a zip of XML parts. Each part's expanded size is said by the zip, and Python's
zipfile holds to it (it stops there, and a part whose data says otherwise fails its CRC), so
those sizes are checked first, then each part is read through in chunks, never whole, to count
its elements. openpyxl's read-only mode streams the worksheets and the shared strings, keeping
about 80 bytes for each element it has passed; every other part (the stylesheet, the workbook,
the relationships, a chart sheet and its drawings) it reads whole into objects, about 600
bytes an element (measured: a stylesheet of 400 000 empty cell formats, 8 MB, took 241 MB and
160 s), so those parts are held to far fewer elements.
"""

from __future__ import annotations

import io
import zipfile
from xml.etree.ElementTree import Element

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from openpyxl.packaging.manifest import Manifest
from openpyxl.packaging.relationship import get_dependents, get_rels_path
from openpyxl.xml.constants import (
    ARC_CONTENT_TYPES,
    ARC_CORE,
    ARC_CUSTOM,
    ARC_STYLE,
    ARC_WORKBOOK,
    SHARED_STRINGS,
    XLSM,
    XLSX,
    XLTM,
    XLTX,
)
from openpyxl.xml.functions import fromstring

from .budget import TABLE_WORDS, count_words

MAX_SHEETS = 50  # a season a sheet, over fifty years
MAX_PARTS = 500  # about ten for each sheet (its relationships, drawings, printer settings …)
MAX_PART_BYTES = 8_000_000  # a full 2 000 × 40 sheet of inline strings is 4.7 MB of XML
MAX_EXPANDED_BYTES = 16_000_000
# Elements (start tags) of a part openpyxl streams: a full 2 000 × 40 sheet of inline
# strings has 244 000 (each cell's, its string's and its text's).
MAX_STREAMED_ELEMENTS = 300_000
# Elements of a part read whole: Excel's stylesheet has a few hundred, one bloated by years
# of copied styles a few thousand.
MAX_PART_ELEMENTS = 20_000
_CHUNK = 1 << 20
_WORKBOOK_TYPES = (XLTM, XLTX, XLSM, XLSX)


def workbook_not_opened() -> ValidationError:
    return ValidationError(_("Ce fichier Excel ne s'ouvre pas."))


def _too_many_elements(part: str, limit: int) -> ValidationError:
    return ValidationError(
        _(
            "Une partie de ce fichier Excel (%(part)s) a plus de %(count)s éléments : "
            "est-ce bien le bon fichier ?"
        )
        % {"part": part, "count": count_words(limit)}
    )


def workbook_parts_check(data: bytes) -> None:
    """Refuse a workbook whose parts are too many, too big once expanded, have too many
    elements for the way openpyxl reads them, or carry a DTD (Excel never writes one; its
    entities would expand past every count)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        parts = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
        raise workbook_not_opened() from None
    if len(parts) > MAX_PARTS:
        raise ValidationError(
            _("Ce fichier Excel a plus de %(count)s parties : est-ce bien le bon fichier ?")
            % {"count": count_words(MAX_PARTS)}
        )
    expanded = sum(part.file_size for part in parts)
    if expanded > MAX_EXPANDED_BYTES or any(p.file_size > MAX_PART_BYTES for p in parts):
        raise ValidationError(
            _(
                "Ce fichier Excel fait %(size)s Mo une fois décompressé, plus que les %(limit)s Mo "
                "%(of_table)s (%(part)s Mo pour une de ses parties)."
            ),
            params={
                **TABLE_WORDS,
                "size": count_words(max(1, expanded // 1_000_000)),
                "limit": count_words(MAX_EXPANDED_BYTES // 1_000_000),
                "part": count_words(MAX_PART_BYTES // 1_000_000),
            },
        )
    elements = {part.filename: _elements(archive, part) for part in parts}
    for name, count in elements.items():
        if count > MAX_STREAMED_ELEMENTS:
            raise _too_many_elements(name, MAX_STREAMED_ELEMENTS)
    streamed = _streamed_parts(archive, elements)
    for name, count in elements.items():
        if name not in streamed and count > MAX_PART_ELEMENTS:
            raise _too_many_elements(name, MAX_PART_ELEMENTS)


def _elements(archive: zipfile.ZipFile, part: zipfile.ZipInfo) -> int:
    """A part's start tags, counted chunk by chunk (every "<" but the closing tags'), and
    a DTD looked for."""
    elements, tail = 0, b""
    try:
        with archive.open(part) as stream:
            while chunk := stream.read(_CHUNK):
                joined = tail + chunk
                if b"<!DOCTYPE" in joined:
                    raise workbook_not_opened()
                elements += chunk.count(b"<") - joined.count(b"</") + tail.count(b"</")
                tail = chunk[-16:]
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
        raise workbook_not_opened() from None
    return elements


def _read_whole(archive: zipfile.ZipFile, name: str, elements: dict[str, int]) -> Element:
    """A small part parsed as openpyxl parses it, once its elements are counted."""
    if elements.get(name, 0) > MAX_PART_ELEMENTS:
        raise _too_many_elements(name, MAX_PART_ELEMENTS)
    return fromstring(archive.read(name))


def _streamed_parts(archive: zipfile.ZipFile, elements: dict[str, int]) -> set[str]:
    """The parts openpyxl's read-only mode will only stream: the shared strings the manifest
    names and the workbook's worksheets, found as openpyxl finds them, less any part it also
    reads whole; none if the workbook has a chart sheet (openpyxl reads it whole, with its
    drawings and charts, wherever they are)."""
    try:
        manifest = Manifest.from_tree(_read_whole(archive, ARC_CONTENT_TYPES, elements))
        workbooks = {p.PartName[1:] for t in _WORKBOOK_TYPES for p in manifest.findall(t)}
        workbooks.add(ARC_WORKBOOK)
        relationships = []
        for workbook in workbooks:
            rels = get_rels_path(workbook)
            if rels in elements:
                _read_whole(archive, rels, elements)
                relationships += get_dependents(archive, rels)
    except ValidationError:
        raise
    except Exception:  # a manifest or relationships that are not what they say
        raise workbook_not_opened() from None
    if any("chartsheet" in rel.Type for rel in relationships):
        return set()
    streamed = {rel.target for rel in relationships if rel.Type.endswith("/worksheet")}
    strings = manifest.find(SHARED_STRINGS)
    if strings is not None:
        streamed.add(strings.PartName[1:])
    whole = workbooks | {ARC_CONTENT_TYPES, ARC_STYLE, ARC_CORE, ARC_CUSTOM}
    return {name for name in streamed - whole if not name.endswith(".rels")}
