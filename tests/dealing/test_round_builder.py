"""The round form's builder: what a dealer enters box by box becomes a log in the procedure's order."""

import json
from decimal import Decimal
from pathlib import Path

import pytest

from dealing import engine
from dealing.games.ochko.builder import (
    BoxEntry,
    OchkoEntry,
    Result,
    Source,
    StakeEntry,
    amount_json,
    build_ochko,
    ochko_entry_from_document,
)

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "ochko"
# The clean golden rounds without in-round incidents: each is already in the procedure's order.
IN_ORDER = sorted(p for p in GOLDEN.glob("*.json") if int(p.name[:2]) < 20)
HEADER = {"format": "round/1", "variant": "ochko", "table": {"min": 100, "max": 5000}, "dealer": "D-1"}


@pytest.mark.parametrize("path", IN_ORDER, ids=[p.stem for p in IN_ORDER])
def test_the_builder_gives_back_every_clean_golden_round_event_for_event(path):
    case = json.loads(path.read_text(encoding="utf-8"))
    doc = case["round"]
    header = {k: v for k, v in doc.items() if k not in ("stakes", "events")}
    built = build_ochko(ochko_entry_from_document(doc), header=header)
    assert built.document["stakes"] == doc["stakes"]
    assert built.document["events"] == doc["events"], case["why"]
    assert len(built.sources) == len(built.document["events"])
    settlement = engine.settle(built.document)
    assert settlement["findings"] == []


def stake(sid, box, ante, bet=None, dealer_bet=None, results=None):
    return StakeEntry(
        id=sid,
        box=box,
        player=f"P-{sid}",
        ante=Decimal(ante),
        bet=None if bet is None else Decimal(bet),
        dealer_bet=None if dealer_bet is None else Decimal(dealer_bet),
        results={w: Result(r[0], None if len(r) < 2 else Decimal(r[1])) for w, r in (results or {}).items()},
    )


def events(built):
    return [tuple(ev.values()) for ev in built.document["events"]]


def test_a_round_entered_box_by_box_is_logged_in_the_procedures_order():
    """Boxes entered 5 then 2; a fold on a shared box, an instant ochko, a dark card."""
    box5 = BoxEntry(
        5,
        [
            stake(
                "5a",
                5,
                100,
                bet="200",
                dealer_bet="10",
                results={"ante": ("pay", 100), "bet": ("leave",), "dealer_bet": ("pay", 10)},
            )
        ],
        cards=["TS", "6D"],
        dark="KC",
    )
    box2 = BoxEntry(
        2,
        [
            stake("2a", 2, 100, bet="100", results={"bet": ("pay", 100), "ante": ("pay", 100)}),
            stake("2b", 2, 200, results={"ante": ("take", 200)}),
        ],
        cards=["AH", "AS"],
    )
    built = build_ochko(OchkoEntry([box5, box2], ["7C", "TD"]), header=HEADER)
    assert events(built) == [
        ("deal", 2, "AH"),
        ("deal", 5, "TS"),
        ("deal", "dealer", "7C"),
        ("bet", "2a", 100),
        ("fold", "2b"),
        ("take", "2b", "ante", 200),
        ("bet", "5a", 200),
        ("open",),
        ("hit", 2, "AS"),
        ("pay", "2a", "bet", 100),
        ("pay", "2a", "ante", 100),
        ("hit", 5, "6D"),
        ("dark", 5, "KC"),
        ("draw", "TD"),
        ("reveal", 5),
        ("pay", "5a", "ante", 100),
        ("leave", "5a", "bet"),
        ("pay", "5a", "dealer_bet", 10),
    ]
    assert engine.replay(built.document).findings == []  # a pair of aces is ochko; 16 + K = 20 beats 17


def test_an_instant_ochko_is_settled_right_after_its_card_with_dealer_bets_after_bet_and_ante():
    box1 = BoxEntry(
        1,
        [
            stake(
                "1a",
                1,
                100,
                bet="300",
                dealer_bet="5",
                results={"dealer_bet": ("pay", 5), "ante": ("pay", 100), "bet": ("pay", 300)},
            )
        ],
        cards=["TS", "AH"],
    )
    box3 = BoxEntry(
        3, [stake("3a", 3, 100, bet="100", results={"bet": ("take", 100), "ante": ("take", 100)})], cards=["9S", "8D"]
    )
    built = build_ochko(OchkoEntry([box1, box3], ["TC", "9H"]), header=HEADER)
    assert events(built) == [
        ("deal", 1, "TS"),
        ("deal", 3, "9S"),
        ("deal", "dealer", "TC"),
        ("bet", "1a", 300),
        ("bet", "3a", 100),
        ("open",),
        ("hit", 1, "AH"),
        ("pay", "1a", "bet", 300),
        ("pay", "1a", "ante", 100),
        ("pay", "1a", "dealer_bet", 5),
        ("hit", 3, "8D"),
        ("stand", 3),
        ("draw", "9H"),
        ("take", "3a", "bet", 100),
        ("take", "3a", "ante", 100),
    ]
    assert engine.replay(built.document).findings == []


def test_sources_point_back_at_the_form():
    box1 = BoxEntry(
        1, [stake("1a", 1, 100, bet="150", results={"bet": ("pay", 100), "ante": ("pay", 100)})], cards=["TS", "8H"]
    )
    built = build_ochko(OchkoEntry([box1], ["9C", "8D"]), header=HEADER)
    assert built.sources == [
        Source("card", 1, index=0),
        Source("dealer_card", index=0),
        Source("decision", 1, "1a", "bet"),
        Source("open"),
        Source("card", 1, index=1),
        Source("stand", 1),
        Source("dealer_card", index=1),
        Source("result", 1, "1a", "bet"),
        Source("result", 1, "1a", "ante"),
    ]
    finding = engine.replay(built.document).findings[0]
    assert finding.code == "WRONG_AMOUNT"
    assert built.source_of(finding.event) == Source("result", 1, "1a", "bet")
    assert built.source_of(None) is None and built.source_of(99) is None


def test_a_fold_with_a_dealer_bet_is_settled_at_once_and_a_mnogo_at_its_card():
    box1 = BoxEntry(
        1, [stake("1a", 1, 100, dealer_bet="5", results={"ante": ("take", 100), "dealer_bet": ("take",)})], cards=["6S"]
    )
    box2 = BoxEntry(
        2,
        [stake("2a", 2, 100, bet="200", results={"bet": ("take", 200), "ante": ("take", 100)})],
        cards=["TH", "8D", "KS"],
    )
    built = build_ochko(OchkoEntry([box1, box2], ["7C"]), header=HEADER)
    assert events(built) == [
        ("deal", 1, "6S"),
        ("deal", 2, "TH"),
        ("deal", "dealer", "7C"),
        ("fold", "1a"),
        ("take", "1a", "ante", 100),
        ("take", "1a", "dealer_bet"),
        ("bet", "2a", 200),
        ("open",),
        ("hit", 2, "8D"),
        ("hit", 2, "KS"),
        ("take", "2a", "bet", 200),
        ("take", "2a", "ante", 100),
    ]
    assert engine.replay(built.document).findings == []  # nothing open: the dealer does not draw


def test_cards_after_an_instant_result_stay_in_the_log_for_the_engine_to_judge():
    box1 = BoxEntry(1, [stake("1a", 1, 100, bet="100")], cards=["TS", "AH", "6D"])
    built = build_ochko(OchkoEntry([box1], ["TC"]), header=HEADER)
    assert ("hit", 1, "6D") in events(built)
    assert ("stand", 1) not in events(built)
    outcome = engine.replay(built.document)
    assert "ILLEGAL_ACTION" in {f.code for f in outcome.findings}


def test_amounts_are_written_exactly():
    assert amount_json(Decimal("150")) == 150
    assert amount_json(Decimal("7.50")) == "7.50"
    assert amount_json(Decimal("7.5")) == "7.50"
    box1 = BoxEntry(1, [stake("1a", 1, "100.50", bet="201")], cards=["TS"], dark="9D")
    built = build_ochko(OchkoEntry([box1], ["TC", "7S"]), header=HEADER)
    assert built.document["stakes"][0]["ante"] == "100.50"
    assert ("dark", 1, "9D") in events(built) and ("reveal", 1) in events(built)
    assert ("stand", 1) not in events(built)


def test_a_stored_round_read_back_for_drawing():
    case = json.loads((GOLDEN / "30-exposed-card-approved.json").read_text(encoding="utf-8"))
    entry = ochko_entry_from_document(case["round"])
    assert entry.dealer_cards == ["9C", "8S"]  # the exposed KH was burned and replaced
    (box,) = entry.boxes
    assert box.cards == ["TS", "9D"] and box.dark is None
    assert box.stakes[0].bet == Decimal(100)
    assert box.stakes[0].results == {"bet": Result("pay", Decimal(100)), "ante": Result("pay", Decimal(100))}
