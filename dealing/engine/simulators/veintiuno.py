"""Veintiuno rounds (21 ecuatoriano) dealt from a 40-card pack by the rules of rules/veintiuno.md.

The players and the bank here never err unless asked to: `simulate_round(rng, mistake="tie_paid")`
deals a correct round and then commits that one mistake, reporting the finding code and the
`player_delta` the audit must find. The simulator settles every hand with its own plain
arithmetic (`hand_result`), not with the engine's replay, so tests comparing the two compare
independent implementations.

`simulate_session` plays a whole game night: the first bank drawn by high card, the pack dealt to
the end and gathered again, the bank passing to the first declared natural of each round.
"""

from dataclasses import dataclass, field
from decimal import Decimal

from . import Simulated
from .injection import Log

RANKS = "A234567JQK"
SUITS = "SHDC"
POINTS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 10, "Q": 10, "K": 10}
HIGH_CARD = {r: k for k, r in enumerate("234567JQKA")}  # the draw for the first bank: Ace highest
FACES = "JQK"
PLAYERS = ["Ana", "Beto", "Caro", "Dani", "Eva", "Fede", "Gabi", "Hugo", "Inés", "Juan"]

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
_PLAYED = {"natural_paid_even", "tapo_over_taken", "bet_limits", "split_single_bet", "split_relancina",
           "withdraw_without_thirteen", "stand_al_puje", "action_after_tapo"}
# Mistakes written into the finished log (some of them need a round played for them first).
_WRITTEN = set(MISTAKES) - {"bet_limits", "split_single_bet", "split_relancina", "withdraw_without_thirteen",
                            "stand_al_puje"}

# Special two-card hands the simulator can arrange for a seat (or the bank) by picking the cards.
# Each entry: ranks wanted card by card, and whether the second card must share the first's suit.
SPECIALS = {
    "natural": [("A", "JQK"), ("JQK", "A")],
    "monona": [("A", "A")],
    "twelve": [("5", "7"), ("7", "5"), ("6", "6"), ("2", "JQK"), ("JQK", "2")],
    "suited_twelve": [("5", "7"), ("7", "5"), ("2", "JQK"), ("JQK", "2")],
    "relancina": [("J", "QK"), ("Q", "JK"), ("K", "JQ")],
    "thirteen": [("6", "7"), ("7", "6"), ("3", "JQK"), ("JQK", "3")],
    "pair": [(r, r) for r in RANKS],
    "trillona": [("2", "3", "4", "5", "5", "A", "A"), ("3", "2", "2", "4", "3", "6", "A"),
                 ("2", "4", "A", "3", "2", "4", "5")],
    "twenty": [("J", "QK"), ("K", "K"), ("Q", "Q"), ("5", "7"), ("2", "JQK")],  # for the bank
}
_SUITED = {"suited_twelve": "same", "twelve": "other", "twenty": "other"}


# --- the simulator's own arithmetic ---------------------------------------------------------------

def hard(cards: list[str]) -> int:
    return sum(POINTS[c[0]] for c in cards)


def best(cards: list[str]) -> int:
    total = hard(cards)
    if total <= 11 and any(c[0] == "A" for c in cards):
        return total + 10
    return total


def special(cards: list[str]) -> str | None:
    """The name of a two-card special hand, or None."""
    if len(cards) != 2:
        return None
    (r1, s1), (r2, s2) = cards
    pair = {r1, r2}
    if pair == {"A"}:
        return "monona"
    if "A" in pair:
        return "natural" if pair & set(FACES) else None
    if pair <= set(FACES):
        return "relancina" if len(pair) == 2 else None
    if POINTS[r1] + POINTS[r2] == 12:
        return "suited_twelve" if s1 == s2 else "twelve"
    return None


def points(cards: list[str]) -> int:
    """What a hand counts: 21 for a natural, a moñona or a suited 12; 20 for a 12 or a relancina."""
    kind = special(cards)
    if kind in ("natural", "monona", "suited_twelve"):
        return 21
    if kind in ("twelve", "relancina"):
        return 20
    return best(cards)


def hand_result(cards: list[str], bet: Decimal, how: str, bank: list[str], suited_pays: int) -> tuple:
    """(result, amount, why) for one hand. `how`: declared, withdrawn, over, tapo, stood."""
    if how == "withdrawn":
        return "leave", bet, "withdrawn"
    if how == "declared":
        return "pay", bet * 2, "natural"
    if how == "over":
        return "take", bet, "over"
    bank_natural = special(bank) == "natural"
    bank_points = points(bank)
    bank_over = bank_points > 21
    kind = special(cards)
    times = {"monona": 3, "suited_twelve": suited_pays}.get(kind)
    if times is None and len(cards) == 7 and best(cards) == 21:
        times = 7
    if times is not None:
        if bank_natural:
            return "take", bet, "special beaten by the bank's natural"
        return "pay", bet * times, f"special {times}:1"
    mine = points(cards)
    if how == "tapo" and bank_over:
        return ("pay", bet, "tapo, bank over") if mine <= 21 else ("leave", bet, "tapo over, bank over")
    if mine > 21:
        return "take", bet, "tapo over"
    if bank_over:
        return "pay", bet, "bank over"
    if mine > bank_points:
        return "pay", bet, "higher"
    if mine == bank_points:
        return "take", bet, "tie"
    return "take", bet, "lower"


# --- the pack -------------------------------------------------------------------------------------

class PackExhausted(RuntimeError):
    """Every card of the pack is on the table and a hand wants one more: the round is dealt again."""


class Pack:
    """One shuffled pack (or several together), dealt to the end; then every card not on the table
    is gathered and shuffled again."""

    def __init__(self, rng, packs: int = 1):
        self.rng = rng
        self.packs = packs
        self.cards = [r + s for r in RANKS for s in SUITS] * packs
        rng.shuffle(self.cards)
        self.gathered = 0  # how many times the pack ran out and was gathered

    def snapshot(self):
        return list(self.cards), self.gathered

    def restore(self, state) -> None:
        self.cards, self.gathered = list(state[0]), state[1]

    def _refill(self, on_table: list[str]) -> None:
        if self.cards:
            return
        left = [r + s for r in RANKS for s in SUITS] * self.packs
        for card in on_table:
            if card in left:
                left.remove(card)
        if not left:
            raise PackExhausted("every card of the pack is on the table")
        self.rng.shuffle(left)
        self.cards = left
        self.gathered += 1

    def draw(self, on_table: list[str]) -> str:
        self._refill(on_table)
        return self.cards.pop()

    def pick(self, on_table: list[str], ranks: str, suit: str | None = None, other_suit: str | None = None):
        """A card of one of `ranks` (of `suit`, or not of `other_suit`) taken from the pack, or None."""
        self._refill(on_table)
        found = [k for k, c in enumerate(self.cards) if c[0] in ranks and (suit is None or c[1] == suit)
                 and (other_suit is None or c[1] != other_suit)]
        if not found:
            return None
        return self.cards.pop(self.rng.choice(found))


# --- one round ------------------------------------------------------------------------------------

class _Hand:
    __slots__ = ("name", "seat", "stake", "cards", "bet", "how", "child", "chase", "want", "suited", "decided",
                 "settled", "arranged")

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


class _Round(Log):
    def __init__(self, rng, pack: Pack, *, bank: str, seated: list[tuple[int, str]], table_min: Decimal,
                 table_max: Decimal, unit: Decimal, rules: dict, mistake: str | None, specials: float,
                 declare: float, tapo: float, withdraw: float, void: float, split: float, puje: float):
        self.rng = rng
        self.pack = pack
        self.bank = bank
        self.seated = seated
        self.min, self.max, self.unit = table_min, table_max, unit
        self.rules = {"suited_twelve_pays": 2, "packs": pack.packs, **rules}
        self.suited_pays = self.rules["suited_twelve_pays"]
        self.mistake = mistake
        self.applicable = mistake not in _PLAYED
        self.p = {"declare": declare, "tapo": tapo, "withdraw": withdraw, "void": void, "split": split,
                  "puje": puje}
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
        hand.suited = _SUITED.get(kind)
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
                self._arrange(target, rng.choice(("natural", "natural", "monona", "twelve", "suited_twelve",
                                                  "relancina", "trillona", "trillona", "thirteen", "thirteen",
                                                  "pair", "pair")))
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
        if points(bank_cards) == 20 and len(bank_cards) == 2 and mistake not in ("tapo_over_taken",
                                                                               "action_after_tapo"):
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
        self._emit({"e": "hit", "hand": hand.name, "card": card}, kind="hit", hand=hand.name,
                   pos=len(hand.cards) - 1)
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
            elif value >= 12 and target and mistake in ("tapo_over_taken", "action_after_tapo") \
                    and not self.applicable and not hand.child:
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
        self._emit({"e": "tapo", "hand": hand.name, "card": card}, kind="tapo", hand=hand.name,
                   pos=len(hand.cards) - 1)

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
        elif r1 == r2 and rng.random() < (0.9 if hand.arranged == "pair" else p["split"]) \
                and mistake not in ("split_single_bet", "split_relancina", "tapo_over_taken"):
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
        self.hands[k + 1:k + 1] = [first, second]

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
        self._emit(event, kind="settle", hand=hand.name, size=hand.bet, owed=amount, delta=delta, why=why,
                   how=hand.how)

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
        return self._write_log(mistake, MISTAKES, mistake in _WRITTEN, {
            "variant": "veintiuno",
            "table": {"min": self.min, "max": self.max},
            "rules": {k: v for k, v in self.rules.items() if v != {"suited_twelve_pays": 2, "packs": 1}[k]},
            "bank": self.bank,
            "stakes": [dict(s) for s in self.stakes],
        })

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
            if "card" in ev and ev["card"][0] in FACES and m.get("hand") not in opened \
                    and m.get("hand") not in declared and "." not in (m.get("hand") or ""):
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


def simulate_round(rng, *, mistake: str | None = None, number: int = 0, table_min=5, table_max=100, unit=None,
                   rules: dict | None = None, pack: Pack | None = None, bank: str | None = None,
                   players: list[str] | None = None, seats: tuple[int, int] = (1, 5), specials: float = 0.35,
                   declare: float = 0.92, tapo: float = 0.12, withdraw: float = 0.4, void: float = 0.2,
                   split: float = 0.5, puje: float = 0.5, attempts: int = 40) -> Simulated:
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
    options = dict(bank=bank, seated=seated, table_min=table_min, table_max=table_max, unit=unit, rules=rules,
                   specials=specials, declare=declare, tapo=tapo, withdraw=withdraw, void=void, split=split,
                   puje=puje)
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


# --- a game night ---------------------------------------------------------------------------------

@dataclass
class Session:
    """A simulated game night: who sat where, the draw for the first bank, every round in order."""

    players: list[str]  # in seating order around the table
    draw: list[dict]  # the draw for the first bank: one {player: card} per pass (ties draw again)
    first_bank: str
    unit: Decimal
    rounds: list[dict] = field(default_factory=list)  # round/1 documents
    simulated: list[Simulated] = field(default_factory=list)
    banks: list[str] = field(default_factory=list)  # who held the bank in each round
    limits: list[tuple[Decimal, Decimal]] = field(default_factory=list)  # the bank's limits in each round
    balances: dict[str, Decimal] = field(default_factory=dict)  # what each player won (+) or lost (-)
    shoe: dict = field(default_factory=dict)  # the shoe/1 document of the pack over the night


def draw_for_bank(rng, players: list[str]) -> tuple[str, list[dict]]:
    """Every player draws a card; the highest (Ace highest) holds the first bank. Ties draw again."""
    draws = []
    contenders = list(players)
    while True:
        cards = [r + s for r in RANKS for s in SUITS]
        rng.shuffle(cards)
        drawn = {p: cards.pop() for p in contenders}
        draws.append(drawn)
        top = max(HIGH_CARD[c[0]] for c in drawn.values())
        contenders = [p for p, c in drawn.items() if HIGH_CARD[c[0]] == top]
        if len(contenders) == 1:
            return contenders[0], draws


def simulate_session(rng, *, players: list[str] | None = None, rounds: int = 30, unit=5, packs: int = 1,
                     rules: dict | None = None, mistake_rate: float = 0.0, kinds: list[str] | None = None,
                     **options) -> Session:
    """A game night of `rounds` rounds. The pack is dealt to the end and gathered again; the bank
    passes to the first declared natural of each round and announces its limits when it takes over.
    Balances follow the money the log shows moving (so an injected mistake moves them too)."""
    if players is None:
        players = rng.sample(PLAYERS, rng.randint(3, 7))
    unit = Decimal(unit)
    rules = {**(rules or {}), **({"packs": packs} if packs != 1 else {})}
    pack = Pack(rng, packs)
    bank, draw = draw_for_bank(rng, players)
    session = Session(list(players), draw, bank, unit, balances={p: Decimal(0) for p in players})
    items: list[dict] = [{"e": "shuffle", "by": bank}]
    limits = None
    holder = None
    pool = list(kinds or MISTAKES)
    for number in range(rounds):
        if bank != holder:
            low = unit * rng.choice((1, 1, 2))
            limits = (low, low * rng.choice((5, 10, 20)))
            holder = bank
        b = players.index(bank)
        seated = [players[(b + k) % len(players)] for k in range(1, len(players))]
        kind = rng.choice(pool) if mistake_rate and rng.random() < mistake_rate else None
        if kind in ("card_twice", "card_invalid"):
            kind = None  # a made-up card would break the pack's own bookkeeping
        sim = simulate_round(rng, mistake=kind, number=number, table_min=limits[0], table_max=limits[1], unit=unit,
                             rules=rules, pack=pack, bank=bank, players=seated, **options)
        session.simulated.append(sim)
        session.rounds.append(sim.doc)
        session.banks.append(bank)
        session.limits.append(limits)
        items.append({"e": "round", "round": sim.doc})
        owners = {s["id"]: s["player"] for s in sim.doc["stakes"]}
        for ev in sim.doc["events"]:
            if ev["e"] == "pay":
                session.balances[owners[ev["stake"]]] += ev["amount"]
                session.balances[bank] -= ev["amount"]
            elif ev["e"] == "take":
                session.balances[owners[ev["stake"]]] -= ev["amount"]
                session.balances[bank] += ev["amount"]
            elif ev["e"] == "bank_to":
                passed = ev["player"]
        bank = passed if passed in players else bank
    session.shoe = {"format": "shoe/1", "variant": "veintiuno", "table": {"min": unit, "max": unit * 40},
                    "rules": rules, "items": items}
    return session


def simulate_shoe(rng, *, rounds: int, **options) -> dict:
    """A `shoe/1` document of veintiuno: one pack followed through a correct game night."""
    return simulate_session(rng, rounds=rounds, **options).shoe
