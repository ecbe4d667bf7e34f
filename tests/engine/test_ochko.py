"""The ochko rules, one by one, and the errors a log we cannot follow gets."""

import copy
import json
from decimal import Decimal

import pytest

from dealing import engine
from dealing.engine import RoundError

from .ochko_logs import dark_box, one_box_win, round_doc, without_settlement


def owed(settlement):
    return {(w["stake"], w["wager"]): (w["result"], Decimal(w["amount"])) for w in settlement["wagers"]}


def codes(settlement):
    return sorted({f["code"] for f in settlement["findings"]})


# --- settlement --------------------------------------------------------------------------------


def test_a_winning_box_is_paid_bet_and_ante():
    s = engine.settle(one_box_win())
    assert owed(s) == {("1a", "ante"): ("pay", 100), ("1a", "bet"): ("pay", 300)}
    assert s["float"] == "-400"
    assert s["findings"] == []


def test_amounts_leave_as_decimal_strings_and_decimals_are_exact():
    doc = one_box_win()
    doc["stakes"][0]["ante"] = "100.50"
    doc["events"][2]["amount"] = "301.50"
    doc["events"][-2]["amount"] = "301.50"
    doc["events"][-1]["amount"] = Decimal("100.5")
    s = engine.settle(doc)
    assert owed(s)[("1a", "bet")] == ("pay", Decimal("301.50"))
    assert s["wagers"][0]["amount"] == "100.50"
    assert s["float"] == "-402"
    assert s["findings"] == []


def test_json_text_with_decimal_numbers_is_read_exactly():
    # The Bet is 300.10 in the JSON text (a binary float would read 300.10000000000002); the
    # dealer paid 300: ten cents short.
    text = json.dumps(one_box_win()).replace('"amount": 300', '"amount": 300.10', 1)
    s = engine.settle(text)
    assert owed(s)[("1a", "bet")] == ("pay", Decimal("300.10"))
    assert codes(s) == ["WRONG_AMOUNT"]
    assert s["findings"][0]["player_delta"] == "-0.10"


@pytest.mark.parametrize(
    "rules, bet_result",
    [(None, "leave"), ({"dark_win_bet": "take"}, "take")],
)
def test_dark_card_win_pays_the_ante_only_and_the_bet_follows_the_house_rule(rules, bet_result):
    s = engine.settle(without_settlement(dark_box(["TD"], rules=rules)))  # box 20 vs dealer 19
    assert owed(s)[("4a", "ante")] == ("pay", 100)
    assert owed(s)[("4a", "bet")] == (bet_result, 500)
    assert owed(s)[("4a", "dealer_bet")] == ("pay", 10)


@pytest.mark.parametrize(
    "rules, bet_result",
    [(None, "leave"), ({"dark_double_bust_bet": "take"}, "take")],
)
def test_dark_card_bust_when_the_dealer_busts_too(rules, bet_result):
    # T 6 + dark 9 = 25; the dealer 9 + 7 = 16, then T = 26.
    s = engine.settle(without_settlement(dark_box(["7D", "TD"], dark_card="9C", rules=rules)))
    assert owed(s)[("4a", "ante")] == ("pay", 100)
    assert owed(s)[("4a", "bet")] == (bet_result, 500)
    assert owed(s)[("4a", "dealer_bet")] == ("pay", 10)


def test_dark_card_pair_of_aces_counts_21_not_a_bust():
    doc = round_doc(
        [{"id": "2a", "box": 2, "player": "P", "ante": 100}],
        [
            {"e": "deal", "to": 2, "card": "AS"},
            {"e": "deal", "to": "dealer", "card": "TH"},
            {"e": "bet", "stake": "2a", "amount": 100},
            {"e": "open"},
            {"e": "dark", "box": 2, "card": "AD"},
            {"e": "draw", "card": "KD"},
            {"e": "draw", "card": "6C"},  # dealer 20
            {"e": "reveal", "box": 2},
        ],
    )
    s = engine.settle(doc)
    assert owed(s)[("2a", "ante")] == ("pay", 100)
    assert owed(s)[("2a", "bet")] == ("leave", 100)
    assert s["findings"] == []


def test_dealer_bet_after_a_loss_stays_when_the_dealers_first_card_is_an_ace():
    doc = round_doc(
        [{"id": "1a", "box": 1, "player": "P", "ante": 100, "dealer_bet": 20}],
        [
            {"e": "deal", "to": 1, "card": "9S"},
            {"e": "deal", "to": "dealer", "card": "AC"},
            {"e": "bet", "stake": "1a", "amount": 100},
            {"e": "open"},
            {"e": "hit", "box": 1, "card": "8D"},
            {"e": "stand", "box": 1},  # 17
            {"e": "draw", "card": "7H"},  # dealer 18
        ],
    )
    s = engine.settle(doc)
    assert owed(s)[("1a", "dealer_bet")] == ("leave", 20)
    assert owed(s)[("1a", "bet")] == ("take", 100)


def test_five_pictures_while_drawing_is_ochko_and_the_dealer_does_not_draw():
    doc = round_doc(
        [{"id": "6a", "box": 6, "player": "P", "ante": 100}],
        [
            {"e": "deal", "to": 6, "card": "JS"},
            {"e": "deal", "to": "dealer", "card": "6C"},
            {"e": "bet", "stake": "6a", "amount": 100},
            {"e": "open"},
            {"e": "hit", "box": 6, "card": "JD"},
            {"e": "hit", "box": 6, "card": "QH"},
            {"e": "hit", "box": 6, "card": "KC"},
            {"e": "hit", "box": 6, "card": "QS"},
            {"e": "pay", "stake": "6a", "wager": "bet", "amount": 100},
            {"e": "pay", "stake": "6a", "wager": "ante", "amount": 100},
            {"e": "draw", "card": "TC"},
        ],
    )
    s = engine.settle(doc)
    assert codes(s) == ["DEALER_DRAW_RULE"]  # nothing was left open, yet he drew


def test_the_dealer_hitting_17_is_a_finding_and_the_round_is_settled_as_dealt():
    doc = one_box_win()
    doc["events"].insert(7, {"e": "draw", "card": "6D"})  # dealer 17 + 6 = 23: bust
    s = engine.settle(doc)
    assert codes(s) == ["DEALER_DRAW_RULE"]
    assert owed(s)[("1a", "bet")] == ("pay", 300)


def test_a_box_dealt_out_of_order_and_drawing_out_of_turn():
    doc = round_doc(
        [{"id": "1a", "box": 1, "player": "P", "ante": 100}, {"id": "2a", "box": 2, "player": "Q", "ante": 100}],
        [
            {"e": "deal", "to": 2, "card": "TS"},
            {"e": "deal", "to": 1, "card": "TD"},
            {"e": "deal", "to": "dealer", "card": "9H"},
            {"e": "bet", "stake": "1a", "amount": 100},
            {"e": "bet", "stake": "2a", "amount": 100},
            {"e": "open"},
            {"e": "hit", "box": 2, "card": "8S"},
            {"e": "stand", "box": 2},
            {"e": "hit", "box": 1, "card": "9S"},
            {"e": "stand", "box": 1},
            {"e": "draw", "card": "8C"},
        ],
    )
    s = engine.settle(doc)
    assert codes(s) == ["DEAL_ORDER", "DRAW_ORDER"]
    found = {f["code"]: f["event"] for f in s["findings"]}
    assert found["DEAL_ORDER"] == 0
    assert found["DRAW_ORDER"] == 6


def test_a_shared_box_over_the_table_maximum_and_four_players():
    stakes = [{"id": f"1{c}", "box": 1, "player": f"P{c}", "ante": 200} for c in "abcd"]
    doc = round_doc(stakes, [], table={"min": 100, "max": 600})
    s = engine.settle(doc)
    assert {"ANTE_LIMITS", "BOX_PLAYERS"} <= set(codes(s))


def test_a_dealer_bet_under_the_house_minimum():
    doc = one_box_win()
    doc["stakes"][0]["dealer_bet"] = 2
    doc["rules"] = {"dealer_bet_min": 5}
    doc["events"].append({"e": "pay", "stake": "1a", "wager": "dealer_bet", "amount": 2})
    assert codes(engine.settle(doc)) == ["DEALER_BET_MIN"]


def test_settling_a_wager_the_stake_does_not_have_is_unexpected():
    doc = one_box_win()
    doc["events"].append({"e": "pay", "stake": "1a", "wager": "dealer_bet", "amount": 10})
    s = engine.settle(doc)
    assert codes(s) == ["UNEXPECTED_SETTLEMENT"]
    assert s["findings"][0]["player_delta"] == "10"


def test_a_wrong_payout_does_not_hide_the_boxes_after_it():
    doc = round_doc(
        [{"id": "1a", "box": 1, "player": "P", "ante": 100}, {"id": "2a", "box": 2, "player": "Q", "ante": 100}],
        [
            {"e": "deal", "to": 1, "card": "TS"},
            {"e": "deal", "to": 2, "card": "TD"},
            {"e": "deal", "to": "dealer", "card": "9H"},
            {"e": "bet", "stake": "1a", "amount": 100},
            {"e": "bet", "stake": "2a", "amount": 200},
            {"e": "open"},
            {"e": "hit", "box": 1, "card": "9S"},
            {"e": "stand", "box": 1},
            {"e": "hit", "box": 2, "card": "9D"},
            {"e": "stand", "box": 2},
            {"e": "draw", "card": "8C"},  # dealer 17
            {"e": "pay", "stake": "2a", "wager": "bet", "amount": 100},  # owed 200
            {"e": "pay", "stake": "2a", "wager": "ante", "amount": 100},
            {"e": "take", "stake": "1a", "wager": "bet", "amount": 100},  # owed pay 100
            {"e": "pay", "stake": "1a", "wager": "ante", "amount": 100},
        ],
    )
    s = engine.settle(doc)
    by_event = {f["event"]: f for f in s["findings"]}
    assert by_event[11]["code"] == "WRONG_AMOUNT" and by_event[11]["player_delta"] == "-100"
    assert by_event[13]["code"] == "WRONG_RESULT" and by_event[13]["player_delta"] == "-200"
    assert by_event[13]["expected"] == {"result": "pay", "amount": "100"}
    assert by_event[13]["actual"] == {"result": "take", "amount": "100"}


# --- incidents ---------------------------------------------------------------------------------


def misdrawn(exposed, resolution, approved_by="PB-1", reported_by="I-1"):
    doc = one_box_win()
    doc["events"].insert(
        4,
        {
            "e": "incident",
            "kind": "misdrawn_card",
            "card": "7S",
            "exposed": exposed,
            "resolution": resolution,
            "reported_by": reported_by,
            "approved_by": approved_by,
        },
    )
    return doc


def test_an_unexposed_misdrawn_card_goes_under_the_shoe():
    assert codes(engine.settle(misdrawn(False, "under_shoe"))) == []
    # Issue #35 item 7: the rules page says "under the shoe (burned)": a log that burns it agrees.
    assert codes(engine.settle(misdrawn(False, "burned"))) == []
    found = engine.settle(misdrawn(False, {"to": 1}))["findings"]
    assert [(f["code"], f["params"]["rule"], f["params"]["resolution"]) for f in found] == [
        ("INCIDENT_RESOLUTION", "unseen_card", "to_box")
    ]


def test_an_incident_approver_outside_the_pit_bosses_is_no_approval():
    """Issue #35 item 1: told who the pit bosses are, a name alone ("nobody") is a finding."""
    doc = misdrawn(False, "under_shoe", approved_by="nobody")
    assert codes(engine.settle(doc)) == []  # not told: only the log's own names are compared
    found = engine.replay(doc, approvers={"pitboss1"}).findings
    assert [(f.code, f.params["rule"], f.params["by"]) for f in found] == [
        ("INCIDENT_UNAPPROVED", "not_pit_boss", "nobody")
    ]
    assert engine.replay(misdrawn(False, "under_shoe", approved_by="pitboss1"), approvers={"pitboss1"}).findings == []
    assert [f.code for f in engine.replay(doc, approvers=set()).findings] == ["INCIDENT_UNAPPROVED"]


def test_an_exposed_misdrawn_card_is_placed_by_the_pit_boss():
    assert codes(engine.settle(misdrawn(True, "burned"))) == []
    assert codes(engine.settle(misdrawn(True, "under_shoe"))) == ["INCIDENT_RESOLUTION"]
    # Placed on box 1 (T): it becomes the box's next card, T 7 = 17; then 9 makes mnogo.
    s = engine.settle(without_settlement(misdrawn(True, {"to": 1})))
    assert owed(s)[("1a", "bet")] == ("take", 300)


@pytest.mark.parametrize("approved_by, reported_by", [(None, "I-1"), ("I-1", "I-1"), ("D-1", "I-1")])
def test_an_incident_needs_a_pit_boss_other_than_its_reporter_and_the_dealer(approved_by, reported_by):
    s = engine.settle(misdrawn(False, "under_shoe", approved_by=approved_by, reported_by=reported_by))
    assert codes(s) == ["INCIDENT_UNAPPROVED"]


# --- what may happen next ----------------------------------------------------------------------


def prefix(doc, n):
    out = copy.deepcopy(doc)
    out["events"] = out["events"][:n]
    return out


def test_next_events_follow_the_procedure():
    doc = one_box_win()
    first = engine.next_events(prefix(doc, 0))
    assert first == [{"e": "deal", "to": 1, "needs": ["card"], "say": "Deal a card face up to box 1."}]
    assert engine.next_events(prefix(doc, 1))[0]["to"] == "dealer"
    decisions = engine.next_events(prefix(doc, 2))
    assert [m["e"] for m in decisions] == ["fold", "bet"]
    assert decisions[1]["min"] == "100" and decisions[1]["max"] == "1000"
    assert [m["e"] for m in engine.next_events(prefix(doc, 3))] == ["open"]
    assert [m["e"] for m in engine.next_events(prefix(doc, 4))] == ["hit", "stand", "dark"]
    assert engine.next_events(prefix(doc, 6))[0]["e"] == "draw"
    pays = engine.next_events(prefix(doc, 7))
    assert [(m["e"], m["wager"], m["amount"]) for m in pays] == [("pay", "bet", "300"), ("pay", "ante", "100")]
    assert pays[0]["say"] == "Pay stake 1a (box 1) its Bet 300."
    assert engine.next_events(doc) == []


def test_next_events_put_an_instant_ochko_payment_before_anything_else():
    doc = round_doc(
        [{"id": "1a", "box": 1, "player": "P", "ante": 100}, {"id": "2a", "box": 2, "player": "Q", "ante": 100}],
        [
            {"e": "deal", "to": 1, "card": "TS"},
            {"e": "deal", "to": 2, "card": "9D"},
            {"e": "deal", "to": "dealer", "card": "7H"},
            {"e": "bet", "stake": "1a", "amount": 200},
            {"e": "bet", "stake": "2a", "amount": 100},
            {"e": "open"},
            {"e": "hit", "box": 1, "card": "AH"},
        ],
    )
    moves = engine.next_events(doc)
    assert [(m["e"], m["stake"], m["wager"], m["amount"]) for m in moves] == [
        ("pay", "1a", "bet", "200"),
        ("pay", "1a", "ante", "100"),
    ]


# --- documents we cannot follow ----------------------------------------------------------------


def refused(doc):
    with pytest.raises(RoundError) as caught:
        engine.settle(doc)
    return caught.value


@pytest.mark.parametrize(
    "mutate, code, event, path",
    [
        (lambda d: "{not json", "not_json", None, "$"),
        (lambda d: {**d, "format": "round/2"}, "wrong_format", None, "$.format"),
        (lambda d: {k: v for k, v in d.items() if k != "stakes"}, "missing_field", None, "$.stakes"),
        (lambda d: {**d, "variant": "poker"}, "unknown_variant", None, "$.variant"),
        (lambda d: {**d, "stakes": []}, "no_stakes", None, "$.stakes"),
        (lambda d: {**d, "stakes": d["stakes"] * 2}, "duplicate_stake", None, "$.stakes[1].id"),
        (lambda d: {**d, "stakes": [{**d["stakes"][0], "box": "1"}]}, "wrong_type", None, "$.stakes[0].box"),
        (lambda d: {**d, "stakes": [{**d["stakes"][0], "ante": "1e3"}]}, "bad_amount", None, "$.stakes[0].ante"),
        (lambda d: {**d, "stakes": [{**d["stakes"][0], "ante": "100.555"}]}, "bad_amount", None, "$.stakes[0].ante"),
        (lambda d: {**d, "stakes": [{**d["stakes"][0], "ante": -100}]}, "bad_amount", None, "$.stakes[0].ante"),
        (lambda d: {**d, "stakes": [{**d["stakes"][0], "ante": 0}]}, "bad_amount", None, "$.stakes[0].ante"),
        (lambda d: {**d, "stakes": [{**d["stakes"][0], "ante": True}]}, "wrong_type", None, "$.stakes[0].ante"),
        (lambda d: {**d, "stakes": [{**d["stakes"][0], "antte": 5}]}, "unknown_field", None, "$.stakes[0].antte"),
        (lambda d: {**d, "rules": {"colour": "red"}}, "unknown_rule", None, "$.rules.colour"),
        (lambda d: {**d, "rules": {"dark_win_bet": "pay"}}, "bad_rule", None, "$.rules.dark_win_bet"),
        (
            lambda d: {**d, "events": d["events"][:2] + [{"e": "bet", "stake": "9z", "amount": 100}]},
            "unknown_stake",
            2,
            "$.events[2].stake",
        ),
        (
            lambda d: {**d, "events": d["events"][:2] + [{"e": "double", "stake": "1a"}]},
            "unknown_event",
            2,
            "$.events[2].e",
        ),
        (
            lambda d: {**d, "events": d["events"][:2] + [{"e": "bet", "stake": "1a", "amount": "12.345"}]},
            "bad_amount",
            2,
            "$.events[2].amount",
        ),
        (
            lambda d: {**d, "events": d["events"][:2] + [{"e": "bet", "stake": "1a", "amount": "NaN"}]},
            "bad_amount",
            2,
            "$.events[2].amount",
        ),
        (
            lambda d: {**d, "events": d["events"][:2] + [{"e": "bet", "stake": "1a"}]},
            "missing_field",
            2,
            "$.events[2].amount",
        ),
        (
            lambda d: {**d, "events": d["events"][:1] + [{"e": "deal", "to": "dealer", "card": 7}]},
            "wrong_type",
            1,
            "$.events[1].card",
        ),
        (lambda d: {**d, "events": d["events"][:1] + ["deal"]}, "wrong_type", 1, "$.events[1]"),
        (
            lambda d: {**d, "events": d["events"] + [{"e": "pay", "stake": "1a", "wager": "tip", "amount": 5}]},
            "bad_value",
            9,
            "$.events[9].wager",
        ),
    ],
)
def test_a_log_the_engine_cannot_follow_is_refused_with_where_and_why(mutate, code, event, path):
    error = refused(mutate(one_box_win()))
    assert error.code == code
    assert error.event == event
    assert error.path == path
    assert error.message and error.message[0].isupper()


def test_json_nan_and_exponents_are_refused():
    assert refused('{"format": NaN}').code == "not_json"
    text = json.dumps(one_box_win()).replace('"amount": 300', '"amount": 3e2', 1)
    assert refused(text).code == "bad_amount"


def test_the_engine_does_not_change_the_document_it_reads():
    doc = one_box_win()
    before = copy.deepcopy(doc)
    engine.settle(doc)
    engine.next_events(doc)
    assert doc == before


def test_house_rules_in_force_and_their_options():
    assert engine.house_rules("ochko") == {
        "dark_win_bet": "leave",
        "dark_double_bust_bet": "leave",
        "dealer_bet_min": Decimal(1),
    }
    assert engine.house_rules("ochko", {"dealer_bet_min": "5"})["dealer_bet_min"] == Decimal(5)
    names = {o["name"] for o in engine.options("ochko")}
    assert names == {"dark_win_bet", "dark_double_bust_bet", "dealer_bet_min"}
