"""Every bad input is a clean refusal (issue #36, item 5): the API answers 400 in its error shape naming
the field, a page shows the field's error (or a 400 page naming it), never a 500, nothing half-stored.

Found by probing the floor with hand-made bad inputs on PostgreSQL: a NUL character in a filter or a
body (PostgreSQL refuses NUL in text), days at the edges of the calendar (9999-12-31 has no next day,
0001-01-01's midnight east of Greenwich is in year 0), a login name over 255 characters (axes'
column), amounts in Arabic-Indic or fullwidth digits (Python reads them), stakes on boxes the table
does not have, a JSON key given twice, characters nobody sees in free text, a body of megabytes, a
key no field is for.
"""

import json
from decimal import Decimal

import pytest
from axes.models import AccessAttempt
from django.test import Client

from audit.models import AuditRun
from casino.dates import FIRST_DAY, LAST_DAY
from casino.roles import DEALER
from dealing.models import Incident, Round
from tests.books.conftest import crew, open_shift  # noqa: F401
from tests.dealing.conftest import api, deal, pits, post_json, staff, tables, to_json  # noqa: F401
from tests.factories import PASSWORD, ShoeFactory

pytestmark = pytest.mark.django_db

NUL = "R\x00-1"
NEVER_SEEN = {
    "\u202e": "U+202E (RIGHT-TO-LEFT OVERRIDE)",
    "\u2066": "U+2066 (LEFT-TO-RIGHT ISOLATE)",
    "\u200b": "U+200B (ZERO WIDTH SPACE)",
    "\u200d": "U+200D (ZERO WIDTH JOINER)",
    "\ufeff": "U+FEFF (ZERO WIDTH NO-BREAK SPACE)",
    "\x1b": "U+001B",
}


def _fields(response) -> dict:
    body = response.json()
    assert set(body) == {"message", "extra"}, body
    return body["extra"].get("fields") or {}


# --- NUL characters ------------------------------------------------------------------------------

API_FILTERS = [
    ("/api/v1/rounds/", "dealer"),
    ("/api/v1/stakes/", "player"),
    ("/api/v1/incidents/", "dealer"),
    ("/api/v1/findings/", "q"),
    ("/api/v1/books/shifts/", "table"),
    ("/api/v1/books/theory/", "pit"),
    ("/api/v1/books/theory/", "dealer"),
    ("/api/v1/books/reports/period/", "table"),
    ("/api/v1/books/signals/", "player"),
    ("/api/v1/books/signals/", "dealer"),
    ("/api/v1/ledger/sessions/", "status"),
]


@pytest.mark.parametrize("url, name", API_FILTERS)
def test_a_nul_in_an_api_filter_is_a_400_naming_it(api, staff, url, name):
    response = api(staff.admin).get(url, {name: NUL})
    assert response.status_code == 400, response.content
    assert "NUL" in _fields(response)[name][0]


PAGE_FILTERS = [
    ("/audit/findings/", "q"),
    ("/incidents/", "dealer"),
    ("/books/theory/", "dealer"),
    ("/books/reports/period/", "pit"),
    ("/books/signals/", "player"),
    ("/security/log/", "user"),
    ("/tables/R-1/incidents/", "status"),
]


@pytest.mark.parametrize("url, name", PAGE_FILTERS)
def test_a_nul_in_a_page_filter_is_a_400_page_naming_it(api, staff, url, name):
    response = api(staff.admin).get(url, {name: NUL})
    assert response.status_code == 400
    assert f"The field “{name}” contains a NUL character" in response.content.decode()


def test_a_nul_in_the_name_of_a_parameter_is_refused_too(api, staff):
    response = api(staff.admin).get("/api/v1/rounds/", {"de\x00aler": "x"})
    assert response.status_code == 400 and list(_fields(response)) == ["de\\0aler"]


def test_a_nul_in_an_address_is_a_page_that_does_not_exist(api, staff):
    client = api(staff.admin)
    assert client.get("/tables/R%00-1/shoe/").status_code == 404
    answer = client.get("/api/v1/rounds/%00/")
    assert answer.status_code == 404 and answer.json()["extra"] == {"code": "not_found"}


def test_a_nul_in_an_audit_run_body_is_a_400_naming_the_field(api, staff, tables):
    client = api(staff.auditor)
    for body, name in [
        ({"tables": [NUL]}, "tables"),
        ({"dealers": ["dealer\x001"]}, "dealers"),
        ({"date_from": "2026-01-01\x00"}, "date_from"),
    ]:
        response = client.post("/api/v1/audit-runs/", body, format="json")
        assert response.status_code == 400, (body, response.content)
        assert name in _fields(response)
    assert not AuditRun.objects.exists()


def test_a_nul_in_a_json_body_is_refused_by_the_parser_naming_the_key(api, staff, tables):
    client = api(staff.inspector)
    body = {"table": tables.ochko.pk, "kind": "dealer_card_exposed", "card": "AS", "resolution": "burned"}
    for note in ["a\x00b", ["a", "b\x00"]]:
        response = client.post("/api/v1/incidents/", {**body, "dealer": "dealer1", "note": note}, format="json")
        assert response.status_code == 400 and "NUL" in _fields(response)["note"][0]
    assert not Incident.objects.exists()


def test_a_nul_in_a_form_field_is_a_400_naming_it_and_nothing_is_stored(api, staff, tables):
    from urllib.parse import urlencode

    client = api(staff.inspector)
    report = {
        "table": "R-1",
        "kind": "dealer_card_exposed",
        "card": "AS",
        "resolution": "burned",
        "dealer": "dealer1",
        "note": NUL,
    }
    # As a browser posts a form: urlencoded.
    response = client.post("/incidents/new", urlencode(report), content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400 and "The field “note” contains a NUL character" in response.content.decode()
    # Multipart: the form shows the field's own error (Django's text fields refuse a NUL).
    page = client.post("/incidents/new", report)
    assert page.status_code == 200 and "Null characters are not allowed." in page.context["form"].errors["note"]
    assert not Incident.objects.exists()


# --- days at the edges of the calendar -----------------------------------------------------------

EDGES = ["9999-12-31", "0001-01-01", "1899-12-31", "3000-01-01"]
API_DATES = [
    ("/api/v1/rounds/", "from"),
    ("/api/v1/rounds/", "to"),
    ("/api/v1/rounds/", "at"),
    ("/api/v1/incidents/", "from"),
    ("/api/v1/incidents/", "to"),
    ("/api/v1/shoes/", "from"),
    ("/api/v1/shoes/", "to"),
    ("/api/v1/findings/", "date_from"),
    ("/api/v1/findings/", "date_to"),
    ("/api/v1/findings/", "at"),
    ("/api/v1/books/theory/", "start"),
    ("/api/v1/books/theory/", "end"),
    ("/api/v1/books/reports/period/", "start"),
    ("/api/v1/books/reports/period/", "end"),
    ("/api/v1/books/performance/", "from"),
    ("/api/v1/books/performance/", "to"),
]


@pytest.fixture(params=["UTC", "Asia/Tokyo", "America/Los_Angeles"])
def time_zone(request, settings):
    """East of Greenwich a day's midnight is the day before in UTC, west of it the day after."""
    settings.TIME_ZONE = request.param
    return request.param


@pytest.mark.parametrize("day", EDGES)
def test_an_api_filter_refuses_a_day_beyond_the_calendar_naming_it(api, staff, time_zone, day):
    client = api(staff.admin)
    for url, name in API_DATES:
        response = client.get(url, {name: day})
        assert response.status_code == 400, (url, name, day, response.content)
        body = response.json()
        assert name in _fields(response) or body["extra"].get("field") == name, (url, name, body)


def test_the_days_at_the_ends_of_the_range_are_still_days(api, staff, time_zone):
    client = api(staff.admin)
    for url, name in API_DATES:
        for day in (FIRST_DAY.isoformat(), LAST_DAY.isoformat()):
            if url.startswith("/api/v1/books/") and name in ("start", "end"):
                continue  # a period of theirs is at most a year: their own refusal, not the range's
            assert client.get(url, {name: day}).status_code == 200, (url, name, day)


PAGE_DATES = [
    ("/incidents/", "at"),
    ("/tables/R-1/incidents/", "at"),
    ("/audit/findings/", "date_from"),
    ("/audit/findings/", "date_to"),
    ("/audit/findings/", "at"),
    ("/audit/findings.csv", "date_to"),
    ("/audit/runs/", "at"),
    ("/audit/", "from"),
    ("/audit/", "to"),
    ("/audit/dealers.csv", "to"),
    ("/books/theory/", "end"),
    ("/books/reports/period/", "end"),
    ("/books/reports/period.csv", "end"),
    ("/books/performance/", "from"),
    ("/books/performance/", "to"),
    ("/security/log/", "since"),
    ("/security/log/", "until"),
]


@pytest.mark.parametrize("day", EDGES)
def test_a_page_filter_beyond_the_calendar_is_no_500(api, staff, time_zone, day):
    client = api(staff.admin)
    for url, name in PAGE_DATES:
        response = client.get(url, {name: day})
        assert response.status_code in (200, 400), (url, name, day, response.status_code)


def test_a_page_shows_the_out_of_range_day_as_the_fields_error(api, staff):
    client = api(staff.admin)
    page = client.get("/security/log/", {"until": "9999-12-31"})
    assert page.context["form"].errors["until"] == ["Give a date from 1900-01-01 to 2999-12-31."]
    page = client.get("/audit/findings/", {"date_to": "0001-01-01"})
    assert "Give a date from 1900-01-01 to 2999-12-31." in page.content.decode()


def test_an_audit_run_refuses_a_day_beyond_the_calendar(api, staff):
    response = api(staff.auditor).post("/api/v1/audit-runs/", {"date_to": "9999-12-31"}, format="json")
    assert response.status_code == 400 and "date_to" in _fields(response)
    page = api(staff.auditor).post("/audit/runs/", {"date_from": "0001-01-01", "scope": "all"})
    assert page.status_code == 200 and page.context["form"].errors["date_from"]
    assert not AuditRun.objects.exists()


# --- a login name longer than any ----------------------------------------------------------------


@pytest.mark.parametrize("length", [151, 256, 4096])
def test_a_login_name_longer_than_any_is_an_ordinary_failed_login(make_user, floor, length):
    make_user(DEALER, pits=floor.pits, username="dealer1")
    name = "d" * length
    page = Client().post("/accounts/login/", {"username": name, "password": "wrong"})
    assert page.status_code == 200 and "Please enter a correct username and password" in page.content.decode()
    api_answer = Client().post(
        "/api/v1/auth/token/", json.dumps({"username": name, "password": PASSWORD}), content_type="application/json"
    )
    assert api_answer.status_code == 400 and api_answer.json()["extra"]["code"] == "bad_credentials"
    # Both failures count, against the name cut to the longest a username can be.
    assert AccessAttempt.objects.get().username == "d" * 150
    assert AccessAttempt.objects.get().failures_since_start == 2


# --- amounts in the digits 0-9 -------------------------------------------------------------------

FOREIGN_DIGITS = ["٣٠٠", "３００", "1٠0", "۳۰۰"]


@pytest.mark.parametrize("amount", FOREIGN_DIGITS)
def test_a_round_refuses_an_amount_in_other_digits(api, staff, tables, deal, amount):
    doc = deal(tables.ochko, seed=4)
    doc["stakes"][0]["ante"] = amount
    response = post_json(api(staff.dealer), "/api/v1/rounds/", doc)
    assert response.status_code == 400
    assert response.json()["extra"]["code"] == "bad_amount" and "digits 0-9" in response.json()["message"]
    assert not Round.objects.exists()


@pytest.mark.parametrize("amount", FOREIGN_DIGITS)
def test_a_form_refuses_an_amount_in_other_digits(amount):
    from django import forms as django_forms

    from dealing.forms.fields import parse_amount_text

    with pytest.raises(django_forms.ValidationError) as refused:
        parse_amount_text(amount)
    assert "is not one of the digits 0 to 9" in refused.value.messages[0]


@pytest.mark.parametrize("amount", FOREIGN_DIGITS)
def test_the_number_fields_of_every_form_refuse_other_digits(amount):
    from casino.forms import DecimalField, IntegerField

    for field in (DecimalField(max_digits=14, decimal_places=2), IntegerField()):
        with pytest.raises(Exception) as refused:
            field.clean(amount)
        assert "is not one of the digits 0 to 9" in str(refused.value)
    assert DecimalField(max_digits=14, decimal_places=2).clean("300.50") == Decimal("300.50")


def test_a_json_decimal_field_refuses_other_digits(api, staff, tables):
    shoe = ShoeFactory(table=tables.ochko, shuffled_by=staff.dealer)
    response = api(staff.dealer).post(
        f"/api/v1/shoes/{shoe.pk}/burns/", {"card": "AS", "reason": "paid", "fee": "٥"}, format="json"
    )
    assert response.status_code == 400 and "digits 0 to 9" in _fields(response)["fee"][0]


def test_the_books_refuse_amounts_and_counts_in_other_digits(crew, open_shift):
    from books.models import FloatEvent

    shift = open_shift()
    client = Client()
    client.force_login(crew.dealer)
    for body in (
        {"kind": "drop", "amount": "٣٠٠"},
        {"kind": "drop", "amount": "３００"},
    ):
        response = client.post(
            f"/api/v1/books/shifts/{shift.pk}/cash/", json.dumps(body), content_type="application/json"
        )
        assert response.status_code == 400, response.content
    response = client.post(
        f"/api/v1/books/shifts/{shift.pk}/transfers/",
        json.dumps({"kind": "fill", "counts": {"100": "٣"}}),
        content_type="application/json",
    )
    assert response.status_code == 400 and response.json()["extra"]["field"] == "counts"
    page = client.post(f"/books/{shift.pk}/", {"action": "cash", "cash-kind": "drop", "cash-amount": "٣٠٠"})
    assert page.status_code == 200 and "is not one of the digits 0 to 9" in page.content.decode()
    assert not FloatEvent.objects.exclude(kind__in=["opening"]).filter(kind="drop").exists()


# --- boxes the table does not have ---------------------------------------------------------------


@pytest.mark.parametrize("box", [0, -1, 7, 20, 10**9])
def test_a_stake_on_a_box_the_table_does_not_have_is_refused(api, staff, tables, deal, box):
    doc = deal(tables.ochko, seed=4)  # six boxes
    doc["stakes"][0]["box"] = box
    response = post_json(api(staff.dealer), "/api/v1/rounds/", doc)
    assert response.status_code == 400, response.json()
    assert response.json()["extra"] == {"code": "no_such_box", "path": "$.stakes[0].box", "event": None}
    assert response.json()["message"] == f"Table R-1 has boxes 1 to 6: there is no box {box}."
    assert not Round.objects.exists()


def test_a_blackjack_stake_on_a_sixth_box_of_five_is_refused(api, staff, tables, deal):
    doc = deal(tables.salon, seed=2)
    doc["stakes"][0]["box"] = 6
    response = post_json(api(staff.dealer), "/api/v1/rounds/", doc)
    assert response.status_code == 400 and response.json()["extra"]["code"] == "no_such_box"


def test_a_veintiuno_seat_the_table_does_not_have_is_refused(api, staff, tables, deal):
    doc = deal(tables.veintiuno, seed=2)
    doc["stakes"][0]["seat"] = 99
    response = post_json(api(staff.dealer), "/api/v1/rounds/", doc)
    assert response.status_code == 400 and response.json()["extra"]["path"] == "$.stakes[0].seat"


# --- a JSON key given twice ----------------------------------------------------------------------


def test_a_key_given_twice_is_refused(api, staff, tables):
    client = api(staff.inspector)
    text = (
        f'{{"table": {tables.ochko.pk}, "kind": "dealer_card_exposed", "card": "AS", "resolution": "burned", '
        '"dealer": "dealer1", "note": "first", "note": "second"}'
    )
    response = client.post("/api/v1/incidents/", text, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {
        "message": "Duplicate key “note”: an object gives each key once.",
        "extra": {"code": "duplicate_key", "key": "note"},
    }
    assert not Incident.objects.exists()


def test_a_nested_key_given_twice_is_refused(api, staff):
    text = '{"cards": ["TS", "6H"], "dealer": "TC", "rules": {"decks": 6, "decks": 8}}'
    response = api(staff.dealer).post("/api/v1/math/blackjack/ev/", text, content_type="application/json")
    assert response.status_code == 400 and response.json()["extra"]["key"] == "decks"


def test_a_round_with_a_key_given_twice_is_refused(api, staff, tables, deal):
    text = to_json(deal(tables.ochko, seed=4))
    text = text.replace('"variant": "ochko"', '"variant": "ochko", "variant": "blackjack"', 1)
    response = api(staff.dealer).post("/api/v1/rounds/", text, content_type="application/json")
    assert response.status_code == 400 and response.json()["extra"]["code"] == "duplicate_key"
    assert not Round.objects.exists()


# --- characters nobody sees, in free text --------------------------------------------------------


def _incident(note, **more):
    return {
        "kind": "dealer_card_exposed",
        "card": "AS",
        "resolution": "burned",
        "dealer": "dealer1",
        "note": note,
        **more,
    }


@pytest.mark.parametrize("char, shown", NEVER_SEEN.items())
def test_an_incident_note_refuses_characters_nobody_sees(api, staff, tables, char, shown):
    response = api(staff.inspector).post(
        "/api/v1/incidents/", _incident(f"dealer {char}paid", table=tables.ochko.pk), format="json"
    )
    assert response.status_code == 400
    assert _fields(response)["note"] == [
        f"The text cannot contain {shown}: only characters that can be seen, spaces and line breaks."
    ]
    page = api(staff.inspector).post("/incidents/new", {**_incident(f"x{char}y"), "table": "R-1"})
    assert page.status_code == 200 and shown in page.context["form"].errors["note"][0]
    assert not Incident.objects.exists()


def test_a_note_keeps_its_line_breaks(api, staff, tables):
    response = api(staff.inspector).post(
        "/api/v1/incidents/", _incident("line one\nline two\r\n\tindented", table=tables.ochko.pk), format="json"
    )
    assert response.status_code == 201, response.json()
    assert Incident.objects.get().note == "line one\nline two\r\n\tindented"


@pytest.mark.parametrize("text", ["P-\u202e32", "Ana\u200b", "Beto\x07"])
def test_every_free_text_of_the_api_refuses_them(api, staff, tables, text):
    from tests.dealing.conftest import log

    record = log(tables.ochko, staff.dealer, seed=4)
    client = api(staff.pitboss)
    answers = [
        client.post(f"/api/v1/rounds/{record.pk}/amend/", {"document": {}, "reason": text}, format="json"),
        client.post("/api/v1/incidents/", _incident("fine", table=tables.ochko.pk, evidence=text), format="json"),
        api(staff.auditor).post("/api/v1/findings/1/review/", {"status": "dismissed", "comment": text}, format="json"),
        api(staff.admin).post(
            "/api/v1/ledger/sessions/create/",
            {"table": "Casa-21", "players": ["Ana", "Beto"], "unit": 5, "name": text},
            format="json",
        ),
    ]
    for response in answers:
        assert response.status_code == 400, response.content
        assert any("cannot contain" in e for errors in _fields(response).values() for e in errors), response.json()


def test_a_game_nights_players_refuse_them_from_the_form_too(api, staff, tables):
    from ledger.models import GameSession

    response = api(staff.pitboss).post(
        "/api/v1/ledger/sessions/create/",
        {"table": "Casa-21", "players": ["Ana", "Be\u202eto"], "unit": 5, "dealer": "dealer1"},
        format="json",
    )
    assert response.status_code == 400 and "U+202E" in str(response.json())
    assert not GameSession.objects.exists()


def test_the_books_explanation_refuses_them(crew, open_shift):
    shift = open_shift()
    client = Client()
    client.force_login(crew.pit_boss)
    response = client.post(
        f"/api/v1/books/shifts/{shift.pk}/explain/",
        json.dumps({"text": "a chip fell\u202e"}),
        content_type="application/json",
    )
    assert response.status_code == 400 and "U+202E" in _fields(response)["text"][0]
    page = client.post(f"/books/{shift.pk}/", {"action": "explain", "explain-text": "fell\u200b"})
    assert "U+200B" in page.context["forms"]["explain"].errors["text"][0]
    shift.refresh_from_db()
    assert shift.explanation == ""


# --- a body too large ----------------------------------------------------------------------------

BODY_ENDPOINTS = [
    "/api/v1/rounds/",
    "/api/v1/engine/settle",
    "/api/v1/incidents/",
    "/api/v1/auth/token/",
    "/api/v1/audit-runs/",
    "/api/v1/math/blackjack/ev/",
    "/api/v1/math/ochko/ev/",
    "/api/v1/drills/start/",
    "/api/v1/ledger/sessions/create/",
    "/api/v1/books/shifts/open/",
]


@pytest.mark.parametrize("url", BODY_ENDPOINTS)
def test_a_body_too_large_is_the_apis_json_413(api, staff, url):
    big = json.dumps({"note": "x" * 10_000_000})
    response = api(staff.admin).post(url, big, content_type="application/json")
    assert response.status_code == 413, (url, response.status_code, response.content[:200])
    assert response.json() == {"message": "The request body is too large.", "extra": {"code": "too_large"}}


def test_a_body_too_large_for_an_anonymous_login_is_413_too():
    big = json.dumps({"username": "x", "password": "x" * 10_000_000})
    response = Client().post("/api/v1/auth/token/", big, content_type="application/json")
    assert response.status_code == 413 and response.json()["extra"] == {"code": "too_large"}


# --- a key no field is for -----------------------------------------------------------------------


def test_a_key_no_field_is_for_is_refused_naming_it(api, staff, tables):
    response = api(staff.dealer).post(
        "/api/v1/math/blackjack/ev/",
        {"cards": ["TS", "6H"], "dealer": "TC", "extra": {"fields": {}}},
        format="json",
    )
    assert response.status_code == 400
    assert list(_fields(response)) == ["extra"]
    assert _fields(response)["extra"][0].startswith("There is no such field (the fields: preset, cards, dealer")
    response = api(staff.inspector).post(
        "/api/v1/incidents/", _incident("fine", table=tables.ochko.pk, notes="typo"), format="json"
    )
    assert response.status_code == 400 and list(_fields(response)) == ["notes"]
    assert not Incident.objects.exists()


def test_the_schema_says_request_bodies_take_their_fields_only():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    for name in ("BlackjackEvIn", "IncidentReportInput", "BooksCashInput", "AuditRunStart", "TokenInput"):
        assert components[name]["additionalProperties"] is False, name
    responses = schema["paths"]["/api/v1/incidents/"]["post"]["responses"]
    assert "413" in responses
