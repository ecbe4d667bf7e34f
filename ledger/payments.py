"""Who pays whom at the end of a game night, in as few payments as possible.

Balances sum to zero. A group of players whose balances sum to zero can settle among themselves
with one payment fewer than it has members (each payment clears at least one of them, the last
clears two), and no fewer; so the fewest payments for the whole table is

    (players with a non-zero balance) − (the most zero-sum groups they can be split into).

Finding that split is NP-hard in general, but a game night is small: a dynamic programme over
subsets finds it exactly for up to `EXACT_LIMIT` players with a non-zero balance (2^15 subsets).
Above that, the classic greedy — the largest debtor pays the largest creditor — still settles
every balance, in at most one payment fewer than there are players.

Amounts are `Decimal`; internally they are whole cents, so sums are exact.
"""

from dataclasses import dataclass
from decimal import Decimal

from dealing.engine.money import fmt

EXACT_LIMIT = 15
CENT = Decimal("0.01")


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: Decimal

    def as_dict(self) -> dict:
        return {"from": self.payer, "to": self.payee, "amount": fmt(self.amount)}


def _cents(amount: Decimal) -> int:
    cents = Decimal(amount) / CENT
    if cents != cents.to_integral_value():
        raise ValueError(f"{amount} has more than 2 decimals")
    return int(cents)


def settle_up(balances: dict[str, Decimal], *, exact_limit: int = EXACT_LIMIT) -> list[Payment]:
    """The payments that bring every balance to zero: fewest possible up to `exact_limit` players
    with a non-zero balance, the greedy matching above. Payers pay what they lost, payees receive
    what they won. Deterministic: the same balances give the same list."""
    cents = {player: _cents(amount) for player, amount in balances.items()}
    if sum(cents.values()) != 0:
        raise ValueError(f"balances do not sum to zero: {sum(cents.values())} cents")
    open_ = [(player, c) for player, c in cents.items() if c]
    if len(open_) <= exact_limit:
        groups = _zero_sum_groups(open_)
    else:
        groups = [open_]
    payments = []
    for group in groups:
        payments.extend(_greedy(group))
    return payments


def greedy(balances: dict[str, Decimal]) -> list[Payment]:
    """The largest debtor pays the largest creditor until all are square (no minimality promise)."""
    cents = [(player, _cents(amount)) for player, amount in balances.items() if amount]
    if sum(c for _p, c in cents) != 0:
        raise ValueError("balances do not sum to zero")
    return _greedy(cents)


def _greedy(members: list[tuple[str, int]]) -> list[Payment]:
    """Within one zero-sum group: each payment clears the larger debt or credit, so a group of k
    players needs at most k − 1 payments. Ties are broken by name for a stable answer."""
    debtors = {p: -c for p, c in members if c < 0}
    creditors = {p: c for p, c in members if c > 0}
    out = []
    while debtors:
        payer = max(debtors, key=lambda p: (debtors[p], _rev(p)))
        payee = max(creditors, key=lambda p: (creditors[p], _rev(p)))
        amount = min(debtors[payer], creditors[payee])
        out.append(Payment(payer, payee, Decimal(amount) / 100))
        debtors[payer] -= amount
        creditors[payee] -= amount
        if not debtors[payer]:
            del debtors[payer]
        if not creditors[payee]:
            del creditors[payee]
    return out


def _rev(name: str):
    """Sort key making `max` prefer the alphabetically first name among equals."""
    return tuple(-ord(ch) for ch in name) + (1,)


def _zero_sum_groups(members: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """Split the members into as many zero-sum groups as possible (exact, by DP over subsets).

    best[mask] = the most zero-sum groups into which the members of `mask` can be cut when they are
    taken one at a time in some order and a group closes each time the running sum returns to
    zero: best[mask] = max over i in mask of best[mask − i], plus one when mask itself sums to zero.
    Every partition into zero-sum groups is such an order, so this is the maximum.
    """
    n = len(members)
    if n == 0:
        return []
    values = [c for _p, c in members]
    full = (1 << n) - 1
    total = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        i = low.bit_length() - 1
        total[mask] = total[mask ^ low] + values[i]
        top = 0
        m = mask
        while m:
            bit = m & -m
            if best[mask ^ bit] > top:
                top = best[mask ^ bit]
            m ^= bit
        best[mask] = top + (1 if total[mask] == 0 else 0)
    # Walk back from the full set, taking out one member at a time along a best path; a group ends
    # wherever the remaining set sums to zero.
    groups: list[list[tuple[str, int]]] = []
    current: list[tuple[str, int]] = []
    mask = full
    while mask:
        target = best[mask] - (1 if total[mask] == 0 else 0)
        if total[mask] == 0 and current:
            groups.append(current)
            current = []
        for i in range(n):
            bit = 1 << i
            if mask & bit and best[mask ^ bit] == target:
                current.append(members[i])
                mask ^= bit
                break
    groups.append(current)
    return groups
