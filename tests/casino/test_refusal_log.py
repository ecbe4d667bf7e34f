"""A refusal (403) writes one log line — who, what, why — instead of a traceback."""

import logging

import pytest
from django.test import Client
from django.urls import reverse

from casino.roles import DEALER, INSPECTOR, TRAINEE
from tests.dealing.conftest import deal_round, post_json

pytestmark = pytest.mark.django_db


@pytest.fixture
def refusals(caplog):
    """The records of the loggers that write a 403, as they leave the logger (after its filters)."""
    caplog.set_level(logging.INFO)
    return lambda: [r for r in caplog.records if r.name in ("django.request", "django.security.csrf")]


def _one_line(records) -> str:
    assert len(records) == 1, [r.getMessage() for r in records]
    record = records[0]
    assert record.levelno == logging.WARNING
    assert record.exc_info is None and record.exc_text is None and record.stack_info is None
    text = logging.Formatter("%(levelname)s %(name)s: %(message)s").format(record)
    assert "Traceback" not in text and "\n" not in text
    return record.getMessage()


def test_a_page_refused_to_a_role_writes_one_line(client_for, floor, refusals):
    client = client_for(DEALER)
    assert client.get(reverse("audit:dashboard")).status_code == 403
    assert _one_line(refusals()) == (
        f"Forbidden: GET /audit/ by {client.user.username} from 127.0.0.1: Your role does not give access to this page."
    )


def test_a_page_refused_for_another_pit_says_why(client_for, floor, refusals):
    client = client_for(DEALER, pits=[floor.pit_a])
    assert client.get(reverse("dealing:shoe", kwargs={"name": "R-2"})).status_code == 403
    assert _one_line(refusals()) == (
        f"Forbidden: GET /tables/R-2/shoe/ by {client.user.username} from 127.0.0.1: Table R-2 is not in your pits."
    )


def test_an_api_refusal_writes_one_line_with_the_answers_message(client_for, floor, refusals):
    client = client_for(DEALER)
    response = client.get(reverse("api:drill-standard-list"))
    assert response.status_code == 403
    assert _one_line(refusals()) == (
        f"Forbidden: GET /api/v1/drills/standards/ by {client.user.username} from "
        f"127.0.0.1: {response.json()['message']}"
    )


def test_a_refusal_of_the_rules_of_the_house_writes_one_line(client_for, floor, refusals):
    client = client_for(DEALER, pits=[floor.pit_a])
    doc = deal_round(floor.table_b, dealer=client.user.username)
    response = post_json(client, "/api/v1/rounds/", doc)
    assert response.status_code == 403
    message = response.json()["message"]
    assert "R-2" in message
    assert _one_line(refusals()) == (
        f"Forbidden: POST /api/v1/rounds/ by {client.user.username} from 127.0.0.1: {message}"
    )


def test_an_anonymous_or_csrf_refusal_writes_one_line(client_for, floor, refusals):
    user = client_for(INSPECTOR).user
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.post(reverse("dealing:incident_new"), {"table": floor.table_a.pk}).status_code == 403
    line = _one_line(refusals())
    assert line.startswith(f"Forbidden: POST /incidents/new by {user.username} from 127.0.0.1: Forbidden (CSRF")


def test_a_path_cannot_forge_a_second_line(client_for, floor, refusals):
    client = client_for(TRAINEE)
    assert client.get("/tables/x%0AWARNING forged/shoe/").status_code == 403
    line = _one_line(refusals())
    assert line.startswith("Forbidden: GET /tables/x\\nWARNING forged/shoe/ by ")
