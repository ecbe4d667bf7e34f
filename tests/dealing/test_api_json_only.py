"""The API reads JSON only: a text/plain or form-encoded body is refused with 415 in the error
shape, also on the endpoints that read the raw body (rounds, amendments, the engine); the schema
says so."""

from urllib.parse import urlencode

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from dealing.models import Incident, Round
from tests.dealing.conftest import post_json, to_json

pytestmark = pytest.mark.django_db


def _assert_415(response):
    assert response.status_code == 415, response.content
    body = response.json()
    assert set(body) == {"message", "extra"}
    assert body["extra"] == {"code": "unsupported_media_type"}


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "", "text/json"])
def test_a_round_not_sent_as_json_is_refused_and_not_stored(api, staff, tables, deal, content_type):
    body = to_json(deal(tables.ochko, seed=3))
    response = api(staff.dealer).generic("POST", "/api/v1/rounds/", body, content_type=content_type)
    _assert_415(response)
    assert not Round.objects.exists()


def test_a_round_sent_as_json_with_a_charset_is_logged(api, staff, tables, deal):
    body = to_json(deal(tables.ochko, seed=3))
    response = api(staff.dealer).generic(
        "POST", "/api/v1/rounds/", body, content_type="Application/JSON; charset=utf-8"
    )
    assert response.status_code == 201, response.json()


def test_the_engine_and_an_amendment_read_json_only(api, staff, tables, deal, logged):
    client = api(staff.dealer)
    doc = deal(tables.ochko, seed=3)
    _assert_415(client.generic("POST", "/api/v1/engine/settle", to_json(doc), content_type="text/plain"))
    record = logged(tables.ochko, staff.dealer)
    amend = {"reason": "wrong payout", "document": doc}
    _assert_415(client.generic("POST", f"/api/v1/rounds/{record.pk}/amend/", to_json(amend), content_type="text/plain"))


def test_a_form_encoded_incident_is_refused(api, staff, tables):
    form = {
        "table": tables.ochko.pk,
        "kind": "dealer_card_exposed",
        "card": "10h",
        "exposed": "true",
        "resolution": "burned",
        "dealer": "dealer1",
        "evidence": "CAM-2",
    }
    client = api(staff.inspector)
    _assert_415(
        client.generic("POST", "/api/v1/incidents/", urlencode(form), content_type="application/x-www-form-urlencoded")
    )
    _assert_415(client.post("/api/v1/incidents/", form, format="multipart"))
    assert not Incident.objects.exists()
    assert post_json(client, "/api/v1/incidents/", form).status_code == 201  # the same as JSON


def test_a_browser_session_gets_the_same_415(staff, tables):
    client = Client()
    client.force_login(staff.dealer)
    response = client.post("/api/v1/rounds/", "round", content_type="text/plain")
    _assert_415(response)


def test_the_schema_declares_415_and_503():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    operations = [(path, method, op) for path, ops in schema["paths"].items() for method, op in ops.items()]
    log = schema["paths"]["/api/v1/rounds/"]["post"]["responses"]
    assert log["415"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    assert "Retry-After" in log["503"]["headers"]
    for path, method, op in operations:
        assert "503" in op["responses"], (path, method)
        assert ("415" in op["responses"]) == ("requestBody" in op), (path, method)
