"""The round form's builder: a round entered seat by seat becomes the round/1 log in the rules' order.

The golden rounds are the reference: entered the way the home game's form takes them, they must
come out event for event as logged there (stake ids are the builder's own, S1, S2, …).
"""

import json
from decimal import Decimal
from pathlib import Path

import pytest

from dealing import engine
from dealing.games.veintiuno.builder import (
    Action,
    Payment,
    PlayError,
    RoundSheet,
    SeatEntry,
    build_round,
    parse_play,
    play_text,
    seat_hands,
)

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "veintiuno"
D = Decimal


def golden(name: str) -> dict:
    return json.loads((GOLDEN / name).read_text(encoding="utf-8"))


def same_events(built: dict, logged: dict) -> None:
    """The built events equal the golden ones, stake ids mapped by seat, amounts compared exactly."""
    ids = {s["id"]: f"S{s['seat']}" for s in logged["stakes"]}

    def norm(ev):
        out = {}
        for k, v in ev.items():
            if k == "stake":
                v = ids.get(v, v)
            if k == "amount":
                v = D(str(v))
            out[k] = v
        return out

    assert [norm(e) for e in built["events"]] == [norm(e) for e in logged["events"]]
    assert [(s["seat"], s["player"]) for s in built["stakes"]] == [(s["seat"], s["player"]) for s in logged["stakes"]]
    assert built["bank"] == logged["bank"]


def seat(n, player, bet, c1, c2, play="", declare=False):
    return SeatEntry(n, player, D(bet), (c1, c2), declare=declare, play=parse_play(play))


def pays(*items):
    return [Payment(h, r, None if a is None else D(a)) for h, r, a in items]


CASES = {
    "01-bank-stands-ties-go-to-bank.json": RoundSheet(
        "Ana",
        (D(5), D(100)),
        [
            seat(1, "Beto", 10, "KH", "4S", "5C stand"),
            seat(2, "Caro", 20, "JS", "7D", "AC stand"),
            seat(3, "Dani", 5, "5D", "QH", "stand"),
        ],
        ("6H", "QC"),
        bank_draws=["2D"],
        payments=pays(("1", "pay", 10), ("2", "take", 20), ("3", "take", 5)),
        bank_to="Ana",
    ),
    "03-natural-pays-double-and-takes-bank.json": RoundSheet(
        "Ana",
        (D(5), D(100)),
        [seat(1, "Beto", 10, "KH", "KD", "stand"), seat(2, "Caro", 10, "AS", "KS", declare=True)],
        ("AC", "QC"),
        payments=pays(("1", "take", 10), ("2", "pay", 20)),
        bank_to="Caro",
    ),
    "08-trillona.json": RoundSheet(
        "Ana",
        (D(5), D(100)),
        [seat(1, "Beto", 10, "2D", "3S", "4C 5D 5H AH AC stand")],
        ("QC", "6C"),
        bank_draws=["3D"],
        payments=pays(("1", "pay", 70)),
        bank_to="Ana",
    ),
    "09-split-double-bet-natural-takes-bank.json": RoundSheet(
        "Ana",
        (D(5), D(100)),
        [seat(1, "Beto", 10, "KH", "KD", "split 20 AS declare / 7S 2S stand")],
        ("QC", "6C"),
        bank_draws=["2C"],
        payments=pays(("1.1", "pay", 20), ("1.2", "pay", 20)),
        bank_to="Beto",
    ),
    "10-tapo-y-quedo.json": RoundSheet(
        "Ana",
        (D(5), D(100)),
        [seat(1, "Beto", 10, "KH", "5C", "tapo QS")],
        ("6C", "QD"),
        bank_draws=["7D"],
        payments=pays(("1", "leave", 10)),
        bank_to="Ana",
    ),
    "11-withdraw-on-thirteen.json": RoundSheet(
        "Ana",
        (D(5), D(100)),
        [seat(1, "Beto", 10, "KH", "KS", "stand"), seat(2, "Caro", 10, "6C", "7D", "withdraw")],
        ("7S", "KC"),
        payments=pays(("1", "pay", 10), ("2", "leave", 10)),
        bank_to="Ana",
    ),
    "12-pie-de-banco-voids-the-hand.json": RoundSheet(
        "Ana",
        (D(5), D(100)),
        [seat(1, "Beto", 10, "6H", "7D", "void"), seat(2, "Caro", 10, "QC", "JD")],
        ("7S", "KS"),
        payments=pays(("1", "leave", 10), ("2", "leave", 10)),
        bank_to="Ana",
    ),
    "22-error-split-with-single-bet.json": RoundSheet(
        "Ana",
        (D(5), D(100)),
        [seat(1, "Beto", 10, "KH", "KD", "split 10 7S stand / 6S stand")],
        ("QC", "6C"),
        bank_draws=["7D"],
        payments=pays(("1.1", "pay", 10), ("1.2", "pay", 10)),
        bank_to="Ana",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_rounds_come_out_event_for_event(name):
    case = golden(name)
    built = build_round(CASES[name])
    same_events(built, case["round"])
    settlement = engine.settle(built)
    assert {f["code"] for f in settlement["findings"]} == set(case["expected"]["finding_codes"])
    assert settlement["bank_next"] == case["expected"]["bank_next"]
    assert D(settlement["float"]) == D(case["expected"]["float"])


def test_payments_come_after_the_bank_and_in_playing_order():
    # Golden 02 takes Caro's bust at once; the form settles at the end, which the rules allow.
    case = golden("02-bank-busts-pays-everyone-in.json")
    sheet = RoundSheet(
        "Ana",
        (D(5), D(100)),
        [seat(1, "Beto", 10, "4H", "5S", "stand"), seat(2, "Caro", 10, "KS", "7D", "6S")],
        ("6C", "QH"),
        bank_draws=["7C"],
        payments=pays(("2", "take", 10), ("1", "pay", 10)),
        bank_to="Ana",
    )
    built = build_round(sheet)
    assert [e["e"] for e in built["events"]][-4:] == ["draw", "pay", "take", "bank_to"]
    assert [e.get("stake") for e in built["events"] if e["e"] in ("pay", "take")] == ["S1", "S2"]
    assert engine.settle(built)["findings"] == []
    assert engine.settle(built)["float"] == engine.settle(case["round"])["float"]


def test_the_order_of_the_rules():
    sheet = RoundSheet(
        "Ana",
        (D(5), D(50)),
        [
            seat(2, "Caro", 10, "AS", "KD", declare=True),
            seat(1, "Beto", 5, "7C", "6C", "3D stand"),
            seat(3, "Dani", 15, "5H", "2H", "3C 2C"),
        ],
        ("QH", "JC"),
        puje=True,
        bank_draws=[],
        bank_to="Caro",
        id="b7e4c2d0-5a1f-4a3e-9d51-0c7f2f0a9e11",
    )
    doc = build_round(sheet)
    assert [(e["e"], e.get("to") or e.get("stake") or e.get("hand")) for e in doc["events"]] == [
        ("deal", 1),
        ("deal", 2),
        ("deal", 3),
        ("deal", "bank"),
        ("bet", "S1"),
        ("bet", "S2"),
        ("bet", "S3"),
        ("deal", 1),
        ("deal", 2),
        ("deal", 3),
        ("deal", "bank"),
        ("declare", "2"),
        ("puje", None),
        ("hit", "1"),
        ("stand", "1"),
        ("hit", "3"),
        ("hit", "3"),
        ("bank_to", None),
    ]
    assert doc["id"] == "b7e4c2d0-5a1f-4a3e-9d51-0c7f2f0a9e11"
    assert doc["table"] == {"min": D(5), "max": D(50)}
    assert [s["id"] for s in doc["stakes"]] == ["S1", "S2", "S3"]
    settlement = engine.settle(doc)
    assert settlement["bank_next"] == "Caro"


def test_a_leading_declare_in_the_play_is_the_dealt_natural():
    a = build_round(RoundSheet("Ana", (D(5), D(50)), [seat(1, "Beto", 10, "AH", "QD", "declare")], ("6C", "KC")))
    b = build_round(RoundSheet("Ana", (D(5), D(50)), [seat(1, "Beto", 10, "AH", "QD", declare=True)], ("6C", "KC")))
    assert a == b


def test_resplits_go_depth_first():
    entry = seat(1, "Beto", 5, "7H", "7D", "split 7S split AS stand / 4C stand / 7C tapo 2D")
    assert seat_hands(entry) == ["1.1.1", "1.1.2", "1.2"]
    doc = build_round(RoundSheet("Ana", (D(5), D(100)), [entry], ("KC", "6D"), bank_draws=["4H"]))
    plays = [(e["e"], e.get("hand"), e.get("card") or e.get("amount")) for e in doc["events"][5:]]
    assert plays == [
        ("split", "1", D(10)),
        ("hit", "1.1", "7S"),
        ("split", "1.1", D(10)),
        ("hit", "1.1.1", "AS"),
        ("stand", "1.1.1", None),
        ("hit", "1.1.2", "4C"),
        ("stand", "1.1.2", None),
        ("hit", "1.2", "7C"),
        ("tapo", "1.2", "2D"),
        ("draw", None, "4H"),
    ]
    settlement = engine.settle(doc)
    # the tapo on an opened hand is illegal, and nothing else is
    assert {f["code"] for f in settlement["findings"]} == {"ILLEGAL_ACTION"}


def test_the_split_amount_defaults_to_twice_the_hand_bet():
    doc = build_round(RoundSheet("Ana", (D(5), D(100)), [seat(1, "Beto", 15, "KH", "KD", "split")], ("QC", "6C")))
    assert {"e": "split", "hand": "1", "amount": D(30)} in doc["events"]
    assert seat_hands(seat(1, "B", 15, "KH", "KD", "split")) == ["1.1", "1.2"]


@pytest.mark.parametrize(
    "text, actions",
    [
        ("", []),
        ("5c 2D stand", [Action("hit", "5C"), Action("hit", "2D"), Action("stand")]),
        ("tapo Q♠", [Action("tapo", "QS")]),
        ("me planto", [Action("stand")]),
        (
            "abro 20, AS canto / 7S",
            [
                Action("split", amount=D(20)),
                Action("hit", "AS"),
                Action("declare"),
                Action("next"),
                Action("hit", "7S"),
            ],
        ),
        ("retiro", [Action("withdraw")]),
        ("anulo", [Action("void")]),
        ("split|6H", [Action("split"), Action("next"), Action("hit", "6H")]),
    ],
)
def test_play_lines(text, actions):
    assert parse_play(text) == actions
    assert parse_play(play_text(actions)) == actions


@pytest.mark.parametrize(
    "text, word", [("5C 9H", 2), ("tapo", 1), ("tapo stand", 1), ("split -5", 2), ("split x1", 2), ("hello", 1)]
)
def test_unreadable_play_lines_say_which_word(text, word):
    with pytest.raises(PlayError) as exc:
        parse_play(text)
    assert exc.value.word == word


def test_a_slash_with_no_hand_waiting_is_refused():
    with pytest.raises(PlayError, match="no opened hand"):
        build_round(RoundSheet("Ana", (D(5), D(100)), [seat(1, "Beto", 5, "KH", "4D", "stand / 5C")], ("QC", "6C")))


def test_a_payment_for_a_hand_nobody_played_is_refused():
    sheet = RoundSheet(
        "Ana", (D(5), D(100)), [seat(1, "Beto", 5, "KH", "4D", "stand")], ("QC", "6C"), payments=pays(("2", "pay", 5))
    )
    with pytest.raises(PlayError, match="hand 2"):
        build_round(sheet)
