"""Writing a mistake into a simulated round's finished log: what the three simulators share.

A simulator's round keeps its log as `events` with one `meta` dict per event (what the event
settles, its size and the player's gain, `delta`). `Log` writes the log down (`write`) with the
mistake the round was asked for, and carries the mistakes every variant can make the same way;
a simulator states only its own (`_mistake_<kind>`, returning the player_delta the audit must
find, True when the finding carries none, or None when this round has no place for it) and
which of its settlement events a mistake may touch (`_settlements`).
"""

import random
import uuid
from decimal import ROUND_HALF_EVEN, Decimal

from . import Simulated

CENT = Decimal("0.01")


def round_id(rng) -> str:
    """A round id drawn from the simulation's own random numbers, so a seed deals the same ids."""
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


class Log:
    """A simulated round's log, as events and their meta, and the mistakes written into it."""

    rng: random.Random
    events: list[dict]
    meta: list[dict]
    applicable: bool  # False when the mistake asked for could not be made while dealing
    halve_rounding = ROUND_HALF_EVEN  # how a halved payout falls between cents

    def _emit(self, event: dict, **meta) -> None:
        self.events.append(event)
        self.meta.append(meta)

    def _settlements(self, results=("pay", "take", "leave")) -> list[int]:
        """The indexes of the settlement events a mistake may change."""
        raise NotImplementedError

    def _write_log(
        self, mistake: str | None, mistakes: dict[str, str], written: bool, header: dict
    ) -> Simulated | None:
        """The log with `mistake` in it (None when this round has no place for it).

        `written`: the mistake is made now, in the finished log (the others were made while
        dealing). `header` is the round/1 document's fields between its id and its events.
        """
        if not self.applicable:
            return None
        delta = None
        if mistake is not None and written:
            done = getattr(self, f"_mistake_{mistake}")()
            if done is None:
                return None
            delta = done if isinstance(done, Decimal) else None
        doc = {"format": "round/1", "id": round_id(self.rng), **header, "events": self.events}
        return Simulated(doc, mistake, mistakes.get(mistake), delta)

    # --- the mistakes every variant makes the same way ---------------------------------------------

    def _mistake_wrong_amount(self):
        pays = self._settlements(("pay",))
        if not pays:
            return None
        k = self.rng.choice(pays)
        old = self.events[k]["amount"]
        if self.rng.random() < 0.5 or old < Decimal("0.02"):
            new = old * 2
        else:
            new = (old / 2).quantize(CENT, rounding=self.halve_rounding)
        self.events[k] = {**self.events[k], "amount": new}
        return new - old

    def _mistake_wrong_result(self):
        ks = self._settlements()
        if not ks:
            return None
        k = self.rng.choice(ks)
        ev, size, owed = self.events[k], self.meta[k]["size"], self.meta[k]["delta"]
        if ev["e"] == "pay":
            self.events[k] = {**ev, "e": "take", "amount": size}
            return -size - owed
        self.events[k] = {**ev, "e": "pay", "amount": size}
        return size - owed

    def _mistake_missing_settlement(self):
        ks = self._settlements(("pay", "take"))
        if len(self._settlements()) < 2 or not ks:
            return None  # without any settlement left, the log would simply not carry them
        k = self.rng.choice(ks)
        delta = -self.meta[k]["delta"]
        del self.events[k], self.meta[k]
        return delta

    def _mistake_unexpected_settlement(self):
        pays = self._settlements(("pay",))
        if not pays:
            return None
        k = self.rng.choice(pays)
        self.events.insert(k + 1, dict(self.events[k]))
        self.meta.insert(k + 1, {"kind": "duplicate"})
        return self.events[k]["amount"]

    def _mistake_illegal_action(self):
        stands = [k for k, m in enumerate(self.meta) if m.get("kind") == "stand"]
        if not stands:
            return None
        k = self.rng.choice(stands)
        self.events.insert(k + 1, dict(self.events[k]))
        self.meta.insert(k + 1, {"kind": "illegal"})
        return True

    def _mistake_deal_order(self):
        deals = [k for k, m in enumerate(self.meta) if m.get("kind") == "deal"]
        a, b = deals[0], deals[1]
        self.events[a], self.events[b] = self.events[b], self.events[a]
        return True


def until_written(mistake: str | None, attempts: int, shoe: list[str] | None, new_shoe, deal) -> Simulated:
    """Deal rounds until one gives `mistake` a place to happen (at most `attempts`), else a correct one.

    `deal(source, mistake)` deals a round from the list `source` (popping from its end); from the
    caller's own `shoe`, a round that is not kept puts its cards back on top in the order they
    came out: nothing was seen.
    """
    for _ in range(attempts if mistake else 1):
        source = shoe if shoe is not None else new_shoe()
        mark = len(source)
        dealt = deal(source, mistake)
        result = dealt.write(mistake)
        if result is not None:
            return result
        if shoe is not None:
            source.extend(reversed(dealt.used))
            assert len(source) == mark
    # No place for this mistake in any of the rounds tried: deal a correct one.
    source = shoe if shoe is not None else new_shoe()
    return deal(source, None).write(None)
