"""The API contract is true (issue 18): the schema says what the lists, fields and statuses are, and
the API refuses what the schema does not allow instead of reading it as something else.

The whole contract is checked against a live server by Schemathesis (.ci/schemathesis.sh); these
are the rules it found broken, each pinned here so that a change shows up in the suite first.
"""

import jsonschema
import pytest
from django.urls import reverse

from casino.roles import AUDITOR, DEALER, TRAINEE

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(client_for):
    return client_for(DEALER).get(reverse("schema"), {"format": "json"}).json()


def _ref(schema, ref: str) -> dict:
    return schema["components"]["schemas"][ref.rsplit("/", 1)[1]]


KEYED = {"/api/v1/findings/", "/api/v1/rounds/"}


@pytest.mark.parametrize("path", ["/api/v1/findings/", "/api/v1/audit-runs/", "/api/v1/rounds/", "/api/v1/shoes/"])
def test_the_paginated_lists_are_documented_as_the_page_objects_they_answer(schema, client_for, floor, path):
    documented = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    page = _ref(schema, documented["$ref"])
    assert page["type"] == "object" and {"count", "next", "previous", "results"} <= set(page["properties"])
    client = client_for(AUDITOR)
    # The two lists that grow with every round answer a plain GET by key (no count, no OFFSET);
    # asked for an offset, every list answers the old page with its count.
    plain = {"next", "previous", "results"} if path in KEYED else {"count", "next", "previous", "results"}
    assert set(client.get(path).json()) == plain
    assert set(client.get(path, {"offset": 0}).json()) == {"count", "next", "previous", "results"}
    names = {p["name"] for p in schema["paths"][path]["get"]["parameters"]}
    assert {"limit", "offset"} <= names


def test_fields_that_may_be_null_are_declared_nullable(schema):
    assert _ref(schema, "#/ShoeDetail")["properties"]["cards_left"]["nullable"] is True  # veintiuno
    assert _ref(schema, "#/Round")["properties"]["shoe"]["nullable"] is True


def test_every_operation_documents_the_statuses_it_can_answer_with_the_error_body(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            responses = operation["responses"]
            codes = set(responses)
            where = f"{method.upper()} {path}"
            assert "503" in codes, where
            if "/auth/token/" not in path:
                assert {"401", "403"} <= codes, where
            if "{id}" in path:
                assert "404" in codes, where
            if "requestBody" in operation:
                assert {"400", "415"} <= codes, where
                assert list(operation["requestBody"]["content"]) == ["application/json"], where
            for code, response in responses.items():
                if code >= "400":
                    assert response["content"]["application/json"]["schema"] == {
                        "$ref": "#/components/schemas/Error"
                    }, (where, code)


@pytest.mark.parametrize("debug", [False, True])
def test_an_unknown_path_under_the_api_is_a_json_404(client_for, settings, debug):
    settings.DEBUG = debug  # Django's own 404 page while DEBUG is on is not used there either
    client = client_for(DEALER)
    for path in ("/api/v1/rounds/-1/", "/api/v1/nowhere", "/api/v1/shoes/null,null/"):
        response = client.get(path)
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert response.json() == {"message": "Not found.", "extra": {"code": "not_found"}}
    page = client.get("/nowhere/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    "query, field",
    [
        ("offset=true", "offset"),
        ("offset=-1", "offset"),
        ("offset=777054650805643911045840896", "offset"),  # past the database's integers: a 500 before
        ("limit=0", "limit"),
        ("limit=ten", "limit"),
        ("table=1&table=2", "table"),
        ("is_open=maybe", "is_open"),
    ],
)
def test_malformed_list_parameters_are_refused_not_read_as_not_given(client_for, floor, query, field):
    response = client_for(AUDITOR).get(f"/api/v1/shoes/?{query}")
    assert response.status_code == 400
    assert list(response.json()["extra"]["fields"]) == [field]


@pytest.mark.parametrize("path", ["/api/v1/shoes/", "/api/v1/notifications/"])
def test_a_malformed_offset_beside_a_page_key_is_refused_though_the_key_decides_the_page(client_for, floor, path):
    """Schemathesis found `?older=&offset=<not a number>` answered 200: the key's page, the offset unread."""
    client = client_for(AUDITOR)
    for query in ("older=&offset=%C3%8C%1B", "older=&offset=-1", "at=&offset=true"):
        response = client.get(f"{path}?{query}")
        assert response.status_code == 400, (path, query)
        assert list(response.json()["extra"]["fields"]) == ["offset"]
    assert client.get(f"{path}?older=&offset=0").status_code == 200  # sound: the key's page, newest first


def test_an_offset_past_any_list_is_refused_on_every_list_that_pages(client_for, floor):
    client = client_for(AUDITOR)
    for path in ("/api/v1/incidents/", "/api/v1/rounds/", "/api/v1/shoes/"):
        assert client.get(path, {"offset": 10**27}).status_code == 400, path
        assert client.get(path, {"offset": 1_000_000_000}).status_code == 200, path


def test_an_id_filter_takes_whole_numbers_and_an_empty_one_is_not_given(client_for, floor):
    client = client_for(AUDITOR)
    assert client.get("/api/v1/stakes/?table=0.5").status_code == 400
    assert client.get("/api/v1/stakes/?table=").status_code == 200
    assert client.get("/api/v1/rounds/?to=&uid=").status_code == 200
    assert client.get("/api/v1/tables/?is_active=AAA").status_code == 400
    assert client.get("/api/v1/tables/?is_active=true").status_code == 200


def test_a_misspelt_status_of_the_ledger_list_is_refused(client_for, floor):
    client = client_for(AUDITOR)
    assert client.get("/api/v1/ledger/sessions/?status=AAA").status_code == 400
    assert client.get("/api/v1/ledger/sessions/?status=").status_code == 200


@pytest.mark.parametrize(
    "body, field",
    [
        ({"only_unaudited": 0}, "only_unaudited"),  # a boolean, not a number
        ({"chunk_size": "5"}, "chunk_size"),  # a whole number, not a string
        ({"chunk_size": 5.0}, "chunk_size"),
        ({"tables": "R-1"}, "tables"),  # a list
        ({"tables": [7]}, "tables"),  # of names
    ],
)
def test_a_json_input_takes_only_its_documented_type(client_for, floor, body, field):
    response = client_for(AUDITOR).post("/api/v1/audit-runs/", body, content_type="application/json")
    assert response.status_code == 400
    assert list(response.json()["extra"]["fields"]) == [field]


def test_a_yes_or_no_is_true_false_or_their_words(client_for, floor):
    client = client_for(AUDITOR)
    for value in (False, "false"):
        response = client.post("/api/v1/audit-runs/", {"only_unaudited": value}, content_type="application/json")
        assert response.status_code == 202, response.json()
        assert response.json()["only_unaudited"] is False


def test_a_review_comment_is_a_string(client_for, floor):
    response = client_for(AUDITOR).post(
        "/api/v1/findings/review/", {"ids": [1], "status": "confirmed", "comment": 7}, content_type="application/json"
    )
    assert response.status_code == 400
    assert "comment" in response.json()["extra"]["fields"]


def test_trainees_do_not_read_the_floors_tables(client_for, floor):
    assert client_for(TRAINEE).get("/api/v1/tables/").status_code == 403
    assert client_for(DEALER).get("/api/v1/tables/").status_code == 200


def test_every_request_example_is_a_body_the_schema_allows(schema):
    """An example the schema refuses is skipped by Schemathesis and refused by the API (the ledger's
    `unit` given as "5", a string, where the body takes a number)."""
    checked = 0
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            for content in operation.get("requestBody", {}).get("content", {}).values():
                for name, example in content.get("examples", {}).items():
                    body = {**content["schema"], "components": schema["components"]}
                    errors = [e.message for e in jsonschema.Draft4Validator(body).iter_errors(example["value"])]
                    assert not errors, f"{method.upper()} {path} {name}: {errors}"
                    checked += 1
    assert checked >= 15  # the rounds, the engine, the math, the books, the ledger, the drills
