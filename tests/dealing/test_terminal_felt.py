"""The felt at a glance: each hand's total and the dealer's come from the engine through the game's
wing (dealing/games/<game>/terminal.py), soft where an ace counts 11, with what each stake is owed."""

import json

import pytest

from tests.dealing.test_terminal import EVENTS, PAYMENTS, STAKES, client_of, post, urls

pytestmark = pytest.mark.django_db


def test_ochko_totals_count_as_ochko_counts_and_the_dealer_busts(staff, tables):
    answer = post(client_of(staff.dealer), urls(tables.ochko)["next"], {"stakes": STAKES, "events": EVENTS}).json()
    hands = answer["felt"]["hands"]
    # 9 + 10 = 19; K (4) + a dark 8 = 12; 7 + 9 = 16; the dealer 7 + 6 + 9 = 22.
    assert {n: h["say"] for n, h in hands.items()} == {"1": "19", "2": "12", "3": "16"}
    assert answer["felt"]["dealer"] == {"total": 22, "bust": True, "say": "22, bust"}
    # Owed before a payment is made: box 1's Bet, Ante and dealer bet; box 3's Bet and Ante; box 2's Ante.
    assert answer["paid"] == {"1a": "210", "2a": "200", "3a": "200"}


def test_a_pair_of_aces_is_21_in_ochko(staff, tables):
    events = [
        {"e": "deal", "to": 1, "card": "A*"},
        {"e": "deal", "to": "dealer", "card": "7*"},
        {"e": "bet", "stake": "1a", "amount": 100},
        {"e": "open"},
        {"e": "hit", "box": 1, "card": "A*"},
    ]
    stakes = [{"id": "1a", "box": 1, "ante": 100}]
    answer = post(client_of(staff.dealer), urls(tables.ochko)["next"], {"stakes": stakes, "events": events}).json()
    assert answer["felt"]["hands"]["1"]["total"] == 21 and "aces" in answer["felt"]["hands"]["1"]["say"]


SPLIT = [
    {"e": "deal", "to": 1, "card": "8*"},
    {"e": "deal", "to": "dealer", "card": "6*"},
    {"e": "deal", "to": 1, "card": "8*"},
    {"e": "deal", "to": "dealer", "card": "T*"},
    {"e": "split", "hand": "1"},
    {"e": "hit", "hand": "1.1", "card": "A*"},
]


def test_blackjack_totals_are_soft_where_an_ace_counts_11_and_each_split_hand_has_its_own(staff, tables):
    answer = post(
        client_of(staff.pitboss),
        urls(tables.salon)["next"],
        {"stakes": [{"id": "1", "box": 1, "bet": 100}], "events": SPLIT},
    ).json()
    hands = answer["felt"]["hands"]
    assert set(hands) == {"1.1", "1.2"}  # the pair split lives on in its two hands
    assert hands["1.1"] == {"total": 19, "soft": True, "bust": False, "say": "soft 19", "box": 1}
    assert hands["1.2"]["say"] == "8" and answer["felt"]["dealer"]["total"] == 16


def test_the_totals_speak_russian(staff, tables):
    c = client_of(staff.dealer)
    c.cookies["django_language"] = "ru"
    answer = post(c, urls(tables.ochko)["next"], {"stakes": STAKES, "events": EVENTS}).json()
    assert answer["felt"]["dealer"]["say"] == "22, перебор"


def test_a_settled_round_still_shows_what_was_owed(staff, tables):
    answer = post(
        client_of(staff.dealer), urls(tables.ochko)["next"], {"stakes": STAKES, "events": EVENTS + PAYMENTS}
    ).json()
    assert answer["done"] and json.dumps(answer["felt"])  # the felt stays drawn once the round is complete
    assert answer["paid"]["1a"] == "210"
