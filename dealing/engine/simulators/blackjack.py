"""Blackjack rounds for both seed rulesets (rules/blackjack.md): house-played seats following a
basic strategy, with now and then a player's wrong (but legal) decision; insurance, even money,
splits to the preset's limit, doubles and, online, the jackpot side bet.

The dealer never errs unless asked to: `simulate_round(rng, mistake="dealer_hits_soft_17")` deals
a round in which the dealer makes that one mistake and reports the finding code (and, for money
mistakes, the `player_delta`) the audit must find. Settlements here are worked out with this
module's own arithmetic, independent of the engine's replay.
"""

from decimal import ROUND_DOWN, Decimal

from . import Simulated
from .injection import Log, until_written

RANKS = "23456789TJQKA"
VALUE = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 10, "Q": 10, "K": 10,
         "A": 1}
PLAYERS = [f"P-{n}" for n in range(1, 25)]
CENT = Decimal("0.01")

PRESETS = {
    "salon": {"decks": 6, "boxes": 5, "max_hands": 4, "resplit_aces": False, "hit_split_aces": False,
              "double_after_split": True, "jackpot": False, "jackpot_bet": Decimal(1),
              "jackpot_amount": Decimal(1000), "cut_remaining": 78, "min": Decimal(100), "max": Decimal(5000)},
    "online": {"decks": 8, "boxes": 1, "max_hands": 2, "resplit_aces": False, "hit_split_aces": False,
               "double_after_split": True, "jackpot": True, "jackpot_bet": Decimal(1),
               "jackpot_amount": Decimal(1000), "cut_remaining": None, "min": Decimal(1), "max": Decimal(500)},
}
_RULE_NAMES = ("decks", "boxes", "max_hands", "resplit_aces", "hit_split_aces", "double_after_split", "jackpot",
               "jackpot_bet", "jackpot_amount")

MISTAKES = {
    "wrong_amount": "WRONG_AMOUNT",
    "blackjack_paid_even": "WRONG_AMOUNT",
    "wrong_result": "WRONG_RESULT",
    "missing_settlement": "MISSING_SETTLEMENT",
    "unexpected_settlement": "UNEXPECTED_SETTLEMENT",
    "dealer_hits_soft_17": "DEALER_DRAW_RULE",
    "dealer_stands_on_16": "DEALER_DRAW_RULE",
    "insurance_over_half": "INSURANCE_AMOUNT",
    "bet_limits": "BET_LIMITS",
    "illegal_action": "ILLEGAL_ACTION",
    "hit_split_aces": "ILLEGAL_ACTION",
    "split_over_max": "ILLEGAL_ACTION",
    "split_unequal": "ILLEGAL_ACTION",
    "double_on_three_cards": "ILLEGAL_ACTION",
    "missing_peek": "ILLEGAL_ACTION",
    "deal_order": "DEAL_ORDER",
    "draw_order": "DRAW_ORDER",
}
# Mistakes made while dealing and playing (the rest are made when the finished log is written down).
_DEALT_MISTAKES = {"dealer_hits_soft_17", "dealer_stands_on_16", "insurance_over_half", "bet_limits",
                   "hit_split_aces", "split_over_max", "split_unequal", "double_on_three_cards"}

_TEN, _ACE = set("TJQK"), {"A"}
_LOW = set("23456789")


def new_shoe(rng, decks: int) -> list[str]:
    shoe = [r + s for r in RANKS for s in "SHDC"] * decks
    rng.shuffle(shoe)
    return shoe


def total(cards: list[str]) -> tuple[int, bool]:
    """(best total, soft)."""
    hard = sum(VALUE[c[0]] for c in cards)
    if any(c[0] == "A" for c in cards) and hard <= 11:
        return hard + 10, True
    return hard, False


def natural(cards: list[str]) -> bool:
    return len(cards) == 2 and {VALUE[cards[0][0]], VALUE[cards[1][0]]} == {1, 10}


def three_to_two(bet: Decimal) -> Decimal:
    """What a blackjack is paid: half as much again as the bet, to the cent below."""
    return (bet * 3 / 2).quantize(CENT, rounding=ROUND_DOWN)


# --- basic strategy: multi-deck, dealer stands on soft 17, double after split, no surrender ----------

def _up_value(card: str) -> int:
    v = VALUE[card[0]]
    return 11 if v == 1 else v


def basic_strategy(cards: list[str], up: str, *, can_double: bool, can_split: bool) -> str:
    d = _up_value(up)
    if can_split and len(cards) == 2 and VALUE[cards[0][0]] == VALUE[cards[1][0]]:
        pair = VALUE[cards[0][0]]
        split = {1: True, 8: True, 10: False, 5: False,
                 9: d in (2, 3, 4, 5, 6, 8, 9), 7: d <= 7, 6: d <= 6, 4: d in (5, 6),
                 3: d <= 7, 2: d <= 7}[pair]
        if split:
            return "split"
    best, soft = total(cards)
    if soft:
        if best >= 19:
            return "stand"
        if best == 18:
            if can_double and 3 <= d <= 6:
                return "double"
            return "stand" if d in (2, 7, 8) else "hit"
        lo = {17: 3, 16: 4, 15: 4, 14: 5, 13: 5}.get(best, 12)
        return "double" if can_double and lo <= d <= 6 else "hit"
    if best >= 17:
        return "stand"
    if best >= 13:
        return "stand" if d <= 6 else "hit"
    if best == 12:
        return "stand" if 4 <= d <= 6 else "hit"
    if best == 11:
        return "double" if can_double and d <= 10 else "hit"
    if best == 10:
        return "double" if can_double and d <= 9 else "hit"
    if best == 9:
        return "double" if can_double and 3 <= d <= 6 else "hit"
    return "hit"


# --- one round -------------------------------------------------------------------------------------

def simulate_round(rng, *, mistake: str | None = None, number: int = 0, preset: str = "salon",
                   table_min=None, table_max=None, rules: dict | None = None, shoe: list[str] | None = None,
                   dealer: str = "D-1", table_name: str | None = None, boxes: tuple[int, int] | None = None,
                   insurance: float = 0.15, even_money: float = 0.35, errors: float = 0.04, jackpot: float = 0.5,
                   attempts: int = 25) -> Simulated:
    """One round. With `mistake`, retry until the dealt round gives that mistake a place to happen.

    Options: `preset` (salon | online), `table_min` / `table_max`, `rules` (house-rule overrides),
    `boxes` (how many boxes play: (fewest, most)), `insurance` / `even_money` (how often a seat takes
    them when offered), `errors` (how often a seat departs from basic strategy), `jackpot` (how
    often an online seat places the side bet), `shoe` (deal from this list, popping from its end).
    """
    if mistake is not None and mistake not in MISTAKES:
        raise ValueError(f"unknown mistake {mistake!r} (known: {', '.join(MISTAKES)})")
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r} (known: {', '.join(PRESETS)})")
    overrides = dict(rules or {})
    in_force = {**PRESETS[preset], **{k: v for k, v in overrides.items() if k in _RULE_NAMES}}
    for key in ("jackpot_bet", "jackpot_amount"):
        in_force[key] = Decimal(in_force[key])
    lo = Decimal(table_min) if table_min is not None else PRESETS[preset]["min"]
    hi = Decimal(table_max) if table_max is not None else PRESETS[preset]["max"]
    options = dict(preset=preset, overrides=overrides, rules=in_force, table_min=lo, table_max=hi, dealer=dealer,
                   table_name=table_name, boxes=boxes or (1, in_force["boxes"]), insurance=insurance,
                   even_money=even_money, errors=errors, jackpot=jackpot)

    def deal(source: list[str], wanted: str | None) -> _Round:
        # Rigged for a dealt mistake only from a fresh shoe: a given shoe is dealt as it lies.
        return _Round(rng, source, wanted if wanted in _DEALT_MISTAKES else None,
                      rig=shoe is None and wanted is not None, wanted=wanted, **options)

    return until_written(mistake, attempts, shoe, lambda: new_shoe(rng, in_force["decks"]), deal)


class _Hand:
    __slots__ = ("name", "cards", "bet", "double", "split", "aces")

    def __init__(self, name, cards, bet, split=False, aces=False):
        self.name = name
        self.cards = cards
        self.bet = bet
        self.double = None
        self.split = split
        self.aces = aces


# Where each mistake that needs particular cards wants them, when the simulator owns the shoe:
# (box 1's first card, box 1's second card, dealer up card, hole card, the first cards after the deal).
_RIGS = {
    "blackjack_paid_even": ("A", _TEN, _LOW, None, ()),
    "hit_split_aces": ("A", "A", _LOW, None, ()),
    "split_over_max": (_TEN, _TEN, _LOW, None, "max"),
    "double_on_three_cards": ("2", "3", set("789"), None, ()),
    "insurance_over_half": (None, None, "A", _LOW, ()),
    "dealer_hits_soft_17": (None, None, "6", "A", ()),
    "dealer_stands_on_16": (None, None, "6", _TEN, ()),
}


class _Round(Log):
    halve_rounding = ROUND_DOWN

    def __init__(self, rng, shoe, dealt_mistake, *, rig, wanted, preset, overrides, rules, table_min, table_max,
                 dealer, table_name, boxes, insurance, even_money, errors, jackpot):
        self.rng = rng
        self.shoe = shoe
        self.used: list[str] = []
        self.preset = preset
        self.overrides = overrides
        self.rules = rules
        self.min, self.max = table_min, table_max
        self.dealer = dealer
        self.table_name = table_name
        self.mistake = dealt_mistake
        self.applicable = dealt_mistake is None
        self.p_insurance, self.p_even_money, self.p_errors, self.p_jackpot = insurance, even_money, errors, jackpot
        self.events: list[dict] = []
        self.meta: list[dict] = []
        self._deal_round(boxes, rig and wanted in _RIGS, wanted)

    # --- dealing ----------------------------------------------------------------------------

    def _card(self) -> str:
        card = self.shoe.pop()
        self.used.append(card)
        return card

    def _bet(self) -> Decimal:
        unit = self.min
        choices = [unit * m for m in (1, 1, 1, 2, 2, 3, 5, 7, 10, 20, 50)]
        if unit >= 2 and unit % 2 == 0:
            choices.append(unit * 3 / 2)
        fits = [b for b in choices if b <= self.max] or [unit]
        return self.rng.choice(fits)

    def _rig(self, n: int, rig) -> None:
        """Stack the shoe so a mistake that needs particular cards gets them (the shoe stays a permutation)."""
        first, second, up, hole, after = rig
        wants = {0: first, n + 1: second, n: up, 2 * n + 1: hole}
        if after == "max":
            for k in range(self.rules["max_hands"] - 1):
                wants[2 * n + 2 + k] = _TEN
        shoe = self.shoe
        taken: set[int] = set()
        for pop, want in wants.items():
            if want is None:
                continue
            ranks = {want} if isinstance(want, str) else want
            pos = len(shoe) - 1 - pop
            if shoe[pos][0] not in ranks:
                j = next(j for j in range(len(shoe)) if j not in taken and j != pos and shoe[j][0] in ranks
                         and len(shoe) - 1 - j not in wants)
                shoe[pos], shoe[j] = shoe[j], shoe[pos]
            taken.add(pos)

    def _deal_round(self, box_range, rig: bool, wanted) -> None:
        rng = self.rng
        rules = self.rules
        table_boxes = rules["boxes"]
        lo, hi = box_range
        n = rng.randint(max(1, lo), max(1, min(hi, table_boxes)))
        numbers = sorted(rng.sample(range(1, table_boxes + 1), n))
        self.numbers = numbers
        self.stakes: dict[int, dict] = {}
        for k, number in enumerate(numbers):
            stake = {"id": str(number), "box": number, "player": rng.choice(PLAYERS), "bet": self._bet()}
            if rules["jackpot"] and rng.random() < self.p_jackpot:
                stake["jackpot"] = rules["jackpot_bet"]
            if self.mistake == "bet_limits" and k == 0:
                stake["bet"] = self.max + self.min
                self.applicable = True
            self.stakes[number] = stake
        if rig:
            self._rig(n, _RIGS[wanted])

        first: dict[int, str] = {}
        for number in numbers:
            first[number] = self._card()
            self._emit({"e": "deal", "to": number, "card": first[number]}, kind="deal")
        up = self._card()
        self._emit({"e": "deal", "to": "dealer", "card": up}, kind="deal")
        self.hands: dict[int, list[_Hand]] = {}
        self.first_two: dict[int, list[str]] = {}
        for number in numbers:
            card = self._card()
            self._emit({"e": "deal", "to": number, "card": card}, kind="deal")
            self.first_two[number] = [first[number], card]
            self.hands[number] = [_Hand(str(number), [first[number], card], self.stakes[number]["bet"])]
        hole = self._card()
        self._emit({"e": "deal", "to": "dealer", "card": hole}, kind="deal")
        self.dealer_cards = [up, hole]
        self.up = up

        # Insurance and even money while the dealer shows an ace.
        self.insured: dict[int, Decimal] = {}
        self.even: set[int] = set()
        if up[0] == "A":
            for number in numbers:
                stake = self.stakes[number]
                cards = self.hands[number][0].cards
                if natural(cards):
                    if rng.random() < self.p_even_money:
                        self.even.add(number)
                        self._emit({"e": "even_money", "stake": stake["id"]}, kind="offer")
                        self._settle(number, str(number), "bet", "pay", stake["bet"], stake["bet"], "even_money")
                    continue
                if self.mistake == "insurance_over_half" and not self.applicable:
                    amount = stake["bet"]
                    self.applicable = True
                elif rng.random() < self.p_insurance:
                    amount = (stake["bet"] / 2).quantize(CENT, rounding=ROUND_DOWN)
                    if rng.random() < 0.3:
                        amount = (amount / 2).quantize(CENT, rounding=ROUND_DOWN)
                    if amount <= 0:
                        continue
                else:
                    continue
                self.insured[number] = amount
                self._emit({"e": "insurance", "stake": stake["id"], "amount": amount}, kind="offer")
        dealer_bj = natural(self.dealer_cards)
        if up[0] == "A" or up[0] in _TEN:
            self._emit({"e": "peek"}, kind="peek")
        if dealer_bj:
            for number in numbers:
                stake = self.stakes[number]
                name = str(number)
                if number in self.insured:
                    amount = self.insured[number]
                    self._settle(number, name, "insurance", "pay", amount, amount * 2, "insurance")
                if number not in self.even:
                    bet = stake["bet"]
                    result = "leave" if natural(self.hands[number][0].cards) else "take"
                    self._settle(number, name, "bet", result, bet, bet, "final")
                self._settle_jackpot(number)
            self.done = True
            return
        for number in numbers:
            if number in self.insured:
                amount = self.insured[number]
                self._settle(number, str(number), "insurance", "take", amount, amount, "insurance")

        for number in numbers:
            if number not in self.even:
                self._play_box(number)

        live = [h for number in numbers if number not in self.even for h in self.hands[number]
                if total(h.cards)[0] <= 21 and not (not h.split and natural(h.cards))]
        if live:
            self._dealer_plays()
        for number in numbers:
            self._final(number)
        self.done = True

    def _play_box(self, number: int) -> None:
        rng = self.rng
        rules = self.rules
        hands = self.hands[number]
        k = 0
        while k < len(hands):
            h = hands[k]
            if not h.split and natural(h.cards):
                k += 1
                continue
            if len(h.cards) == 1:
                self._hit(h)
                if h.aces and not rules["hit_split_aces"]:
                    pair = h.cards[1][0] == "A"
                    if pair and rules["resplit_aces"] and len(hands) < rules["max_hands"]:
                        self._split(hands, k)
                        continue
                    if self.mistake == "hit_split_aces" and not self.applicable:
                        self._hit(h)
                        self.applicable = True
                    k += 1
                    continue
            while True:
                best, _ = total(h.cards)
                if best >= 21:
                    break
                two = len(h.cards) == 2
                pair = two and VALUE[h.cards[0][0]] == VALUE[h.cards[1][0]]
                can_double = two and (not h.split or rules["double_after_split"]) and not (
                    h.aces and not rules["hit_split_aces"])
                can_split = pair and len(hands) < rules["max_hands"] and not (h.aces and not rules["resplit_aces"])
                action = basic_strategy(h.cards, self.up, can_double=can_double, can_split=can_split)
                if rng.random() < self.p_errors:
                    legal = ["hit", "stand"] + (["double"] if can_double else []) + (["split"] if can_split else [])
                    action = rng.choice(legal)
                if self.mistake and not self.applicable:
                    if self.mistake == "split_over_max" and pair:
                        action = "split"
                        if not can_split:
                            self.applicable = True
                    elif self.mistake == "split_unequal" and two and not pair:
                        action = "split"
                        self.applicable = True
                    elif self.mistake == "double_on_three_cards" and len(h.cards) >= 3:
                        action = "double"
                        self.applicable = True
                if action == "split":
                    self._split(hands, k)
                    break
                if action == "double":
                    card = self._card()
                    h.cards.append(card)
                    h.double = h.bet
                    self._emit({"e": "double", "hand": h.name, "card": card}, kind="action", hand=h.name)
                    break
                if action == "stand":
                    self._emit({"e": "stand", "hand": h.name}, kind="stand", hand=h.name)
                    break
                self._hit(h)
            if hands[k] is h:
                k += 1

    def _hit(self, h: _Hand) -> None:
        card = self._card()
        h.cards.append(card)
        self._emit({"e": "hit", "hand": h.name, "card": card}, kind="action", hand=h.name)

    def _split(self, hands: list[_Hand], k: int) -> None:
        h = hands[k]
        aces = h.cards[0][0] == "A" and h.cards[1][0] == "A"
        self._emit({"e": "split", "hand": h.name}, kind="action", hand=h.name)
        hands[k:k + 1] = [_Hand(h.name + ".1", [h.cards[0]], h.bet, True, aces),
                          _Hand(h.name + ".2", [h.cards[1]], h.bet, True, aces)]

    def _dealer_plays(self) -> None:
        cards = self.dealer_cards
        if self.mistake == "dealer_stands_on_16":
            if total(cards)[0] < 17:
                self.applicable = True
                return
        while True:
            best, soft = total(cards)
            if best >= 17:
                if not (self.mistake == "dealer_hits_soft_17" and not self.applicable and soft and best == 17):
                    return
                self.applicable = True
            card = self._card()
            cards.append(card)
            self._emit({"e": "draw", "card": card}, kind="draw")

    # --- settling ---------------------------------------------------------------------------

    def _settle(self, number: int, hand: str, wager: str, result: str, size: Decimal, paid: Decimal, kind: str,
                **meta) -> None:
        event = {"e": result, "stake": self.stakes[number]["id"], "hand": hand, "wager": wager,
                 "amount": paid if result == "pay" else size}
        delta = paid if result == "pay" else (-size if result == "take" else Decimal(0))
        self._emit(event, kind=kind, size=size, delta=delta, **meta)

    def _settle_jackpot(self, number: int) -> None:
        stake = self.stakes[number]
        if "jackpot" not in stake:
            return
        size = stake["jackpot"]
        if sorted(self.first_two[number]) == ["AS", "JS"]:
            self._settle(number, str(number), "jackpot", "pay", size, self.rules["jackpot_amount"], "final")
        else:
            self._settle(number, str(number), "jackpot", "take", size, size, "final")

    def _final(self, number: int) -> None:
        if number not in self.even:
            d_best, _ = total(self.dealer_cards)
            d_bust = d_best > 21
            for h in self.hands[number]:
                best, _ = total(h.cards)
                if not h.split and natural(h.cards):
                    self._settle(number, h.name, "bet", "pay", h.bet, three_to_two(h.bet), "final", natural=True)
                    continue
                if best > 21:
                    result = "take"
                elif d_bust or best > d_best:
                    result = "pay"
                elif best == d_best:
                    result = "leave"
                else:
                    result = "take"
                self._settle(number, h.name, "bet", result, h.bet, h.bet, "final")
                if h.double is not None:
                    self._settle(number, h.name, "double", result, h.double, h.double, "final")
        self._settle_jackpot(number)

    # --- writing the log down, with the mistake if any ----------------------------------------

    def write(self, mistake: str | None) -> Simulated | None:
        table = {"min": self.min, "max": self.max, **({"name": self.table_name} if self.table_name else {})}
        return self._write_log(mistake, MISTAKES, mistake not in _DEALT_MISTAKES, {
            "variant": "blackjack",
            "table": table,
            "rules": {"preset": self.preset, **self.overrides},
            "dealer": self.dealer,
            "stakes": [self.stakes[n] for n in self.numbers],
        })

    def _settlements(self, results=("pay", "take", "leave")) -> list[int]:
        return [k for k, m in enumerate(self.meta) if "delta" in m and self.events[k]["e"] in results]

    def _mistake_blackjack_paid_even(self):
        naturals = [k for k, m in enumerate(self.meta) if m.get("natural")]
        if not naturals:
            return None
        k = naturals[0]
        old, size = self.events[k]["amount"], self.meta[k]["size"]
        self.events[k] = {**self.events[k], "amount": size}
        return size - old

    def _mistake_missing_peek(self):
        peeks = [k for k, m in enumerate(self.meta) if m.get("kind") == "peek"]
        if not peeks:
            return None
        del self.events[peeks[0]], self.meta[peeks[0]]
        return True

    def _mistake_draw_order(self):
        draws = [k for k, m in enumerate(self.meta) if m.get("kind") == "draw"]
        if not draws or self.meta[draws[0] - 1].get("kind") != "stand":
            return None
        k = draws[0]
        self.events[k - 1], self.events[k] = self.events[k], self.events[k - 1]
        self.meta[k - 1], self.meta[k] = self.meta[k], self.meta[k - 1]
        return True


# --- a shoe ------------------------------------------------------------------------------------

def simulate_shoe(rng, *, rounds: int, preset: str = "salon", rules: dict | None = None, table_min=None,
                  table_max=None, dealer: str = "D-1", table_name: str | None = None, **options) -> dict:
    """A correct `shoe/1` document of `rounds` rounds: salon shoes are played down to the cut and
    replaced; online, every round comes from a freshly shuffled shoe."""
    in_force = {**PRESETS[preset], **(rules or {})}
    decks = in_force["decks"]
    cut = in_force["cut_remaining"]
    lo = Decimal(table_min) if table_min is not None else PRESETS[preset]["min"]
    hi = Decimal(table_max) if table_max is not None else PRESETS[preset]["max"]
    items: list[dict] = []
    shoe: list[str] = []
    for k in range(rounds):
        if not shoe or cut is None or len(shoe) < cut:
            shoe = new_shoe(rng, decks)
            items.append({"e": "shuffle", "by": dealer})
        sim = simulate_round(rng, number=k, preset=preset, rules=rules, table_min=lo, table_max=hi, shoe=shoe,
                             dealer=dealer, table_name=table_name, **options)
        items.append({"e": "round", "round": sim.doc})
        if cut is None:
            shoe = []
    doc = {"format": "shoe/1", "variant": "blackjack", "table": {"min": lo, "max": hi},
           "rules": {"preset": preset, **(rules or {})}, "items": items}
    return doc
