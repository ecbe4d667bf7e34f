"""The blackjack round form's builder: what a dealer enters box by box — hands that split, doubles,
insurance, even money, the jackpot — becomes a log in the order of the rules."""

import json
import random
from decimal import Decimal
from pathlib import Path

import pytest

from dealing import chain, engine
from dealing.engine.blackjack import simulator
from dealing.games.blackjack.builder import (
    BlackjackEntry,
    BoxEntry,
    HandEntry,
    Result,
    Source,
    StakeEntry,
    blackjack_entry_from_document,
    build_blackjack,
    full_cards,
)

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "blackjack"
CASES = sorted(GOLDEN.glob("*.json"))
SALON = {
    "format": "round/1",
    "variant": "blackjack",
    "table": {"min": 100, "max": 5000},
    "rules": {"preset": "salon"},
    "dealer": "D-1",
}
ONLINE = {**SALON, "table": {"min": 1, "max": 500}, "rules": {"preset": "online"}}


def header_of(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in ("stakes", "events")}


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_every_golden_round_is_rebuilt_event_for_event_from_its_entries(path):
    """Clean cases come back clean; the error cases come back with the same mistake (logged as entered)."""
    case = json.loads(path.read_text(encoding="utf-8"))
    doc = case["round"]
    built = build_blackjack(blackjack_entry_from_document(doc), header=header_of(doc))
    assert built.document["stakes"] == doc["stakes"]
    assert built.document["events"] == doc["events"], case["why"]
    assert len(built.sources) == len(built.document["events"])
    settlement = engine.settle(built.document)
    assert sorted(f["code"] for f in settlement["findings"]) == sorted(case["expected"]["finding_codes"])
    if not case["expected"]["finding_codes"]:
        assert [{**w, "amount": Decimal(w["amount"])} for w in settlement["wagers"]] == [
            {**w, "amount": Decimal(w["amount"])} for w in case["expected"]["wagers"]
        ]


@pytest.mark.parametrize("preset", ["salon", "online"])
def test_simulated_rounds_come_back_as_they_were_dealt(preset):
    """Hundreds of correct rounds (splits to the preset's limit, doubles, insurance, even money, jackpots)."""
    for seed in range(150):
        rng = random.Random(seed)
        doc = chain.json_safe(simulator.simulate_round(rng, preset=preset, insurance=0.5, errors=0.2).doc)
        built = build_blackjack(blackjack_entry_from_document(doc), header=header_of(doc))
        assert chain.json_safe(built.document) == doc, seed
        assert engine.settle(built.document)["findings"] == []


def hand(name, cards, *, split=False, double_at=None, **results):
    return HandEntry(
        name,
        cards.split(),
        split=split,
        double_at=double_at,
        results={w: Result(r[0], None if len(r) < 2 else Decimal(str(r[1]))) for w, r in results.items()},
    )


def box(number, bet, *hands, player=None, jackpot=None, insurance=None, even_money=False, settle=None):
    """A box: its stake, its hands and `settle` = {"insurance" | "jackpot": (result, amount)}."""
    stake = StakeEntry(
        str(number),
        number,
        player or f"P-{number}",
        Decimal(bet),
        jackpot=None if jackpot is None else Decimal(jackpot),
        insurance=None if insurance is None else Decimal(insurance),
        even_money=even_money,
        results={w: Result(r[0], None if len(r) < 2 else Decimal(str(r[1]))) for w, r in (settle or {}).items()},
    )
    return BoxEntry(number, stake, {h.name: h for h in hands})


def events(built):
    return [tuple(ev.values()) for ev in built.document["events"]]


def test_the_seed_round_entered_box_by_box_is_logged_in_the_order_of_the_rules():
    """rules/blackjack.md's round, entered box 2 first: the deal interleaves the boxes, box 1's split
    hands play depth first, the stand is logged only where the hand could still play."""
    box2 = box(2, 500, hand("2", "9C 2D KS", double_at=2, bet=("pay", 500), double=("pay", 500)))
    box1 = box(
        1,
        200,
        hand("1", "8S 8H", split=True),
        hand("1.1", "3C 9H", double_at=1, bet=("pay", 200), double=("pay", 200)),
        hand("1.2", "TD", bet=("pay", 200)),
    )
    built = build_blackjack(BlackjackEntry([box2, box1], "6H", "TC", ["7D"]), header=SALON)
    assert events(built) == [
        ("deal", 1, "8S"),
        ("deal", 2, "9C"),
        ("deal", "dealer", "6H"),
        ("deal", 1, "8H"),
        ("deal", 2, "2D"),
        ("deal", "dealer", "TC"),
        ("split", "1"),
        ("hit", "1.1", "3C"),
        ("double", "1.1", "9H"),
        ("hit", "1.2", "TD"),
        ("stand", "1.2"),
        ("double", "2", "KS"),
        ("draw", "7D"),
        ("pay", "1", "1.1", "bet", 200),
        ("pay", "1", "1.1", "double", 200),
        ("pay", "1", "1.2", "bet", 200),
        ("pay", "2", "2", "bet", 500),
        ("pay", "2", "2", "double", 500),
    ]
    assert engine.replay(built.document).findings == []


def test_insurance_is_taken_after_the_peek_and_even_money_paid_at_once():
    box1 = box(1, 200, hand("1", "TS 9D", bet=("pay", 200)), insurance=100, settle={"insurance": ("take", 100)})
    box3 = box(3, 100, hand("3", "AS KD", bet=("pay", 100)), even_money=True)
    box4 = box(4, 300, hand("4", "7C 5H 9S", bet=("pay", 300)))
    built = build_blackjack(BlackjackEntry([box1, box3, box4], "AC", "5S", ["2H"]), header=SALON)
    assert events(built) == [
        ("deal", 1, "TS"),
        ("deal", 3, "AS"),
        ("deal", 4, "7C"),
        ("deal", "dealer", "AC"),
        ("deal", 1, "9D"),
        ("deal", 3, "KD"),
        ("deal", 4, "5H"),
        ("deal", "dealer", "5S"),
        ("insurance", "1", 100),
        ("even_money", "3"),
        ("pay", "3", "3", "bet", 100),
        ("peek",),
        ("take", "1", "1", "insurance", 100),
        ("stand", "1"),
        ("hit", "4", "9S"),  # 21: the hand is over, no stand
        ("draw", "2H"),  # A 5 2: soft 18, the dealer stands
        ("pay", "1", "1", "bet", 200),
        ("pay", "4", "4", "bet", 300),
    ]
    assert engine.replay(built.document).findings == []
    # A second draw on soft 18 breaks the rules: the engine says so, at the draw's field.
    built = build_blackjack(BlackjackEntry([box1, box3, box4], "AC", "5S", ["2H", "TD"]), header=SALON)
    outcome = engine.replay(built.document)
    assert [(f.code, built.source_of(f.event)) for f in outcome.findings if f.code == "DEALER_DRAW_RULE"] == [
        ("DEALER_DRAW_RULE", Source("dealer_card", index=3))
    ]


def test_the_dealers_blackjack_ends_the_round_and_each_box_is_settled_in_turn():
    box1 = box(1, 100, hand("1", "9S 9D", bet=("take", 100)), insurance=50, settle={"insurance": ("pay", 100)})
    box2 = box(2, 200, hand("2", "AD QS", bet=("leave", 200)))
    box5 = box(5, 400, hand("5", "TH 7H", bet=("take", 400)), insurance=200, settle={"insurance": ("pay", 400)})
    built = build_blackjack(BlackjackEntry([box1, box2, box5], "AH", "KH"), header=SALON)
    assert events(built)[8:] == [
        ("insurance", "1", 50),
        ("insurance", "5", 200),
        ("peek",),
        ("pay", "1", "1", "insurance", 100),
        ("take", "1", "1", "bet", 100),
        ("leave", "2", "2", "bet", 200),
        ("pay", "5", "5", "insurance", 400),
        ("take", "5", "5", "bet", 400),
    ]
    assert engine.replay(built.document).findings == []


def test_an_online_blackjack_of_7_pays_10_50_and_the_jackpot_after_it():
    box1 = box(1, 7, hand("1", "AS JS", bet=("pay", "10.50")), jackpot=1, settle={"jackpot": ("pay", 1000)})
    built = build_blackjack(BlackjackEntry([box1], "9C", "7D"), header=ONLINE)
    assert built.document["stakes"] == [{"id": "1", "box": 1, "player": "P-1", "bet": 7, "jackpot": 1}]
    assert events(built)[4:] == [("pay", "1", "1", "bet", "10.50"), ("pay", "1", "1", "jackpot", 1000)]
    settlement = engine.settle(built.document)
    assert settlement["findings"] == [] and settlement["float"] == "-1010.50"


def test_sources_point_back_at_the_form_and_a_wrong_payout_at_its_hand():
    box1 = box(
        1,
        100,
        hand("1", "8S 8D", split=True),
        hand("1.1", "3C 9H", double_at=1, bet=("pay", 100), double=("pay", 50)),
        hand("1.2", "KC", bet=("pay", 100)),
    )
    built = build_blackjack(BlackjackEntry([box1], "6H", "TC", ["7D"]), header=SALON)
    assert built.sources == [
        Source("card", 1, "1", hand="1", index=0),
        Source("dealer_card", index=0),
        Source("card", 1, "1", hand="1", index=1),
        Source("dealer_card", index=1),
        Source("split", 1, "1", hand="1"),
        Source("card", 1, "1", hand="1.1", index=0),
        Source("double", 1, "1", "double", hand="1.1", index=1),
        Source("card", 1, "1", hand="1.2", index=0),
        Source("stand", 1, "1", hand="1.2"),
        Source("dealer_card", index=2),
        Source("result", 1, "1", "bet", hand="1.1"),
        Source("result", 1, "1", "double", hand="1.1"),
        Source("result", 1, "1", "bet", hand="1.2"),
    ]
    (finding,) = engine.replay(built.document).findings
    assert (finding.code, finding.hand, finding.wager) == ("WRONG_AMOUNT", "1.1", "double")
    assert built.source_of(finding.event) == Source("result", 1, "1", "double", hand="1.1")


def test_a_resplit_to_four_hands_plays_depth_first():
    box1 = box(
        1,
        100,
        hand("1", "KH TC", split=True),
        hand("1.1", "QS", split=True),
        hand("1.1.1", "JD", split=True),
        hand("1.1.1.1", "9C", bet=("pay", 100)),
        hand("1.1.1.2", "8S", bet=("pay", 100)),
        hand("1.1.2", "7S", bet=("pay", 100)),
        hand("1.2", "TS", bet=("pay", 100)),
    )
    built = build_blackjack(BlackjackEntry([box1], "6H", "TD", ["8D"]), header=SALON)
    plays = [e for e in events(built) if e[0] in ("split", "hit", "stand")]
    assert plays == [
        ("split", "1"),
        ("hit", "1.1", "QS"),
        ("split", "1.1"),
        ("hit", "1.1.1", "JD"),
        ("split", "1.1.1"),
        ("hit", "1.1.1.1", "9C"),
        ("stand", "1.1.1.1"),
        ("hit", "1.1.1.2", "8S"),
        ("stand", "1.1.1.2"),
        ("hit", "1.1.2", "7S"),
        ("stand", "1.1.2"),
        ("hit", "1.2", "TS"),
        ("stand", "1.2"),
    ]
    assert [h.name for h in box1.leaves()] == ["1.1.1.1", "1.1.1.2", "1.1.2", "1.2"]
    assert full_cards(box1, box1.hands["1.1.1.2"]) == ["JD", "8S"]
    assert full_cards(box1, box1.hands["1.2"]) == ["TC", "TS"]
    assert engine.replay(built.document).findings == []


def test_what_breaks_the_rules_is_logged_as_entered_for_the_engine_to_find():
    """A third card on a split ace, a payout missing: the builder keeps both for the engine."""
    box1 = box(1, 100, hand("1", "AS AD", split=True), hand("1.1", "2C 5C", bet=("pay", 100)), hand("1.2", "9D"))
    built = build_blackjack(BlackjackEntry([box1], "9H", "8C"), header=SALON)
    assert ("hit", "1.1", "5C") in events(built)
    codes = {f.code for f in engine.replay(built.document).findings}
    assert codes == {"ILLEGAL_ACTION", "MISSING_SETTLEMENT"}


def test_a_stored_round_is_read_back_with_its_inherited_cards():
    case = json.loads((GOLDEN / "01-seed-round-dealer-busts.json").read_text(encoding="utf-8"))
    entry = blackjack_entry_from_document(case["round"])
    assert (entry.dealer_up, entry.dealer_hole, entry.dealer_draws) == ("6H", "TC", ["7D"])
    box1, box2 = entry.boxes
    assert [h.name for h in box1.walk()] == ["1", "1.1", "1.2"] and box1.root.split
    first = box1.hands["1.1"]
    assert first.cards == ["3C", "9H"] and first.double_at == 1 and full_cards(box1, first) == ["8S", "3C", "9H"]
    assert first.results == {"bet": Result("pay", Decimal(200)), "double": Result("pay", Decimal(200))}
    assert box2.root.cards == ["9C", "2D", "KS"] and box2.root.double_at == 2
    assert box2.stake.bet == Decimal(500) and box2.stake.player == "P-2"
