"""Veintiuno (rules/veintiuno.md): a log the engine cannot follow, refused with its place; the
house rules; the events the rules allow next."""

import json
import random

import pytest

from dealing import engine
from dealing.engine import RoundError
from dealing.engine.veintiuno import simulator as sim

from .veintiuno_rounds import ev, rnd, settle

# --- errors: a log the engine cannot follow ---------------------------------------------------


def _broken(change):
    doc = rnd(
        {1: ("KH", "7C"), 2: ("JS", "5D")},
        ("6C", "QD"),
        ["stand 1", "hit 2 3C", "stand 2", "draw 2D", "pay 1 10", "take 2 10", "bank_to Ana"],
    )
    change(doc)
    return doc


def _set(path, value):
    def change(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        if value is KeyError:
            del target[path[-1]]
        else:
            target[path[-1]] = value

    return change


@pytest.mark.parametrize(
    "change, code, event, path",
    [
        (_set(("bank",), KeyError), "missing_field", None, "$.bank"),
        (_set(("bank",), 7), "wrong_type", None, "$.bank"),
        (_set(("stakes", 1, "seat"), 0), "bad_value", None, "$.stakes[1].seat"),
        (_set(("stakes", 1, "seat"), 1), "duplicate_seat", None, "$.stakes[1].seat"),
        (_set(("stakes", 1, "seat"), "2"), "wrong_type", None, "$.stakes[1].seat"),
        (_set(("stakes", 1, "player"), "Ana"), "bad_value", None, "$.stakes[1].player"),
        (_set(("stakes", 1, "box"), 2), "unknown_field", None, "$.stakes[1].box"),
        (_set(("stakes",), []), "no_stakes", None, "$.stakes"),
        (_set(("table", "min"), 200), "bad_value", None, "$.table"),
        (_set(("rules",), {"packs": 0}), "bad_rule", None, "$.rules.packs"),
        (_set(("rules",), {"decks": 2}), "unknown_rule", None, "$.rules.decks"),
        (_set(("events",), {}), "wrong_type", None, "$.events"),
        (_set(("events", 9), {"e": "double", "hand": "1"}), "unknown_event", 9, "$.events[9].e"),
        (_set(("events", 9), {"e": "stand", "hand": "1", "box": 1}), "unknown_field", 9, "$.events[9].box"),
        (_set(("events", 9), {"e": "stand"}), "missing_field", 9, "$.events[9].hand"),
        (_set(("events", 9), {"e": "stand", "hand": 1}), "wrong_type", 9, "$.events[9].hand"),
        (_set(("events", 9), {"e": "stand", "hand": "3"}), "unknown_hand", 9, "$.events[9].hand"),
        (_set(("events", 10), {"e": "hit", "hand": "2", "card": 3}), "wrong_type", 10, "$.events[10].card"),
        (_set(("events", 0, "to"), "dealer"), "wrong_type", 0, "$.events[0].to"),
        (_set(("events", 3, "stake"), "S9"), "unknown_stake", 3, "$.events[3].stake"),
        (_set(("events", 3, "amount"), "1e3"), "bad_amount", 3, "$.events[3].amount"),
        (_set(("events", 3, "amount"), -5), "bad_amount", 3, "$.events[3].amount"),
        (_set(("events", 13, "wager"), "ante"), "bad_value", 13, "$.events[13].wager"),
        (_set(("events", 12, "amount"), KeyError), "missing_field", 12, "$.events[12].amount"),
        (_set(("events", 13, "hand"), KeyError), "missing_field", 13, "$.events[13].hand"),
        (_set(("events", 14, "player"), None), "wrong_type", 14, "$.events[14].player"),
        (_set(("events", 9), "stand 1"), "wrong_type", 9, "$.events[9]"),
    ],
)
def test_a_log_the_engine_cannot_follow_is_refused_with_its_place(change, code, event, path):
    with pytest.raises(RoundError) as err:
        settle(_broken(change))
    assert err.value.code == code
    assert err.value.event == event
    assert err.value.path == path
    assert err.value.message


def test_the_error_reads_as_a_sentence():
    with pytest.raises(RoundError) as err:
        settle(_broken(_set(("events", 9), {"e": "stand", "hand": "3"})))
    assert "Event 9" in err.value.message and 'hand "3"' in err.value.message


def test_json_text_is_read_exactly():
    doc = rnd({1: ("AH", "KC")}, ("6C", "QD"), ["declare 1"], bets={1: "0.10"})
    text = json.dumps(doc).replace('"0.10"', "0.10")
    s = engine.settle(text)
    assert s["wagers"][0]["amount"] == "0.20"
    with pytest.raises(RoundError) as err:
        engine.settle(text[:-3])
    assert err.value.code == "not_json"


# --- house rules --------------------------------------------------------------------------------


def test_house_rules_and_their_defaults():
    assert engine.house_rules("veintiuno", None) == {"suited_twelve_pays": 2, "packs": 1}
    assert engine.house_rules("veintiuno", {"suited_twelve_pays": 3})["suited_twelve_pays"] == 3
    with pytest.raises(RoundError) as err:
        engine.house_rules("veintiuno", {"suited_twelve_pays": "2"})
    assert err.value.code == "bad_rule"
    assert {o["name"] for o in engine.options("veintiuno")} == {"suited_twelve_pays", "packs"}


# --- next events -------------------------------------------------------------------------------


def moves(doc):
    return [(m["e"], m.get("hand", m.get("to", m.get("stake", m.get("player"))))) for m in engine.next_events(doc)]


def test_next_events_through_the_deal_and_the_bets():
    doc = rnd({1: ("KH", "7C"), 2: ("JS", "5D")}, ("6C", "QD"))
    events = doc["events"]
    assert moves({**doc, "events": []}) == [("deal", 1)]
    assert moves({**doc, "events": events[:2]}) == [("deal", "bank")]
    assert moves({**doc, "events": events[:3]}) == [("bet", "S1"), ("bet", "S2")]
    bet = engine.next_events({**doc, "events": events[:3]})[0]
    assert bet["needs"] == ["amount"] and bet["min"] == "5" and bet["max"] == "100"
    assert moves({**doc, "events": events[:4]}) == [("bet", "S2")]
    assert moves({**doc, "events": events[:5]}) == [("deal", 1)]
    assert moves({**doc, "events": events[:7]}) == [("deal", "bank")]
    assert moves(doc) == [("hit", "1"), ("stand", "1"), ("tapo", "1")]


def test_next_events_offer_the_declaration_the_puje_and_the_two_card_choices():
    doc = rnd({1: ("6H", "7D"), 2: ("AH", "KS"), 3: ("5S", "5C")}, ("KH", "QD"))
    m = moves(doc)
    assert ("declare", "2") in m and ("puje", None) in m
    assert {("hit", "1"), ("withdraw", "1"), ("void", "1")} <= set(m)
    doc["events"] += [ev("declare 2"), ev("puje"), ev("withdraw 1")]
    # Al puje the pair of fives (10) must draw: no stand, no tapo; it may open with twice its bet.
    # The withdrawn bet and the declared natural may already be settled.
    assert moves(doc) == [("hit", "3"), ("split", "3"), ("leave", "1"), ("pay", "2")]
    assert next(x for x in engine.next_events(doc) if x["e"] == "split")["amount"] == "20"


def test_next_events_pie_de_banco_alone_may_void():
    doc = rnd({1: ("KH", "QS"), 2: ("6H", "7D")}, ("KC", "7C"), ["stand 1"])
    m = moves(doc)
    assert ("withdraw", "2") in m and ("void", "2") not in m


def test_next_events_take_a_hand_over_at_once_then_the_bank_then_the_bank_passes():
    doc = rnd({1: ("KH", "5C"), 2: ("AD", "QS")}, ("6C", "QD"), ["declare 2", "hit 1 JS"])
    assert [(m["e"], m["hand"], m["amount"]) for m in engine.next_events(doc)] == [("take", "1", "10")]
    doc["events"].append(ev("take 1 10"))
    m = moves(doc)
    assert m == [("draw", None), ("pay", "2")]
    doc["events"].append(ev("pay 2 20"))
    assert engine.next_events(doc)[-1]["e"] == "bank_to" and engine.next_events(doc)[-1]["player"] == "Caro"
    doc["events"].append(ev("bank_to Caro"))
    assert engine.next_events(doc) == []


def test_next_events_after_a_void_return_every_bet():
    doc = rnd({1: ("6H", "7D"), 2: ("QC", "JD")}, ("7S", "KS"), ["void 1"])
    assert moves(doc) == [("leave", "1"), ("leave", "2")]


def test_next_events_at_every_step_of_a_simulated_round_include_what_came_next():
    keys = ("e", "to", "hand", "stake", "player")
    for seed in range(150):
        doc = sim.simulate_round(random.Random(seed), specials=0.8).doc
        events = doc["events"]
        for k, event in enumerate(events):
            offered = engine.next_events({**doc, "events": events[:k]})
            want = {x: event[x] for x in keys if x in event}
            assert any(all(m.get(x) == y for x, y in want.items()) for m in offered), (seed, k, event, offered)
        assert engine.next_events(doc) == []
