"""The draw for the first bank: the highest card takes it, the Ace is highest, ties draw again
among the tied only; every pass is checked."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealing.engine.veintiuno import PACK
from ledger.draw import HIGH_CARD, DrawError, deal_pass, draw_state, highest, read_card

PLAYERS = ["Ana", "Beto", "Caro", "Dani"]


def test_the_ace_is_highest():
    state = draw_state(PLAYERS, [{"Ana": "KS", "Beto": "AD", "Caro": "QH", "Dani": "7C"}])
    assert state.decided and state.winner == "Beto"


@pytest.mark.parametrize("low, high", [("2S", "3S"), ("7H", "JH"), ("JC", "QC"), ("QD", "KD"), ("KS", "AS")])
def test_the_order_of_the_cards(low, high):
    assert draw_state(["A", "B"], [{"A": low, "B": high}]).winner == "B"
    assert draw_state(["A", "B"], [{"A": high, "B": low}]).winner == "A"


def test_a_tie_redraws_among_the_tied_only():
    first = {"Ana": "AS", "Beto": "5D", "Caro": "AH", "Dani": "KC"}
    state = draw_state(PLAYERS, [first])
    assert not state.decided and state.contenders == ["Ana", "Caro"]
    state = draw_state(PLAYERS, [first, {"Ana": "3C", "Caro": "JD"}])
    assert state.winner == "Caro"
    assert state.passes == [first, {"Ana": "3C", "Caro": "JD"}]


def test_suits_never_break_a_tie_and_a_tie_can_repeat():
    passes = [
        {"Ana": "QS", "Beto": "QH", "Caro": "2C", "Dani": "4D"},
        {"Ana": "6S", "Beto": "6H"},
        {"Ana": "7C", "Beto": "2H"},
    ]
    states = [draw_state(PLAYERS, passes[:k]) for k in (1, 2, 3)]
    assert states[0].contenders == ["Ana", "Beto"]
    assert states[1].contenders == ["Ana", "Beto"] and not states[1].decided
    assert states[2].winner == "Ana"


@pytest.mark.parametrize(
    "passes, message",
    [
        ([{"Ana": "AS", "Beto": "2S", "Caro": "3S"}], "Dani has no card"),
        ([{"Ana": "AS", "Beto": "2S", "Caro": "3S", "Dani": "4S", "Eva": "5S"}], "Eva is not at the table"),
        ([{"Ana": "9S", "Beto": "2S", "Caro": "3S", "Dani": "4S"}], "not a card of the 40-card pack"),
        ([{"Ana": "TS", "Beto": "2S", "Caro": "3S", "Dani": "4S"}], "not a card of the 40-card pack"),
        ([{"Ana": "AS", "Beto": "AS", "Caro": "3S", "Dani": "4S"}], "drawn by both Ana and Beto"),
        (
            [{"Ana": "AS", "Beto": "AH", "Caro": "3S", "Dani": "4S"}, {"Ana": "KS", "Beto": "2S", "Caro": "5C"}],
            "Caro is not in the tie",
        ),
        ([{"Ana": "AS", "Beto": "2H", "Caro": "3S", "Dani": "4S"}, {"Ana": "KS"}], "pass 2 is one too many"),
    ],
)
def test_a_wrong_draw_is_refused_with_the_reason(passes, message):
    with pytest.raises(DrawError, match=message):
        draw_state(PLAYERS, passes)


def test_cards_are_read_in_every_spelling():
    assert [read_card(c) for c in ("as", "7h", "K♠", "q♥", "2♦", "J♣")] == ["AS", "7H", "KS", "QH", "2D", "JC"]
    assert read_card("8S") is None and read_card("10H") is None and read_card("") is None and read_card(None) is None


@given(st.integers(min_value=0, max_value=10**9), st.integers(min_value=2, max_value=8))
def test_a_dealt_draw_always_ends_with_the_highest_card(seed, n):
    rng = random.Random(seed)
    players = [f"P{k}" for k in range(n)]
    passes = []
    state = draw_state(players, passes)
    while not state.decided:
        cards = deal_pass(rng, state.contenders)
        assert set(cards.values()) <= PACK and len(set(cards.values())) == len(cards)
        passes.append(cards)
        state = draw_state(players, passes)
    # The winner held the highest card of every pass he drew in; all others fell out on the way.
    for cards in passes:
        if state.winner in cards:
            assert HIGH_CARD[cards[state.winner][0]] == max(HIGH_CARD[c[0]] for c in cards.values())
    assert highest(passes[-1]) == [state.winner]
