"""Ochko rounds dealt from a shuffled 8×36 shoe, by the procedure of rules/ochko.md.

The dealer here never errs unless asked to: `simulate_round(rng, mistake="wrong_amount")` deals a
correct round and then commits that one mistake, reporting the finding code and the
`player_delta` the audit must find.

Two ways to play the boxes: `play="casual"` (the default) folds, bets, hits, stands and takes dark
cards at random and places dealer bets, like a floor of casual players; `play="optimal"` makes every
player decision the game math's optimal one (`dealing.engine.ochko.math`, with the table's house
rules, off a full shoe as `edge` assumes: the fold or the Bet k after the first card, then stand,
hit or dark against the up card) and places no dealer bets, so that the house's mean win per Ante
is the `edge/1` document's `house_edge`.
"""

from decimal import Decimal

from ..simulators import Simulated
from ..simulators.injection import Log, until_written
from . import BET_MULTIPLE_MAX
from .math import solve
from .math.play import optimal_action, optimal_bet

RANKS = "6789TJQKA"
VALUE = {"6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
DECKS = 8
PLAYS = ("casual", "optimal")
PLAYERS = [f"P-{n}" for n in range(1, 25)]

MISTAKES = {
    "wrong_amount": "WRONG_AMOUNT",
    "wrong_result": "WRONG_RESULT",
    "missing_settlement": "MISSING_SETTLEMENT",
    "unexpected_settlement": "UNEXPECTED_SETTLEMENT",
    "payment_order": "PAYMENT_ORDER",
    "late_settlement": "LATE_SETTLEMENT",
    "dealer_draw_rule": "DEALER_DRAW_RULE",
    "bet_range": "BET_RANGE",
    "deal_order": "DEAL_ORDER",
    "illegal_action": "ILLEGAL_ACTION",
    "incident_unapproved": "INCIDENT_UNAPPROVED",
    "ante_limits": "ANTE_LIMITS",
}
# Mistakes made while dealing (the rest are made when the finished log is written down).
_DEALT_MISTAKES = {"dealer_draw_rule", "bet_range", "incident_unapproved", "ante_limits"}


def new_shoe(rng, decks: int = DECKS) -> list[str]:
    shoe = [r + s for r in RANKS for s in "SHDC"] * decks
    rng.shuffle(shoe)
    return shoe


def total(cards: list[str]) -> int:
    return sum(VALUE[c[0]] for c in cards)


def combination(cards: list[str]) -> bool:
    """Pair of aces or five pictures: ochko whatever the total."""
    if len(cards) == 2 and cards[0][0] == "A" and cards[1][0] == "A":
        return True
    return len(cards) == 5 and all(c[0] in "JQK" for c in cards)


def score(cards: list[str]) -> int | None:
    """21 for the combinations, the total otherwise; None for a bust."""
    if combination(cards):
        return 21
    t = total(cards)
    return None if t > 21 else t


def dealer_stops(cards: list[str]) -> bool:
    return combination(cards) or total(cards) >= 17


def simulate_round(
    rng,
    *,
    mistake: str | None = None,
    number: int = 0,
    table_min=100,
    table_max=5000,
    rules: dict | None = None,
    shoe: list[str] | None = None,
    dealer: str = "D-1",
    table_name: str | None = None,
    boxes: tuple[int, int] = (1, 6),
    shared: float = 0.25,
    fold: float = 0.12,
    dark: float = 0.12,
    dealer_bets: float = 0.3,
    incidents: float = 0.02,
    approver: str = "PB-1",
    attempts: int = 25,
    play: str = "casual",
    seats: dict | None = None,
) -> Simulated:
    """One round. With `mistake`, retry until the dealt round gives that mistake a place to happen.
    `play`: "casual" (random decisions, dealer bets) or "optimal" (the game math's decisions, no
    dealer bets); see the module's docstring. `seats`: box -> a player of simulator_players.py, who
    places his own Ante and Bet (one stake a box, no dealer bet)."""
    if mistake is not None and mistake not in MISTAKES:
        raise ValueError(f"unknown mistake {mistake!r} (known: {', '.join(MISTAKES)})")
    if play not in PLAYS:
        raise ValueError(f"unknown play {play!r} (known: {', '.join(PLAYS)})")
    options = dict(
        table_min=Decimal(table_min),
        table_max=Decimal(table_max),
        rules=rules or {},
        dealer=dealer,
        table_name=table_name,
        boxes=boxes,
        shared=shared,
        fold=fold,
        dark=dark,
        dealer_bets=dealer_bets,
        incidents=incidents,
        approver=approver,
        play=play,
        seats=seats,
    )
    return until_written(
        mistake,
        attempts,
        shoe,
        lambda: new_shoe(rng),
        lambda source, wanted: _Round(rng, source, wanted if wanted in _DEALT_MISTAKES else None, **options),
    )


class _Round(Log):
    def __init__(
        self,
        rng,
        shoe,
        dealt_mistake,
        *,
        table_min,
        table_max,
        rules,
        dealer,
        table_name,
        boxes,
        shared,
        fold,
        dark,
        dealer_bets,
        incidents,
        approver="PB-1",
        play="casual",
        seats=None,
    ):
        self.rng = rng
        self.seats = seats
        self.shoe = shoe
        self.used: list[str] = []
        self.min, self.max = table_min, table_max
        self.rules = {"dark_win_bet": "leave", "dark_double_bust_bet": "leave", **rules}
        # The optimal play's solver (memoised per rule set by the math module), or None: casual play.
        self.solver = solve(self.rules) if play == "optimal" else None
        self.dealer = dealer
        self.approver = approver  # the pit boss who approves an incident (a store checks he is one)
        self.table_name = table_name
        self.mistake = dealt_mistake
        self.applicable = dealt_mistake is None
        self.events: list[dict] = []
        self.meta: list[dict] = []  # per event: what it settles and when (for writing mistakes in)
        self._deal_round(boxes, shared, fold, dark, dealer_bets, incidents)

    # --- dealing ----------------------------------------------------------------------------

    def _card(self) -> str:
        card = self.shoe.pop()
        self.used.append(card)
        return card

    def _unit(self) -> Decimal:
        return self.min

    def _deal_round(self, box_range, shared, fold, dark, dealer_bets, incidents) -> None:
        rng = self.rng
        if self.seats is None:
            n = rng.randint(*box_range)
            numbers = sorted(rng.sample(range(1, 7), n))
        else:
            numbers = sorted(self.seats)
        self.stakes = []
        self.boxes = {}
        unit = self._unit()
        most = int(self.max // unit)
        for k, number in enumerate(numbers):
            if self.seats is not None:
                stake = {"id": f"{number}a", "box": number, "player": self.seats[number].name, "ante": unit}
                self.stakes.append(stake)
                self.boxes[number] = {"stakes": [stake], "cards": [], "state": "drawing", "dark": False}
                continue
            count = 1
            if rng.random() < shared and most >= 2:
                count = rng.choice((2, 3)) if most >= 3 else 2
            if self.mistake == "ante_limits" and k == 0:
                count = 1
            players = rng.sample(PLAYERS, count)
            room = most
            box_stakes = []
            for j in range(count):
                left = count - j - 1
                m = min(rng.choice((1, 1, 1, 2, 2, 3, 5, 10)), room - left)
                room -= m
                stake = {"id": f"{number}{'abc'[j]}", "box": number, "player": players[j], "ante": unit * m}
                if self.solver is None and rng.random() < dealer_bets:
                    stake["dealer_bet"] = Decimal(rng.choice((1, 2, 5, 10, 25, 50, 100)))
                box_stakes.append(stake)
            if self.mistake == "ante_limits" and k == 0:
                box_stakes[0]["ante"] = self.max + unit
                self.applicable = True
            self.stakes.extend(box_stakes)
            self.boxes[number] = {"stakes": box_stakes, "cards": [], "state": "drawing", "dark": False}

        for number in numbers:
            card = self._card()
            self.boxes[number]["cards"].append(card)
            self._emit({"e": "deal", "to": number, "card": card}, kind="deal")
        dealer_card = self._card()
        self._emit({"e": "deal", "to": "dealer", "card": dealer_card}, kind="deal")
        exposed = self.mistake == "incident_unapproved" or rng.random() < incidents
        if exposed:
            self._emit(
                {
                    "e": "incident",
                    "kind": "dealer_card_exposed",
                    "card": dealer_card,
                    "exposed": True,
                    "resolution": "burned",
                    "reported_by": "I-1",
                    "approved_by": None if self.mistake == "incident_unapproved" else self.approver,
                },
                kind="incident",
            )
            self._emit({"e": "burn", "card": dealer_card, "reason": "dealer_card_exposed"}, kind="burn")
            dealer_card = self._card()
            self._emit({"e": "deal", "to": "dealer", "card": dealer_card}, kind="deal")
            if self.mistake == "incident_unapproved":
                self.applicable = True
        self.dealer_cards = [dealer_card]

        self.playing: dict[int, list[dict]] = {number: [] for number in numbers}
        for number in numbers:
            for stake in self.boxes[number]["stakes"]:
                if self.seats is not None:
                    k = self.seats[number].bet_multiple(self.boxes[number]["cards"][0])
                    folds = k == 0
                elif self.solver is not None:
                    k = optimal_bet(self.solver, self.boxes[number]["cards"][0])
                    folds = k == 0
                else:
                    folds = rng.random() < fold
                if folds:
                    stake["folded"] = True
                    self._emit({"e": "fold", "stake": stake["id"]}, kind="decision")
                    self._settle(stake, "ante", "take", "fold", number)
                    if "dealer_bet" in stake:
                        self._settle(stake, "dealer_bet", "take", "fold", number)
                    continue
                if self.solver is not None or self.seats is not None:
                    bet = stake["ante"] * k
                else:
                    m = rng.choice((1, 1, 1, 2, 2, 3, 4, 5, 10))
                    bet = stake["ante"] * m
                    if rng.random() < 0.15:
                        bet = stake["ante"] + Decimal(rng.randint(0, 9)) * stake["ante"] / 2
                if self.mistake == "bet_range" and not self.applicable:
                    bet = stake["ante"] * 11
                    self.applicable = True
                stake["bet"] = bet
                self.playing[number].append(stake)
                self._emit({"e": "bet", "stake": stake["id"], "amount": bet}, kind="decision")
        self._emit({"e": "open"}, kind="open")

        for number in numbers:
            if not self.playing[number]:
                self.boxes[number]["state"] = "out"
                continue
            self._draw_box(number, dark)

        open_boxes = [n for n in numbers if self.boxes[n]["state"] in ("stood", "dark")]
        if open_boxes:
            while not dealer_stops(self.dealer_cards):
                card = self._card()
                self.dealer_cards.append(card)
                self._emit({"e": "draw", "card": card}, kind="draw")
            if self.mistake == "dealer_draw_rule":
                card = self._card()
                self.dealer_cards.append(card)
                self._emit({"e": "draw", "card": card}, kind="draw")
                self.applicable = True
            for number in open_boxes:
                if self.boxes[number]["dark"]:
                    self._emit({"e": "reveal", "box": number}, kind="reveal")
            for number in reversed(open_boxes):
                self._final(number)

    def _draw_box(self, number: int, dark: float) -> None:
        rng = self.rng
        box = self.boxes[number]
        cards = box["cards"]
        owner = self.playing[number][0]
        # The owner's Bet in Antes picks the chart (a bet_range mistake's 11× plays as 10×).
        k = min(int(owner["bet"] / owner["ante"]), BET_MULTIPLE_MAX) if self.solver is not None else 0
        while True:
            t = total(cards)
            if self.solver is not None:
                action = optimal_action(self.solver, cards, self.dealer_cards[0], k)
            else:
                r = rng.random()
                if t <= 11:
                    action = "dark" if r < dark / 3 else "hit"
                elif t <= 16:
                    action = "dark" if r < dark else ("stand" if r < dark + 0.3 else "hit")
                else:
                    action = "stand" if r < 0.85 else ("hit" if r < 0.95 else "dark")
            if action == "stand":
                box["state"] = "stood"
                self._emit({"e": "stand", "box": number}, kind="stand", box=number)
                return
            card = self._card()
            cards.append(card)
            if action == "dark":
                box["state"] = "dark"
                box["dark"] = True
                self._emit({"e": "dark", "box": number, "card": card}, kind="dark", box=number)
                return
            self._emit({"e": "hit", "box": number, "card": card}, kind="hit", box=number)
            if combination(cards) or total(cards) == 21:
                box["state"] = "ochko"
                self._instant(number, win=True)
                return
            if total(cards) > 21:
                box["state"] = "mnogo"
                self._instant(number, win=False)
                return

    def _instant(self, number: int, win: bool) -> None:
        block = len(self.events)
        for stake in self.playing[number]:
            for wager in ("bet", "ante"):
                self._settle(stake, wager, "pay" if win else "take", "instant", number, block=block)
        for stake in self.playing[number]:
            if "dealer_bet" in stake:
                if win:
                    result = "pay"
                else:
                    result = "leave" if self.dealer_cards[0][0] == "A" else "take"
                self._settle(stake, "dealer_bet", result, "instant", number, block=block)

    def _final(self, number: int) -> None:
        box = self.boxes[number]
        cards = box["cards"]
        d = score(self.dealer_cards)
        b = score(cards)
        dark = box["dark"]
        if b is None and d is None and dark:
            ante, bet, extra = "pay", self.rules["dark_double_bust_bet"], "pay"
        elif b is not None and (d is None or b > d):
            ante, bet, extra = "pay", (self.rules["dark_win_bet"] if dark else "pay"), "pay"
        elif b is not None and b == d:
            ante, bet, extra = "take", "take", "leave"
        else:
            ante, bet, extra = "take", "take", ("leave" if self.dealer_cards[0][0] == "A" else "take")
        block = len(self.events)
        for stake in self.playing[number]:
            self._settle(stake, "bet", bet, "final", number, block=block)
            self._settle(stake, "ante", ante, "final", number, block=block)
        for stake in self.playing[number]:
            if "dealer_bet" in stake:
                self._settle(stake, "dealer_bet", extra, "final", number, block=block)

    def _settle(self, stake: dict, wager: str, result: str, kind: str, box: int, block: int | None = None) -> None:
        size = stake[wager]
        event = {"e": result, "stake": stake["id"], "wager": wager}
        if result != "leave":
            event["amount"] = size
        delta = size if result == "pay" else (-size if result == "take" else Decimal(0))
        self._emit(event, kind=kind, box=box, size=size, delta=delta, block=block)

    # --- writing the log down, with the mistake if any ----------------------------------------

    def write(self, mistake: str | None) -> Simulated | None:
        table = {"min": self.min, "max": self.max, **({"name": self.table_name} if self.table_name else {})}
        return self._write_log(
            mistake,
            MISTAKES,
            mistake not in _DEALT_MISTAKES,
            {
                "variant": "ochko",
                "table": table,
                "rules": {
                    k: v
                    for k, v in self.rules.items()
                    if k in ("dark_win_bet", "dark_double_bust_bet") and v != "leave"
                },
                "dealer": self.dealer,
                "stakes": [
                    {k: v for k, v in s.items() if k in ("id", "box", "player", "ante", "dealer_bet")}
                    for s in self.stakes
                ],
            },
        )

    def _settlements(self, results=("pay", "take", "leave")) -> list[int]:
        return [
            k
            for k, m in enumerate(self.meta)
            if m.get("kind") in ("fold", "instant", "final") and self.events[k]["e"] in results
        ]

    def _mistake_payment_order(self):
        finals = [k for k, m in enumerate(self.meta) if m.get("kind") == "final"]
        blocks = sorted({self.meta[k]["block"] for k in finals})
        if len(blocks) < 2:
            return None
        j = self.rng.randrange(len(blocks) - 1)
        first = [k for k in finals if self.meta[k]["block"] == blocks[j]]
        second = [k for k in finals if self.meta[k]["block"] == blocks[j + 1]]
        lo, hi = first[0], second[-1]
        order = second + first
        self.events[lo : hi + 1] = [self.events[k] for k in order]
        self.meta[lo : hi + 1] = [self.meta[k] for k in order]
        return True

    def _mistake_late_settlement(self):
        drawing = ("hit", "stand", "dark", "draw")
        candidates = []
        for block in sorted({m["block"] for m in self.meta if m.get("kind") == "instant"}):
            ks = [k for k, m in enumerate(self.meta) if m.get("kind") == "instant" and m["block"] == block]
            after = ks[-1] + 1
            if after < len(self.meta) and self.meta[after].get("kind") in drawing:
                candidates.append((ks, after))
        if not candidates:
            return None
        ks, after = self.rng.choice(candidates)
        moved_e = [self.events[k] for k in ks]
        moved_m = [self.meta[k] for k in ks]
        action_e, action_m = self.events[after], self.meta[after]
        lo = ks[0]
        self.events[lo : after + 1] = [action_e] + moved_e
        self.meta[lo : after + 1] = [action_m] + moved_m
        return True


def simulate_shoe(
    rng,
    *,
    rounds: int,
    table_min=100,
    table_max=5000,
    dealer: str = "D-1",
    table_name: str | None = None,
    cut: int = 60,
    **options,
) -> dict:
    """A `shoe/1` document: a shoe loaded with 6 burns, rounds until the cut, a dealer change and a
    paid burn now and then — a correct shoe."""
    shoe = new_shoe(rng)
    items: list[dict] = [{"e": "shuffle", "by": dealer}]
    items += [{"e": "burn", "card": shoe.pop(), "reason": "load"} for _ in range(6)]
    current = dealer
    for k in range(rounds):
        if len(shoe) < cut:
            break
        if k and rng.random() < 0.05:
            current = f"D-{rng.randint(2, 9)}"
            items.append({"e": "dealer_change", "dealer": current})
            items.append({"e": "burn", "card": shoe.pop(), "reason": "dealer_change"})
        if k and rng.random() < 0.03:
            items.append({"e": "burn", "card": shoe.pop(), "reason": "paid", "fee": Decimal(table_min) / 2})
        sim = simulate_round(
            rng,
            number=k,
            table_min=table_min,
            table_max=table_max,
            shoe=shoe,
            dealer=current,
            table_name=table_name,
            incidents=0,
            **options,
        )
        items.append({"e": "round", "round": sim.doc})
    return {"format": "shoe/1", "variant": "ochko", "table": {"min": table_min, "max": table_max}, "items": items}
