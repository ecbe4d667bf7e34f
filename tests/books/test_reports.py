"""The reports (books/reports.py): the shift report of a table and the period report of a pit, as
pages, CSV and API; who may read them, role by role; the period report's one grouped query."""

import csv
import io
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from books import reports, services
from books.selectors import shift_books

from .conftest import OPENING, fill, log_rounds

pytestmark = pytest.mark.django_db

WHO = ["dealer", "pit_boss", "inspector", "auditor", "trainee", "outsider", "superuser", "anonymous"]
READERS = {"pit_boss", "auditor", "superuser"}


@pytest.fixture
def people(crew, make_user):
    return {
        "dealer": crew.dealer2,
        "pit_boss": crew.pit_boss2,
        "inspector": crew.inspector,
        "auditor": crew.auditor,
        "trainee": crew.trainee,
        "outsider": crew.outsider,
        "superuser": make_user("superuser", username="root"),
        "anonymous": None,
    }


@pytest.fixture
def closed_shift(crew, open_shift, eager, django_capture_on_commit_callbacks):
    """A shift of R-1 with 12 audited rounds (two of them with a wrong payment), a fill, chips sold,
    a drop, counted closed exactly as expected and closed by the pit boss."""
    shift = open_shift()
    with django_capture_on_commit_callbacks(execute=True):
        log_rounds(crew.table, crew.dealer, 10, seed=3)
        log_rounds(crew.table, crew.dealer, 2, seed=4, mistake="wrong_amount")
    fill(shift, crew, {"500": 4})
    services.cash_record(shift=shift, kind="chips_sold", amount="1000", recorded_by=crew.dealer)
    services.cash_record(shift=shift, kind="drop", amount="1000", recorded_by=crew.dealer)
    books = shift_books(shift)
    expected = books.expected
    counts, left = {}, expected
    for denom in ("5000", "1000", "500", "100", "1"):
        counts[denom], left = int(left // Decimal(denom)), left % Decimal(denom)
    assert left == 0
    shift = services.shift_count_closing(shift=shift, counted_by=crew.dealer, counts=counts)
    shift = services.shift_close(shift=shift, closed_by=crew.pit_boss)
    return shift


def client_of(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("who", WHO)
def test_who_may_read_the_reports(who, people, crew, closed_shift):
    client = client_of(people[who])
    pages = [
        f"/books/reports/shifts/{closed_shift.pk}/",
        f"/books/reports/shifts/{closed_shift.pk}.csv",
        f"/books/reports/shifts/{closed_shift.pk}.csv?format=xlsx",  # the XLSX beside it: the same door
        f"/books/reports/shifts/{closed_shift.pk}.pdf",
        "/books/reports/period/",
        "/books/reports/period.csv",
        "/books/reports/period.csv?format=xlsx",
        "/books/reports/period.pdf",
        "/books/theory/",
    ]
    apis = [
        f"/api/v1/books/reports/shifts/{closed_shift.pk}/",
        "/api/v1/books/reports/period/",
        "/api/v1/books/theory/",
    ]
    for url in pages:
        code = client.get(url).status_code
        if who == "anonymous":
            assert code == 302, url
        elif who == "outsider":  # a pit boss of Pit B: R-1's shift does not exist for him
            assert code == (404 if "shifts/" in url else 200), url
        else:
            assert code == (200 if who in READERS else 403), (url, code)
    for url in apis:
        code = client.get(url).status_code
        if who == "anonymous":
            assert code == 401, url
        elif who == "outsider":
            assert code == (404 if "shifts/" in url else 200), url
        else:
            assert code == (200 if who in READERS else 403), (url, code)
    if who == "outsider":  # his period report is of his own pit, and Pit A's is refused
        client = client_of(people[who])
        assert client.get("/api/v1/books/reports/period/").json()["pit"] == "Pit B"
        assert client.get("/api/v1/books/reports/period/", {"pit": "Pit A"}).status_code == 400


def test_the_shift_report_has_the_float_the_theoretical_the_errors_and_the_signatures(crew, closed_shift):
    report = reports.shift_report(closed_shift)
    assert report.books.variance == 0
    assert (
        report.books.win
        == report.books.closing + report.books.credits + report.books.drop - report.books.opening - report.books.fills
    )
    assert report.theory.rounds == 12
    # The two wrong payments are the dealer errors: the house's win short of what was owed by what
    # the findings say the players received beyond it.
    assert report.theory.errors == -sum((f.player_delta for f in report.books.findings), Decimal(0)) != 0
    assert report.theory.band_low <= report.theory.theoretical <= report.theory.band_high
    signed = {step: by for step, by, _at in report.signatures()}
    assert signed["opening signed by"] == "pitboss1" and signed["closed by"] == "pitboss1"

    client = client_of(crew.auditor)
    html = client.get(f"/books/reports/shifts/{closed_shift.pk}/").content.decode()
    assert "pitboss1" in html and "books.css" in html
    data = client.get(f"/api/v1/books/reports/shifts/{closed_shift.pk}/").json()
    assert data["variance"] == "0.00" and data["theory"]["rounds"] == 12
    assert Decimal(data["theory"]["errors"]) == report.theory.errors
    assert Decimal(data["opening"]) == sum(Decimal(d) * n for d, n in OPENING.items())


def test_the_shift_report_as_csv(crew, closed_shift):
    response = client_of(crew.pit_boss).get(f"/books/reports/shifts/{closed_shift.pk}.csv")
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = {row[0]: row[1:] for row in csv.reader(io.StringIO(b"".join(response.streaming_content).decode()))}
    report = reports.shift_report(closed_shift)
    assert rows["variance"] == ["0.00"]
    assert Decimal(rows["table win"][0]) == report.books.win
    assert Decimal(rows["dealer errors (logged − owed)"][0]) == report.theory.errors
    assert rows["closed by"][0] == "pitboss1"


def test_the_period_report_of_a_pit_page_csv_and_api(crew, closed_shift):
    client = client_of(crew.auditor)
    data = client.get("/api/v1/books/reports/period/", {"pit": "Pit A"}).json()
    assert data["pit"] == "Pit A"
    [row] = data["rows"]
    assert row["table"] == crew.table.name and row["rounds"] == 12
    assert row["float_variances"] == {"shifts": 1, "net": "0.00", "absolute": "0.00", "over_tolerance": 0}
    report = reports.shift_report(closed_shift)
    assert Decimal(row["errors"]) == report.theory.errors
    assert Decimal(row["actual"]) == report.theory.actual
    page = client.get("/books/reports/period/", {"pit": "Pit A"})
    assert page.status_code == 200 and crew.table.name in page.content.decode()
    response = client.get("/books/reports/period.csv", {"pit": "Pit A"})
    lines = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))
    total = lines.index([]) - 1  # the tables' figures, their total, then the hold's block
    assert lines[0][0] == "table" and lines[1][0] == crew.table.name and lines[total][0] == "total"
    assert Decimal(lines[1][5]) == report.theory.actual
    assert client.get("/books/reports/period/", {"start": "2026-02-30"}).status_code == 400


def test_the_period_report_reads_the_rollups_in_one_grouped_query(crew, closed_shift):
    from books.theory.selectors import parse_filters

    f = parse_filters(crew.auditor, {"pit": "Pit A", "start": "2025-01-01"})
    reports.period_report(crew.auditor, {"pit": "Pit A", "start": "2025-01-01"})  # warm the house edges
    with CaptureQueriesContext(connection) as queries:
        reports.grouped(crew.auditor, f, ("table_id",))
    rollup_reads = [q["sql"] for q in queries.captured_queries if "audit_rollup" in q["sql"]]
    assert len(rollup_reads) == 1 and "GROUP BY" in rollup_reads[0]
    with CaptureQueriesContext(connection) as queries:
        reports.period_report(crew.auditor, {"pit": "Pit A", "start": "2025-01-01"})
    assert len(queries.captured_queries) <= 6


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_a_cyrillic_tables_reports_download_as_csv_and_xlsx_with_their_names(crew, closed_shift):
    """Issue #35, exports: a BOM, the file name kept (RFC 5987) with an ASCII fallback, and an XLSX
    whose numbers are numbers."""
    import openpyxl

    crew.table.name = "Стол-1"
    crew.table.save(update_fields=["name"])
    client = client_of(crew.auditor)
    url = f"/books/reports/shifts/{closed_shift.pk}.csv"
    response = client.get(url)
    body = _body(response)
    assert body.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows[0] == ["table", "Стол-1"]
    disposition = response["Content-Disposition"]
    stamp = f"{closed_shift.opened_at:%Y%m%d-%H%M}"
    assert disposition.startswith(f'attachment; filename="shift-____-1-{stamp}.csv"')
    assert f"filename*=UTF-8''shift-%D0%A1%D1%82%D0%BE%D0%BB-1-{stamp}.csv" in disposition
    assert disposition.isascii()

    xlsx = client.get(url, {"format": "xlsx"})
    assert xlsx.status_code == 200
    assert xlsx["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert f"filename*=UTF-8''shift-%D0%A1%D1%82%D0%BE%D0%BB-1-{stamp}.xlsx" in xlsx["Content-Disposition"]
    sheet = openpyxl.load_workbook(io.BytesIO(_body(xlsx))).active
    values = {row[0]: row[1] for row in sheet.iter_rows(values_only=True)}
    assert values["table"] == "Стол-1"
    assert values["rounds"] == 12  # a number, not text
    report = reports.shift_report(closed_shift)
    assert (
        isinstance(values["opening float"], (int, float))
        and Decimal(str(values["opening float"])) == report.books.opening
    )
    cells = {row[0].value: row[1] for row in sheet.iter_rows()}
    assert cells["opening float"].number_format == "#,##0.00"

    period = client.get("/books/reports/period.csv", {"pit": "Pit A", "format": "xlsx"})
    sheet = openpyxl.load_workbook(io.BytesIO(_body(period))).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:3] == ("table", "game", "rounds")
    assert rows[1][0] == "Стол-1" and rows[1][2] == 12 and Decimal(str(rows[1][5])) == report.theory.actual
    assert "total" in [r[0] for r in rows]


def test_the_period_report_holds_drop_win_and_hold_by_table_game_and_pit_to_date(crew, closed_shift):
    """Issue #35, hold and drop: win ÷ drop by table, game and pit, for the period, the month to date
    and the year to date, on the page, in the API and in the CSV."""
    import datetime as dt

    from django.utils import timezone

    books = shift_books(closed_shift)
    assert books.drop == Decimal("1000.00")
    today = timezone.localdate()
    client = client_of(crew.auditor)
    params = {"pit": "Pit A", "start": today.isoformat(), "end": today.isoformat()}
    hold = client.get("/api/v1/books/reports/period/", params).json()["hold"]
    assert set(hold) == {"period", "month_to_date", "year_to_date"}
    pct = (books.win * 100 / books.drop).quantize(Decimal("0.01"))
    one = {"shifts": 1, "drop": "1000.00", "win": f"{books.win:f}", "hold_pct": f"{pct:f}"}
    for name in ("period", "month_to_date", "year_to_date"):
        assert hold[name]["tables"] == [{"table": "R-1", "variant": crew.table.variant, **one}], name
        assert hold[name]["games"] == [{"variant": crew.table.variant, **one}], name
        assert hold[name]["pit"] == one, name
    assert hold["month_to_date"]["start"] == today.replace(day=1).isoformat()
    assert hold["year_to_date"]["start"] == today.replace(month=1, day=1).isoformat()
    # The game's rows name the game as the floor does, not by its key.
    from casino.choices import Variant

    section = client.get("/books/reports/period/", params).content.decode().split('id="period-hold"', 1)[1]
    variant = crew.table.variant
    assert f"<td>{dict(Variant.choices)[variant]}</td>" in section and f"<td>{variant}</td>" not in section

    # A shift counted closed last year counts in none of them; one earlier this year only in the year.
    earlier = closed_shift.closing_counted_at - dt.timedelta(days=400)
    type(closed_shift).objects.filter(pk=closed_shift.pk).update(closing_counted_at=earlier)
    hold = client.get("/api/v1/books/reports/period/", params).json()["hold"]
    assert [hold[n]["pit"]["shifts"] for n in ("period", "month_to_date", "year_to_date")] == [0, 0, 0]
    assert hold["period"]["pit"]["hold_pct"] is None  # no drop, no hold
    if today.month > 1:
        inside = timezone.make_aware(dt.datetime.combine(today.replace(month=1, day=2), dt.time(12)))
        type(closed_shift).objects.filter(pk=closed_shift.pk).update(closing_counted_at=inside)
        hold = client.get("/api/v1/books/reports/period/", params).json()["hold"]
        assert [hold[n]["pit"]["shifts"] for n in ("period", "month_to_date", "year_to_date")] == [0, 0, 1]

    page = client.get("/books/reports/period/", params).content.decode()
    assert "Drop, win and hold" in page and "Year to date" in page
    response = client.get("/books/reports/period.csv", params)
    lines = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))
    block = lines[lines.index([]) + 1 :]
    assert block[0] == ["span", "level", "name", "shifts closed", "drop", "win", "hold %"]
    assert [r[:3] for r in block[1:]][-1] == ["Year to date", "pit", ""]


def _pdf_text(body: bytes) -> str:
    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)


def _pdf_fonts(body: bytes) -> set[str]:
    from pypdf import PdfReader

    names = set()
    for page in PdfReader(io.BytesIO(body)).pages:
        for font in page["/Resources"]["/Font"].values():
            names.add(str(font.get_object()["/BaseFont"]))
    return names


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_reports_as_pdf_in_the_readers_language_with_cyrillic_drawn(language, crew, closed_shift):
    """Issue #35, exports: the shift and the period report as PDF files a regulator files on paper,
    in the reader's language, a Cyrillic table name drawn (the vendored font embedded), the figures
    of the page, the file named after the table."""
    crew.table.name = "Стол-1"
    crew.table.save(update_fields=["name"])
    client = client_of(crew.auditor)
    report = reports.shift_report(closed_shift)
    response = client.get(f"/books/reports/shifts/{closed_shift.pk}.pdf", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert "filename*=UTF-8''shift-%D0%A1%D1%82%D0%BE%D0%BB-1-" in response["Content-Disposition"]
    assert response.content.startswith(b"%PDF-")
    assert any("Report-Sans" in name for name in _pdf_fonts(response.content))  # the vendored font, embedded
    text = _pdf_text(response.content)
    assert "Стол-1" in text
    title = "Отчёт о смене" if language == "ru" else "Shift report of"
    assert title in text.replace("\n", " ")
    assert "auditor" in text  # who made it
    assert str(report.theory.rounds) in text

    period = client.get("/books/reports/period.pdf", {"pit": "Pit A"}, HTTP_ACCEPT_LANGUAGE=language)
    assert period.status_code == 200 and period.content.startswith(b"%PDF-")
    text = _pdf_text(period.content)
    assert "Стол-1" in text and "Pit A" in text
    bad = client.get("/books/reports/period.pdf", {"pit": "Pit A", "start": "9999-99-99"})
    assert bad.status_code == 400


def test_a_pdf_fetches_nothing_but_the_projects_static_files():
    """No text in a report can make the server fetch an address while it lays the PDF out."""
    from casino.pdf import RefusedFetch, local_only

    for url in ("http://169.254.169.254/latest/meta-data/", "file:///etc/passwd", "static:../../etc/passwd"):
        with pytest.raises(RefusedFetch):
            local_only(url)
    assert local_only("static:casino/pdf.css")[1] == "text/css"
