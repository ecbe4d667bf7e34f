"""Fill and credit slips (issue #35 item 2): numbered without gaps per kind across the property, a
void only with a reason and two pit bosses' signatures, every print after the first a REPRINT, all
of it in the shift's books and its report."""

import io

import pytest
from django.db import transaction
from django.test import Client

from books import services, slips
from books.models import Slip, SlipPrint
from casino.errors import ServiceError

pytestmark = pytest.mark.django_db

CHIPS = {"500": 4}


def requested(shift, crew, kind="fill"):
    return services.transfer_request(shift=shift, kind=kind, counts=CHIPS, requested_by=crew.dealer)


def approved(shift, crew, kind="fill"):
    return services.transfer_approve(event=requested(shift, crew, kind), approved_by=crew.pit_boss)


def client_of(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_slips_are_numbered_per_kind_without_gaps_even_when_an_approval_rolls_back(crew, open_shift):
    shift = open_shift()
    first = approved(shift, crew)
    assert first.slip.label == "F-000001"
    credit = approved(shift, crew, kind="credit")
    assert credit.slip.label == "C-000001"
    lost = requested(shift, crew)
    with pytest.raises(RuntimeError), transaction.atomic():
        services.transfer_approve(event=lost, approved_by=crew.pit_boss)
        raise RuntimeError("the approval's transaction fails after the slip was numbered")
    assert not Slip.objects.filter(event=lost).exists()
    services.transfer_approve(event=lost, approved_by=crew.pit_boss)
    assert Slip.objects.get(event=lost).label == "F-000002"  # the rolled-back number was not lost
    assert [s.number for s in Slip.objects.filter(kind="fill")] == [1, 2]
    assert requested(shift, crew).status == "requested" and Slip.objects.count() == 3  # none before approval


def test_a_void_needs_a_reason_and_two_pit_bosses_and_stops_the_chips(crew, open_shift):
    shift = open_shift()
    event = approved(shift, crew)
    slip = event.slip
    with pytest.raises(ServiceError) as no_reason:
        slips.slip_void_request(slip=slip, asked_by=crew.pit_boss, reason="  ")
    assert no_reason.value.extra == {"code": "reason_required", "field": "reason"}
    with pytest.raises(ServiceError) as dealer:
        slips.slip_void_request(slip=slip, asked_by=crew.dealer, reason="Wrong table.")
    assert dealer.value.status == 403
    with pytest.raises(ServiceError) as elsewhere:
        slips.slip_void_request(slip=slip, asked_by=crew.outsider, reason="Wrong table.")
    assert elsewhere.value.status == 403
    slips.slip_void_request(slip=slip, asked_by=crew.pit_boss, reason="Wrong table.")
    with pytest.raises(ServiceError) as pending:
        services.transfer_receive(event=event, received_by=crew.dealer, counts=CHIPS)
    assert pending.value.extra["code"] == "slip_void_pending"
    with pytest.raises(ServiceError) as same:
        slips.slip_void_confirm(slip=slip, confirmed_by=crew.pit_boss)
    assert (same.value.status, same.value.extra["code"]) == (403, "four_eyes")
    slips.slip_void_confirm(slip=slip, confirmed_by=crew.pit_boss2)
    slip.refresh_from_db()
    assert slip.voided and slip.label == "F-000001" and slip.void_reason == "Wrong table."
    with pytest.raises(ServiceError) as void:
        services.transfer_receive(event=event, received_by=crew.dealer, counts=CHIPS)
    assert void.value.extra["code"] == "slip_void"
    # Through the API: a 409 naming the void, a status its schema documents.
    api = client_of(crew.dealer)
    url = f"/api/v1/books/shifts/{shift.pk}/transfers/{event.pk}/receive/"
    answer = api.post(url, {"counts": CHIPS}, content_type="application/json")
    assert answer.status_code == 409 and answer.json()["extra"]["code"] == "slip_void"
    schema = api.get("/api/schema/", {"format": "json"}).json()
    assert "409" in schema["paths"]["/api/v1/books/shifts/{id}/transfers/{event}/receive/"]["post"]["responses"]
    event.refresh_from_db()
    assert event.status == "approved" and not event.in_float  # the float never moved
    assert approved(shift, crew).slip.label == "F-000002"  # the next number; the void keeps its own


def test_a_received_slip_stands(crew, open_shift):
    shift = open_shift()
    event = approved(shift, crew)
    services.transfer_receive(event=event, received_by=crew.dealer, counts=CHIPS)
    with pytest.raises(ServiceError) as refused:
        slips.slip_void_request(slip=event.slip, asked_by=crew.pit_boss, reason="Too late.")
    assert (refused.value.status, refused.value.extra["code"]) == (409, "received")


def _pdf_text(body: bytes) -> str:
    from pypdf import PdfReader

    return " ".join(p.extract_text() for p in PdfReader(io.BytesIO(body)).pages).replace("\n", " ")


def test_printing_a_slip_the_original_then_reprints_marked_and_who_may(crew, open_shift):
    shift = open_shift()
    event = approved(shift, crew)
    url = f"/books/{shift.pk}/slips/{event.pk}/print"
    first = client_of(crew.dealer).post(url)
    assert first.status_code == 200 and first["Content-Type"] == "application/pdf"
    text = _pdf_text(first.content)
    assert "F-000001" in text and "R-1" in text and "REPRINT" not in text
    second = client_of(crew.pit_boss).post(url, HTTP_ACCEPT_LANGUAGE="en")
    assert "REPRINT no. 1" in _pdf_text(second.content)
    ru = client_of(crew.pit_boss2).post(url, HTTP_ACCEPT_LANGUAGE="ru")
    assert "F-000001" in _pdf_text(ru.content)
    assert [p.reprint for p in SlipPrint.objects.order_by("id")] == [False, True, True]
    assert client_of(crew.dealer).get(url).status_code == 405  # a print is recorded: POST only
    for user, code in [(crew.auditor, 403), (crew.inspector, 403), (crew.trainee, 403), (crew.outsider, 404)]:
        assert client_of(user).post(url).status_code == code, user
    assert client_of(None).post(url).status_code == 302
    assert SlipPrint.objects.count() == 3  # the refused ones printed nothing


def test_the_shift_page_and_report_list_the_slips_and_the_void_is_signed_there(crew, open_shift):
    shift = open_shift()
    event = approved(shift, crew)
    boss, boss2 = client_of(crew.pit_boss), client_of(crew.pit_boss2)
    page = f"/books/{shift.pk}/"
    assert "F-000001" in boss.get(page).content.decode()
    refused = boss.post(page, {"action": "void_request", "event": event.pk, "reason": ""})
    assert refused.status_code == 200 and not Slip.objects.get().void_pending
    assert boss.post(page, {"action": "void_request", "event": event.pk, "reason": "Asked twice."}).status_code == 302
    assert boss2.post(page, {"action": "void_confirm", "event": event.pk}).status_code == 302
    assert Slip.objects.get().voided
    report = client_of(crew.auditor).get(f"/books/reports/shifts/{shift.pk}/").content.decode()
    assert "F-000001" in report and "Asked twice." in report


def test_the_shift_report_says_none_under_slips_until_a_slip_is_issued(crew, open_shift):
    shift = open_shift()
    services.transfer_request(shift=shift, kind="fill", counts=CHIPS, requested_by=crew.dealer)  # asked, no slip yet
    auditor = client_of(crew.auditor)

    def slips_section() -> str:
        report = auditor.get(f"/books/reports/shifts/{shift.pk}/").content.decode()
        return report.split('id="report-slips"', 1)[1].split("</section>", 1)[0]

    assert "None." in slips_section() and "F-0" not in slips_section()
    approved(shift, crew)
    assert "F-000001" in slips_section() and "None." not in slips_section()
