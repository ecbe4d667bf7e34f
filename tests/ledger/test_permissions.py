"""Who may use each page and endpoint of the ledger, enforced on the server, role by role.

Readers: dealers and pit bosses of the table's pit, auditors (every pit). Runners (start a night,
draw, log rounds, end it): a pit boss of the pit, or the night's own dealer. Inspectors and
trainees: nothing. A night outside one's pits does not exist (404).
"""

import json

import pytest
from django.test import Client
from knox.models import AuthToken

from ledger.models import BankDraw

from .conftest import deal

pytestmark = pytest.mark.django_db

WHO = ["own_dealer", "dealer", "pit_boss", "auditor", "inspector", "trainee", "outsider", "superuser", "anonymous"]
READ = {"own_dealer", "dealer", "pit_boss", "auditor", "superuser"}
RUN = {"own_dealer", "pit_boss", "superuser"}


@pytest.fixture
def people(casa, floor, make_user):
    users = {
        "own_dealer": casa.dealer,
        "dealer": make_user("dealer", pits=[floor.pit_a]),
        "pit_boss": casa.pit_boss,
        "auditor": casa.auditor,
        "inspector": make_user("inspector", pits=[floor.pit_a]),
        "trainee": make_user("trainee", pits=[floor.pit_a]),
        "outsider": make_user("dealer", pits=[floor.pit_b]),
        "superuser": make_user("superuser"),
        "anonymous": None,
    }
    return users


def page_client(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def api_client(user) -> Client:
    if user is None:
        return Client()
    _token, key = AuthToken.objects.create(user=user)
    return Client(HTTP_AUTHORIZATION=f"Token {key}")


def expected_page(who, allowed, *, hidden_from_outsider=True, ok=200):
    if who == "anonymous":
        return 302
    if who == "outsider" and hidden_from_outsider:
        return 404
    return ok if who in allowed else 403


def expected_api(who, allowed, *, ok=200, hidden_from_outsider=True):
    if who == "anonymous":
        return 401
    if who == "outsider" and hidden_from_outsider:
        return 404
    return ok if who in allowed else 403


@pytest.mark.parametrize("who", WHO)
def test_pages(who, people, night, casa):
    session = night()
    from ledger import services

    services.session_round_add(
        session=session,
        document=deal("Ana", [(1, "Beto", 10, ["KH", "7S"], [{"e": "stand"}])], ["QC", "6D"]),
        logged_by=casa.dealer,
    )
    client = page_client(people[who])
    base = f"/ledger/{session.pk}"
    # Lists and the create form: the night's pit does not come into it.
    listing = client.get("/ledger/")
    assert listing.status_code == expected_page(who, READ | {"outsider"}, hidden_from_outsider=False)
    if listing.status_code == 200:
        assert (session.name in listing.content.decode()) == (who != "outsider")
    assert client.get("/ledger/new/").status_code == expected_page(
        who, RUN | {"dealer", "outsider"}, hidden_from_outsider=False
    )
    # One night's pages.
    assert client.get(f"{base}/").status_code == expected_page(who, READ)
    assert client.get(f"{base}/draw/").status_code == expected_page(who, READ)
    assert client.get(f"{base}/rounds/1/").status_code == expected_page(who, READ)
    assert client.get(f"{base}/rounds/new/").status_code == expected_page(who, RUN)
    status = client.post(f"{base}/rounds/new/", {"action": "check"}).status_code
    assert status == expected_page(who, RUN)
    status = client.post(f"{base}/end/", {"reason": "agreement"}).status_code
    assert status == expected_page(who, RUN, ok=302)
    session.refresh_from_db()
    assert (session.status == "ended") == (who in RUN)


@pytest.mark.parametrize("who", WHO)
def test_starting_a_night_and_drawing(who, people, casa):
    client = page_client(people[who])
    data = {"table": casa.table.pk, "players": "Ana\nBeto", "unit": "5"}
    if who in ("pit_boss", "superuser"):
        data["dealer"] = casa.dealer.pk
    response = client.post("/ledger/new/", data)
    from ledger.models import GameSession

    if who in ("own_dealer", "dealer", "pit_boss", "superuser"):
        assert response.status_code == 302, response.content
        session = GameSession.objects.get()
        assert response["Location"] == f"/ledger/{session.pk}/draw/"
        assert client.post(f"/ledger/{session.pk}/draw/", {"deal": "1"}).status_code == 302
    else:
        assert response.status_code == expected_page(who, set(), hidden_from_outsider=False) or (
            who == "outsider" and response.status_code == 200
        )  # an outsider sees no table of this pit
        assert not GameSession.objects.exists()


@pytest.mark.parametrize("who", WHO)
def test_draw_is_for_runners(who, people, casa):
    from ledger import services

    session = services.session_create(table=casa.table, players=["Ana", "Beto"], unit=5, created_by=casa.dealer)
    response = page_client(people[who]).post(f"/ledger/{session.pk}/draw/", {"deal": "1"})
    assert response.status_code == expected_page(who, RUN, ok=302)
    # One pass dealt (it may be a tie, to be drawn again) — or nothing at all.
    assert BankDraw.objects.filter(session=session).exists() == (who in RUN)


@pytest.mark.parametrize("who", WHO)
def test_endpoints(who, people, night, casa):
    session = night()
    client = api_client(people[who])
    base = f"/api/v1/ledger/sessions/{session.pk}"
    listing = client.get("/api/v1/ledger/sessions/")
    assert listing.status_code == expected_api(who, READ | {"outsider"}, hidden_from_outsider=False)
    if listing.status_code == 200:
        assert [s["id"] for s in listing.json()] == ([] if who == "outsider" else [session.pk])
    assert client.get(f"{base}/").status_code == expected_api(who, READ)
    doc = deal("Ana", [(1, "Beto", 10, ["KH", "7S"], [{"e": "stand"}])], ["QC", "6D"])
    body = json.dumps(doc, default=str)
    status = client.post(f"{base}/rounds/", body, content_type="application/json").status_code
    assert status == expected_api(who, RUN, ok=201)
    status = client.post(f"{base}/end/", {"reason": "agreement"}, content_type="application/json").status_code
    assert status == expected_api(who, RUN)
    create = {"table": "Casa-21", "players": ["Ana", "Beto"], "unit": 5}
    if who in ("pit_boss", "superuser"):
        create["dealer"] = "dealer1"
    status = client.post("/api/v1/ledger/sessions/create/", create, content_type="application/json").status_code
    allowed = {"own_dealer", "dealer", "pit_boss", "superuser"}
    if who == "outsider":
        assert status == 400  # no table of that name in his pits
    else:
        assert status == expected_api(who, allowed, ok=201, hidden_from_outsider=False)
