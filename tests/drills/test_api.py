"""The drills API, role by role: start, next, answer, results; standards; the error shape; the schema."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, TRAINEE
from drills import payout
from drills.models import CertificationStandard, Drill
from tests.factories import DrillFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def api_for(make_user, floor):
    def make(role, pits=None):
        client = APIClient()
        if role is None:
            return client
        user = make_user(role, pits=floor.pits if pits is None else pits)
        client.force_authenticate(user)
        client.user = user
        return client

    return make


def _start(client, **data):
    return client.post(reverse("api:drill-start"), {"variant": "ochko", "kind": "payout", **data}, format="json")


def test_start_is_for_trainees(api_for):
    response = _start(api_for(TRAINEE), rounds=2, seed=99, options={"boxes": 3})
    assert response.status_code == 201
    body = response.json()
    assert body["seed"] == 99 and body["rounds_planned"] == 2 and body["options"]["boxes"] == 3
    assert body["table_min"] == "100.00" and body["chips"][0] == "1"
    for role in (DEALER, INSPECTOR, PIT_BOSS, AUDITOR):
        refused = _start(api_for(role))
        assert refused.status_code == 403
        assert set(refused.json()) == {"message", "extra"}
    assert _start(api_for(None)).status_code == 401


def test_bad_input_gets_the_one_error_shape(api_for):
    client = api_for(TRAINEE)
    response = _start(client, variant="poker")
    assert response.status_code == 400
    assert response.json()["message"] and "variant" in response.json()["extra"]["fields"]
    response = _start(client, variant="blackjack", preset="")
    assert response.status_code == 400 and response.json()["extra"] == {"field": "preset"}
    assert not Drill.objects.exists()


def test_a_payout_round_through_the_api(api_for):
    client = api_for(TRAINEE)
    drill_id = _start(client, rounds=1, seed=5).json()["id"]
    nxt = client.post(reverse("api:drill-next", args=[drill_id]))
    assert nxt.status_code == 200
    body = nxt.json()
    assert body["round"] == 1 and body["sheet"] and body["chips"] and body["table"]["spots"]
    cards = [c for s in body["table"]["spots"] for h in s["hands"] for c in h["cards"]]
    assert cards and all(c["code"] for c in cards)  # the payout table: every card face up
    doc = Drill.objects.get(pk=drill_id).rounds.get().doc
    answers = payout.simulated_answers(doc)
    answers[0] = {**answers[0], "result": "pay", "amount": "12345"}
    answered = client.post(
        reverse("api:drill-answer", args=[drill_id]), {"round": 1, "answers": answers}, format="json"
    )
    assert answered.status_code == 200, answered.json()
    body = answered.json()
    assert body["correct"] is False and body["round_done"] and body["finished"]
    first = body["graded"]["answers"][0]
    assert not first["correct"] and first["findings"][0]["message"] and first["right"]["result"]
    results = client.get(reverse("api:drill-results", args=[drill_id])).json()
    assert results["rounds"] == 1 and results["accuracy"] is not None and results["mistakes"]
    again = client.post(reverse("api:drill-answer", args=[drill_id]), {"answers": answers}, format="json")
    assert again.status_code == 409 and again.json()["message"]


def test_a_superuser_plays_the_drill_he_started(api_for):
    """A superuser holds every role, the trainee's too: the drill he starts is his to deal, answer
    and read, and it is listed (it answered 404 after the 201, found by Schemathesis)."""
    client = api_for("superuser")
    drill_id = _start(client, rounds=1, seed=5).json()["id"]
    assert client.post(reverse("api:drill-next", args=[drill_id])).status_code == 200
    assert client.get(reverse("api:drill-results", args=[drill_id])).status_code == 200
    assert drill_id in [d["id"] for d in client.get(reverse("api:drill-list")).json()]


def test_payout_answers_with_bad_fields_are_refused_with_the_field(api_for):
    client = api_for(TRAINEE)
    drill_id = _start(client, rounds=1).json()["id"]
    client.post(reverse("api:drill-next", args=[drill_id]))
    response = client.post(
        reverse("api:drill-answer", args=[drill_id]),
        {"answers": [{"stake": "1a", "wager": "ante", "result": "give"}]},
        format="json",
    )
    assert response.status_code == 400 and "answers[0]" in response.json()["extra"]["fields"]
    response = client.post(reverse("api:drill-answer", args=[drill_id]), {"answers": []}, format="json")
    assert response.status_code == 400


def test_a_procedure_step_through_the_api(api_for):
    client = api_for(TRAINEE)
    drill_id = _start(client, kind="procedure", rounds=1, seed=3).json()["id"]
    body = client.post(reverse("api:drill-next", args=[drill_id])).json()
    assert body["step"] == 0 and body["prompt"] and len(body["choices"]) >= 2
    assert set(body["choices"][0]) == {"key", "label"}  # which move is right is not told
    step = Drill.objects.get(pk=drill_id).rounds.get().script["steps"][0]
    right = next(c["key"] for c in step["choices"] if c["correct"])
    answered = client.post(reverse("api:drill-answer", args=[drill_id]), {"step": 0, "choice": right}, format="json")
    assert answered.status_code == 200 and answered.json()["correct"] is True
    assert client.post(reverse("api:drill-next", args=[drill_id])).json()["step"] == 1
    assert (
        client.post(
            reverse("api:drill-answer", args=[drill_id]), {"step": 0, "choice": right}, format="json"
        ).status_code
        == 409
    )
    assert client.post(reverse("api:drill-answer", args=[drill_id]), {}, format="json").status_code == 400


@pytest.mark.parametrize("role", [DEALER, INSPECTOR, PIT_BOSS, AUDITOR])
def test_only_trainees_deal_and_answer(api_for, make_user, floor, role):
    drill = DrillFactory(trainee=make_user(TRAINEE, pits=floor.pits))
    client = api_for(role)
    assert client.post(reverse("api:drill-next", args=[drill.pk])).status_code == 403
    assert client.post(reverse("api:drill-answer", args=[drill.pk]), {"choice": "1"}, format="json").status_code == 403
    assert api_for(None).post(reverse("api:drill-next", args=[drill.pk])).status_code == 401


def test_nobody_plays_another_trainees_drill(api_for, make_user, floor):
    owner = api_for(TRAINEE)
    drill_id = _start(owner, rounds=1).json()["id"]
    other = api_for(TRAINEE)
    assert other.post(reverse("api:drill-next", args=[drill_id])).status_code == 404
    assert other.post(reverse("api:drill-answer", args=[drill_id]), {"answers": [{}]}, format="json").status_code == 404
    assert other.get(reverse("api:drill-results", args=[drill_id])).status_code == 404


@pytest.mark.parametrize(
    "role, pits, status",
    [
        (TRAINEE, "a", 200),  # the trainee himself (below)
        (PIT_BOSS, "a", 200),  # the pit boss of the trainee's pit
        (PIT_BOSS, "b", 404),  # a pit boss of another pit
        (AUDITOR, "none", 200),  # auditors read all
        (DEALER, "a", 403),
        (INSPECTOR, "a", 403),
        (None, "a", 401),
    ],
)
def test_results_per_role(api_for, make_user, floor, role, pits, status):
    trainee = make_user(TRAINEE, pits=[floor.pit_a])
    drill = DrillFactory(trainee=trainee)
    if role == TRAINEE:
        client = APIClient()
        client.force_authenticate(trainee)
    else:
        client = api_for(role, pits={"a": [floor.pit_a], "b": [floor.pit_b], "none": []}[pits])
    assert client.get(reverse("api:drill-results", args=[drill.pk])).status_code == status
    listed = client.get(reverse("api:drill-list"))
    if status == 200:
        assert [d["id"] for d in listed.json()] == [drill.pk]
    elif status == 404:
        assert listed.json() == []


def test_standards_set_by_pit_bosses_read_by_auditors(api_for):
    data = {
        "variant": "blackjack",
        "preset": "salon",
        "kind": "payout",
        "rounds_in_row": 50,
        "min_accuracy": "98",
        "time_limit_s": 45,
    }
    boss = api_for(PIT_BOSS)
    response = boss.post(reverse("api:drill-standard-set"), data, format="json")
    assert response.status_code == 201 and response.json()["set_by"] == boss.user.username
    for role in (AUDITOR, TRAINEE, DEALER, INSPECTOR):
        assert api_for(role).post(reverse("api:drill-standard-set"), data, format="json").status_code == 403
    assert CertificationStandard.objects.count() == 1
    listed = api_for(AUDITOR).get(reverse("api:drill-standard-list"))
    assert listed.status_code == 200 and listed.json()[0]["min_accuracy"] == "98.00"
    assert api_for(TRAINEE).get(reverse("api:drill-standard-list")).status_code == 403
    bad = boss.post(reverse("api:drill-standard-set"), {**data, "min_accuracy": "101"}, format="json")
    assert bad.status_code == 400 and "min_accuracy" in bad.json()["extra"]["fields"]


def test_the_schema_renders_with_the_drill_endpoints(api_for):
    response = api_for(AUDITOR).get(reverse("schema"), HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    paths = response.json()["paths"] if response["Content-Type"].endswith("json") else response.content.decode()
    for path in (
        "/api/v1/drills/start/",
        "/api/v1/drills/{id}/next/",
        "/api/v1/drills/{id}/answer/",
        "/api/v1/drills/{id}/results/",
    ):
        assert path in paths


def test_an_answer_before_the_round_is_dealt_is_a_documented_409(api_for):
    """Answering before asking for the next round: 409 with the reason, a status the API's schema
    lists for the operation (Schemathesis found it undocumented)."""
    client = api_for(TRAINEE)
    drill_id = _start(client, kind="procedure", rounds=1, seed=3).json()["id"]
    response = client.post(reverse("api:drill-answer", args=[drill_id]), {"step": 0, "choice": "N"}, format="json")
    assert response.status_code == 409
    assert "ask for the next round first" in response.json()["message"]
    schema = client.get(reverse("schema"), {"format": "json"}).json()
    assert "409" in schema["paths"]["/api/v1/drills/{id}/answer/"]["post"]["responses"]
