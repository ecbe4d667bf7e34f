"""The mistakes a veintiuno round is asked for: each with the finding code the audit must give it,
which are made while the round is played (round.py) and which are written into its finished log —
those here, on the log (`Written`, an injection.Log), beside the ones every game makes the same way.
"""

from ...simulators import injection
from .cards import FACES

MISTAKES = {
    "wrong_amount": "WRONG_AMOUNT",
    "natural_paid_even": "WRONG_AMOUNT",
    "wrong_result": "WRONG_RESULT",
    "tie_paid": "WRONG_RESULT",
    "tapo_over_taken": "WRONG_RESULT",
    "missing_settlement": "MISSING_SETTLEMENT",
    "unexpected_settlement": "UNEXPECTED_SETTLEMENT",
    "bank_to_wrong_player": "BANK_SUCCESSION",
    "bet_limits": "BET_LIMITS",
    "split_single_bet": "ILLEGAL_ACTION",
    "split_relancina": "ILLEGAL_ACTION",
    "withdraw_without_thirteen": "ILLEGAL_ACTION",
    "stand_al_puje": "ILLEGAL_ACTION",
    "action_after_tapo": "ILLEGAL_ACTION",
    "card_invalid": "CARD_INVALID",
    "card_twice": "CARD_COUNT",
    "deal_order": "DEAL_ORDER",
    "draw_order": "DRAW_ORDER",
}
# Mistakes that change how the round is played (the rest are made when the log is written down).
PLAYED = {
    "natural_paid_even",
    "tapo_over_taken",
    "bet_limits",
    "split_single_bet",
    "split_relancina",
    "withdraw_without_thirteen",
    "stand_al_puje",
    "action_after_tapo",
}
# Mistakes written into the finished log (some of them need a round played for them first).
WRITTEN = set(MISTAKES) - {
    "bet_limits",
    "split_single_bet",
    "split_relancina",
    "withdraw_without_thirteen",
    "stand_al_puje",
}


class Written(injection.Log):
    """The mistakes written into a finished veintiuno log; the round (round._Round) gives the log,
    its hands and its house rules."""

    def _settlements(self, results=("pay", "take", "leave")) -> list[int]:
        return [k for k, m in enumerate(self.meta) if m.get("kind") == "settle" and self.events[k]["e"] in results]

    def _mistake_natural_paid_even(self):
        for k in self._settlements(("pay",)):
            if self.meta[k]["how"] == "declared":
                size = self.meta[k]["size"]
                self.events[k] = {**self.events[k], "amount": size}
                return -size
        return None

    def _mistake_wrong_result(self):
        ks = self._settlements()
        if not ks:
            return None
        k = self.rng.choice(ks)
        ev, m = self.events[k], self.meta[k]
        size = m["size"]
        if ev["e"] == "pay":
            self.events[k] = {**ev, "e": "take", "amount": size}
            return -size - m["owed"]
        if ev["e"] == "take":
            self.events[k] = {**ev, "e": "pay", "amount": size}
            return size + size
        self.events[k] = {**ev, "e": "take", "amount": size}
        return -size

    def _mistake_tie_paid(self):
        ties = [k for k in self._settlements(("take",)) if self.meta[k]["why"] == "tie"]
        if not ties:
            return None
        k = self.rng.choice(ties)
        size = self.meta[k]["size"]
        self.events[k] = {**self.events[k], "e": "pay", "amount": size}
        return size + size

    def _mistake_tapo_over_taken(self):
        for k in self._settlements(("leave",)):
            if self.meta[k]["why"] == "tapo over, bank over":
                size = self.meta[k]["size"]
                self.events[k] = {**self.events[k], "e": "take", "amount": size}
                return -size
        return None

    def _mistake_bank_to_wrong_player(self):
        k = len(self.events) - 1
        right = self.events[k]["player"]
        others = [p for p in [self.bank] + [s["player"] for s in self.stakes] if p != right]
        self.events[k] = {"e": "bank_to", "player": self.rng.choice(others)}
        return True

    def _mistake_action_after_tapo(self):
        for k, m in enumerate(self.meta):
            if m.get("kind") == "tapo":
                self.events.insert(k + 1, {"e": "stand", "hand": m["hand"]})
                self.meta.insert(k + 1, {"kind": "illegal"})
                return True
        return None

    def _mistake_card_invalid(self):
        eligible = []
        opened = {h.name for h in self.hands if h.how == "split"}
        declared = {h.name for h in self.hands if h.how == "declared"}
        for k, m in enumerate(self.meta):
            ev = self.events[k]
            if (
                "card" in ev
                and ev["card"][0] in FACES
                and m.get("hand") not in opened
                and m.get("hand") not in declared
                and "." not in (m.get("hand") or "")
            ):
                eligible.append(k)
        if not eligible:
            return None
        k = self.rng.choice(eligible)
        self.events[k] = {**self.events[k], "card": "T" + self.events[k]["card"][1]}
        return True

    def _mistake_card_twice(self):
        if self.rules["packs"] != 1:
            return None
        seen = [ev["card"] for ev in self.events if "card" in ev]
        options = []
        for k, m in enumerate(self.meta):
            ev = self.events[k]
            if m.get("kind") in ("hit", "draw", "tapo") and m.get("pos", 0) >= 2:
                card = ev["card"]
                for other in seen:
                    if other[0] == card[0] and other != card:
                        options.append((k, other))
        if not options:
            return None
        k, other = self.rng.choice(options)
        self.events[k] = {**self.events[k], "card": other}
        return True

    def _mistake_deal_order(self):
        self.events[0], self.events[1] = self.events[1], self.events[0]
        self.meta[0], self.meta[1] = self.meta[1], self.meta[0]
        return True

    def _mistake_draw_order(self):
        draws = [k for k, m in enumerate(self.meta) if m.get("kind") == "draw"]
        if not draws:
            return None
        first = draws[0]
        actions = [k for k, m in enumerate(self.meta[:first]) if m.get("kind") in ("stand", "hit", "tapo")]
        if not actions:
            return None
        a = actions[-1]
        if self.events[a + 1]["e"] == "declare":
            return None  # the declaration would come after the bank's draw: late, another finding
        ev, m = self.events.pop(first), self.meta.pop(first)
        self.events.insert(a, ev)
        self.meta.insert(a, m)
        return True
