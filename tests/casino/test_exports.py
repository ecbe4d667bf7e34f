"""casino/exports.py: formula escaping, file names kept for any script, CSV and XLSX from one list
of rows (issue #35, exports that open on every floor)."""

import io
from decimal import Decimal

import openpyxl
import pytest
from django.test import RequestFactory

from casino import exports


@pytest.mark.parametrize(
    "value, text",
    [
        ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
        ("+1", "'+1"),
        ("-1+2", "'-1+2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("Стол", "Стол"),
        (Decimal("-12.50"), "-12.50"),  # a number stays a number, minus and all
        (-3, "-3"),
        (None, ""),
    ],
)
def test_a_cell_never_runs_as_a_formula(value, text):
    assert exports.cell(value) == text


def test_a_non_ascii_file_name_is_kept_beside_an_ascii_fallback():
    assert exports.content_disposition("findings-1.csv") == 'attachment; filename="findings-1.csv"'
    header = exports.content_disposition("period-Пит А-20260301.csv")
    assert header == (
        'attachment; filename="period-_____-20260301.csv"; '
        "filename*=UTF-8''period-%D0%9F%D0%B8%D1%82%20%D0%90-20260301.csv"
    )
    assert exports.content_disposition("Mesa-Niño.csv").startswith('attachment; filename="Mesa-Nino.csv"')


def _xlsx_rows(response):
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return openpyxl.load_workbook(io.BytesIO(body)).active


def test_one_list_of_rows_answers_as_csv_or_xlsx():
    rows = [["name", "amount", "n", "note"], ["Стол-1", Decimal("1500.50"), 3, "=1+1"]]
    request = RequestFactory().get("/x", {"format": "xlsx"})
    sheet = _xlsx_rows(exports.export_response(request, rows, "r.csv"))
    cells = list(sheet.iter_rows())
    assert [c.value for c in cells[0]] == ["name", "amount", "n", "note"]
    assert cells[0][0].font.b
    name, amount, n, note = cells[1]
    assert name.value == "Стол-1"
    assert amount.value == 1500.5 and amount.data_type == "n" and amount.number_format == "#,##0.00"
    assert n.value == 3 and n.data_type == "n"
    assert note.value == "=1+1" and note.data_type == "s"  # text, never a formula
    csv = exports.export_response(RequestFactory().get("/x"), rows, "r.csv")
    assert b"".join(csv.streaming_content).decode("utf-8") == ("\ufeffname,amount,n,note\r\nСтол-1,1500.50,3,'=1+1\r\n")
    assert csv["Content-Disposition"] == 'attachment; filename="r.csv"'
