"""/api/v1/math/ochko/: the engine's documents, and a bad question a 400 naming its field."""

import pytest
from django.urls import reverse

from casino.roles import ROLES
from dealing.engine.ochko import math as ochko

pytestmark = pytest.mark.django_db

EDGE = reverse("api:math-ochko-edge")
STRATEGY = reverse("api:math-ochko-strategy")
EV = reverse("api:math-ochko-ev")


def _post(client, body):
    return client.post(EV, body, content_type="application/json")


@pytest.mark.parametrize(
    "body, args",
    [
        ({"cards": ["TS", "6H"], "dealer": "9C", "bet": 10}, (["TS", "6H"], "9C", 10, (), None)),
        ({"cards": ["10S", "6H"], "dealer": "9C"}, (["TS", "6H"], "9C", None, (), None)),
        ({"cards": ["AS"]}, (["AS"], None, None, (), None)),
        (
            {"cards": ["7S", "7H"], "dealer": "AC", "bet": 3, "rules": {"dark_double_bust_bet": "take"}},
            (["7S", "7H"], "AC", 3, (), {"dark_double_bust_bet": "take"}),
        ),
        (
            {"cards": ["KS", "QH", "6D"], "dealer": "TC", "removed": ["6S", "6S", "AH"]},
            (["KS", "QH", "6D"], "TC", None, ["6S", "6S", "AH"], None),
        ),
    ],
)
def test_ev_is_the_engines(client_for, body, args):
    response = _post(client_for("trainee"), body)
    assert response.status_code == 200, response.json()
    cards, dealer, bet, removed, rules = args
    assert response.json() == ochko.ev(cards, dealer=dealer, bet=bet, removed=removed, rules=rules)


def test_edge_and_strategy_are_the_engines(client_for):
    client = client_for("auditor")
    assert client.get(EDGE).json() == ochko.edge()
    rules = {"dark_win_bet": "take", "dark_double_bust_bet": "leave"}
    assert client.get(EDGE, rules).json() == ochko.edge(rules)
    assert client.get(STRATEGY, {"bet": 10}).json() == ochko.strategy(10)
    assert client.get(STRATEGY, {"bet": 1, "dark_double_bust_bet": "take"}).json() == ochko.strategy(
        1, {"dark_double_bust_bet": "take"}
    )


@pytest.mark.parametrize(
    "body, field",
    [
        ({"cards": ["5S", "6H"], "dealer": "9C"}, "cards"),
        ({"cards": ["TS", "6H"], "dealer": "XX"}, "dealer"),
        ({"cards": ["AS", "AH"], "dealer": "9C"}, "cards"),  # a settled hand
        ({"cards": ["TS", "5H"], "dealer": "9C"}, "cards"),  # not in the pack
        ({"cards": ["TS", "6H"], "dealer": "9C", "removed": ["TS"] * 8}, "removed"),  # more copies than the shoe
        ({"cards": ["AS"], "bet": 2}, "bet"),  # a Bet on the one-card question
        ({"cards": ["TS", "6H"], "dealer": "9C", "bet": 11}, "bet"),  # an option the rules forbid
        ({"cards": ["TS", "6H"]}, "dealer"),
        ({"cards": []}, "cards"),
        ({"cards": ["TS"], "rules": {"dark_win_bet": "pay"}}, "rules"),
    ],
)
def test_a_bad_question_is_a_400_naming_the_field(client_for, body, field):
    response = _post(client_for("dealer"), body)
    assert response.status_code == 400
    data = response.json()
    assert data["message"] and set(data) == {"message", "extra"}
    assert field in data["extra"]["fields"], data


@pytest.mark.parametrize(
    "url, query, field",
    [(STRATEGY, {"bet": 0}, "bet"), (STRATEGY, {"bet": "x"}, "bet"), (EDGE, {"dark_win_bet": "pay"}, "dark_win_bet")],
)
def test_a_bad_query_is_a_400_naming_the_field(client_for, url, query, field):
    response = client_for("inspector").get(url, query)
    assert response.status_code == 400
    assert field in response.json()["extra"]["fields"]


def test_every_role_may_ask_and_anonymous_may_not(client, client_for):
    assert _post(client, {"cards": ["AS"]}).status_code == 401
    for role in ROLES:
        assert _post(client_for(role), {"cards": ["AS"]}).status_code == 200, role


def test_the_schema_documents_the_endpoints(client_for):
    schema = client_for("dealer").get(reverse("schema"), {"format": "json"}).json()
    for path in (EDGE, STRATEGY, EV):
        assert path in schema["paths"]
    assert "EvIn" in schema["components"]["schemas"] and "EvOut" in schema["components"]["schemas"]
