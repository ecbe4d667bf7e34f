"""Issue #35, item 3: an incident as surveillance files it — classification and the money saved or
lost set by a first reviewer, a second, different reviewer's sign-off, attachments (images, PDFs,
video references) kept through the storage with their SHA-256 in the record chain — refused for the
wrong person, for bad amounts and for disguised or oversized files with nothing stored, a swapped
file named by `verify_chain`, downloads scoped to the incident's readers, and all of it in the PDF."""

import datetime as dt
import hashlib
import io
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.urls import reverse

from casino.errors import ServiceError
from dealing import services
from dealing.models import IncidentAttachment, IncidentReview, RecordLink

pytestmark = pytest.mark.django_db

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + bytes(64)
PDF = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def client_as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def incident(staff, tables):
    return services.incident_report(
        table=tables.ochko,
        kind="dealer_card_exposed",
        card="KH",
        exposed=True,
        resolution="burned",
        dealer=staff.dealer,
        reported_by=staff.inspector,
    )


def classify(incident, who, **changes):
    values = dict(classification="dealer_error", money_direction="saved", money="150.00", reason="Caught at once.")
    values.update(changes)
    return services.incident_classify(incident=incident, reviewed_by=who, **values)


def stored_files(settings) -> list[Path]:
    return [p for p in Path(settings.MEDIA_ROOT).rglob("*") if p.is_file()]


def refused(call, code: str):
    with pytest.raises(ServiceError) as caught:
        call()
    assert caught.value.extra["code"] == code, caught.value.extra
    return caught.value


# --- the review and the second reviewer ----------------------------------------------------------------


def test_a_pit_boss_classifies_and_an_auditor_signs_off_both_in_the_chain(staff, incident):
    review = classify(incident, staff.pitboss)
    assert (review.classification, review.money_direction, review.money) == ("dealer_error", "saved", Decimal("150"))
    signed = services.incident_sign_off(incident=incident, signed_by=staff.auditor, comment="Seen on CAM-4.")
    assert signed.signed_off and signed.second_by == staff.auditor and signed.reviewed_by == staff.pitboss
    payloads = list(
        RecordLink.objects.filter(relation="dealing_incidentreview", row_id=review.pk)
        .order_by("link")
        .values_list("payload", flat=True)
    )
    assert [p["second_by_id"] for p in payloads] == [None, staff.auditor.pk]
    assert payloads[-1]["staff"] == {"reviewed_by": "pitboss1", "second_by": "auditor1"}
    assert Decimal(str(payloads[-1]["money"])) == Decimal("150")
    # Signed off, the file is closed.
    refused(lambda: classify(incident, staff.pitboss2), "signed_off")
    refused(lambda: services.incident_attach(incident=incident, added_by=staff.inspector, upload=_png()), "signed_off")
    assert services.chain_verify().breaks == []


@pytest.mark.parametrize(
    ("who", "code"),
    [("dealer", "forbidden"), ("inspector", "forbidden"), ("pitboss_c", "forbidden"), ("trainee", "forbidden")],
)
def test_who_may_not_classify(staff, incident, who, code):
    refused(lambda: classify(incident, getattr(staff, who)), code)
    assert not IncidentReview.objects.exists()


def test_a_pit_boss_never_reviews_his_own_report(staff, tables):
    dealt = services.incident_report(
        table=tables.ochko,
        kind="dealer_card_exposed",
        card="KH",
        exposed=True,
        resolution="burned",
        dealer=staff.dealer2,
        reported_by=staff.pitboss,
    )
    refused(lambda: classify(dealt, staff.pitboss), "own_report")


def test_the_second_reviewer_is_another_person_than_the_reporter_and_the_first(staff, tables, incident):
    refused(lambda: services.incident_sign_off(incident=incident, signed_by=staff.pitboss), "no_review")
    classify(incident, staff.pitboss)
    refused(lambda: services.incident_sign_off(incident=incident, signed_by=staff.pitboss), "same_reviewer")
    refused(lambda: services.incident_sign_off(incident=incident, signed_by=staff.inspector), "forbidden")
    refused(lambda: services.incident_sign_off(incident=incident, signed_by=staff.dealer), "forbidden")
    assert not IncidentReview.objects.get().signed_off
    # A pit boss's own report: he is never its second reviewer either.
    own = services.incident_report(
        table=tables.ochko,
        kind="dealer_card_exposed",
        card="QS",
        exposed=True,
        resolution="burned",
        dealer=staff.dealer,
        reported_by=staff.pitboss2,
    )
    classify(own, staff.pitboss)
    refused(lambda: services.incident_sign_off(incident=own, signed_by=staff.pitboss2), "own_report")
    # The database refuses the same person twice too.
    review = IncidentReview.objects.get(incident=incident)
    with pytest.raises(IntegrityError), transaction.atomic():
        IncidentReview.objects.filter(pk=review.pk).update(second_by=staff.pitboss, second_at=review.reviewed_at)


@pytest.mark.parametrize(
    ("changes", "code", "path"),
    [
        ({"money": "-5"}, "negative_money", "money"),
        ({"money": "abc"}, "bad_money", "money"),
        ({"money": "1.234"}, "bad_money", "money"),
        ({"money": "NaN"}, "bad_money", "money"),
        ({"money": 1.5}, "bad_money", "money"),
        ({"classification": "bad_luck"}, "bad_classification", "classification"),
        ({"money_direction": "both"}, "bad_direction", "money_direction"),
        ({"reason": "  "}, "reason_required", "reason"),
    ],
)
def test_bad_reviews_are_refused_with_nothing_stored(staff, incident, changes, code, path):
    links = RecordLink.objects.count()
    error = refused(lambda: classify(incident, staff.pitboss, **changes), code)
    assert error.extra["path"] == path
    assert not IncidentReview.objects.exists() and RecordLink.objects.count() == links


def test_the_review_page_refuses_a_dealer_and_shows_a_bad_amount_next_to_its_field(staff, incident):
    url = reverse("dealing:incident_review", kwargs={"pk": incident.pk})
    data = {"classification": "patron_error", "money_direction": "lost", "money": "-10", "reason": "Paid twice."}
    assert client_as(staff.dealer).post(url, data).status_code == 403
    response = client_as(staff.pitboss).post(url, data)
    assert response.status_code == 400
    assert "never negative" in response.content.decode()
    assert not IncidentReview.objects.exists()
    response = client_as(staff.pitboss).post(url, {**data, "money": "10.50"})
    assert response.status_code == 302
    page = client_as(staff.pitboss2).get(reverse("dealing:incident_detail", kwargs={"pk": incident.pk}))
    body = page.content.decode()
    assert "Patron error" in body and "10.50" in body and "Sign off as the second reviewer" in body
    sign = reverse("dealing:incident_sign_off", kwargs={"pk": incident.pk})
    assert client_as(staff.pitboss).post(sign, {}).status_code == 400  # the first reviewer: refused, shown
    assert client_as(staff.pitboss2).post(sign, {"comment": "Agreed."}).status_code == 302
    assert IncidentReview.objects.get().second_by == staff.pitboss2
    listing = client_as(staff.inspector).get(reverse("dealing:table_incidents", kwargs={"name": "R-1"}))
    assert "Patron error" in listing.content.decode() and "pitboss2" in listing.content.decode()


# --- attachments ------------------------------------------------------------------------------------------


def _png(name="table.png", body=PNG, content_type="image/png"):
    return SimpleUploadedFile(name, body, content_type=content_type)


def test_an_image_and_a_pdf_are_kept_with_their_hash_in_the_chain(settings, staff, incident):
    image = services.incident_attach(incident=incident, added_by=staff.inspector, upload=_png("стол 4.png"))
    document = services.incident_attach(
        incident=incident, added_by=staff.auditor, upload=SimpleUploadedFile("report.txt", PDF, "text/plain")
    )
    assert (image.kind, image.content_type, image.size) == ("image", "image/png", len(PNG))
    assert image.sha256 == hashlib.sha256(PNG).hexdigest() and image.name == "стол 4.png"
    assert (document.kind, document.content_type) == ("document", "application/pdf")  # by content, not name
    assert Path(settings.MEDIA_ROOT, image.file.name).read_bytes() == PNG
    link = RecordLink.objects.filter(relation="dealing_incidentattachment", row_id=image.pk).get()
    assert link.payload["sha256"] == image.sha256 and link.payload["file"] == image.file.name
    assert services.chain_verify().breaks == []


@pytest.mark.parametrize(
    ("upload", "code"),
    [
        (lambda: _png("evil.png", b"<html><script>alert(1)</script></html>"), "bad_type"),
        (lambda: _png("fake.pdf", b"GIF89a" + bytes(20), "application/pdf"), "bad_type"),
        (lambda: _png("big.png", PNG + bytes(2000)), "too_large"),
    ],
)
def test_a_disguised_or_oversized_file_is_refused_and_nothing_stored(settings, staff, incident, upload, code):
    settings.INCIDENT_ATTACHMENT_MAX_BYTES = 1000
    links = RecordLink.objects.count()
    refused(lambda: services.incident_attach(incident=incident, added_by=staff.inspector, upload=upload()), code)
    assert not IncidentAttachment.objects.exists() and RecordLink.objects.count() == links
    assert stored_files(settings) == []


def test_the_upload_page_refuses_html_named_png_and_a_dealer(settings, staff, incident):
    url = reverse("dealing:incident_attach", kwargs={"pk": incident.pk})
    html = _png("photo.png", b"<!doctype html><p>hi</p>")
    response = client_as(staff.inspector).post(url, {"file": html})
    assert response.status_code == 400 and "checked by its content" in response.content.decode()
    assert client_as(staff.dealer).post(url, {"file": _png()}).status_code == 403
    assert client_as(staff.pitboss_c).post(url, {"file": _png()}).status_code == 404
    assert not IncidentAttachment.objects.exists() and stored_files(settings) == []
    assert client_as(staff.inspector).post(url, {"file": _png()}).status_code == 302
    assert IncidentAttachment.objects.count() == 1


def test_a_video_reference_names_a_camera_and_two_times(staff, incident):
    start = dt.datetime(2026, 3, 1, 21, 14, 0, tzinfo=dt.UTC)
    refused(
        lambda: services.incident_video_reference(
            incident=incident, added_by=staff.inspector, camera="CAM-4", start=start, end=start
        ),
        "bad_times",
    )
    refused(
        lambda: services.incident_video_reference(
            incident=incident, added_by=staff.inspector, camera=" ", start=start, end=start
        ),
        "camera_required",
    )
    video = services.incident_video_reference(
        incident=incident, added_by=staff.inspector, camera="CAM-4", start=start, end=start + dt.timedelta(seconds=40)
    )
    assert video.kind == "video" and not video.file and video.sha256 == ""
    assert RecordLink.objects.filter(relation="dealing_incidentattachment", row_id=video.pk).get().payload["camera"]


def test_a_swapped_file_or_an_edited_hash_is_named_by_verify_chain(settings, staff, incident):
    if connection.vendor != "postgresql":
        pytest.skip("the tamper battery runs on PostgreSQL")
    attachment = services.incident_attach(incident=incident, added_by=staff.inspector, upload=_png())
    path = Path(settings.MEDIA_ROOT, attachment.file.name)
    path.write_bytes(PNG + b"edited")
    breaks = services.chain_verify().breaks
    assert any(b.relation == "dealing_incidentattachment" and b.row_id == attachment.pk for b in breaks), breaks
    assert "SHA-256" in str(breaks[0])
    path.write_bytes(PNG)
    assert services.chain_verify().breaks == []
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE dealing_incidentattachment SET sha256 = %s WHERE id = %s",
            [hashlib.sha256(b"other").hexdigest(), attachment.pk],
        )
    breaks = services.chain_verify().breaks
    assert any("dealing_incidentattachment" in str(b) and b.row_id == attachment.pk for b in breaks), breaks
    path.unlink()
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE dealing_incidentattachment SET sha256 = %s WHERE id = %s", [attachment.sha256, attachment.pk]
        )
    breaks = services.chain_verify().breaks
    assert any("missing" in str(b) for b in breaks), breaks


def test_a_download_is_for_the_incidents_readers_only_and_never_inline(staff, incident):
    attachment = services.incident_attach(incident=incident, added_by=staff.inspector, upload=_png("стол 4.png"))
    url = reverse("dealing:incident_attachment", kwargs={"pk": attachment.pk})
    response = client_as(staff.pitboss).get(url)
    assert response.status_code == 200 and b"".join(response.streaming_content) == PNG
    assert response["Content-Type"] == "image/png"
    assert response["X-Content-Type-Options"] == "nosniff"
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment;") and "filename*=UTF-8''%D1%81%D1%82%D0%BE%D0%BB%204.png" in disposition
    for user, code in [
        (staff.auditor, 200),
        (staff.dealer, 200),  # the dealer of the incident reads his own record
        (staff.pitboss_c, 404),  # another pit's pit boss: as if it did not exist
        (staff.inspector_c, 404),
        (staff.trainee, 403),
    ]:
        assert client_as(user).get(url).status_code == code, user
    assert Client().get(url).status_code == 302


# --- the incident's file (PDF) ----------------------------------------------------------------------------


def _pdf_text(body: bytes) -> str:
    from pypdf import PdfReader

    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages).replace("\n", " ")


def test_the_incidents_pdf_lists_the_review_both_reviewers_and_the_attachments(staff, incident):
    attachment = services.incident_attach(incident=incident, added_by=staff.inspector, upload=_png("стол.png"))
    start = dt.datetime(2026, 3, 1, 21, 14, 0, tzinfo=dt.UTC)
    services.incident_video_reference(
        incident=incident, added_by=staff.inspector, camera="CAM-4", start=start, end=start + dt.timedelta(minutes=1)
    )
    classify(incident, staff.pitboss, classification="patron_error", money_direction="lost", money="1250.50")
    services.incident_sign_off(incident=incident, signed_by=staff.auditor)
    url = reverse("dealing:incident_file", kwargs={"pk": incident.pk})
    text = _pdf_text(client_as(staff.auditor).get(url, HTTP_ACCEPT_LANGUAGE="en").content)
    assert "Patron error" in text and "Lost" in text and "1,250.50" in text
    assert "pitboss1" in text and "auditor1" in text
    assert "стол.png" in text and "image/png" in text and str(len(PNG)) in text
    assert attachment.sha256[:32] in text.replace(" ", "")
    assert "CAM-4" in text
    ru = _pdf_text(client_as(staff.auditor).get(url, HTTP_ACCEPT_LANGUAGE="ru").content)
    assert "Ошибка игрока" in ru and "Второй проверяющий" in ru


# --- the API ------------------------------------------------------------------------------------------------


def test_the_api_reviews_signs_off_and_lists_the_file(api, staff, incident):
    base = f"/api/v1/incidents/{incident.pk}/"
    body = {"classification": "equipment", "money_direction": "lost", "money": 75, "reason": "Shoe jammed."}
    assert api(staff.dealer).post(base + "review/", body, format="json").status_code == 403
    bad = api(staff.pitboss).post(base + "review/", {**body, "money": -1}, format="json")
    assert bad.status_code == 400 and not IncidentReview.objects.exists()
    bad = api(staff.pitboss).post(base + "review/", {**body, "classification": "luck"}, format="json")
    assert bad.status_code == 400 and bad.json()["extra"]["code"] == "bad_classification"
    done = api(staff.pitboss).post(base + "review/", body, format="json")
    assert done.status_code == 200 and done.json()["money"] == "75.00" and done.json()["second_by"] is None
    start = "2026-03-01T21:14:00Z"
    video = api(staff.inspector).post(
        base + "videos/", {"camera": "CAM-4", "start": start, "end": "2026-03-01T21:15:00Z"}, format="json"
    )
    assert video.status_code == 201 and video.json()["download"] is None
    assert api(staff.pitboss).post(base + "sign-off/", {}, format="json").status_code == 403
    signed = api(staff.auditor).post(base + "sign-off/", {"comment": "Agreed."}, format="json")
    assert signed.status_code == 200 and signed.json()["second_by"] == "auditor1"
    detail = api(staff.inspector).get(base).json()
    assert detail["review"]["classification"] == "equipment" and detail["review"]["reviewed_by"] == "pitboss1"
    assert [a["camera"] for a in detail["attachments"]] == ["CAM-4"]
    assert api(staff.pitboss_c).post(base + "review/", body, format="json").status_code == 404
