"""The shift page and its forms, as a dealer and pit bosses use them: every step through the page,
refusals next to the field with nothing stored, and the API's refusals in its one error shape."""

import pytest
from django.test import Client

from books.models import FloatEvent, TableShift

from .conftest import OPENING, log_rounds

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def count_data(counts, prefix="", total=None):
    pre = f"{prefix}-" if prefix else ""
    data = {f"{pre}c_{denom}": n for denom, n in counts.items()}
    if total is not None:
        data[f"{pre}total"] = total
    return data


def test_a_whole_shift_through_the_pages(crew):
    dealer, boss, boss2 = logged_in(crew.dealer), logged_in(crew.pit_boss), logged_in(crew.pit_boss2)
    assert "R-1" in dealer.get("/books/").content.decode()
    page = dealer.post("/books/tables/R-1/open/", count_data(OPENING, total="45000"))
    shift = TableShift.objects.get()
    assert page.status_code == 302 and page["Location"] == f"/books/{shift.pk}/"
    assert shift.opening_total == 45000 and shift.status == "opening"
    # The dealer cannot sign his own count; the pit boss does.
    assert b"Sign (four eyes)" not in dealer.get(f"/books/{shift.pk}/").content
    boss.post(f"/books/{shift.pk}/", {"action": "sign"})
    shift.refresh_from_db()
    assert shift.status == "open" and shift.opening_signed_by == crew.pit_boss
    records = log_rounds(crew.table, crew.dealer, 3, seed=5)
    url = f"/books/{shift.pk}/"
    dealer.post(url, {"action": "request", "request-kind": "fill", **count_data({"5000": 2}, "request")})
    fill = FloatEvent.objects.get()
    boss.post(url, {"action": "approve", "event": fill.pk})
    dealer.post(url, {"action": "receive", "event": fill.pk, **count_data({"5000": 2}, f"receive-{fill.pk}")})
    fill.refresh_from_db()
    assert fill.status == "received" and fill.amount == 10000
    dealer.post(url, {"action": "cash", "cash-kind": "chips_sold", "cash-amount": "1000"})
    dealer.post(url, {"action": "cash", "cash-kind": "drop", "cash-amount": "1000"})
    expected = 45000 + sum(r.float_logged for r in records) - 1000 + 10000
    hundreds, ones = divmod(int(expected), 100)
    # Short by one chip of 100.
    dealer.post(url, {"action": "closing", **count_data({"100": hundreds - 1, "1": ones}, "closing")})
    shift.refresh_from_db()
    assert shift.closing_total == expected - 100
    page = boss2.post(url, {"action": "close"})
    assert "beyond the tolerance" in page.content.decode()
    assert TableShift.objects.get().status == "open"
    boss2.post(url, {"action": "explain", "explain-text": "A 100 chip fell under the table; found, booked."})
    page = boss.post(url, {"action": "close"})
    assert page.status_code == 302
    shift.refresh_from_db()
    assert shift.status == "closed" and shift.explained_by == crew.pit_boss2 and shift.explained_variance == -100
    text = dealer.get(url).content.decode()
    for figure in ("45,000", "10,000"):
        assert figure in text


def test_a_count_that_does_not_add_up_is_refused_next_to_the_total(crew):
    dealer = logged_in(crew.dealer)
    page = dealer.post("/books/tables/R-1/open/", count_data(OPENING, total="44000"))
    assert page.status_code == 200
    assert "does not add up" in page.content.decode()
    assert not TableShift.objects.exists()
    page = dealer.post("/books/tables/R-1/open/", count_data({"100": -3}))
    assert page.status_code == 200 and not TableShift.objects.exists()


def test_a_second_opening_is_refused(crew, open_shift):
    open_shift()
    page = logged_in(crew.dealer2).post("/books/tables/R-1/open/", count_data(OPENING))
    assert page.status_code == 200 and "already has a shift" in page.content.decode()
    assert TableShift.objects.count() == 1


def test_a_fill_for_a_closed_table_is_refused(crew, open_shift):
    from books import services

    shift = open_shift()
    services.shift_count_closing(shift=shift, counted_by=crew.dealer, counts=OPENING)
    services.shift_close(shift=shift, closed_by=crew.pit_boss)
    page = logged_in(crew.dealer).post(
        f"/books/{shift.pk}/", {"action": "request", "request-kind": "fill", **count_data({"5000": 1}, "request")}
    )
    assert (
        page.status_code == 200
        and "The shift of table R-1 is closed: no fills or credits any more." in page.content.decode()
    )
    assert not FloatEvent.objects.exists()
    api = logged_in(crew.dealer)
    answer = api.post(
        f"/api/v1/books/shifts/{shift.pk}/transfers/",
        {"kind": "fill", "counts": {"5000": 1}},
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert answer.json()["extra"]["code"] == "shift_closed"
    assert not FloatEvent.objects.exists()


def test_the_api_runs_a_shift(crew):
    dealer, boss = logged_in(crew.dealer), logged_in(crew.pit_boss)

    def post(client, path, body=None):
        return client.post(f"/api/v1/books/{path}", body or {}, content_type="application/json")

    answer = post(dealer, "shifts/open/", {"table": "R-1", "counts": {"100": 10, "500": "2"}, "total": "2000"})
    assert answer.status_code == 201, answer.json()
    pk = answer.json()["id"]
    assert answer.json()["figures"]["opening"] == "2000.00"
    assert post(dealer, f"shifts/{pk}/sign/").status_code == 403  # a pit boss signs: the endpoint's role
    assert post(boss, f"shifts/{pk}/sign/").json()["status"] == "open"
    body = post(dealer, f"shifts/{pk}/transfers/", {"kind": "credit", "counts": {"100": 5}}).json()
    event = body["events"][0]["id"]
    refused = post(dealer, f"shifts/{pk}/transfers/{event}/approve/")
    assert refused.status_code == 403
    post(boss, f"shifts/{pk}/transfers/{event}/approve/")
    wrong = post(dealer, f"shifts/{pk}/transfers/{event}/receive/", {"counts": {"100": 4}})
    assert wrong.status_code == 400 and wrong.json()["extra"]["code"] == "count_mismatch"
    post(dealer, f"shifts/{pk}/transfers/{event}/receive/", {"counts": {"100": 5}})
    bad = post(dealer, f"shifts/{pk}/cash/", {"kind": "drop", "amount": "-5"})
    assert bad.status_code == 400 and bad.json()["extra"]["field"] == "amount"
    post(dealer, f"shifts/{pk}/cash/", {"kind": "drop", "amount": "300"})
    unknown = post(dealer, f"shifts/{pk}/closing/", {"counts": {"25": 1}})
    assert unknown.status_code == 400 and unknown.json()["extra"]["code"] == "unknown_chip"
    body = post(dealer, f"shifts/{pk}/closing/", {"counts": {"100": 5, "500": 2}}).json()
    assert body["figures"] == {
        **body["figures"],
        "expected": "1500.00",
        "closing": "1500.00",
        "variance": "0.00",
        "credits": "500.00",
        "drop": "300.00",
        "win": "300.00",
    }
    closed = post(boss, f"shifts/{pk}/close/").json()
    assert closed["status"] == "closed"
    assert dealer.get(f"/api/v1/books/shifts/{pk}/").json()["figures"]["win"] == "300.00"


def test_the_schema_lists_the_books_endpoints(crew):
    schema = logged_in(crew.auditor).get("/api/schema/", {"format": "json"}).json()
    assert "/api/v1/books/shifts/{id}/" in schema["paths"]
    assert "/api/v1/books/shifts/{id}/transfers/{event}/receive/" in schema["paths"]


def test_the_admin_shows_shifts_read_only(crew, open_shift, make_user):
    shift = open_shift()
    admin = logged_in(make_user("superuser", username="root"))
    assert admin.get("/admin/books/tableshift/").status_code == 200
    page = admin.get(f"/admin/books/tableshift/{shift.pk}/change/")
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert admin.get("/admin/books/tableshift/add/").status_code == 403


def test_the_float_page_tells_a_pit_boss_who_opens_a_shift_and_how(crew):
    """A pit boss cannot count the opening float (a dealer does, then he signs): the page says so
    where the button would be, and the opening page refuses him with that sentence."""
    boss, dealer = logged_in(crew.pit_boss), logged_in(crew.dealer)
    page = boss.get("/books/").content.decode()
    assert "How a shift opens" in page
    assert "a dealer of Pit A counts it" in page
    assert "/books/tables/R-1/open/" not in page
    assert "/books/tables/R-1/open/" in dealer.get("/books/").content.decode()
    refused = boss.get("/books/tables/R-1/open/")
    assert refused.status_code == 403 and not TableShift.objects.exists()
