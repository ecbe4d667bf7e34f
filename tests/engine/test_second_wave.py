"""The second wave of round/1 (round-format.md, "Additions of the second wave"): the suit-less card
(``9*``) where suits never change a settlement, and stakes without a `player`."""

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealing import engine
from dealing.engine import cards
from dealing.engine.simulators import simulate

PROPERTY = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def ochko(events, stakes=None):
    return {
        "format": "round/1",
        "variant": "ochko",
        "table": {"name": "R-1", "min": 100, "max": 5000},
        "rules": {},
        "stakes": stakes
        or [
            {"id": "1a", "box": 1, "ante": 100, "dealer_bet": 10},
            {"id": "2a", "box": 2, "player": "P-2", "ante": 200},
        ],
        "events": events,
    }


OCHKO_EVENTS = [
    {"e": "deal", "to": 1, "card": "9*"},
    {"e": "deal", "to": 2, "card": "k*"},
    {"e": "deal", "to": "dealer", "card": "7*"},
    {"e": "bet", "stake": "1a", "amount": 100},
    {"e": "bet", "stake": "2a", "amount": 200},
    {"e": "open"},
    {"e": "hit", "box": 1, "card": "10*"},
    {"e": "stand", "box": 1},
    {"e": "dark", "box": 2, "card": "A*"},
    {"e": "draw", "card": "T*"},
    {"e": "reveal", "box": 2},
]


def blackjack(events, preset="salon", **table):
    return {
        "format": "round/1",
        "variant": "blackjack",
        "table": {"min": 100, "max": 5000, **table},
        "rules": {"preset": preset},
        "stakes": [{"id": "1", "box": 1, "bet": 100}],
        "events": events,
    }


SPLIT_EVENTS = [
    {"e": "deal", "to": 1, "card": "8*"},
    {"e": "deal", "to": "dealer", "card": "6*"},
    {"e": "deal", "to": 1, "card": "8*"},
    {"e": "deal", "to": "dealer", "card": "T*"},
    {"e": "split", "hand": "1"},
    {"e": "hit", "hand": "1.1", "card": "3*"},
    {"e": "stand", "hand": "1.1"},
    {"e": "hit", "hand": "1.2", "card": "K*"},
    {"e": "stand", "hand": "1.2"},
    {"e": "draw", "card": "9*"},
]


def strip_suits(doc):
    """The same round as a table terminal types it: ranks only, and no player names."""
    doc = copy.deepcopy(doc)
    for ev in doc["events"]:
        if "card" in ev and cards.normalize(ev["card"]):
            ev["card"] = cards.normalize(ev["card"])[0] + "*"
    for stake in doc["stakes"]:
        stake.pop("player", None)
    return doc


def summary(outcome):
    s = outcome.settlement()
    return (
        s["wagers"],
        s["float"],
        sorted((f["code"], f["event"], f.get("stake"), f.get("wager"), f.get("player_delta")) for f in s["findings"]),
    )


def test_an_ochko_round_of_suitless_cards_and_anonymous_stakes_is_settled():
    out = engine.settle(ochko(OCHKO_EVENTS))
    assert out["findings"] == []
    assert {(w["stake"], w["wager"]): (w["result"], w["amount"]) for w in out["wagers"]} == {
        ("1a", "ante"): ("pay", "100"),
        ("1a", "bet"): ("pay", "100"),
        ("1a", "dealer_bet"): ("pay", "10"),
        ("2a", "ante"): ("take", "200"),
        ("2a", "bet"): ("take", "200"),
    }  # the dark 15 loses to 17
    assert engine.replay(ochko(OCHKO_EVENTS)).cards == ["9*", "K*", "7*", "T*", "A*", "T*"]


def test_suitless_cards_outside_the_ochko_pack_are_invalid_cards():
    events = [{**OCHKO_EVENTS[0], "card": "2*"}, *OCHKO_EVENTS[1:]]
    assert [f["code"] for f in engine.settle(ochko(events))["findings"]] == ["CARD_INVALID"]


def test_a_blank_player_is_still_refused_and_a_missing_one_is_not():
    stakes = [{"id": "1a", "box": 1, "player": " ", "ante": 100}]
    with pytest.raises(engine.RoundError) as exc:
        engine.settle(ochko(OCHKO_EVENTS[:1], stakes))
    assert exc.value.path == "$.stakes[0].player"
    assert engine.next_events(ochko([], [{"id": "1a", "box": 1, "ante": 100}]))[0]["e"] == "deal"


def test_a_salon_blackjack_split_of_suitless_cards():
    out = engine.settle(blackjack(SPLIT_EVENTS))
    assert out["findings"] == []
    # 11 v 25: dealer 16 + 9 busts; both hands win their bet.
    assert [(w["hand"], w["wager"], w["result"], w["amount"]) for w in out["wagers"] if w["wager"] == "bet"] == [
        ("1.1", "bet", "pay", "100"),
        ("1.2", "bet", "pay", "100"),
    ]


@pytest.mark.parametrize(
    "doc",
    [
        blackjack(SPLIT_EVENTS, preset="online", boxes=1),
        {
            "format": "round/1",
            "variant": "veintiuno",
            "bank": "B",
            "table": {"min": 5, "max": 100},
            "stakes": [{"id": "1", "seat": 1, "player": "S"}],
            "events": [{"e": "deal", "to": 1, "card": "7*"}],
        },
    ],
    ids=["blackjack-online", "veintiuno"],
)
def test_a_suitless_card_where_the_suit_matters_is_refused_naming_the_event(doc):
    for ask in (engine.settle, engine.next_events):
        with pytest.raises(engine.RoundError) as exc:
            ask(doc)
        assert exc.value.code == "suit_needed"
        assert exc.value.event == 0 and exc.value.path == "$.events[0].card"
        assert "suit" in exc.value.message


def test_a_salon_table_that_offers_the_jackpot_needs_the_suits():
    doc = blackjack(SPLIT_EVENTS)
    doc["rules"] = {"preset": "salon", "jackpot": True}
    with pytest.raises(engine.RoundError) as exc:
        engine.settle(doc)
    assert exc.value.code == "suit_needed"


def test_suitless_cards_count_against_their_rank_in_one_round():
    # A one-pack shoe holds four aces: the fifth ace, suited or not, is one too many.
    events = [
        {"e": "deal", "to": 1, "card": "A*"},
        {"e": "deal", "to": "dealer", "card": "AS"},
        {"e": "deal", "to": 1, "card": "A*"},
        {"e": "deal", "to": "dealer", "card": "6H"},
        {"e": "split", "hand": "1"},
        {"e": "hit", "hand": "1.1", "card": "A*"},
    ]
    doc = blackjack(events)
    doc["rules"] = {"preset": "salon", "decks": 1}
    assert [f.code for f in engine.replay(doc).findings if f.code == "CARD_COUNT"] == []
    doc["events"].append({"e": "hit", "hand": "1.2", "card": "A*"})
    counted = [f for f in engine.replay(doc).findings if f.code == "CARD_COUNT"]
    assert [(f.code, f.event) for f in counted] == [("CARD_COUNT", 6)]
    assert "rank A" in counted[0].message


def _shoe(rounds):
    return {
        "format": "shoe/1",
        "variant": "ochko",
        "table": {"min": 100, "max": 5000},
        "rules": {},
        "items": [{"e": "round", "round": r} for r in rounds],
    }


def test_a_shoe_counts_suitless_cards_against_their_rank_only():
    # 8 packs hold 32 nines: 16 rounds of two nines each are fine, a 33rd nine is not.
    def round_of(cards_):
        evs = [{"e": "deal", "to": 1, "card": cards_[0]}, {"e": "deal", "to": "dealer", "card": cards_[1]}]
        return ochko(evs, [{"id": "1a", "box": 1, "ante": 100}])

    rounds = [round_of(["9*", "9*"]) for _ in range(12)] + [round_of(["9S", "9S"]) for _ in range(4)]
    assert [f.code for f in engine.check_shoe(_shoe(rounds)) if f.code == "CARD_COUNT"] == []
    over = [f for f in engine.check_shoe(_shoe(rounds + [round_of(["9*", "KS"])])) if f.code == "CARD_COUNT"]
    assert len(over) == 1 and "33 cards of rank 9" in over[0].message
    # Suited cards alone keep their own count: a ninth 9♠ is one too many, with no suit-less card.
    suited = [round_of(["9S", "9S"]) for _ in range(5)]
    assert [f.code for f in engine.check_shoe(_shoe(suited)) if f.code == "CARD_COUNT"] == ["CARD_COUNT"]


def test_a_suitless_card_is_labelled_by_its_rank():
    assert (cards.label("T*"), cards.label("9*"), cards.suitless("10*"), cards.suitless("9S")) == (
        "10",
        "9",
        "T*",
        None,
    )


@PROPERTY
@given(seed=SEEDS)
def test_ochko_rounds_typed_without_suits_or_names_settle_as_with_them(seed):
    sim = next(simulate("ochko", 1, seed=seed, mistake_rate=0.3))
    assert summary(engine.replay(strip_suits(sim.doc))) == summary(engine.replay(sim.doc))


@PROPERTY
@given(seed=SEEDS)
def test_salon_rounds_typed_without_suits_or_names_settle_as_with_them(seed):
    sim = next(simulate("blackjack", 1, seed=seed, mistake_rate=0.3, preset="salon", jackpot=0.0))
    assert summary(engine.replay(strip_suits(sim.doc))) == summary(engine.replay(sim.doc))
