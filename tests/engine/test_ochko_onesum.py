"""Several boxes paid with one sum (#35 item 5; seed 004 lines 49 and 59; rules/ochko.md, step 11):
the `pay_sum` event (dealing/engine/ochko/onesum.py, docs/engine.md "Ochko: a payment in one sum")."""

import copy
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealing import engine
from dealing.engine.simulators import simulate
from tests.engine.ochko_logs import round_doc

TWO_BOXES = [
    {"id": "1a", "box": 1, "player": "P-1", "ante": 100, "dealer_bet": 10},
    {"id": "3a", "box": 3, "player": "P-2", "ante": 200},
]


def two_boxes(settle, *, stakes=None, dealer=("7C", "6S", "9D")):
    """Box 1: 9 T = 19, box 3: T 9 = 19, both stand; the dealer 7 6 9 = 22 busts: both win."""
    events = [
        {"e": "deal", "to": 1, "card": "9H"},
        {"e": "deal", "to": 3, "card": "TS"},
        {"e": "deal", "to": "dealer", "card": dealer[0]},
        {"e": "bet", "stake": "1a", "amount": 300},
        {"e": "bet", "stake": "3a", "amount": 200},
        {"e": "open"},
        {"e": "hit", "box": 1, "card": "TD"},
        {"e": "stand", "box": 1},
        {"e": "hit", "box": 3, "card": "9C"},
        {"e": "stand", "box": 3},
    ]
    events += [{"e": "draw", "card": c} for c in dealer[1:]]
    return round_doc(copy.deepcopy(stakes or TWO_BOXES), events + list(settle))


BOX_BY_BOX = [
    {"e": "pay", "stake": "3a", "wager": "bet", "amount": 200},
    {"e": "pay", "stake": "3a", "wager": "ante", "amount": 200},
    {"e": "pay", "stake": "1a", "wager": "bet", "amount": 300},
    {"e": "pay", "stake": "1a", "wager": "ante", "amount": 100},
    {"e": "pay", "stake": "1a", "wager": "dealer_bet", "amount": 10},
]


def findings(doc):
    return [f.to_dict() for f in engine.replay(doc).findings]


def codes(doc):
    return [(f["code"], f["params"].get("rule")) for f in findings(doc)]


def test_two_boxes_in_one_sum_with_the_dealer_bet_on_the_last_box_is_clean():
    doc = two_boxes([{"e": "pay_sum", "boxes": [3, 1], "amount": 810}])
    one_sum = engine.replay(doc).settlement()
    by_box = engine.replay(two_boxes(BOX_BY_BOX)).settlement()
    assert one_sum["findings"] == []
    # settlement/1 stays per wager: the same wagers, results, amounts and float as paid box by box
    assert one_sum == by_box
    assert one_sum["float"] == "-810"


def test_a_sum_then_the_last_boxs_dealer_bet_on_its_own_is_not_allowed_twice():
    """The sum covers every wager of its boxes, the last box's dealer bet included: paying it again
    after the sum is a second payment."""
    doc = two_boxes(
        [
            {"e": "pay_sum", "boxes": [3, 1], "amount": 810},
            {"e": "pay", "stake": "1a", "wager": "dealer_bet", "amount": 10},
        ]
    )
    assert codes(doc) == [("UNEXPECTED_SETTLEMENT", "paid_again")]


@pytest.mark.parametrize("paid, delta", [("800", "-10"), (900, "90"), ("810.50", "0.50")])
def test_a_sum_that_is_not_what_its_wagers_are_owed_is_a_wrong_amount(paid, delta):
    doc = two_boxes([{"e": "pay_sum", "boxes": [3, 1], "amount": paid}])
    (f,) = findings(doc)
    assert f["code"] == "WRONG_AMOUNT" and f["severity"] == "critical"
    assert f["event"] == 12 and f["player_delta"] == delta
    assert f["params"] == {"rule": "sum", "event": 12, "boxes": "3, 1", "paid": str(paid), "owed": "810"}
    assert f["expected"] == {"result": "pay", "amount": "810"}
    assert "boxes 3, 1" in f["message"] and "rules/ochko.md, step 11" in f["message"]


def test_a_dealer_bet_on_a_box_before_the_last_breaks_the_order_of_payment():
    stakes = [
        {"id": "1a", "box": 1, "player": "P-1", "ante": 100},
        {"id": "3a", "box": 3, "player": "P-2", "ante": 200, "dealer_bet": 20},
    ]
    doc = two_boxes([{"e": "pay_sum", "boxes": [3, 1], "amount": 820}], stakes=stakes)
    (f,) = findings(doc)
    assert (f["code"], f["params"]["rule"]) == ("PAYMENT_ORDER", "sum_dealer_bet")
    assert f["severity"] == "major" and f["player_delta"] is None
    assert f["params"]["box"] == 3 and f["params"]["last"] == 1 and f["stake"] == "3a"
    assert "rules/ochko.md, step 11" in f["message"]
    # the same boxes paid one by one, box 3's dealer bet between them, are in order
    box_by_box = [
        {"e": "pay", "stake": "3a", "wager": "bet", "amount": 200},
        {"e": "pay", "stake": "3a", "wager": "ante", "amount": 200},
        {"e": "pay", "stake": "3a", "wager": "dealer_bet", "amount": 20},
        {"e": "pay", "stake": "1a", "wager": "bet", "amount": 300},
        {"e": "pay", "stake": "1a", "wager": "ante", "amount": 100},
    ]
    assert findings(two_boxes(box_by_box, stakes=stakes)) == []


def test_boxes_named_against_the_order_of_payment_are_out_of_order():
    """Box 1 named before box 3: out of the order 6 → 1, and box 1's dealer bet is no longer on the
    last box of the sum."""
    doc = two_boxes([{"e": "pay_sum", "boxes": [1, 3], "amount": 810}])
    assert sorted(codes(doc)) == [("PAYMENT_ORDER", "box_order"), ("PAYMENT_ORDER", "sum_dealer_bet")]
    (f,) = [f for f in findings(doc) if f["params"]["rule"] == "box_order"]
    assert f["params"] == {"rule": "box_order", "event": 12, "box": 3, "after": 1}
    stakes = [
        {**s, "dealer_bet": 10} if s["id"] == "3a" else {k: v for k, v in s.items() if k != "dealer_bet"}
        for s in TWO_BOXES
    ]
    assert codes(two_boxes([{"e": "pay_sum", "boxes": [1, 3], "amount": 810}], stakes=stakes)) == [
        ("PAYMENT_ORDER", "box_order")
    ]


def test_a_sum_after_a_later_box_was_paid_on_its_own_is_out_of_order():
    stakes = [*TWO_BOXES, {"id": "2a", "box": 2, "player": "P-3", "ante": 100}]
    events = [
        {"e": "deal", "to": 1, "card": "9H"},
        {"e": "deal", "to": 2, "card": "9S"},
        {"e": "deal", "to": 3, "card": "TS"},
        {"e": "deal", "to": "dealer", "card": "7C"},
        {"e": "bet", "stake": "1a", "amount": 300},
        {"e": "bet", "stake": "2a", "amount": 100},
        {"e": "bet", "stake": "3a", "amount": 200},
        {"e": "open"},
        {"e": "hit", "box": 1, "card": "TD"},
        {"e": "stand", "box": 1},
        {"e": "hit", "box": 2, "card": "TC"},
        {"e": "stand", "box": 2},
        {"e": "hit", "box": 3, "card": "9C"},
        {"e": "stand", "box": 3},
        {"e": "draw", "card": "6S"},
        {"e": "draw", "card": "9D"},
    ]
    pay_two = [
        {"e": "pay", "stake": "2a", "wager": "bet", "amount": 100},
        {"e": "pay", "stake": "2a", "wager": "ante", "amount": 100},
    ]
    right = round_doc(stakes, events + [{"e": "pay_sum", "boxes": [3, 2], "amount": 600}] + BOX_BY_BOX[2:])
    assert findings(right) == []
    wrong = round_doc(stakes, events + pay_two + [{"e": "pay_sum", "boxes": [3, 1], "amount": 810}])
    assert codes(wrong) == [("PAYMENT_ORDER", "box_order")]


def test_a_stay_is_not_folded_into_a_sum():
    """Seed 004 line 49: a dark-card box that wins is paid its Ante; its Bet stays (leave). Named in
    a sum, its stay is folded into it: a finding, though the amount is right."""
    stakes = [
        {"id": "1a", "box": 1, "player": "P-1", "ante": 100},
        {"id": "3a", "box": 3, "player": "P-2", "ante": 200},
    ]
    events = [
        {"e": "deal", "to": 1, "card": "9H"},
        {"e": "deal", "to": 3, "card": "TS"},
        {"e": "deal", "to": "dealer", "card": "7C"},
        {"e": "bet", "stake": "1a", "amount": 300},
        {"e": "bet", "stake": "3a", "amount": 200},
        {"e": "open"},
        {"e": "hit", "box": 1, "card": "TD"},
        {"e": "stand", "box": 1},
        {"e": "dark", "box": 3, "card": "9C"},
        {"e": "draw", "card": "6S"},
        {"e": "draw", "card": "9D"},
        {"e": "reveal", "box": 3},
    ]
    doc = round_doc(stakes, events + [{"e": "pay_sum", "boxes": [3, 1], "amount": 600}])
    (f,) = findings(doc)
    assert (f["code"], f["params"]["rule"]) == ("PAYMENT_ORDER", "sum_stay")
    assert f["stake"] == "3a" and f["wager"] == "bet" and f["player_delta"] == "0"
    assert "Box 3, stake 3a: the Bet stays (200 returned, not paid)" in f["message"]
    # settled as owed all the same: the Bet left, the rest paid
    wagers = {(w["stake"], w["wager"]): w["result"] for w in engine.replay(doc).settlement()["wagers"]}
    assert wagers[("3a", "bet")] == "leave"
    # the stay on its own, then box 1: clean
    apart = [
        {"e": "pay", "stake": "3a", "wager": "ante", "amount": 200},
        {"e": "leave", "stake": "3a", "wager": "bet"},
        {"e": "pay", "stake": "1a", "wager": "bet", "amount": 300},
        {"e": "pay", "stake": "1a", "wager": "ante", "amount": 100},
    ]
    assert findings(round_doc(stakes, events + apart)) == []


def test_a_box_that_lost_paid_in_a_sum_is_a_wrong_result():
    """Both boxes have 19, the dealer stops on 20 (T K 6): both lose, yet the dealer pays them."""
    doc = two_boxes([{"e": "pay_sum", "boxes": [3, 1], "amount": 400}], dealer=("TC", "KD", "6S"))
    found = findings(doc)
    assert {(f["code"], f["params"]["rule"], f["stake"], f["wager"]) for f in found} >= {
        ("WRONG_RESULT", "sum", "3a", "bet"),
        ("WRONG_RESULT", "sum", "3a", "ante"),
    }
    bet = next(f for f in found if f["stake"] == "3a" and f["wager"] == "bet")
    assert bet["player_delta"] == "200" and bet["expected"] == {"result": "take", "amount": "200"}
    assert "it should have been taken (200)" in bet["message"]


def test_a_sum_before_the_dealer_finished_drawing_is_early():
    doc = two_boxes([{"e": "pay_sum", "boxes": [3, 1], "amount": 810}])
    events = doc["events"]
    events.insert(11, events.pop())  # the sum between the dealer's two draws
    assert ("PAYMENT_ORDER", "before_dealer") in codes(doc)


@pytest.mark.parametrize(
    "event, field, words",
    [
        ({"e": "pay_sum", "amount": 810}, "boxes", "has no"),
        ({"e": "pay_sum", "boxes": "3, 1", "amount": 810}, "boxes", "a list of box numbers"),
        ({"e": "pay_sum", "boxes": [3, "1"], "amount": 810}, "boxes", "a list of box numbers"),
        ({"e": "pay_sum", "boxes": [3], "amount": 810}, "boxes", "at least two boxes"),
        ({"e": "pay_sum", "boxes": [3, 3], "amount": 810}, "boxes", "named twice"),
        ({"e": "pay_sum", "boxes": [5, 1], "amount": 810}, "boxes", "no stakes"),
        ({"e": "pay_sum", "boxes": [3, 1]}, "amount", "has no"),
        ({"e": "pay_sum", "boxes": [3, 1], "amount": -5}, "amount", ""),
        ({"e": "pay_sum", "boxes": [3, 1], "amount": 810, "stake": "1a"}, "stake", ""),
    ],
)
def test_a_sum_the_engine_cannot_follow_is_refused_naming_the_field(event, field, words):
    with pytest.raises(engine.RoundError) as err:
        engine.replay(two_boxes([event]))
    assert err.value.event == 12 and field in err.value.path
    assert words in str(err.value)


def test_the_engine_lists_a_sum_among_the_moves_only_as_pay_events():
    """The next moves stay one wager at a time; after a sum the round is over."""
    doc = two_boxes([{"e": "pay_sum", "boxes": [3, 1], "amount": 810}])
    assert engine.next_events(doc) == []


def test_a_round_with_a_sum_walked_event_by_event_ends_as_its_replay():
    doc = two_boxes([{"e": "pay_sum", "boxes": [3, 1], "amount": 800}])
    state = engine.walk({**doc, "events": []})
    for i, event in enumerate(doc["events"]):
        state.apply(i, event)
    assert state.finish().settlement() == engine.replay(doc).settlement()


# --- property: any run of boxes the procedure lets be paid together, paid in one sum -------------


def final_runs(doc):
    """The final settlement of a correct log (after the dealer's last draw or reveal), as runs of
    boxes that may be paid with one sum: every wager paid, a dealer bet only on the run's last box."""
    events = doc["events"]
    box_of = {s["id"]: s["box"] for s in doc["stakes"]}
    last = max((k for k, ev in enumerate(events) if ev["e"] in ("draw", "reveal")), default=None)
    if last is None:
        return []
    tail = list(range(last + 1, len(events)))
    by_box: dict[int, list[int]] = {}
    order: list[int] = []
    for k in tail:
        n = box_of[events[k]["stake"]]
        if n not in by_box:
            order.append(n)
        by_box.setdefault(n, []).append(k)
    runs, run = [], []
    for n in order:
        evs = [events[k] for k in by_box[n]]
        if any(ev["e"] != "pay" for ev in evs):
            if len(run) > 1:
                runs.append(run)
            run = []
            continue
        run.append(n)
        if any(ev["wager"] == "dealer_bet" for ev in evs):
            if len(run) > 1:
                runs.append(run)
            run = []
    if len(run) > 1:
        runs.append(run)
    return [(r, [k for n in r for k in by_box[n]]) for r in runs]


def folded(doc, runs, off=Decimal(0)):
    """The log with each run paid in one sum (the first run's sum `off` from what it is owed)."""
    out = copy.deepcopy(doc)
    events = out["events"]
    drop = set()
    for j, (boxes, ks) in enumerate(runs):
        total = sum(Decimal(str(events[k]["amount"])) for k in ks) + (off if j == 0 else 0)
        events[ks[0]] = {"e": "pay_sum", "boxes": boxes, "amount": str(total)}
        drop.update(ks[1:])
    out["events"] = [ev for k, ev in enumerate(events) if k not in drop]
    return out


def rounds_with_runs(seed):
    for sim in simulate("ochko", 40, seed=seed):
        runs = final_runs(sim.doc)
        if runs:
            return sim.doc, runs
    return None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), off=st.integers(min_value=-500, max_value=500))
def test_boxes_the_procedure_lets_be_paid_together_settle_the_same_in_one_sum(seed, off):
    found = rounds_with_runs(seed)
    if found is None:
        return
    doc, runs = found
    plain = engine.replay(doc).settlement()
    assert plain["findings"] == []
    one_sum = engine.replay(folded(doc, runs)).settlement()
    assert one_sum == plain  # the same wagers, float and (no) findings
    if off:
        wrong = engine.replay(folded(doc, runs, Decimal(off))).settlement()
        assert [(f["code"], f["params"]["rule"], f["player_delta"]) for f in wrong["findings"]] == [
            ("WRONG_AMOUNT", "sum", str(off))
        ]
        assert wrong["wagers"] == plain["wagers"] and wrong["float"] == plain["float"]


def test_a_sum_for_boxes_that_lost_adds_up_what_the_player_was_not_owed():
    doc = two_boxes([{"e": "pay_sum", "boxes": [3, 1], "amount": 400}], dealer=("TC", "KD", "6S"))
    found = findings(doc)
    assert sorted((f["code"], f["stake"], f["wager"]) for f in found) == [
        ("WRONG_AMOUNT", None, None),
        ("WRONG_RESULT", "1a", "ante"),
        ("WRONG_RESULT", "1a", "bet"),
        ("WRONG_RESULT", "1a", "dealer_bet"),
        ("WRONG_RESULT", "3a", "ante"),
        ("WRONG_RESULT", "3a", "bet"),
    ]
    # the wagers were kept (810 not taken) and 400 paid where nothing was owed
    assert sum(Decimal(f["player_delta"]) for f in found) == Decimal(810 + 400)


def logged(doc):
    """Each settlement of the log as the money moved: (stake, wager) -> (result, amount)."""
    return {(s.stake, s.wager): (s.result, s.amount) for s in engine.replay(doc).settled}


def test_a_sum_is_counted_out_in_the_order_paid_so_a_short_sum_is_short_at_the_end():
    """What adds up the log (its float as logged, each stake's net) sees the sum's money: a sum
    10 short lacks the last wager it covers, box 1's dealer bet."""
    short = logged(two_boxes([{"e": "pay_sum", "boxes": [3, 1], "amount": 800}]))
    assert short[("3a", "bet")] == ("pay", Decimal(200)) and short[("1a", "ante")] == ("pay", Decimal(100))
    assert short[("1a", "dealer_bet")] == ("pay", Decimal(0))
    assert sum(a for _, a in short.values()) == Decimal(800)
    over = logged(two_boxes([{"e": "pay_sum", "boxes": [3, 1], "amount": 900}]))
    assert over[("1a", "dealer_bet")] == ("pay", Decimal(100))
    assert sum(a for _, a in over.values()) == Decimal(900)


def test_a_sum_for_boxes_that_lost_moves_its_money_and_takes_nothing():
    lost = logged(two_boxes([{"e": "pay_sum", "boxes": [3, 1], "amount": 400}], dealer=("TC", "KD", "6S")))
    assert {r for r, _ in lost.values()} == {"pay"}  # nothing was taken to the float
    assert sum(a for _, a in lost.values()) == Decimal(400)


def test_a_stay_folded_into_a_sum_stays_as_logged():
    stakes = [
        {"id": "1a", "box": 1, "player": "P-1", "ante": 100},
        {"id": "3a", "box": 3, "player": "P-2", "ante": 200},
    ]
    events = two_boxes([])["events"][:8] + [
        {"e": "dark", "box": 3, "card": "9C"},
        {"e": "draw", "card": "6S"},
        {"e": "draw", "card": "9D"},
        {"e": "reveal", "box": 3},
        {"e": "pay_sum", "boxes": [3, 1], "amount": 600},
    ]
    moved = logged(round_doc(stakes, events))
    assert moved[("3a", "bet")] == ("leave", None) and sum(a or 0 for _, a in moved.values()) == Decimal(600)


def test_a_sum_in_a_round_with_a_card_out_of_the_pack_still_adds_up():
    doc = two_boxes([{"e": "pay_sum", "boxes": [3, 1], "amount": 810}])
    doc["events"][-1 - 1]["card"] = "5D"  # the dealer's last draw: no card of the pack
    outcome = engine.replay(doc)
    assert outcome.wagers is None
    assert sum(s.amount for s in outcome.settled) == Decimal(810)


# --- fuzz: whatever a sum's fields hold, the engine answers or refuses with its own error ----------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**18) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)
BOXES = st.lists(st.integers(-2, 8), max_size=5) | JSON
PLACE = st.integers(min_value=0, max_value=13)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boxes=BOXES, amount=st.integers(-5, 2000) | JSON, at=PLACE, twice=st.booleans())
def test_any_sum_anywhere_is_settled_or_refused_never_a_crash(boxes, amount, at, twice):
    doc = two_boxes([])
    events = doc["events"]
    event = {"e": "pay_sum", "boxes": boxes, "amount": amount}
    events.insert(min(at, len(events)), event)
    if twice:
        events.append(copy.deepcopy(event))
    try:
        settled = engine.settle(doc)
        moves = engine.next_events(doc)
    except engine.RoundError as error:
        assert error.code and error.message and error.event is not None
        return
    assert isinstance(moves, list)
    if settled["wagers"] is not None:
        outcome = engine.replay(doc)
        # every settlement has its money: a pay always carries an amount
        assert all(s.amount is not None for s in outcome.settled if s.result == "pay")


def test_a_sum_before_the_bets_pays_what_was_never_owed_and_keeps_its_money():
    doc = two_boxes([])
    doc["events"].insert(3, {"e": "pay_sum", "boxes": [3, 1], "amount": 500})
    outcome = engine.replay(doc)
    found = {(f.code, f.params.get("rule")) for f in outcome.findings}
    assert ("PAYMENT_ORDER", "before_dealer") in found and ("WRONG_AMOUNT", "sum") in found
    assert sum(s.amount for s in outcome.settled if s.result == "pay") == Decimal(500)
