"""Downloads that open on every floor: each export is one list of rows, answered as CSV or XLSX.

    export_response(request, rows, "findings-20260314.csv")   CSV, or XLSX when ?format=xlsx
    csv_response(rows, filename) / xlsx_response(rows, filename)

Rows are lists of typed values — text, int, Decimal, float, None — never numbers pre-formatted as
text, so that each format writes a number as a number:
- **CSV** (streamed row by row, memory stays flat): UTF-8 with a byte-order mark (Excel then reads
  Cyrillic), numbers as plain decimals, and every text cell that a spreadsheet would run as a
  formula (starting with = + - @ tab or carriage return) prefixed with ' (`cell`).
- **XLSX** (openpyxl in write-only mode, rows streamed into the workbook): ints and Decimals are
  numbers, Decimals with the number format 0.00 (amounts); text is always a string cell, never a
  formula; the first row (the header) is bold.
- The file name is kept whatever its script (RFC 6266 / RFC 5987): `filename*=UTF-8''…` beside an
  ASCII fallback (`content_disposition`).
"""

import csv
import re
import tempfile
import unicodedata
from collections.abc import Iterable
from decimal import Decimal
from urllib.parse import quote

from django.http import FileResponse, StreamingHttpResponse

CSV = "csv"
XLSX = "xlsx"
FORMATS = (CSV, XLSX)
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
AMOUNT_FORMAT = "#,##0.00"


class _Echo:
    """A file that hands back what is written: csv.writer then yields each row's text."""

    def write(self, value):
        return value


def cell(value) -> str:
    """A value as CSV text: numbers as plain decimals, None empty, and text a spreadsheet would run
    as a formula (= + - @ tab CR first) prefixed with '."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, Decimal):
        return f"{value:f}"
    if isinstance(value, int | float):
        return str(value)
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def export_format(request, key: str = "format") -> str:
    """csv or xlsx: what the request asks for (`?format=xlsx`); csv otherwise."""
    asked = request.GET.get(key, CSV)
    return asked if asked in FORMATS else CSV


def ascii_name(filename: str) -> str:
    """The file name in ASCII for old readers: accents stripped, any other character a `_`."""
    folded = unicodedata.normalize("NFKD", filename).encode("ascii", "ignore").decode("ascii")
    if len(folded) < len(filename):  # letters of another script vanished: mark where they were
        folded = "".join(c if c.isascii() else "_" for c in filename)
    folded = re.sub(r"[^A-Za-z0-9._-]", "_", folded)
    return folded or "export"


def content_disposition(filename: str) -> str:
    """attachment with the name kept (RFC 5987 `filename*`) and an ASCII fallback (`filename`)."""
    fallback = ascii_name(filename)
    if fallback == filename:
        return f'attachment; filename="{filename}"'
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"


def with_suffix(filename: str, fmt: str) -> str:
    stem = filename.rsplit(".", 1)[0] if filename.lower().endswith((".csv", ".xlsx")) else filename
    return f"{stem}.{fmt}"


def csv_response(rows: Iterable, filename: str) -> StreamingHttpResponse:
    writer = csv.writer(_Echo())

    def lines():
        yield BOM
        for row in rows:
            yield writer.writerow([cell(v) for v in row])

    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition(with_suffix(filename, CSV))
    return response


def xlsx_cells(sheet, row, *, header: bool = False) -> list:
    """One row as write-only cells: numbers as numbers (Decimal amounts formatted), text as text."""
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font

    out = []
    for value in row:
        if value is None:
            out.append(None)
            continue
        if isinstance(value, bool):
            c = WriteOnlyCell(sheet, value=value)
        elif isinstance(value, Decimal):
            c = WriteOnlyCell(sheet, value=value)
            c.number_format = AMOUNT_FORMAT
        elif isinstance(value, int | float):
            c = WriteOnlyCell(sheet, value=value)
        else:
            c = WriteOnlyCell(sheet, value=str(value))
            c.data_type = "s"  # a string cell, never a formula, whatever it starts with
        if header:
            c.font = Font(bold=True)
        out.append(c)
    return out


def xlsx_response(rows: Iterable, filename: str, *, title: str = "export") -> FileResponse:
    """The rows as one sheet of an XLSX workbook (openpyxl write-only: rows stream into a temporary
    file, not into memory)."""
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    sheet = book.create_sheet(title=re.sub(r"[\[\]:*?/\\]", "_", title)[:31] or "export")
    for i, row in enumerate(rows):
        sheet.append(xlsx_cells(sheet, row, header=i == 0))
    spool = tempfile.TemporaryFile()
    book.save(spool)
    spool.seek(0)
    response = FileResponse(spool, content_type=XLSX_TYPE)
    response["Content-Disposition"] = content_disposition(with_suffix(filename, XLSX))
    return response


def export_response(request, rows: Iterable, filename: str, *, key: str = "format", title: str = "export"):
    """CSV, or XLSX when the request asks `?format=xlsx` (`key`: the query parameter that says which)."""
    if export_format(request, key) == XLSX:
        return xlsx_response(rows, filename, title=title)
    return csv_response(rows, filename)
