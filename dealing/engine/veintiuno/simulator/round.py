"""One veintiuno round played by the rules, with now and then the one mistake it was asked for
(the mistakes, and those written into the finished log: mistakes.py).
"""

from decimal import Decimal

from ...simulators import Simulated
from .cards import PLAYERS, SPECIALS, SUITED, Pack, PackExhausted, best, hand_result, points, special
from .mistakes import MISTAKES, PLAYED, WRITTEN, Written


class _Hand:
    __slots__ = (
        "name",
        "seat",
        "stake",
        "cards",
        "bet",
        "how",
        "child",
        "chase",
        "want",
        "suited",
        "decided",
        "settled",
        "arranged",
    )

    def __init__(self, name, seat, stake, bet=None, child=False):
        self.name = name
        self.seat = seat
        self.stake = stake
        self.cards: list[str] = []
        self.bet = bet
        self.how = "playing"  # declared, withdrawn, over, tapo, stood, split
        self.child = child
        self.chase = False  # drawing for a trillona
        self.want: list[str] = []  # ranks wanted for the next cards (a special arranged by the simulator)
        self.suited: str | None = None
        self.decided = False  # the two-card decisions (withdraw, void, open) are behind it
        self.settled = False
        self.arranged: str | None = None  # the special the simulator arranged for it


class _Round(Written):
    def __init__(
        self,
        rng,
        pack: Pack,
        *,
        bank: str,
        seated: list[tuple[int, str]],
        table_min: Decimal,
        table_max: Decimal,
        unit: Decimal,
        rules: dict,
        mistake: str | None,
        specials: float,
        declare: float,
        tapo: float,
        withdraw: float,
        void: float,
        split: float,
        puje: float,
    ):
        self.rng = rng
        self.pack = pack
        self.bank = bank
        self.seated = seated
        self.min, self.max, self.unit = table_min, table_max, unit
        self.rules = {"suited_twelve_pays": 2, "packs": pack.packs, **rules}
        self.suited_pays = self.rules["suited_twelve_pays"]
        self.mistake = mistake
        self.applicable = mistake not in PLAYED
        self.p = {"declare": declare, "tapo": tapo, "withdraw": withdraw, "void": void, "split": split, "puje": puje}
        self.events: list[dict] = []
        self.meta: list[dict] = []
        self.on_table: list[str] = []
        self.puje = False
        self.voided = False
        self.target: int | None = None
        self._play(specials)

    # --- cards --------------------------------------------------------------------------------

    def _card(self, hand: "_Hand") -> str:
        card = None
        if hand.want:
            ranks = hand.want.pop(0)
            suit = other = None
            if hand.suited and hand.cards:
                if hand.suited == "same":
                    suit = hand.cards[0][1]
                else:
                    other = hand.cards[0][1]
            card = self.pack.pick(self.on_table, ranks, suit, other)
        if card is None:
            card = self.pack.draw(self.on_table)
        self.on_table.append(card)
        hand.cards.append(card)
        return card

    def _arrange(self, hand: "_Hand", kind: str) -> None:
        hand.want = list(self.rng.choice(SPECIALS[kind]))
        hand.suited = SUITED.get(kind)
        hand.chase = kind == "trillona"
        hand.arranged = kind

    # --- the round ----------------------------------------------------------------------------

    def _play(self, specials: float) -> None:
        rng = self.rng
        mistake = self.mistake
        self.stakes = []
        self.hands: list[_Hand] = []
        for seat, player in self.seated:
            stake = {"id": f"S{seat}", "seat": seat, "player": player}
            self.stakes.append(stake)
            self.hands.append(_Hand(str(seat), seat, stake))
        self.bank_hand = _Hand("bank", None, None)
        self.pie = self.hands[0].seat
        target = rng.choice(self.hands)
        self.target = target
        arranged = {"natural_paid_even": "natural", "split_single_bet": "pair", "split_relancina": "relancina"}
        if mistake in arranged:
            self._arrange(target, arranged[mistake])
        elif mistake == "stand_al_puje":
            self._arrange(self.bank_hand, "twenty")
        elif mistake in ("tapo_over_taken", "action_after_tapo"):
            pass
        elif rng.random() < specials:
            if rng.random() < 0.2:
                self._arrange(self.bank_hand, rng.choice(("twenty", "natural", "monona", "suited_twelve")))
            else:
                self._arrange(
                    target,
                    rng.choice(
                        (
                            "natural",
                            "natural",
                            "monona",
                            "twelve",
                            "suited_twelve",
                            "relancina",
                            "trillona",
                            "trillona",
                            "thirteen",
                            "thirteen",
                            "pair",
                            "pair",
                        )
                    ),
                )
        if mistake == "tapo_over_taken":
            target.want = ["JQK", "JQK", "JQK"]  # 20 in two cards, then a picture hidden: over
        # First pass, face down; the bets; the second pass, face up.
        for hand in self.hands:
            self._emit({"e": "deal", "to": hand.seat, "card": self._card(hand)}, kind="deal", hand=hand.name)
        self._emit({"e": "deal", "to": "bank", "card": self._card(self.bank_hand)}, kind="deal", hand="bank")
        most = int(self.max // self.unit)
        least = max(1, int(-(-self.min // self.unit)))
        for hand in self.hands:
            units = rng.choice((1, 1, 1, 2, 2, 3, 4, 5, 10, 20))
            bet = self.unit * max(least, min(units, most))
            if mistake == "bet_limits" and hand is target:
                bet = self.max + self.unit
                self.applicable = True
            hand.bet = bet
            self._emit({"e": "bet", "stake": hand.stake["id"], "amount": bet}, kind="bet", hand=hand.name)
        for hand in self.hands:
            self._emit({"e": "deal", "to": hand.seat, "card": self._card(hand)}, kind="deal", hand=hand.name)
        self._emit({"e": "deal", "to": "bank", "card": self._card(self.bank_hand)}, kind="deal", hand="bank")
        # Naturals are declared at once.
        for hand in self.hands:
            if special(hand.cards) == "natural":
                sure = mistake == "natural_paid_even" and hand is target
                if sure or rng.random() < self.p["declare"]:
                    self._declare(hand)
                    if sure:
                        self.applicable = True
        bank_cards = self.bank_hand.cards
        if (
            points(bank_cards) == 20
            and len(bank_cards) == 2
            and mistake not in ("tapo_over_taken", "action_after_tapo")
        ):
            if mistake == "stand_al_puje" or rng.random() < self.p["puje"]:
                self.puje = True
                self._emit({"e": "puje"}, kind="puje")
        k = 0
        while k < len(self.hands) and not self.voided:
            self._turn(self.hands[k])
            k += 1
        self._bank_plays()
        self._settle_all()

    def _declare(self, hand: "_Hand") -> None:
        hand.how = "declared"
        self._emit({"e": "declare", "hand": hand.name}, kind="declare", hand=hand.name)

    def _hit(self, hand: "_Hand") -> None:
        card = self._card(hand)
        self._emit({"e": "hit", "hand": hand.name, "card": card}, kind="hit", hand=hand.name, pos=len(hand.cards) - 1)
        if best(hand.cards) > 21:
            hand.how = "over"
            self._settle(hand)  # the bet goes to the bank at once

    def _stand(self, hand: "_Hand") -> None:
        hand.how = "stood"
        self._emit({"e": "stand", "hand": hand.name}, kind="stand", hand=hand.name)

    def _turn(self, hand: "_Hand") -> None:
        """One hand plays its turn (a split hand's children take their turns right after it)."""
        rng, p, mistake = self.rng, self.p, self.mistake
        target = hand.seat == self.target.seat
        limit = rng.randint(13, 17)
        while hand.how == "playing":
            cards = hand.cards
            if len(cards) < 2:  # an opened hand takes its second card
                self._hit(hand)
                if special(cards) == "natural" and rng.random() < p["declare"]:
                    self._declare(hand)
                continue
            value = points(cards)
            if not hand.decided:
                hand.decided = True
                if self._decide(hand, target, value):
                    return
                continue
            if hand.chase and len(cards) < 7 and best(cards) < 21:
                self._hit(hand)
                continue
            if self.puje:
                if value < 21:
                    if mistake == "stand_al_puje" and not self.applicable:
                        self.applicable = True
                        self._stand(hand)
                    else:
                        self._hit(hand)
                else:
                    self._stand(hand)
                continue
            if value >= 21:
                self._stand(hand)
            elif (
                value >= 12
                and target
                and mistake in ("tapo_over_taken", "action_after_tapo")
                and not self.applicable
                and not hand.child
            ):
                self._tapo(hand)
                self.applicable = mistake == "action_after_tapo" or best(hand.cards) > 21
            elif value < limit:
                if 11 < value < 17 and not hand.child and rng.random() < p["tapo"]:
                    self._tapo(hand)
                else:
                    self._hit(hand)
            else:
                self._stand(hand)

    def _tapo(self, hand: "_Hand") -> None:
        card = self._card(hand)
        hand.how = "tapo"
        self._emit({"e": "tapo", "hand": hand.name, "card": card}, kind="tapo", hand=hand.name, pos=len(hand.cards) - 1)

    def _decide(self, hand: "_Hand", target: bool, value: int) -> bool:
        """The two-card decisions: withdraw or void on 13, open a pair. True when the turn is over."""
        rng, p, mistake = self.rng, self.p, self.mistake
        cards = hand.cards
        if hand.chase:
            return False
        if mistake == "withdraw_without_thirteen" and target and not self.applicable:
            if best(cards) != 13:
                self.applicable = True
                hand.how = "withdrawn"
                self._emit({"e": "withdraw", "hand": hand.name}, kind="withdraw", hand=hand.name)
                self._settle(hand)
                return True
        if mistake == "stand_al_puje":
            return False
        if best(cards) == 13:
            declared = any(h.how == "declared" for h in self._all_hands())
            if hand.seat == self.pie and not hand.child and not declared and rng.random() < p["void"]:
                self.voided = True
                self._emit({"e": "void", "hand": hand.name}, kind="void", hand=hand.name)
                return True
            if rng.random() < p["withdraw"]:
                hand.how = "withdrawn"
                self._emit({"e": "withdraw", "hand": hand.name}, kind="withdraw", hand=hand.name)
                self._settle(hand)
                return True
        r1, r2 = cards[0][0], cards[1][0]
        opening = None
        if mistake == "split_single_bet" and target and r1 == r2 and not self.applicable:
            opening = hand.bet
        elif mistake == "split_relancina" and target and special(cards) == "relancina" and not self.applicable:
            opening = hand.bet * 2
        elif (
            r1 == r2
            and rng.random() < (0.9 if hand.arranged == "pair" else p["split"])
            and mistake not in ("split_single_bet", "split_relancina", "tapo_over_taken")
        ):
            opening = hand.bet * 2
        if opening is not None:
            if mistake in ("split_single_bet", "split_relancina") and target:
                self.applicable = True
            self._open(hand, opening)
            return True
        return False

    def _open(self, hand: "_Hand", amount: Decimal) -> None:
        first = _Hand(hand.name + ".1", hand.seat, hand.stake, hand.bet, True)
        second = _Hand(hand.name + ".2", hand.seat, hand.stake, amount, True)
        first.cards.append(hand.cards[0])
        second.cards.append(hand.cards[1])
        hand.how = "split"
        self._emit({"e": "split", "hand": hand.name, "amount": amount}, kind="split", hand=hand.name)
        k = self.hands.index(hand)
        self.hands[k + 1 : k + 1] = [first, second]

    def _all_hands(self):
        return [h for h in self.hands if h.how != "split"]

    def _bank_plays(self) -> None:
        if self.voided:
            return
        open_hands = [h for h in self._all_hands() if h.how in ("stood", "tapo", "playing")]
        if not open_hands:
            return
        bank = self.bank_hand
        if self.mistake == "tapo_over_taken":
            stop = 22  # the bank draws until it is over: by its own choice
        else:
            stop = self.rng.choice((16, 17, 17, 18))
        while points(bank.cards) < stop and best(bank.cards) <= 21:
            card = self._card(bank)
            self._emit({"e": "draw", "card": card}, kind="draw", hand="bank", pos=len(bank.cards) - 1)

    def _settle(self, hand: "_Hand") -> None:
        if hand.settled:
            return
        hand.settled = True
        if self.voided:
            result, amount, why = "leave", hand.bet, "voided"
        else:
            how = hand.how if hand.how != "playing" else "stood"
            result, amount, why = hand_result(hand.cards, hand.bet, how, self.bank_hand.cards, self.suited_pays)
        event = {"e": result, "stake": hand.stake["id"], "hand": hand.name, "wager": "bet", "amount": amount}
        delta = amount if result == "pay" else (-hand.bet if result == "take" else Decimal(0))
        self._emit(event, kind="settle", hand=hand.name, size=hand.bet, owed=amount, delta=delta, why=why, how=hand.how)

    def _settle_all(self) -> None:
        for hand in self._all_hands():
            self._settle(hand)
        self.bank_next = self.bank
        if not self.voided:
            for hand in self._all_hands():
                if hand.how == "declared":
                    self.bank_next = hand.stake["player"]
                    break
        self._emit({"e": "bank_to", "player": self.bank_next}, kind="bank_to")

    # --- writing the log down, with the mistake if any ------------------------------------------

    def write(self, mistake: str | None, number: int) -> Simulated | None:
        return self._write_log(
            mistake,
            MISTAKES,
            mistake in WRITTEN,
            {
                "variant": "veintiuno",
                "table": {"min": self.min, "max": self.max},
                "rules": {k: v for k, v in self.rules.items() if v != {"suited_twelve_pays": 2, "packs": 1}[k]},
                "bank": self.bank,
                "stakes": [dict(s) for s in self.stakes],
            },
        )


def simulate_round(
    rng,
    *,
    mistake: str | None = None,
    number: int = 0,
    table_min=5,
    table_max=100,
    unit=None,
    rules: dict | None = None,
    pack: Pack | None = None,
    bank: str | None = None,
    players: list[str] | None = None,
    seats: tuple[int, int] = (1, 5),
    specials: float = 0.35,
    declare: float = 0.92,
    tapo: float = 0.12,
    withdraw: float = 0.4,
    void: float = 0.2,
    split: float = 0.5,
    puje: float = 0.5,
    attempts: int = 40,
) -> Simulated:
    """One round. `players` are the seated players in seat order (seat 1 = pie de banco); without them,
    1–5 random players sit against a random bank. With `mistake`, retry until the dealt round gives
    that mistake a place to happen; if none does, the round is dealt correctly."""
    if mistake is not None and mistake not in MISTAKES:
        raise ValueError(f"unknown mistake {mistake!r} (known: {', '.join(MISTAKES)})")
    table_min, table_max = Decimal(table_min), Decimal(table_max)
    unit = Decimal(unit) if unit is not None else table_min
    rules = dict(rules or {})
    packs = rules.get("packs", pack.packs if pack is not None else 1)
    if players is None:
        count = rng.randint(*seats)
        if bank is None:
            names = rng.sample(PLAYERS, count + 1)
            bank = names.pop()
        else:
            names = rng.sample([p for p in PLAYERS if p != bank], count)
        numbers = list(range(1, len(names) + 1))
        if rng.random() < 0.1:  # somebody sat this round out: a gap in the seats
            numbers = sorted(rng.sample(range(1, len(names) + 2), len(names)))
        seated = list(zip(numbers, names))
    else:
        seated = list(enumerate(players, start=1))
        bank = bank or "Bank"
    options = dict(
        bank=bank,
        seated=seated,
        table_min=table_min,
        table_max=table_max,
        unit=unit,
        rules=rules,
        specials=specials,
        declare=declare,
        tapo=tapo,
        withdraw=withdraw,
        void=void,
        split=split,
        puje=puje,
    )
    source = pack if pack is not None else Pack(rng, packs)
    tries = attempts if mistake else 0
    # First the tries at the mistake, then correct rounds. Any try is dealt again when a big table
    # drew every card of one pack (the players' random choices differ the next time).
    for k in range(tries + attempts):
        wanted = mistake if k < tries else None
        saved = source.snapshot()
        try:
            result = _Round(rng, source, mistake=wanted, **options).write(wanted, number)
        except PackExhausted:
            result = None
        if result is not None:
            return result
        if pack is not None:
            source.restore(saved)  # nothing was seen: the cards go back as they were
        else:
            source = Pack(rng, packs)
    raise PackExhausted(f"{len(seated) + 1} hands kept drawing the whole pack in {attempts} deals")
