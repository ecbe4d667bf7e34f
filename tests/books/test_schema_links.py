"""The schema's OpenAPI links (casino/schema_links.py) name where an id comes from, and following one
reaches the write: Schemathesis's stateful phase (.ci/schemathesis.sh) walks them with real ids."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def _pointer(body, expression: str):
    """The value a `$response.body#/...` expression names in `body`."""
    for part in expression.split("#/", 1)[1].split("/"):
        body = body[int(part)] if isinstance(body, list) else body[part]
    return body


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _links(schema, method, path, code):
    return schema["paths"][path][method]["responses"][code]["links"]


def test_a_transfer_request_links_to_its_approval_and_following_it_approves(crew, open_shift):
    shift = open_shift()
    schema = _client(crew.dealer).get(reverse("schema"), {"format": "json"}).json()
    links = _links(schema, "post", "/api/v1/books/shifts/{id}/transfers/", "201")
    approve = links["v1_books_shifts_transfers_approve_create"]["parameters"]
    assert approve == {"event": "$response.body#/event", "id": "$request.path.id"}
    requested = _client(crew.dealer).post(
        f"/api/v1/books/shifts/{shift.pk}/transfers/", {"kind": "fill", "counts": {"100": 10}}, format="json"
    )
    assert requested.status_code == 201
    event = _pointer(requested.json(), approve["event"])
    assert [e["id"] for e in requested.json()["events"] if e["status"] == "requested"] == [event]
    approved = _client(crew.pit_boss).post(f"/api/v1/books/shifts/{shift.pk}/transfers/{event}/approve/")
    assert approved.status_code == 200
    assert [e["status"] for e in approved.json()["events"] if e["id"] == event] == ["approved"]


def test_the_shift_list_links_to_the_shift_writes_with_an_id_that_exists(crew, open_shift):
    shift = open_shift()
    schema = _client(crew.dealer).get(reverse("schema"), {"format": "json"}).json()
    links = _links(schema, "get", "/api/v1/books/shifts/", "200")
    cash = links["v1_books_shifts_cash_create"]["parameters"]
    listed = _client(crew.dealer).get("/api/v1/books/shifts/", {"status": "open"}).json()
    assert _pointer(listed, cash["id"]) == shift.pk
    sold = _client(crew.dealer).post(
        f"/api/v1/books/shifts/{_pointer(listed, cash['id'])}/cash/",
        {"kind": "chips_sold", "amount": "2500"},
        format="json",
    )
    assert sold.status_code == 201


def test_every_link_names_an_operation_of_the_schema_and_each_of_its_path_parameters(crew):
    schema = _client(crew.dealer).get(reverse("schema"), {"format": "json"}).json()
    operations = {
        op["operationId"]: {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
        for item in schema["paths"].values()
        for method, op in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    }
    found = 0
    for item in schema["paths"].values():
        for op in item.values():
            for response in op.get("responses", {}).values() if isinstance(op, dict) else ():
                for link in response.get("links", {}).values():
                    assert set(link["parameters"]) == operations[link["operationId"]]
                    found += 1
    assert found >= 30  # the books, the ledger, the drills and the signals
