"""The audit API: findings (filters, detail, review, bulk review) and audit runs (start, progress).
Errors are {"message", "extra"}; amounts are decimal strings."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from audit.models import AuditRun, Finding, Review

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def audited(people, floor, log_rounds, eager):
    log_rounds(floor.table_a, people.dealer, n=30, seed=71, mistake_rate=0.6)
    log_rounds(floor.table_b, people.other_dealer, n=10, seed=72, mistake_rate=0.6)
    return Finding.objects.all()


def test_the_list_is_paginated_and_filtered(people, floor, audited):
    client = api(people.auditor)
    body = client.get(reverse("api:finding-list"), {"limit": 5}).json()
    assert body["count"] == audited.count() and len(body["results"]) == 5 and body["next"]
    row = body["results"][0]
    assert set(row) >= {
        "id",
        "round",
        "round_uid",
        "shoe",
        "pit",
        "table",
        "dealer",
        "played_at",
        "code",
        "severity",
        "event",
        "stake",
        "hand",
        "wager",
        "expected",
        "actual",
        "player_delta",
        "message",
        "engine_version",
        "status",
        "classification",
        "reviewed_by",
        "reviewed_at",
        "replay_url",
        "params",
    }
    assert row["player_delta"] is None or isinstance(row["player_delta"], str)
    assert row["params"].get("rule")  # the sentence's values (docs/findings.md), as the audit stored them
    codes = sorted(set(audited.values_list("code", flat=True)))[:2]
    body = client.get(reverse("api:finding-list") + f"?code={codes[0]}&code={codes[1]}&limit=1000").json()
    assert {r["code"] for r in body["results"]} == set(codes)
    assert body["count"] == audited.filter(code__in=codes).count()
    body = client.get(reverse("api:finding-list"), {"table": floor.table_b.pk, "limit": 1000}).json()
    assert {r["table"] for r in body["results"]} == {"R-2"}
    body = client.get(reverse("api:finding-list"), {"impact": "over", "limit": 1000}).json()
    assert all(float(r["player_delta"]) > 0 for r in body["results"])
    assert body["count"] == audited.filter(player_delta__gt=0).count()
    body = client.get(reverse("api:finding-list"), {"dealer": people.other_dealer.pk, "limit": 1000}).json()
    assert {r["dealer"] for r in body["results"]} == {"dealer-b"}


def test_bad_filters_are_a_400_naming_the_field(people, audited):
    response = api(people.auditor).get(reverse("api:finding-list"), {"severity": "catastrophic", "date_from": "x"})
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"message", "extra"} and {"severity", "date_from"} <= set(body["extra"]["fields"])


def test_detail_review_and_history(people, audited):
    finding = audited.first()
    client = api(people.auditor)
    url = reverse("api:finding-review", args=[finding.pk])
    response = client.post(
        url, {"status": "confirmed", "classification": "dealer_error", "comment": "ok"}, format="json"
    )
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["classification"], body["reviewed_by"]) == ("confirmed", "dealer_error", "auditor")
    assert [r["comment"] for r in body["reviews"]] == ["ok"]
    response = client.post(url, {"status": "dismissed", "classification": "no_error"}, format="json")
    assert response.status_code == 400 and "comment" in response.json()["extra"]["fields"]
    response = client.post(url, {"status": "sideways"}, format="json")
    assert response.status_code == 400 and "status" in response.json()["extra"]["fields"]
    assert (
        client.post(reverse("api:finding-review", args=[10**8]), {"status": "open"}, format="json").status_code == 404
    )
    detail = client.get(reverse("api:finding-detail", args=[finding.pk])).json()
    assert len(detail["reviews"]) == 1 and detail["replay_url"] == reverse(
        "audit:round_replay", args=[finding.round_id]
    )


def test_bulk_review(people, audited):
    ids = list(audited.values_list("pk", flat=True)[:4])
    client = api(people.auditor)
    response = client.post(
        reverse("api:finding-bulk-review"),
        {"ids": ids, "status": "dismissed", "classification": "player_dispute", "comment": "settled at the cage"},
        format="json",
    )
    assert response.status_code == 200
    body = response.json()
    assert body["reviewed"] == 4 and {f["status"] for f in body["findings"]} == {"dismissed"}
    assert Review.objects.filter(finding_id__in=ids, comment="settled at the cage").count() == 4
    response = client.post(reverse("api:finding-bulk-review"), {"ids": ids + [10**8], "status": "open"}, format="json")
    assert response.status_code == 404 and response.json()["extra"]["ids"] == [10**8]
    assert Review.objects.count() == 4  # all or nothing
    response = client.post(reverse("api:finding-bulk-review"), {"ids": [], "status": "open"}, format="json")
    assert response.status_code == 400 and "ids" in response.json()["extra"]["fields"]


def test_starting_a_run_and_reading_its_progress(people, floor, audited, django_capture_on_commit_callbacks):
    client = api(people.auditor)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("api:audit-run-list"),
            {"tables": ["R-1"], "dealers": ["dealer-a"], "only_unaudited": False, "chunk_size": 7},
            format="json",
        )
    assert response.status_code == 202
    run_id = response.json()["id"]
    body = client.get(reverse("api:audit-run-detail", args=[run_id])).json()
    assert body["status"] == "done" and body["percent"] == 100 and body["planned"]
    assert (body["rounds_total"], body["rounds_done"]) == (30, 30)
    assert body["tables"] == ["R-1"] and body["dealers"] == ["dealer-a"] and body["trigger"] == "api"
    assert body["findings_total"] == Finding.objects.filter(table=floor.table_a).count()
    assert sum(body["findings_by_code"].values()) == body["findings_total"]
    assert body["clean"] + body["with_findings"] + body["errors"] == 30
    listing = client.get(reverse("api:audit-run-list")).json()
    assert listing["count"] == 1 and listing["results"][0]["id"] == run_id


def test_a_run_with_an_unknown_table_or_bad_dates_is_refused(people, audited):
    client = api(people.auditor)
    response = client.post(reverse("api:audit-run-list"), {"tables": ["Nowhere"]}, format="json")
    assert response.status_code == 400 and "tables" in response.json()["extra"]["fields"]
    response = client.post(
        reverse("api:audit-run-list"), {"date_from": "2026-05-02", "date_to": "2026-05-01"}, format="json"
    )
    assert response.status_code == 400 and "date_to" in response.json()["extra"]["fields"]
    assert not AuditRun.objects.exists()


def test_the_schema_builds_with_the_audit_endpoints(people, db):
    response = api(people.auditor).get(reverse("schema"), {"format": "json"})
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in (
        "/api/v1/findings/",
        "/api/v1/findings/{id}/",
        "/api/v1/findings/{id}/review/",
        "/api/v1/findings/review/",
        "/api/v1/audit-runs/",
        "/api/v1/audit-runs/{id}/",
    ):
        assert path in paths, path
