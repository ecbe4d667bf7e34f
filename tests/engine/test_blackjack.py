"""Blackjack (rules/blackjack.md): settlement, findings, errors, house rules and next events. Property
tests of both presets against the simulator's own arithmetic, fuzzing, shoe checks and the dealer
odds: test_blackjack_shoes.py."""

import copy
import json
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealing import engine
from dealing.engine import RoundError
from dealing.engine.blackjack import blackjack_pay
from dealing.engine.simulators import simulate

from .blackjack_logs import bj, codes, deal, ev, one_box, owed, raises, stake

PRESETS = ("salon", "online")
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


# --- settlement ---------------------------------------------------------------------------------


def test_three_to_two_on_seven_is_ten_fifty():
    s = engine.settle(one_box("AS", "9C", "KH", "7D", bet=7, preset="online"))
    assert s["wagers"] == [{"stake": "1", "hand": "1", "wager": "bet", "result": "pay", "amount": "10.50"}]
    assert s["float"] == "-10.50"
    assert s["findings"] == []


def test_three_to_two_is_exact_and_rounds_down_between_cents():
    assert blackjack_pay(Decimal(100)) == Decimal(150)
    assert blackjack_pay(Decimal("7.50")) == Decimal("11.25")
    assert blackjack_pay(Decimal("7.25")) == Decimal("10.87")  # 10.875: the house pays to the cent below


def test_a_blackjack_beats_a_dealer_21_made_of_three_cards():
    doc = one_box("AS", "6C", "QH", "5D", extra=[ev("draw", card="KD")])
    assert owed(engine.settle(doc)) == {("1", "1", "bet"): ("pay", Decimal(150))}


def test_even_money_is_paid_one_to_one_even_when_the_dealer_has_blackjack():
    doc = one_box(
        "AS",
        "AC",
        "JD",
        "KS",
        bet=500,
        extra=[ev("even_money", stake="1"), ev("pay", stake="1", hand="1", wager="bet", amount=500), ev("peek")],
    )
    s = engine.settle(doc)
    assert owed(s) == {("1", "1", "bet"): ("pay", Decimal(500))}
    assert s["findings"] == []


def test_dealer_blackjack_ends_the_round_and_later_play_is_illegal_and_costs_nothing_more():
    doc = one_box("5S", "TC", "6D", "AH", extra=[ev("peek"), ev("double", hand="1", card="9C")])
    s = engine.settle(doc)
    assert owed(s) == {("1", "1", "bet"): ("take", Decimal(100))}
    assert codes(s) == ["ILLEGAL_ACTION"]


def test_jackpot_pays_on_jack_then_ace_of_spades_and_even_against_a_dealer_blackjack():
    doc = one_box("JS", "AD", "AS", "KD", bet=10, preset="online", jackpot=1, extra=[ev("peek")])
    assert owed(engine.settle(doc)) == {
        ("1", "1", "bet"): ("leave", Decimal(10)),
        ("1", "1", "jackpot"): ("pay", Decimal(1000)),
    }


def test_jackpot_loses_on_other_spades_and_on_other_suits():
    for first, second in (("AS", "JH"), ("AS", "QS"), ("AH", "JS")):
        s = engine.settle(one_box(first, "9C", second, "8D", bet=10, preset="online", jackpot=1))
        assert owed(s)[("1", "1", "jackpot")] == ("take", Decimal(1))


def test_jackpot_amount_is_a_house_rule():
    doc = one_box("AS", "9C", "JS", "8D", bet=10, preset="online", rules={"jackpot_amount": 2500}, jackpot=1)
    assert owed(engine.settle(doc))[("1", "1", "jackpot")] == ("pay", Decimal(2500))


def test_a_doubled_hand_settles_on_both_bets_and_a_push_leaves_them():
    doc = one_box("6S", "9H", "5D", "TC", extra=[ev("peek"), ev("double", hand="1", card="8C")])
    assert "ILLEGAL_ACTION" in codes(engine.settle(doc))  # a peek with a 9 up
    doc["events"].pop(4)
    s = engine.settle(doc)
    assert owed(s) == {("1", "1", "bet"): ("leave", Decimal(100)), ("1", "1", "double"): ("leave", Decimal(100))}
    assert s["float"] == "0" and s["findings"] == []


def test_a_log_without_settlement_events_only_computes_what_is_owed():
    doc = one_box("TS", "6H", "7D", "TC", extra=[ev("stand", hand="1"), ev("draw", card="9S")])
    s = engine.settle(doc)
    assert owed(s) == {("1", "1", "bet"): ("pay", Decimal(100))}
    assert s["findings"] == []


def test_blackjack_paid_even_reports_the_player_delta():
    doc = one_box("AH", "9S", "KC", "8H", extra=[ev("pay", stake="1", hand="1", wager="bet", amount=100)])
    (finding,) = engine.settle(doc)["findings"]
    assert finding["code"] == "WRONG_AMOUNT" and finding["player_delta"] == "-50" and finding["hand"] == "1"


def test_a_card_outside_the_pack_leaves_the_settlement_undefined():
    s = engine.settle(one_box("TS", "6H", "1X", "TC", extra=[ev("stand", hand="1"), ev("draw", card="9S")]))
    assert s["wagers"] is None and s["float"] is None
    assert codes(s) == ["CARD_INVALID"]


# --- findings --------------------------------------------------------------------------------


def test_split_of_unequal_values_is_illegal_and_settled_as_dealt():
    doc = one_box(
        "9S",
        "6H",
        "8D",
        "TC",
        extra=[
            ev("split", hand="1"),
            ev("hit", hand="1.1", card="TD"),
            ev("stand", hand="1.1"),
            ev("hit", hand="1.2", card="TH"),
            ev("stand", hand="1.2"),
            ev("draw", card="5S"),
        ],
    )
    s = engine.settle(doc)
    assert codes(s) == ["ILLEGAL_ACTION"]
    assert owed(s) == {("1", "1.1", "bet"): ("take", Decimal(100)), ("1", "1.2", "bet"): ("take", Decimal(100))}


def test_splits_up_to_max_hands_and_one_more_is_illegal():
    events = [
        ev("split", hand="1"),
        ev("hit", hand="1.1", card="8D"),
        ev("split", hand="1.1"),
        ev("hit", hand="1.1.1", card="TC"),
        ev("stand", hand="1.1.1"),
        ev("hit", hand="1.1.2", card="9S"),
        ev("stand", hand="1.1.2"),
        ev("hit", hand="1.2", card="TD"),
        ev("stand", hand="1.2"),
        ev("draw", card="9D"),
    ]
    assert codes(engine.settle(one_box("8S", "6H", "8H", "TC", extra=events))) == []
    assert codes(engine.settle(one_box("8S", "6H", "8H", "TC", rules={"max_hands": 2}, extra=events))) == [
        "ILLEGAL_ACTION"
    ]


def test_split_aces_get_one_card_and_resplitting_them_follows_the_house_rule():
    events = [
        ev("split", hand="1"),
        ev("hit", hand="1.1", card="AC"),
        ev("split", hand="1.1"),
        ev("hit", hand="1.1.1", card="9C"),
        ev("hit", hand="1.1.2", card="8C"),
        ev("hit", hand="1.2", card="7C"),
    ]
    assert codes(engine.settle(one_box("AS", "6H", "AD", "TC", extra=events + [ev("draw", card="2S")]))) == [
        "ILLEGAL_ACTION"
    ]
    s = engine.settle(
        one_box("AS", "6H", "AD", "TC", rules={"resplit_aces": True}, extra=events + [ev("draw", card="2S")])
    )
    assert codes(s) == []
    assert owed(s) == {
        ("1", "1.1.1", "bet"): ("pay", Decimal(100)),
        ("1", "1.1.2", "bet"): ("pay", Decimal(100)),
        ("1", "1.2", "bet"): ("leave", Decimal(100)),
    }


def test_hitting_split_aces_follows_the_house_rule():
    events = [
        ev("split", hand="1"),
        ev("hit", hand="1.1", card="2C"),
        ev("hit", hand="1.1", card="5C"),
        ev("stand", hand="1.1"),
        ev("hit", hand="1.2", card="9D"),
    ]
    assert codes(engine.settle(one_box("AS", "9H", "AD", "8C", extra=events))) == ["ILLEGAL_ACTION"]
    assert (
        codes(
            engine.settle(
                one_box(
                    "AS", "9H", "AD", "8C", rules={"hit_split_aces": True}, extra=events + [ev("stand", hand="1.2")]
                )
            )
        )
        == []
    )


def test_doubles_on_three_cards_for_less_and_after_a_split_where_the_house_forbids_it():
    three = one_box("2S", "9H", "3D", "8C", extra=[ev("hit", hand="1", card="4C"), ev("double", hand="1", card="TD")])
    s = engine.settle(three)
    assert codes(s) == ["ILLEGAL_ACTION"]
    assert owed(s)[("1", "1", "double")] == ("pay", Decimal(100))  # 19 against 17: settled as dealt
    less = one_box("6S", "9H", "5D", "8C", extra=[ev("double", hand="1", card="9D", amount=50)])
    s = engine.settle(less)
    assert codes(s) == ["ILLEGAL_ACTION"]
    assert owed(s)[("1", "1", "double")] == ("pay", Decimal(50))
    das = [
        ev("split", hand="1"),
        ev("hit", hand="1.1", card="2D"),
        ev("double", hand="1.1", card="TC"),
        ev("hit", hand="1.2", card="TH"),
        ev("stand", hand="1.2"),
    ]
    assert codes(engine.settle(one_box("9S", "7H", "9H", "TC", extra=das))) == []
    assert codes(engine.settle(one_box("9S", "7H", "9H", "TC", rules={"double_after_split": False}, extra=das))) == [
        "ILLEGAL_ACTION"
    ]


def test_actions_on_finished_hands_are_illegal_but_a_stand_after_a_double_says_nothing_new():
    hit_21 = one_box("TS", "7H", "5D", "TC", extra=[ev("hit", hand="1", card="6C"), ev("hit", hand="1", card="2C")])
    assert codes(engine.settle(hit_21)) == ["ILLEGAL_ACTION"]
    stand_twice = one_box("TS", "7H", "9D", "TC", extra=[ev("stand", hand="1"), ev("stand", hand="1")])
    assert codes(engine.settle(stand_twice)) == ["ILLEGAL_ACTION"]
    stand_after_double = one_box(
        "6S", "7H", "5D", "TC", extra=[ev("double", hand="1", card="9C"), ev("stand", hand="1")]
    )
    assert codes(engine.settle(stand_after_double)) == []
    hit_bust = one_box("TS", "7H", "5D", "TC", extra=[ev("hit", hand="1", card="9C"), ev("hit", hand="1", card="2C")])
    assert codes(engine.settle(hit_bust)) == ["ILLEGAL_ACTION"]


def test_hands_play_in_order_and_the_dealer_draws_last():
    two = bj([stake(1), stake(2)], deal((1, "TS"), (2, "9C"), ("dealer", "6H"), (1, "7D"), (2, "8D"), ("dealer", "TC")))
    out_of_turn = copy.deepcopy(two)
    out_of_turn["events"] += [ev("stand", hand="2"), ev("stand", hand="1"), ev("draw", card="5S")]
    assert codes(engine.settle(out_of_turn)) == ["DRAW_ORDER"]
    early_draw = copy.deepcopy(two)
    early_draw["events"] += [ev("stand", hand="1"), ev("draw", card="5S"), ev("stand", hand="2")]
    assert codes(engine.settle(early_draw)) == ["DRAW_ORDER"]


def test_the_dealer_stands_on_all_17s_draws_to_17_and_not_when_no_hand_is_left():
    soft_17 = one_box("TS", "AH", "8D", "6C", extra=[ev("peek"), ev("stand", hand="1"), ev("draw", card="3C")])
    assert codes(engine.settle(soft_17)) == ["DEALER_DRAW_RULE"]
    stood_on_16 = one_box(
        "TS", "6H", "5D", "TC", extra=[ev("stand", hand="1"), ev("take", stake="1", hand="1", wager="bet", amount=100)]
    )
    s = engine.settle(stood_on_16)
    assert codes(s) == ["DEALER_DRAW_RULE"]
    assert s["findings"][0]["event"] == 5  # where he stopped: the first settlement
    all_bust = one_box("TS", "5H", "6D", "7C", extra=[ev("hit", hand="1", card="9C"), ev("draw", card="5S")])
    assert codes(engine.settle(all_bust)) == ["DEALER_DRAW_RULE"]
    natural_only = one_box("AS", "5H", "KD", "7C", extra=[ev("draw", card="5S")])
    assert codes(engine.settle(natural_only)) == ["DEALER_DRAW_RULE"]


def test_the_peek_is_due_with_an_ace_or_a_ten_up_and_only_then():
    missing = one_box("TS", "KH", "8D", "7C", extra=[ev("stand", hand="1")])
    assert codes(engine.settle(missing)) == ["ILLEGAL_ACTION"]
    needless = one_box("TS", "9H", "8D", "8C", extra=[ev("peek"), ev("stand", hand="1")])
    assert codes(engine.settle(needless)) == ["ILLEGAL_ACTION"]
    twice = one_box("TS", "KH", "8D", "7C", extra=[ev("peek"), ev("peek"), ev("stand", hand="1")])
    assert codes(engine.settle(twice)) == ["ILLEGAL_ACTION"]


def test_insurance_up_to_half_the_bet_only_while_an_ace_shows():
    half = one_box(
        "TS",
        "AH",
        "8D",
        "7C",
        extra=[
            ev("insurance", stake="1", amount=50),
            ev("peek"),
            ev("take", stake="1", hand="1", wager="insurance", amount=50),
            ev("stand", hand="1"),
            ev("leave", stake="1", hand="1", wager="bet", amount=100),
        ],
    )
    assert codes(engine.settle(half)) == []
    over = one_box("TS", "AH", "8D", "7C", extra=[ev("insurance", stake="1", amount="50.01"), ev("peek")])
    assert codes(engine.settle(over)) == ["INSURANCE_AMOUNT"]
    no_ace = one_box(
        "TS",
        "KH",
        "8D",
        "7C",
        extra=[
            ev("insurance", stake="1", amount=50),
            ev("peek"),
            ev("take", stake="1", hand="1", wager="insurance", amount=50),
            ev("stand", hand="1"),
            ev("pay", stake="1", hand="1", wager="bet", amount=100),
        ],
    )
    s = engine.settle(no_ace)  # void: the take is a settlement of a wager that does not exist
    assert codes(s) == ["ILLEGAL_ACTION", "UNEXPECTED_SETTLEMENT"]
    after_peek = one_box("TS", "AH", "8D", "7C", extra=[ev("peek"), ev("insurance", stake="1", amount=50)])
    assert codes(engine.settle(after_peek)) == ["ILLEGAL_ACTION"]


def test_even_money_only_for_a_blackjack():
    doc = one_box("TS", "AH", "9D", "7C", extra=[ev("even_money", stake="1"), ev("peek")])
    assert codes(engine.settle(doc)) == ["ILLEGAL_ACTION"]


def test_bet_limits_and_the_jackpot_stake():
    assert codes(engine.settle(one_box("TS", "9H", "9D", "8C", bet=50, extra=[ev("stand", hand="1")]))) == [
        "BET_LIMITS"
    ]
    assert codes(
        engine.settle(
            one_box("TS", "9H", "9D", "8C", bet=10, preset="online", jackpot=2, extra=[ev("stand", hand="1")])
        )
    ) == ["BET_LIMITS"]


def test_deal_order_and_a_missing_hole_card():
    doc = bj(
        [stake(1)],
        deal(("dealer", "6H"), (1, "TS"), (1, "7D"), ("dealer", "TC")) + [ev("stand", hand="1"), ev("draw", card="5S")],
    )
    assert codes(engine.settle(doc)) == ["DEAL_ORDER"]
    doc = bj([stake(1)], deal((1, "TS"), ("dealer", "6H"), (1, "7D")) + [ev("stand", hand="1")])
    assert "DEAL_ORDER" in codes(engine.settle(doc))


def test_more_copies_of_a_card_in_a_round_than_the_shoe_holds():
    doc = one_box("2S", "6H", "2S", "TC", rules={"decks": 1}, extra=[ev("stand", hand="1"), ev("draw", card="5S")])
    assert codes(engine.settle(doc)) == ["CARD_COUNT"]


def test_a_box_the_table_does_not_have():
    doc = bj(
        [stake(2)],
        deal((2, "TS"), ("dealer", "9H"), (2, "9D"), ("dealer", "8C")) + [ev("stand", hand="2")],
        preset="online",
        table={"min": 1, "max": 500},
    )
    assert codes(engine.settle(doc)) == ["BOX_PLAYERS"]


# --- logs the engine cannot follow -------------------------------------------------------------


def _base():
    """Box 1: T 9 stands on 19; the dealer's 6 T draws a 2 (18): the bet is paid."""
    return one_box(
        "TS",
        "6H",
        "9D",
        "TC",
        extra=[ev("stand", hand="1"), ev("draw", card="2S"), ev("pay", stake="1", hand="1", wager="bet", amount=100)],
    )


@pytest.mark.parametrize(
    "mutate, code, event",
    [
        (lambda d: d["events"].__setitem__(4, {"e": "surrender", "hand": "1"}), "unknown_event", 4),
        (lambda d: d["events"][4].update(box=1), "unknown_field", 4),
        (lambda d: d["events"][6].update(stake="9"), "unknown_stake", 6),
        (lambda d: d["events"][4].update(hand="1.3"), "bad_value", 4),
        (lambda d: d["events"][4].update(hand="01"), "bad_value", 4),
        (lambda d: d["events"][4].update(hand="2"), "unknown_hand", 4),
        (lambda d: d["events"][4].update(hand=1), "wrong_type", 4),
        (lambda d: d["events"][6].update(amount="1e3"), "bad_amount", 6),
        (lambda d: d["events"][6].update(amount="100.005"), "bad_amount", 6),
        (lambda d: d["events"][6].update(amount=-100), "bad_amount", 6),
        (lambda d: d["events"][6].update(wager="ante"), "bad_value", 6),
        (lambda d: d["events"][5].pop("card"), "missing_field", 5),
        (lambda d: d["events"][0].update(card=10), "wrong_type", 0),
        (lambda d: d["events"][0].update(to="box 1"), "wrong_type", 0),
        (lambda d: d["events"][6].pop("hand"), "missing_field", 6),
    ],
    ids=[
        "unknown event",
        "unknown field",
        "unknown stake",
        "bad split suffix",
        "leading zero",
        "unknown hand",
        "hand not text",
        "exponent amount",
        "three decimals",
        "negative amount",
        "bad wager",
        "missing card",
        "card not text",
        "bad deal target",
        "settlement without hand",
    ],
)
def test_event_errors_name_their_code_and_event(mutate, code, event):
    doc = _base()
    mutate(doc)
    error = raises(doc)
    assert (error.code, error.event) == (code, event)
    assert error.path.startswith(f"$.events[{event}]")


@pytest.mark.parametrize(
    "mutate, code, path",
    [
        (lambda d: d["stakes"].append(stake(1)), "duplicate_stake", "$.stakes[1].id"),
        (lambda d: d["stakes"].append({**stake(1), "id": "b"}), "duplicate_box", "$.stakes[1].box"),
        (lambda d: d["stakes"].clear(), "no_stakes", "$.stakes"),
        (lambda d: d["stakes"][0].update(jackpot=1), "no_jackpot", "$.stakes[0].jackpot"),
        (lambda d: d["stakes"][0].update(ante=100), "unknown_field", "$.stakes[0].ante"),
        (lambda d: d["stakes"][0].update(box=0), "bad_value", "$.stakes[0].box"),
        (lambda d: d["rules"].update(preset="casino"), "bad_rule", "$.rules.preset"),
        (lambda d: d["rules"].update(surrender=True), "unknown_rule", "$.rules.surrender"),
        (lambda d: d["table"].update(min=6000), "bad_value", "$.table"),
        (lambda d: d.update(variant="baccarat"), "unknown_variant", "$.variant"),
        (lambda d: d.pop("events"), "missing_field", "$.events"),
    ],
    ids=[
        "duplicate stake",
        "two stakes on a box",
        "no stakes",
        "jackpot at a salon table",
        "unknown stake field",
        "box 0",
        "unknown preset",
        "unknown rule",
        "inverted limits",
        "unknown variant",
        "no events",
    ],
)
def test_header_errors_name_their_code_and_path(mutate, code, path):
    doc = _base()
    mutate(doc)
    error = raises(doc)
    assert (error.code, error.path, error.event) == (code, path, None)


def test_not_json_and_not_a_round():
    assert raises("{not json").code == "not_json"
    assert raises({**_base(), "format": "round/2"}).code == "wrong_format"


def test_amounts_in_json_text_are_read_exactly():
    text = json.dumps(_base()).replace('"bet": 100', '"bet": 100.10', 1)
    s = engine.settle(text)
    assert owed(s)[("1", "1", "bet")] == ("pay", Decimal("100.10"))
    assert s["findings"][0]["player_delta"] == "-0.10"


# --- house rules --------------------------------------------------------------------------------


def test_presets_and_overrides():
    online = engine.house_rules("blackjack", {"preset": "online"})
    assert (online["decks"], online["max_hands"], online["boxes"], online["reshuffle"], online["jackpot"]) == (
        8,
        2,
        1,
        "every_round",
        True,
    )
    assert online["jackpot_amount"] == Decimal(1000)
    salon = engine.house_rules("blackjack", None)
    assert salon == engine.house_rules("blackjack", {"preset": "salon"})
    assert (salon["decks"], salon["max_hands"], salon["boxes"], salon["cut_remaining"], salon["jackpot"]) == (
        6,
        4,
        5,
        78,
        False,
    )
    assert not salon["resplit_aces"] and not salon["hit_split_aces"] and salon["double_after_split"]
    assert engine.house_rules("blackjack", {"preset": "online", "max_hands": 3})["max_hands"] == 3
    with pytest.raises(RoundError) as caught:
        engine.house_rules("blackjack", {"decks": 9})
    assert caught.value.code == "bad_rule"
    names = {o["name"] for o in engine.options("blackjack")}
    assert {
        "preset",
        "decks",
        "reshuffle",
        "cut_remaining",
        "boxes",
        "max_hands",
        "resplit_aces",
        "hit_split_aces",
        "double_after_split",
        "jackpot",
        "jackpot_bet",
        "jackpot_amount",
    } == names


# --- what may happen next -------------------------------------------------------------------------


def moves(doc):
    return [(m["e"], m.get("to") or m.get("hand") or m.get("stake")) for m in engine.next_events(doc)]


def test_next_events_through_a_round():
    doc = bj([stake(1), stake(3)], [])
    assert moves(doc) == [("deal", 1)]
    doc["events"] = deal((1, "9S"), (3, "AD"), ("dealer", "AH"))
    assert moves(doc) == [("deal", 1)]
    doc["events"] += deal((1, "9D"), (3, "QS"))
    assert moves(doc) == [("deal", "dealer")]
    doc["events"] += deal(("dealer", "7C"))
    assert moves(doc) == [("insurance", "1"), ("even_money", "3"), ("peek", None)]
    insurance = engine.next_events(doc)[0]
    assert insurance["needs"] == ["amount"] and insurance["max"] == "50"
    doc["events"] += [ev("even_money", stake="3")]
    assert engine.next_events(doc) == [
        {
            "e": "pay",
            "stake": "3",
            "hand": "3",
            "wager": "bet",
            "amount": "100",
            "needs": [],
            "say": engine.next_events(doc)[0]["say"],
        }
    ]
    doc["events"] += [ev("pay", stake="3", hand="3", wager="bet", amount=100)]
    assert moves(doc) == [("insurance", "1"), ("peek", None)]
    doc["events"] += [ev("peek")]
    assert moves(doc) == [("hit", "1"), ("stand", "1"), ("double", "1"), ("split", "1")]
    doc["events"] += [ev("split", hand="1")]
    assert moves(doc) == [("hit", "1.1")]
    doc["events"] += [ev("hit", hand="1.1", card="2C")]
    assert moves(doc) == [("hit", "1.1"), ("stand", "1.1"), ("double", "1.1")]
    doc["events"] += [ev("double", hand="1.1", card="TC"), ev("hit", hand="1.2", card="9C")]
    assert moves(doc) == [("hit", "1.2"), ("stand", "1.2"), ("double", "1.2"), ("split", "1.2")]
    doc["events"] += [ev("stand", hand="1.2")]
    # The dealer holds A♥ 7♣, a soft 18: he stands. 1.1 doubled to 21 wins, 1.2's 18 pushes.
    assert [(m["e"], m["hand"], m["wager"], m["amount"]) for m in engine.next_events(doc)] == [
        ("pay", "1.1", "bet", "100"),
        ("pay", "1.1", "double", "100"),
        ("leave", "1.2", "bet", "100"),
    ]


def test_next_events_dealer_draws_then_settles():
    doc = one_box("TS", "6H", "9D", "TC", extra=[ev("stand", hand="1")])
    assert moves(doc) == [("draw", None)]
    doc["events"].append(ev("draw", card="2S"))
    (pay,) = engine.next_events(doc)
    assert (pay["e"], pay["hand"], pay["wager"], pay["amount"]) == ("pay", "1", "bet", "100")
    doc["events"].append(ev("pay", stake="1", hand="1", wager="bet", amount=100))
    assert engine.next_events(doc) == []


def test_next_events_with_a_ten_up_and_a_dealer_blackjack():
    doc = one_box("9S", "KH", "8D", "AC")
    assert moves(doc) == [("peek", None)]
    doc["events"].append(ev("peek"))
    (take,) = engine.next_events(doc)
    assert (take["e"], take["amount"]) == ("take", "100")


def test_next_events_never_offer_more_splits_than_the_house_allows():
    doc = one_box(
        "8S", "6H", "8H", "TC", preset="online", bet=10, extra=[ev("split", hand="1"), ev("hit", hand="1.1", card="8D")]
    )
    assert ("split", "1.1") not in moves(doc)
    aces = one_box("AS", "6H", "AD", "TC", extra=[ev("split", hand="1")])
    aces["events"].append(ev("hit", hand="1.1", card="AC"))
    assert moves(aces) == [("hit", "1.2")]


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_every_event_of_a_correct_log_is_among_the_next_events(preset, seed):
    sim = next(simulate("blackjack", 1, seed=seed, preset=preset))
    doc = json.loads(json.dumps(sim.doc, default=str))
    events = doc["events"]
    for k, event in enumerate(events):
        doc["events"] = events[:k]
        allowed = {
            (m["e"], m.get("to"), m.get("hand"), m.get("stake"), m.get("wager")) for m in engine.next_events(doc)
        }
        key = (event["e"], event.get("to"), event.get("hand"), event.get("stake"), event.get("wager"))
        assert key in allowed, (k, event, allowed)
    doc["events"] = events
    assert engine.next_events(doc) == []
