"""Several boxes paid with one sum (seed 004; rules/ochko.md, step 11) — the project's own
extension of round/1 (docs/engine.md, "Ochko: a payment in one sum").

    {"e": "pay_sum", "boxes": [3, 1], "amount": 1200}

`boxes` names at least two boxes, in the order they were paid; the sum covers every wager of
their stakes that played: each stake's Bet and Ante, then the box's dealer bets, box after box.
The event settles each of those wagers as a payment (settlement/1 stays per wager), so the checks
every payment goes through hold for it too: the order 6 → 1 (PAYMENT_ORDER box_order), after the
dealer's draw, a wager settled twice, a box that lost (WRONG_RESULT). On top of those, at the end
of the round (`judge`):

- the sum must be exactly what the wagers it covers are owed (WRONG_AMOUNT, rule `sum`);
- a dealer bet may stand only on the last box of the sum (PAYMENT_ORDER, rule `sum_dealer_bet`):
  «Оплата нескольких боксов общей суммой возможна, только если СНД находится на последнем боксе по
  ходу оплаты, чтобы не нарушить порядок оплаты»;
- a wager that stays (`leave`: a dark-card box's returned Bet) is never folded into the sum
  (PAYMENT_ORDER, rule `sum_stay`): «При оплате двух боксов "stay" не используется» — the box is
  settled on its own (docs/departures.md, item 5).
"""

from decimal import Decimal
from typing import Final

from .. import document as doc_
from ..base import LEAVE, PAY, TAKE, Owed, Settled
from ..money import ZERO, fmt
from ..sentences import finding
from .rules import FOLD, Box

EVENT: Final = "pay_sum"
FIELDS: Final = frozenset({"e", "boxes", "amount"})
# A stake's main wagers in the order a box is paid (its dealer bets come after the box's).
_MAIN: Final = ("bet", "ante")


class Sum:
    """One payment in one sum: its event, its boxes in the order paid, the amount, and the
    settlement it stands for on each wager it covers (box by box: Bet, Ante, then dealer bets)."""

    __slots__ = ("event", "boxes", "amount", "covered")

    def __init__(self, event: int, boxes: list[int], amount: Decimal, covered: list[Settled]):
        self.event = event
        self.boxes = boxes
        self.amount = amount
        self.covered = covered

    @property
    def words(self) -> str:
        """The boxes as a finding says them: "3, 1"."""
        return ", ".join(str(n) for n in self.boxes)


def read(i: int, ev: dict, boxes: dict[int, Box]) -> Sum:
    """A pay_sum event read and its wagers settled as paid (judged at the end of the round).

    A log the engine cannot follow is refused, naming the field: `boxes` not a list of at least two
    different box numbers, a box without stakes, `amount` not an amount."""
    path = f"$.events[{i}]"
    if "boxes" not in ev:
        raise doc_.missing("boxes", path, i)
    raw = ev["boxes"]
    if type(raw) is not list:
        raise doc_.wrong_type("boxes", raw, "a list of box numbers, in the order paid", path, i)
    numbers: list[int] = []
    for n in raw:
        if type(n) is not int:
            raise doc_.wrong_type("boxes", raw, "a list of box numbers, in the order paid", path, i)
        if n in numbers:
            raise doc_.bad_value("boxes", raw, f"box {n} is named twice.", path, i)
        if n not in boxes:
            raise doc_.bad_value("boxes", raw, f"box {n} has no stakes in this round.", path, i)
        numbers.append(n)
    if len(numbers) < 2:
        raise doc_.bad_value(
            "boxes", raw, "a payment in one sum names at least two boxes (one box is paid with pay).", path, i
        )
    amount = doc_.event_amount(ev, i)
    covered: list[Settled] = []
    for n in numbers:
        # Its stakes that played — or have not decided yet (a sum logged too early pays them too;
        # the engine then finds what was paid that was never owed).
        playing = [s for s in boxes[n].stakes if s.decision != FOLD]
        for stake in playing:
            for wager in _MAIN:
                covered.append(Settled(i, stake.id, None, wager, PAY, None))
        for stake in playing:
            if stake.dealer_bet is not None:
                covered.append(Settled(i, stake.id, None, "dealer_bet", PAY, None))
    return Sum(i, numbers, amount, covered)


def judge(sums: list[Sum], owed: dict[tuple, Owed], box_of: dict[str, int], who) -> list:
    """The findings of each sum once what every wager was owed is known. Each covered wager's
    settlement is set, for the per-wager comparison and the order checks that follow, to what it was
    owed (the sum's own findings tell what went wrong, so nothing is found twice); `as_logged` then
    sets it to the money as it moved.

    `box_of` maps a stake id to its box; `who` gives the params naming a stake."""
    found = []
    for s in sums:
        due = ZERO
        last = s.boxes[-1]
        dealer_bet_flagged: set[int] = set()
        for c in s.covered:
            o = owed.get((c.stake, None, c.wager))
            box = box_of[c.stake]
            if c.wager == "dealer_bet" and box != last and box not in dealer_bet_flagged:
                dealer_bet_flagged.add(box)
                found.append(
                    finding(
                        "PAYMENT_ORDER",
                        {"rule": "sum_dealer_bet", "event": s.event, "box": box, "boxes": s.words, "last": last},
                        event=s.event,
                        stake=c.stake,
                        wager=c.wager,
                    )
                )
            if o is None:
                continue  # settled as paid without an amount: nothing was owed (UNEXPECTED_SETTLEMENT)
            if o.result == PAY:
                c.amount = o.amount
                due += o.amount
                continue
            c.result = o.result
            params = who(c.stake)
            params.update(event=s.event, wager=c.wager, game="ochko", boxes=s.words, owed=fmt(o.size))
            if o.verdict is not None:
                params["why"] = o.verdict
            if o.result == LEAVE:
                params["rule"] = "sum_stay"
                found.append(
                    finding("PAYMENT_ORDER", params, event=s.event, stake=c.stake, wager=c.wager, player_delta=ZERO)
                )
            else:
                params.update(rule="sum", owed_as=_OWED_AS[o.result])
                found.append(
                    finding(
                        "WRONG_RESULT",
                        params,
                        event=s.event,
                        stake=c.stake,
                        wager=c.wager,
                        expected={"result": o.result, "amount": fmt(o.size)},
                        actual={"result": PAY, "amount": None},
                        player_delta=o.size,
                    )
                )
        if s.amount != due:
            found.append(
                finding(
                    "WRONG_AMOUNT",
                    {"rule": "sum", "event": s.event, "boxes": s.words, "paid": fmt(s.amount), "owed": fmt(due)},
                    event=s.event,
                    expected={"result": PAY, "amount": fmt(due)},
                    actual={"result": PAY, "amount": fmt(s.amount)},
                    player_delta=s.amount - due,
                )
            )
    return found


def as_logged(sums: list[Sum], owed: dict[tuple, Owed]) -> None:
    """Once the settlements are judged, each covered wager's settlement as the money moved, for what
    adds up the log (the float as logged, each stake's net): the sum counted out in the order paid —
    each wager owed a payment its amount while the sum lasts, what is left over on the last of them;
    a wager owed no payment kept by the player (paid nothing; a stay left). The covered amounts add
    up to the sum, so a short sum is short on the log's float exactly by what it lacks."""
    for s in sums:
        remaining = s.amount
        last = None
        for c in s.covered:
            o = owed.get((c.stake, None, c.wager))
            if o is None or o.result != PAY:
                if c.result != LEAVE:
                    c.result, c.amount = PAY, ZERO
                continue
            c.amount = min(o.amount, remaining)
            remaining -= c.amount
            last = c
        if remaining:
            if last is None:
                last = s.covered[-1] if s.covered else None
            if last is not None:
                last.result = PAY
                last.amount = (last.amount or ZERO) + remaining


_OWED_AS: Final = {TAKE: "taken", LEAVE: "left"}
