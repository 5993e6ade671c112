"""Workbooks written by hand, part by part, as a hostile file would be: each part's XML is
streamed into the zip, so a part of hundreds of megabytes costs a few hundred kilobytes on
disk and next to nothing in memory while it is written."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Iterator

from openpyxl.utils import get_column_letter

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE = "http://schemas.openxmlformats.org/package/2006/relationships"
TYPES = "application/vnd.openxmlformats-officedocument.spreadsheetml"


def _manifest(sheets: int) -> str:
    parts = [("/xl/workbook.xml", "sheet.main"), ("/xl/sharedStrings.xml", "sharedStrings")]
    parts += [(f"/xl/worksheets/sheet{n}.xml", "worksheet") for n in range(1, sheets + 1)]
    overrides = "".join(
        f'<Override PartName="{name}" ContentType="{TYPES}.{kind}+xml"/>' for name, kind in parts
    )
    return (
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" '
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        f'<Default Extension="xml" ContentType="application/xml"/>{overrides}</Types>'
    )


def _workbook(sheets: int, chart_sheet: bool) -> tuple[str, str]:
    numbers = range(1, sheets + 1)
    names = "".join(f'<sheet name="S{n}" sheetId="{n}" r:id="rId{n}"/>' for n in numbers)
    rels = "".join(
        f'<Relationship Id="rId{n}" Type="{RELATIONSHIPS}/worksheet" '
        f'Target="worksheets/sheet{n}.xml"/>'
        for n in numbers
    )
    if chart_sheet:
        names += f'<sheet name="Graphique" sheetId="{sheets + 1}" r:id="rIdChart"/>'
        rels += (
            f'<Relationship Id="rIdChart" Type="{RELATIONSHIPS}/chartsheet" '
            'Target="chartsheets/sheet1.xml"/>'
        )
    return (
        f'<workbook xmlns="{MAIN}" xmlns:r="{RELATIONSHIPS}"><sheets>{names}</sheets></workbook>',
        f'<Relationships xmlns="{PACKAGE}">{rels}</Relationships>',
    )


def _stream(archive: zipfile.ZipFile, name: str, chunks: Iterable[str]) -> None:
    with archive.open(name, "w", force_zip64=True) as part:
        for chunk in chunks:
            part.write(chunk.encode())


def _sheet(rows: Iterable[str], dimension: str) -> Iterator[str]:
    yield f'<worksheet xmlns="{MAIN}">'
    if dimension:
        yield f'<dimension ref="{dimension}"/>'
    yield "<sheetData>"
    yield from rows
    yield "</sheetData></worksheet>"


def _strings(strings: Iterable[str]) -> Iterator[str]:
    yield f'<sst xmlns="{MAIN}">'
    yield from (f"<si><t>{text}</t></si>" for text in strings)
    yield "</sst>"


def workbook_bytes(
    rows: Iterable[str],
    *,
    shared_strings: Iterable[str] = (),
    dimension: str = "",
    sheets: int = 1,
    chart_sheet: bool = False,
    parts: dict[str, Iterable[str]] | None = None,
) -> bytes:
    """An .xlsx whose first sheet's ``<sheetData>`` holds ``rows`` (each a ``<row>``'s XML,
    streamed) with ``shared_strings`` (each a string's text, streamed); any other sheet is
    empty, and so is the chart sheet after them if asked for. ``parts``: a part written
    instead of the usual one, or besides, by its name in the zip (its XML, streamed)."""
    workbook, rels = _workbook(sheets, chart_sheet)
    contents: dict[str, Iterable[str]] = {
        "[Content_Types].xml": [_manifest(sheets)],
        "_rels/.rels": [
            f'<Relationships xmlns="{PACKAGE}"><Relationship Id="rId1" '
            f'Type="{RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
        ],
        "xl/workbook.xml": [workbook],
        "xl/_rels/workbook.xml.rels": [rels],
        "xl/worksheets/sheet1.xml": _sheet(rows, dimension),
        "xl/sharedStrings.xml": _strings(shared_strings),
    }
    for n in range(2, sheets + 1):
        contents[f"xl/worksheets/sheet{n}.xml"] = [
            f'<worksheet xmlns="{MAIN}"><sheetData/></worksheet>'
        ]
    if chart_sheet:
        contents["xl/chartsheets/sheet1.xml"] = [f'<chartsheet xmlns="{MAIN}"/>']
    contents.update(parts or {})
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, chunks in contents.items():
            _stream(archive, name, chunks)
    return out.getvalue()


def row_xml(number: int, cells: Iterable[str]) -> str:
    """A ``<row>`` of cells, each already XML (see ``shared``, ``number_cell``)."""
    return f'<row r="{number}">{"".join(cells)}</row>'


def shared(row: int, column: int, index: int) -> str:
    """A cell showing the shared string ``index``."""
    return f'<c r="{get_column_letter(column)}{row}" t="s"><v>{index}</v></c>'


def number_cell(row: int, column: int, value: int) -> str:
    return f'<c r="{get_column_letter(column)}{row}"><v>{value}</v></c>'


def shared_string_bomb() -> bytes:
    """One shared string of 20 000 characters shown in every cell of 2 000 rows of 40
    columns: about 200 kB, 1.6 billion characters once each cell is read."""
    rows = (row_xml(r, (shared(r, c, 0) for c in range(1, 41))) for r in range(1, 2001))
    return workbook_bytes(rows, shared_strings=["x" * 20_000])


def huge_cell(megabytes: int = 600) -> Iterator[str]:
    """One row whose only cell holds an inline string of ``megabytes`` MB, streamed."""
    yield '<row r="1"><c r="A1" t="inlineStr"><is><t>'
    chunk = "y" * 1_000_000
    for _ in range(megabytes):
        yield chunk
    yield "</t></is></c></row>"


def huge_cell_workbook(megabytes: int = 600) -> bytes:
    return workbook_bytes(huge_cell(megabytes))


def widest_sheet() -> bytes:
    """A sheet 16 384 columns wide (Excel's widest), which says so in its dimension: a first
    row of numbers across every column, 1 999 rows of one cell."""
    first = row_xml(1, (number_cell(1, c, c) for c in range(1, 16_385)))
    rest = (row_xml(r, [number_cell(r, 1, r)]) for r in range(2, 2001))
    return workbook_bytes([first, *rest], dimension="A1:XFD2000")
