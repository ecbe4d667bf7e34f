"""Every dealing endpoint × every role: allowed (2xx), refused (403), anonymous (401) — checked on
the server, in the one error shape."""

import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from dealing import services
from tests.dealing.conftest import deal_round, to_json

pytestmark = pytest.mark.django_db

READERS = {"dealer", "inspector", "pit_boss", "auditor"}
EVERY_ROLE = READERS | {"trainee"}


@dataclass
class World:
    shoe: object
    round: object
    pending: object  # a correction awaiting a pit boss
    incident: object
    tables: object


@pytest.fixture
def world(staff, tables):
    shoe = services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    record, _ = services.round_log(document=deal_round(tables.ochko, seed=1), logged_by=staff.dealer)
    other, _ = services.round_log(document=deal_round(tables.ochko, seed=2), logged_by=staff.dealer)
    fixed = deal_round(tables.ochko, seed=3)
    fixed["id"] = str(other.uid)
    pending = services.round_amend(round=other, document=fixed, amended_by=staff.dealer, reason="wrong sheet")
    incident = services.incident_report(
        table=tables.ochko,
        kind="dealer_card_exposed",
        card="KH",
        exposed=True,
        resolution="burned",
        dealer=staff.dealer,
        reported_by=staff.inspector,
    )
    return World(shoe, record, pending, incident, tables)


@dataclass
class Endpoint:
    name: str
    method: str
    url: Callable
    roles: set
    ok: int = 200
    body: Callable = lambda w: None


def _round_body(w):
    return to_json(deal_round(w.tables.ochko, seed=9))


def _amend_body(w):
    doc = deal_round(w.tables.ochko, seed=10)
    doc["id"] = str(w.round.uid)
    return to_json({"reason": "wrong sheet", "document": doc})


ENDPOINTS = [
    Endpoint("shoes list", "get", lambda w: "/api/v1/shoes/", READERS),
    Endpoint("shoe detail", "get", lambda w: f"/api/v1/shoes/{w.shoe.pk}/", READERS),
    Endpoint(
        "shoe start",
        "post",
        lambda w: "/api/v1/shoes/",
        {"dealer", "pit_boss"},
        201,
        lambda w: to_json({"table": w.tables.ochko.pk}),
    ),
    Endpoint("shoe end", "post", lambda w: f"/api/v1/shoes/{w.shoe.pk}/end/", {"dealer", "pit_boss"}),
    Endpoint(
        "burn",
        "post",
        lambda w: f"/api/v1/shoes/{w.shoe.pk}/burns/",
        {"dealer", "inspector", "pit_boss"},
        201,
        lambda w: to_json({"card": "AS", "reason": "load"}),
    ),
    Endpoint(
        "dealer change",
        "post",
        lambda w: f"/api/v1/shoes/{w.shoe.pk}/dealer-changes/",
        {"dealer", "inspector", "pit_boss"},
        201,
        lambda w: to_json({"dealer": "dealer2"}),
    ),
    Endpoint("rounds list", "get", lambda w: "/api/v1/rounds/", READERS),
    Endpoint("round log", "post", lambda w: "/api/v1/rounds/", {"dealer", "pit_boss"}, 201, _round_body),
    Endpoint("round detail", "get", lambda w: f"/api/v1/rounds/{w.round.pk}/", READERS),
    Endpoint(
        "round amend", "post", lambda w: f"/api/v1/rounds/{w.round.pk}/amend/", {"dealer", "pit_boss"}, 201, _amend_body
    ),
    Endpoint(
        "round approve",
        "post",
        lambda w: f"/api/v1/rounds/{w.pending.pk}/approve/",
        {"pit_boss"},
        200,
        lambda w: to_json({"comment": "ok"}),
    ),
    Endpoint(
        "round reject",
        "post",
        lambda w: f"/api/v1/rounds/{w.pending.pk}/reject/",
        {"pit_boss"},
        200,
        lambda w: to_json({"comment": "not so"}),
    ),
    Endpoint("stakes", "get", lambda w: "/api/v1/stakes/", READERS),
    Endpoint("incidents list", "get", lambda w: "/api/v1/incidents/", READERS),
    Endpoint("incident detail", "get", lambda w: f"/api/v1/incidents/{w.incident.pk}/", READERS),
    Endpoint(
        "incident report",
        "post",
        lambda w: "/api/v1/incidents/",
        {"inspector", "pit_boss"},
        201,
        lambda w: to_json(
            {
                "table": w.tables.ochko.pk,
                "kind": "misdrawn_card",
                "card": "7S",
                "exposed": False,
                "resolution": "under_shoe",
                "dealer": "dealer1",
            }
        ),
    ),
    Endpoint("incident approve", "post", lambda w: f"/api/v1/incidents/{w.incident.pk}/approve/", {"pit_boss"}),
    Endpoint(
        "incident reject",
        "post",
        lambda w: f"/api/v1/incidents/{w.incident.pk}/reject/",
        {"pit_boss"},
        200,
        lambda w: to_json({"comment": "no clip"}),
    ),
    Endpoint(
        "engine settle",
        "post",
        lambda w: "/api/v1/engine/settle",
        EVERY_ROLE,
        200,
        lambda w: to_json(deal_round(w.tables.ochko, seed=11)),
    ),
]
USERS = {
    "dealer": "dealer",
    "inspector": "inspector",
    "pit_boss": "pitboss",
    "auditor": "auditor",
    "trainee": "trainee",
    "superuser": "admin",
    "no role": "nobody",
}


def _call(client, endpoint, world):
    url = endpoint.url(world)
    if endpoint.method == "get":
        return client.get(url)
    body = endpoint.body(world)
    return client.post(url, data=body or "{}", content_type="application/json")


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[e.name for e in ENDPOINTS])
@pytest.mark.parametrize("role", [*USERS, "anonymous"])
def test_each_role_gets_what_it_may(api, staff, world, endpoint, role):
    user = None if role == "anonymous" else getattr(staff, USERS[role])
    response = _call(api(user), endpoint, world)
    body = response.json()
    if role == "anonymous":
        assert response.status_code == 401, body
    elif role == "superuser" or role in endpoint.roles:
        assert response.status_code == endpoint.ok, body
    else:
        assert response.status_code == 403, body
    if response.status_code >= 400:
        assert set(body) == {"message", "extra"}


def test_the_token_endpoint_is_open_and_the_token_works(api, staff):
    anonymous = api()
    response = anonymous.post("/api/v1/auth/token/", {"username": "dealer1", "password": "demo"}, format="json")
    assert response.status_code == 200
    token = response.json()["token"]
    # Each login is a new token (knox; issue 18), which expires.
    again = anonymous.post("/api/v1/auth/token/", {"username": "dealer1", "password": "demo"}, format="json").json()
    assert again["token"] != token and again["expiry"]
    client = api()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/v1/rounds/").status_code == 200
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert client.get("/api/v1/rounds/").status_code == 401


@pytest.mark.parametrize(
    "body",
    [
        {"username": "dealer1", "password": "wrong"},
        {"username": "nobody-at-all", "password": "demo"},
        {"username": "dealer1"},
        '{"username": "\\ud800", "password": "demo"}',  # an unpaired surrogate, as JSON may carry it
        '{"username": "dealer1\\u0000", "password": "demo"}',
        "[1, 2]",
    ],
)
def test_bad_credentials_get_no_token(api, staff, body):
    body = body if isinstance(body, str) else json.dumps(body)
    response = api().post("/api/v1/auth/token/", body, content_type="application/json")
    assert response.status_code == 400
    assert set(response.json()) == {"message", "extra"}


def test_an_inactive_user_gets_no_token(api, staff):
    staff.dealer.is_active = False
    staff.dealer.save()
    response = api().post("/api/v1/auth/token/", {"username": "dealer1", "password": "demo"}, format="json")
    assert response.status_code == 400
