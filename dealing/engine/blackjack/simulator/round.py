"""One simulated blackjack round: dealt (rigged, where a dealt mistake needs particular cards),
played by basic strategy, settled with the simulator's own arithmetic and written down, with the
one mistake asked for (injection.Log writes the finished log)."""

from decimal import ROUND_DOWN, Decimal

from ...simulators import Simulated
from ...simulators.injection import Log
from .cards import CENT, LOW, PLAYERS, TEN, VALUE, basic_strategy, natural, three_to_two, total
from .rules import DEALT_MISTAKES, MISTAKES


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
    "blackjack_paid_even": ("A", TEN, LOW, None, ()),
    "hit_split_aces": ("A", "A", LOW, None, ()),
    "split_over_max": (TEN, TEN, LOW, None, "max"),
    "double_on_three_cards": ("2", "3", set("789"), None, ()),
    "insurance_over_half": (None, None, "A", LOW, ()),
    "dealer_hits_soft_17": (None, None, "6", "A", ()),
    "dealer_stands_on_16": (None, None, "6", TEN, ()),
}


class Round(Log):
    halve_rounding = ROUND_DOWN

    def __init__(
        self,
        rng,
        shoe,
        dealt_mistake,
        *,
        rig,
        wanted,
        preset,
        overrides,
        rules,
        table_min,
        table_max,
        dealer,
        table_name,
        boxes,
        insurance,
        even_money,
        errors,
        jackpot,
        seats=None,
    ):
        self.rng = rng
        # box -> a player of players.py who chooses his bet, his play and his insurance himself;
        # None: random house-played seats on random boxes
        self.seats = seats
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
                wants[2 * n + 2 + k] = TEN
        shoe = self.shoe
        taken: set[int] = set()
        for pop, want in wants.items():
            if want is None:
                continue
            ranks = {want} if isinstance(want, str) else want
            pos = len(shoe) - 1 - pop
            if shoe[pos][0] not in ranks:
                j = next(
                    j
                    for j in range(len(shoe))
                    if j not in taken and j != pos and shoe[j][0] in ranks and len(shoe) - 1 - j not in wants
                )
                shoe[pos], shoe[j] = shoe[j], shoe[pos]
            taken.add(pos)

    def _deal_round(self, box_range, rig: bool, wanted) -> None:
        rng = self.rng
        rules = self.rules
        table_boxes = rules["boxes"]
        lo, hi = box_range
        if self.seats is None:
            n = rng.randint(max(1, lo), max(1, min(hi, table_boxes)))
            numbers = sorted(rng.sample(range(1, table_boxes + 1), n))
        else:
            numbers = sorted(self.seats)
            n = len(numbers)
        self.numbers = numbers
        self.stakes: dict[int, dict] = {}
        for k, number in enumerate(numbers):
            if self.seats is None:
                player, bet = rng.choice(PLAYERS), self._bet()
            else:
                player, bet = self.seats[number].name, self.seats[number].bet
            stake = {"id": str(number), "box": number, "player": player, "bet": bet}
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
                seat = self.seats[number] if self.seats is not None else None
                if natural(cards):
                    if seat.insures() if seat is not None else rng.random() < self.p_even_money:
                        self.even.add(number)
                        self._emit({"e": "even_money", "stake": stake["id"]}, kind="offer")
                        self._settle(number, str(number), "bet", "pay", stake["bet"], stake["bet"], "even_money")
                    continue
                if self.mistake == "insurance_over_half" and not self.applicable:
                    amount = stake["bet"]
                    self.applicable = True
                elif seat is not None:
                    if not seat.insures():
                        continue
                    amount = (stake["bet"] / 2).quantize(CENT, rounding=ROUND_DOWN)
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
        if up[0] == "A" or up[0] in TEN:
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

        live = [
            h
            for number in numbers
            if number not in self.even
            for h in self.hands[number]
            if total(h.cards)[0] <= 21 and not (not h.split and natural(h.cards))
        ]
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
                can_double = (
                    two
                    and (not h.split or rules["double_after_split"])
                    and not (h.aces and not rules["hit_split_aces"])
                )
                can_split = pair and len(hands) < rules["max_hands"] and not (h.aces and not rules["resplit_aces"])
                if self.seats is not None:
                    action = self.seats[number].play(h.cards, self.up, can_double=can_double, can_split=can_split)
                else:
                    action = basic_strategy(h.cards, self.up, can_double=can_double, can_split=can_split)
                if self.seats is None and rng.random() < self.p_errors:
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
        hands[k : k + 1] = [
            _Hand(h.name + ".1", [h.cards[0]], h.bet, True, aces),
            _Hand(h.name + ".2", [h.cards[1]], h.bet, True, aces),
        ]

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

    def _settle(
        self, number: int, hand: str, wager: str, result: str, size: Decimal, paid: Decimal, kind: str, **meta
    ) -> None:
        event = {
            "e": result,
            "stake": self.stakes[number]["id"],
            "hand": hand,
            "wager": wager,
            "amount": paid if result == "pay" else size,
        }
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
        return self._write_log(
            mistake,
            MISTAKES,
            mistake not in DEALT_MISTAKES,
            {
                "variant": "blackjack",
                "table": table,
                "rules": {"preset": self.preset, **self.overrides},
                "dealer": self.dealer,
                "stakes": [self.stakes[n] for n in self.numbers],
            },
        )

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
