"""Seed 002's clocks as data of the blackjack wing (rules/blackjack.md, Presets: "clocks"): the salon
has them (bets 15 s, insurance/even money 8 s, each action 15 s, a timeout stands), the online game
has none; and which clock runs at each point of a round, with what its end logs."""

import pytest

from dealing import engine
from dealing.engine.blackjack import clocks

STAKES = [{"id": "1", "box": 1, "bet": 100}, {"id": "2", "box": 2, "bet": 100}]
DEAL = [
    {"e": "deal", "to": 1, "card": "9*"},
    {"e": "deal", "to": 2, "card": "T*"},
    {"e": "deal", "to": "dealer", "card": "6*"},
    {"e": "deal", "to": 1, "card": "7*"},
    {"e": "deal", "to": 2, "card": "8*"},
    {"e": "deal", "to": "dealer", "card": "T*"},
]
ACE_DEAL = [
    *DEAL[:2],
    {"e": "deal", "to": "dealer", "card": "A*"},
    *DEAL[3:5],
    {"e": "deal", "to": "dealer", "card": "6*"},
]


def doc(events, preset="salon"):
    return {
        "format": "round/1",
        "variant": "blackjack",
        "table": {"name": "T", "min": 10, "max": 1000},
        "rules": {"preset": preset},
        "dealer": "d",
        "stakes": STAKES,
        "events": events,
    }


def running(events, preset="salon"):
    d = doc(events, preset)
    return clocks.running(d["rules"], engine.walk(d).moves(), len(events))


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        ({"preset": "salon"}, {"bet": 15, "insurance": 8, "action": 15}),
        (None, {"bet": 15, "insurance": 8, "action": 15}),  # no preset named: the salon's
        ({"preset": "salon", "decks": 8}, {"bet": 15, "insurance": 8, "action": 15}),  # a salon with another shoe
        ({"preset": "online"}, None),
    ],
)
def test_the_clocks_of_each_preset(rules, expected):
    assert clocks.clocks(rules) == expected


def test_before_the_deal_the_bet_clock_runs_and_logs_nothing_when_it_ends():
    assert running([]) == {"kind": "bet", "seconds": 15, "move": None}


def test_no_clock_while_cards_are_dealt():
    for n in range(1, len(DEAL)):
        assert running(DEAL[:n]) is None


def test_a_hand_to_act_has_15_seconds_and_its_end_stands_that_hand():
    clock = running(DEAL)
    assert clock["kind"] == "action" and clock["seconds"] == 15
    assert clock["move"]["e"] == "stand" and clock["move"]["hand"] == "1"
    # The first hand stood: the clock is the second's now.
    assert running([*DEAL, {"e": "stand", "hand": "1"}])["move"]["hand"] == "2"


def test_the_insurance_offer_has_8_seconds_and_its_end_is_the_peek_that_closes_it():
    clock = running(ACE_DEAL)
    assert clock["kind"] == "insurance" and clock["seconds"] == 8 and clock["move"]["e"] == "peek"
    # Its end logged, every offer not taken is declined: the hands act next, on their own clock.
    after = running([*ACE_DEAL, {"e": "peek"}])
    assert after["kind"] == "action" and after["move"]["hand"] == "1"


def test_the_dealer_drawing_and_the_payments_run_no_clock():
    stood = [*DEAL, {"e": "stand", "hand": "1"}, {"e": "stand", "hand": "2"}]
    assert running(stood) is None  # the dealer's 16 must draw: his, not a player's, no clock
    assert running([*stood, {"e": "draw", "card": "5*"}]) is None  # 21: the payments


def test_the_online_table_has_no_clock_at_any_point():
    online = [dict(ev, card=ev["card"].replace("*", "S")) for ev in DEAL]
    assert running([], "online") is None
    d = {**doc(online, "online"), "stakes": [{"id": "1", "box": 1, "bet": 100}]}
    d["events"] = [ev for ev in online if ev["to"] in (1, "dealer")]
    assert clocks.running(d["rules"], engine.walk(d).moves(), len(d["events"])) is None
