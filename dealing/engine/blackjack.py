"""Blackjack, the two seed rulesets as presets of one variant (rules/blackjack.md): replay,
settle, audit, next moves.

A round is replayed event by event through its phases — the deal, the insurance / even-money
offers while the dealer shows an ace, the peek, the players' hands (depth first after a split),
the dealer's draw, settlement. Each event is validated as it is applied (a log we cannot follow
raises `RoundError`); every departure from the rules becomes a `Finding` and the replay keeps
going. A hand that breaks a rule is flagged and settled as it was actually dealt.

Hands are named by box (``"2"``); splitting ``H`` makes ``H.1`` (its first card) and ``H.2``
(its second card, with a second bet equal to the first).
"""

from decimal import ROUND_DOWN, Decimal
from typing import Final

from . import cards as _cards
from . import document as doc_
from . import loop
from .base import LEAVE, PAY, TAKE, Option, Outcome, Owed, Settled, compare_settlements, resolve_rules
from .errors import RoundError
from .findings import Finding
from .loop import PLAYING, SPLIT, STOOD, Handlers, Round, deal_target, first_in, lookup, soft_total, stake_of
from .loop import move as _move
from .money import ZERO, fmt

NAME: Final = "blackjack"
PACK: Final = _cards.pack(_cards.RANKS)
MAX_TABLE_BOXES: Final = 7

WAGERS: Final = ("bet", "double", "insurance", "jackpot")
WAGER_LABEL: Final = {"bet": "bet", "double": "double", "insurance": "insurance", "jackpot": "jackpot bet"}

CUT: Final = "cut"
EVERY_ROUND: Final = "every_round"

OPTIONS: Final = {
    "preset": Option("preset", "salon", "choice",
                     "The ruleset the other options start from: the six-deck salon game (seed 002) or the "
                     "eight-deck online game (seed 001).", choices=("salon", "online")),
    "decks": Option("decks", 6, "int", "52-card packs in the shoe.", minimum=1, maximum=8),
    "reshuffle": Option("reshuffle", CUT, "choice",
                        "When a new shoe is due: at the cut (fewer than `cut_remaining` cards left before a deal) "
                        "or before every round.", choices=(CUT, EVERY_ROUND)),
    "cut_remaining": Option("cut_remaining", 78, "int",
                            "With reshuffle \"cut\": a new shoe when fewer than this many cards remain before a deal.",
                            minimum=1, maximum=416),
    "boxes": Option("boxes", 5, "int", "Boxes (player positions) on the table.", minimum=1,
                    maximum=MAX_TABLE_BOXES),
    "max_hands": Option("max_hands", 4, "int", "The most hands one box may have after splitting (1: no split).",
                        minimum=1, maximum=8),
    "resplit_aces": Option("resplit_aces", False, "bool", "A split ace that receives another ace may split again."),
    "hit_split_aces": Option("hit_split_aces", False, "bool",
                             "Split aces may draw more than their one card (and double, with double_after_split)."),
    "double_after_split": Option("double_after_split", True, "bool",
                                 "A split hand may double on its first two cards."),
    "jackpot": Option("jackpot", False, "bool",
                      "The jackpot side bet is offered: it wins when the box's first two cards are A♠ and J♠."),
    "jackpot_bet": Option("jackpot_bet", Decimal(1), "amount", "The jackpot side bet's stake."),
    "jackpot_amount": Option("jackpot_amount", Decimal(1000), "amount", "What a winning jackpot bet is paid."),
}

PRESETS: Final = {
    "salon": {"preset": "salon", "decks": 6, "reshuffle": CUT, "cut_remaining": 78, "boxes": 5, "max_hands": 4,
              "resplit_aces": False, "hit_split_aces": False, "double_after_split": True, "jackpot": False,
              "jackpot_bet": Decimal(1), "jackpot_amount": Decimal(1000)},
    "online": {"preset": "online", "decks": 8, "reshuffle": EVERY_ROUND, "cut_remaining": 78, "boxes": 1,
               "max_hands": 2, "resplit_aces": False, "hit_split_aces": False, "double_after_split": True,
               "jackpot": True, "jackpot_bet": Decimal(1), "jackpot_amount": Decimal(1000)},
}


def house_rules(rules) -> dict:
    """The rules in force: the preset's (salon when none is named), then the overrides."""
    if rules is None:
        return dict(PRESETS["salon"])
    if type(rules) is dict and len(rules) == 1 and rules.get("preset") in _PRESET_NAMES:
        return dict(PRESETS[rules["preset"]])
    preset = "salon"
    if type(rules) is dict and "preset" in rules:
        preset = OPTIONS["preset"].read(rules["preset"], "$.rules.preset")
    return resolve_rules(NAME, OPTIONS, rules, base=PRESETS[preset])


_PRESET_NAMES: Final = ("salon", "online")

# Card facts by every accepted spelling (loop.card_table), the ace valued 1; every card is in the pack.
_VALUE: Final = {r: 1 if r == "A" else 10 if r in "TJQK" else int(r) for r in _cards.RANKS}
_CARD: Final = loop.card_table(_VALUE.__getitem__, PACK)

JACKPOT_CARDS: Final = frozenset({"AS", "JS"})
THREE_TO_TWO: Final = Decimal("1.5")
CENT: Final = Decimal("0.01")

# Phases of the round.
DEAL, OFFERS, PLAY, DEALER = range(4)
# States of a hand.
DONE: Final = "done"
EVEN: Final = "even money"


def blackjack_pay(bet: Decimal) -> Decimal:
    """3:2, exact; a payout that falls between cents is rounded down to the cent."""
    win = bet * THREE_TO_TWO
    exponent = win.as_tuple().exponent  # an int: the product of two finite amounts is finite
    if isinstance(exponent, int) and exponent < -2:
        win = win.quantize(CENT, rounding=ROUND_DOWN)
    return win


class Hand:
    """A player's hand (or the dealer's). Aces count 1 in `hard`; `best` counts one as 11 when it fits."""

    __slots__ = ("name", "stake", "cards", "hard", "ace", "invalid", "bet", "double", "state", "is_split",
                 "split_aces", "acted")

    def __init__(self, name=None, stake=None, bet=ZERO, is_split=False):
        self.name = name
        self.stake = stake
        self.cards: list[str] = []
        self.hard = 0
        self.ace = False
        self.invalid = False
        self.bet = bet
        self.double = None
        self.state = PLAYING
        self.is_split = is_split
        self.split_aces = False
        self.acted = False

    def add(self, info: tuple) -> None:
        self.cards.append(info[0])
        self.hard += info[1]
        if info[2]:
            self.ace = True
        if not info[4]:
            self.invalid = True

    @property
    def best(self) -> int:
        return soft_total(self.hard, self.ace)

    @property
    def soft(self) -> bool:
        return self.ace and self.hard <= 11

    @property
    def natural(self) -> bool:
        """Blackjack: an ace and a ten-value card as a box's first two cards (never after a split)."""
        return not self.is_split and self.state != SPLIT and len(self.cards) == 2 and self.ace and self.hard == 11

    def words(self) -> str:
        if self.natural:
            return "blackjack"
        best = self.best
        return f"soft {best}" if self.soft and best != 21 else str(best)


class Stake:
    __slots__ = ("id", "box", "player", "bet", "jackpot", "hand", "insurance", "insured_at", "even_money")

    def __init__(self, id_, box, player, bet, jackpot):
        self.id = id_
        self.box = box
        self.player = player
        self.bet = bet
        self.jackpot = jackpot
        self.hand: Hand = Hand(str(box), self, bet)
        self.insurance = None
        self.insured_at = None
        self.even_money = None  # the event index of a valid even-money decision


class Replay(Round):
    """The state of one round as its events are applied in order."""

    def __init__(self, doc):
        super().__init__(NAME, _HANDLERS, _CARD, "the 52-card pack", "TS")
        doc = doc_.header(doc, NAME)
        self.doc = doc
        table = doc_.expect_object(doc["table"] if "table" in doc else loop.missing("table"), "$.table")
        self.min = doc_.amount(table, "min", "$.table")
        self.max = doc_.amount(table, "max", "$.table")
        if self.min > self.max:
            raise RoundError("bad_value", f"The table minimum {fmt(self.min)} is above its maximum {fmt(self.max)}.",
                             path="$.table")
        self.rules = rules = house_rules(doc.get("rules"))
        n_boxes = doc_.integer(table, "boxes", "$.table", required=False)
        if n_boxes is not None and not 1 <= n_boxes <= MAX_TABLE_BOXES:
            raise doc_.bad_value("boxes", n_boxes, f"a blackjack table has 1 to {MAX_TABLE_BOXES} boxes.", "$.table")
        self.n_boxes = rules["boxes"] if n_boxes is None else n_boxes
        self.decks = self.copies = rules["decks"]
        self.max_hands = rules["max_hands"]
        self.stakes: dict[str, Stake] = {}
        self.by_box: dict[int, Stake] = {}
        self._read_stakes(doc["stakes"] if "stakes" in doc else loop.missing("stakes"))
        self.order = sorted(self.by_box)
        # Every hand by name, and the hands in play order (box 1 -> n, split hands depth first).
        self.hands: dict[str, Hand] = {}
        self.play: list[Hand] = []
        for number in self.order:
            hand = self.by_box[number].hand
            self.hands[hand.name] = hand
            self.play.append(hand)
        # The deal: a card to each box, the dealer's up card, a second card to each box, the hole card.
        self.slots: list = self.order + ["dealer"] + self.order + ["dealer"]
        self.filled = [False] * len(self.slots)
        self.deal_next = 0  # the first slot of the deal not yet filled
        self.dealer = Hand()
        self.up = 0  # the up card's value (A = 1); 0 before it is dealt
        self.dealer_bj = False
        self.phase = DEAL
        self.peeked = False
        self.peek_flagged = False
        self.dealer_drew = False
        self.idle_draw_flagged = False
        self.last_action = -1

    # --- the header -----------------------------------------------------------------------------

    def _read_stakes(self, raw) -> None:
        raw = doc_.expect_list(raw, "$.stakes")
        if not raw:
            raise RoundError("no_stakes", "The round has no stakes: at least one box must be played.",
                             path="$.stakes")
        rules = self.rules
        for k, item in enumerate(raw):
            path = f"$.stakes[{k}]"
            doc_.expect_object(item, path)
            doc_.unknown_fields(item, _STAKE_FIELDS, path)
            sid = doc_.text(item, "id", path)
            if sid in self.stakes:
                raise RoundError("duplicate_stake", f"Two stakes have the id \"{sid}\".", path=f"{path}.id")
            box = doc_.integer(item, "box", path)
            if box < 1:
                raise doc_.bad_value("box", box, "boxes are numbered from 1.", path)
            if box in self.by_box:
                raise RoundError("duplicate_box", f"Box {box} has two stakes (\"{self.by_box[box].id}\" and \"{sid}\"); "
                                 f"a blackjack box has one player.", path=f"{path}.box")
            player = doc_.text(item, "player", path)
            bet = doc_.amount(item, "bet", path)
            jackpot = doc_.amount(item, "jackpot", path, required=False)
            doc_.boolean(item, "owner", path, required=False)
            if jackpot is not None and not rules["jackpot"]:
                raise RoundError("no_jackpot", f"Stake \"{sid}\" has a jackpot bet, but this table offers no jackpot "
                                 f"side bet (house rule \"jackpot\" is false).", path=f"{path}.jackpot")
            stake = Stake(sid, box, player, bet, jackpot)
            self.stakes[sid] = stake
            self.by_box[box] = stake
            if box > self.n_boxes:
                self._flag("BOX_PLAYERS", f"Box {box} does not exist: the table has boxes 1 to {self.n_boxes}.",
                           None, stake=sid)
            if bet < self.min or bet > self.max:
                self._flag("BET_LIMITS", f"Box {box}, stake {sid}: bet {fmt(bet)} is outside the table limits "
                           f"{fmt(self.min)}–{fmt(self.max)}.", None, stake=sid, wager="bet")
            if jackpot is not None and jackpot != rules["jackpot_bet"]:
                self._flag("BET_LIMITS", f"Box {box}, stake {sid}: the jackpot bet is {fmt(jackpot)}; it is "
                           f"{fmt(rules['jackpot_bet'])}.", None, stake=sid, wager="jackpot")

    # --- helpers ----------------------------------------------------------------------------

    def _who(self, stake_id: str, hand=None) -> str:
        stake = self.stakes.get(stake_id)
        head = f"Box {stake.box}, stake {stake_id}" if stake else f"Stake {stake_id}"
        return f"{head}, hand {hand}" if hand is not None and stake is not None and hand != str(stake.box) else head

    def _stake(self, i: int, ev: dict) -> Stake:
        return stake_of(self.stakes, i, ev)

    def _hand_name(self, i: int, ev: dict) -> str:
        name = ev.get("hand")
        if type(name) is not str:
            if "hand" not in ev:
                raise doc_.missing("hand", f"$.events[{i}]", i)
            raise doc_.wrong_type("hand", name, "a hand name such as \"2\" or \"2.1\"", f"$.events[{i}]", i)
        if name in _GOOD_NAMES:
            return name
        if not _well_formed(name):
            raise doc_.bad_value("hand", name, "a hand is named by its box number, and a split hand H by H.1 and "
                                 "H.2 (\"2\", \"2.1\", \"2.1.2\").", f"$.events[{i}]", i)
        if len(_GOOD_NAMES) < 10_000:
            _GOOD_NAMES.add(name)
        return name

    def _hand(self, i: int, ev: dict) -> Hand:
        self._hand_name(i, ev)  # a name well formed, or the precise error
        return lookup(self.hands, i, ev, "hand", "a hand name", "in play (hands: ")

    def _too_many(self, i: int, code: str, n: int) -> None:
        self._flag("CARD_COUNT", f"Event {i}: {_cards.label(code)} appears {n} times; a shoe of {self.decks} "
                   f"pack(s) holds only {self.decks}.", i)

    def _dealer_card(self, info: tuple) -> None:
        dealer = self.dealer
        dealer.add(info)
        n = len(dealer.cards)
        if n == 1:
            self.up = info[1] if info[4] else 0
        elif n == 2:
            self.dealer_bj = info[4] and {self.up, info[1]} == {1, 10}

    def _peek_due(self) -> bool:
        return self.up == 1 or self.up == 10

    def _current(self) -> Hand | None:
        """The hand whose turn it is: box order, a split hand to its end first."""
        return first_in(self.play, PLAYING)

    def _live(self) -> bool:
        """A hand the dealer must play against: not bust, not a blackjack, not paid even money."""
        for hand in self.play:
            if hand.state != EVEN and hand.hard <= 21 and not hand.natural:
                return True
        return False

    # --- events -------------------------------------------------------------------------------

    def _deal(self, i: int, ev: dict) -> None:
        to = deal_target(i, ev, "dealer", "a box number or \"dealer\"")
        info = self._card(i, ev)
        if to != "dealer" and to not in self.by_box:
            self._flag("DEAL_ORDER", f"Event {i}: a card dealt to box {to}, which has no stake.", i)
            return
        if self.phase != DEAL:
            self._flag("DEAL_ORDER", f"Event {i}: a card dealt to {_target(to)} after the deal was over.", i)
        else:
            slots, filled = self.slots, self.filled
            first = self.deal_next
            slot: int | None
            if first < len(slots) and slots[first] == to:
                slot = first
            else:
                slot = next((k for k in range(first, len(slots)) if not filled[k] and slots[k] == to), None)
            if slot is None:
                self._flag("DEAL_ORDER", f"Event {i}: {_target(to)} was dealt a third card in the deal.", i)
            else:
                filled[slot] = True
                if slot != first:
                    self._flag("DEAL_ORDER", f"Event {i}: {_target(to)} was dealt out of turn; the deal goes box 1 → "
                               f"{self.order[-1]}, the dealer's up card, the second cards, the hole card.", i)
                while first < len(slots) and filled[first]:
                    first += 1
                self.deal_next = first
        if to == "dealer":
            self._dealer_card(info)
            return
        hand = self.by_box[to].hand
        if hand.state == SPLIT:
            return
        hand.add(info)
        self._after_card(hand)

    def _close_deal(self, i) -> None:
        """The deal ends at the first event that is not a deal: every missing card is a finding."""
        if self.phase != DEAL:
            return
        self.phase = OFFERS
        missing = [self.slots[k] for k, done in enumerate(self.filled) if not done]
        if missing:
            names = ", ".join("the dealer" if t == "dealer" else f"box {t}" for t in missing)
            self._flag("DEAL_ORDER", f"The deal was not complete (missing a card to: {names}).", i)

    def _offer(self, i: int, stake: Stake, what: str) -> str | None:
        """Why an insurance / even-money decision is out of place, or None when it is offered."""
        self._close_deal(i)
        if self.up != 1:
            return f"{what} is offered only while the dealer shows an ace"
        if self.peeked or self.phase >= PLAY:
            return f"{what} was taken after the offer closed (the peek or the first play)"
        if stake.even_money is not None or stake.insurance is not None:
            return f"stake {stake.id} had already decided (insurance or even money)"
        return None

    def _insurance(self, i: int, ev: dict) -> None:
        stake = self._stake(i, ev)
        amount = doc_.event_amount(ev, i)
        why = self._offer(i, stake, "insurance")
        if why is None and stake.hand.natural:
            why = "a blackjack is offered even money, not insurance"
        if why is not None:
            self._flag("ILLEGAL_ACTION", f"Event {i}: box {stake.box} insured {fmt(amount)}, but {why}; the "
                       f"insurance is void.", i, stake=stake.id, wager="insurance")
            return
        stake.insurance = amount
        stake.insured_at = i
        if amount * 2 > stake.bet:
            self._flag("INSURANCE_AMOUNT", f"Event {i}: box {stake.box} insured {fmt(amount)}, over half its bet of "
                       f"{fmt(stake.bet)}.", i, stake=stake.id, wager="insurance")

    def _even_money(self, i: int, ev: dict) -> None:
        stake = self._stake(i, ev)
        why = self._offer(i, stake, "even money")
        hand = stake.hand
        if why is None and not hand.natural:
            why = f"its hand is {hand.words()}, not a blackjack"
        if why is not None:
            self._flag("ILLEGAL_ACTION", f"Event {i}: box {stake.box} took even money, but {why}; it is void.", i,
                       stake=stake.id, wager="bet")
            return
        stake.even_money = i
        hand.state = EVEN

    def _peek(self, i: int, ev: dict) -> None:
        self._close_deal(i)
        if not self._peek_due():
            self._flag("ILLEGAL_ACTION", f"Event {i}: the dealer peeked with a "
                       f"{_cards.label(self.dealer.cards[0]) if self.dealer.cards else 'missing'} up card; he checks "
                       f"the hole card only with an ace or a ten-value card up.", i)
        elif self.peeked:
            self._flag("ILLEGAL_ACTION", f"Event {i}: the dealer peeked a second time.", i)
        elif self.phase >= PLAY and not self.peek_flagged:
            self.peek_flagged = True
            self._flag("ILLEGAL_ACTION", f"Event {i}: the dealer peeked only after play began.", i)
        self.peeked = True

    def _begin_play(self, i: int, who: str) -> bool:
        """Start of play (the offers close). False when the dealer's blackjack had already ended the round."""
        self._close_deal(i)
        if self.phase < PLAY:
            self.phase = PLAY
            if self._peek_due() and not self.peeked and not self.peek_flagged:
                self.peek_flagged = True
                self._flag("ILLEGAL_ACTION", f"Event {i}: {who} before the dealer peeked at his hole card "
                           f"({_cards.label(self.dealer.cards[0])} up).", i)
        if self.dealer_bj:
            self._flag("ILLEGAL_ACTION", f"Event {i}: {who}, but the dealer's blackjack had ended the round.", i)
            return False
        return True

    def _turn(self, i: int, hand: Hand, what: str) -> bool:
        """Check a play on `hand` comes in turn. False when the hand is not a hand any more (it was split)."""
        if not self._begin_play(i, f"hand {hand.name} {what}"):
            return False
        stake_id = hand.stake.id if hand.stake else None
        if hand.state == SPLIT:
            self._flag("ILLEGAL_ACTION", f"Event {i}: hand {hand.name} was split into {hand.name}.1 and "
                       f"{hand.name}.2; it cannot {what}.", i, stake=stake_id, hand=hand.name)
            return False
        if self.dealer_drew:
            self._flag("DRAW_ORDER", f"Event {i}: hand {hand.name} played after the dealer started drawing.", i,
                       stake=stake_id, hand=hand.name)
        elif hand.state == PLAYING:
            current = self._current()  # never None: this hand is still playing
            if current is not None and current is not hand:
                self._flag("DRAW_ORDER", f"Event {i}: hand {hand.name} played before hand {current.name} was "
                           f"finished; hands play in box order, a split hand to the end before the next.", i,
                           stake=stake_id, hand=hand.name)
        hand.acted = True
        self.last_action = i
        return True

    def _finished_words(self, hand: Hand) -> str | None:
        """Why a hand can take no more cards, or None."""
        state = hand.state
        if state == PLAYING:
            return None
        if state == EVEN:
            return "took even money"
        if state == STOOD:
            return f"stood on {hand.words()}"
        if hand.hard > 21:
            return f"is bust ({hand.hard})"
        if hand.natural:
            return "is a blackjack"
        if hand.double is not None:
            return "was doubled (one card only)"
        if hand.split_aces and len(hand.cards) >= 2 and not self.rules["hit_split_aces"]:
            return "is a split ace, which gets one card only"
        return f"has {hand.best}"

    def _after_card(self, hand: Hand) -> None:
        if hand.state != PLAYING:
            return
        if hand.hard > 21 or hand.best == 21:
            hand.state = DONE
        elif self._ace_limit(hand) and not self._may_resplit(hand):
            hand.state = DONE

    def _ace_limit(self, hand: Hand) -> bool:
        """A split ace that has had its one card (and may not draw more)."""
        return hand.split_aces and len(hand.cards) >= 2 and not self.rules["hit_split_aces"]

    def _may_resplit(self, hand: Hand) -> bool:
        """A split ace dealt another ace, where the house resplits aces and the box has room."""
        cards = hand.cards
        return (len(cards) == 2 and self.rules["resplit_aces"] and cards[0][0] == "A" and cards[1][0] == "A"
                and self._hands_of(hand) < self.max_hands)

    def _hands_of(self, hand: Hand) -> int:
        stake = hand.stake
        return sum(1 for h in self.play if h.stake is stake)

    def _hit(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        info = self._card(i, ev)
        if not self._turn(i, hand, "take a card"):
            return
        why = self._finished_words(hand)
        if why is None and self._ace_limit(hand):
            why = "is a split ace, which gets one card only"
        if why is not None:
            self._flag("ILLEGAL_ACTION", f"Event {i}: hand {hand.name} {why}; it cannot take another card.", i,
                       stake=hand.stake.id, hand=hand.name)
        hand.add(info)
        self._after_card(hand)

    def _stand(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        if not self._turn(i, hand, "stand"):
            return
        state = hand.state
        if state == PLAYING:
            if len(hand.cards) < 2:
                self._flag("ILLEGAL_ACTION", f"Event {i}: hand {hand.name} stood on one card; a split hand gets "
                           f"its second card first.", i, stake=hand.stake.id, hand=hand.name)
            hand.state = STOOD
        elif state == DONE and hand.hard <= 21 and not self._later_acted(hand):
            hand.state = STOOD  # a stand on a finished 21, double or split ace says nothing new
        else:
            self._flag("ILLEGAL_ACTION", f"Event {i}: hand {hand.name} {self._finished_words(hand)}; it cannot "
                       f"stand again.", i, stake=hand.stake.id, hand=hand.name)

    def _later_acted(self, hand: Hand) -> bool:
        play = self.play
        k = play.index(hand)
        return any(h.acted for h in play[k + 1:])

    def _double(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        info = self._card(i, ev)
        amount = doc_.event_amount(ev, i, required=False)
        if not self._turn(i, hand, "double"):
            return
        if amount is None:
            amount = hand.bet
        rules = self.rules
        why = self._finished_words(hand)
        if why is None and self._ace_limit(hand):
            why = "is a split ace, which gets one card only"
        if why is None:
            if len(hand.cards) != 2:
                why = f"holds {len(hand.cards)} card(s); a hand doubles on its first two cards only"
            elif hand.is_split and not rules["double_after_split"]:
                why = "is a split hand and this table does not double after a split"
            elif amount != hand.bet:
                why = f"doubled for {fmt(amount)}; the second bet equals the first ({fmt(hand.bet)})"
        if why is not None:
            self._flag("ILLEGAL_ACTION", f"Event {i}: hand {hand.name} {why}.", i, stake=hand.stake.id,
                       hand=hand.name, wager="double")
        hand.double = amount if hand.double is None else hand.double + amount
        hand.add(info)
        if hand.state == PLAYING:
            hand.state = DONE

    def _split(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        if not self._turn(i, hand, "split"):
            return
        rules = self.rules
        cards = hand.cards
        stake_id = hand.stake.id
        if len(cards) != 2:
            self._flag("ILLEGAL_ACTION", f"Event {i}: hand {hand.name} holds {len(cards)} card(s); only a pair of "
                       f"two cards splits.", i, stake=stake_id, hand=hand.name)
            return
        a, b = _CARD.get(cards[0]), _CARD.get(cards[1])
        aces = a is not None and b is not None and a[2] and b[2]
        hands_now = self._hands_of(hand)
        why = None
        if aces and hand.split_aces and not rules["resplit_aces"]:
            why = "is a split ace; aces are split once only"
        elif hand.state != PLAYING:
            why = f"{self._finished_words(hand)}"
        elif a is None or b is None or a[1] != b[1]:
            why = f"holds {_cards.label(cards[0])} {_cards.label(cards[1])}, which are not of equal value"
        elif hands_now + 1 > self.max_hands:
            why = f"would make {hands_now + 1} hands on box {hand.stake.box}; the most is {self.max_hands}"
        if why is not None:
            self._flag("ILLEGAL_ACTION", f"Event {i}: hand {hand.name} split, but it {why}.", i, stake=stake_id,
                       hand=hand.name)
        first = Hand(hand.name + ".1", hand.stake, hand.bet, True)
        second = Hand(hand.name + ".2", hand.stake, hand.bet, True)
        for child, code in ((first, cards[0]), (second, cards[1])):
            child.add(_CARD.get(code) or (code, *loop.NO_CARD_INFO))
            child.split_aces = aces
            self.hands[child.name] = child
        hand.state = SPLIT
        k = self.play.index(hand)
        self.play[k:k + 1] = [first, second]

    def _draw(self, i: int, ev: dict) -> None:
        info = self._card(i, ev)
        self._close_deal(i)
        if self.phase < PLAY:
            self.phase = PLAY
            if self._peek_due() and not self.peeked and not self.peek_flagged:
                self.peek_flagged = True
                self._flag("ILLEGAL_ACTION", f"Event {i}: the dealer played his hand without peeking at the hole "
                           f"card ({_cards.label(self.dealer.cards[0])} up).", i)
        if not self.dealer_drew:
            current = self._current()
            if current is not None:
                self._flag("DRAW_ORDER", f"Event {i}: the dealer drew before hand {current.name} was finished.", i)
        self.phase = DEALER
        self.dealer_drew = True
        dealer = self.dealer
        if self.dealer_bj:
            self._flag("DEALER_DRAW_RULE", f"Event {i}: the dealer drew although his blackjack had ended the round.",
                       i)
        elif not self._live():
            if not self.idle_draw_flagged:
                self.idle_draw_flagged = True
                self._flag("DEALER_DRAW_RULE", f"Event {i}: the dealer drew although every hand was bust or a "
                           f"blackjack; he only turns his hole card.", i)
        elif dealer.best >= 17:
            self._flag("DEALER_DRAW_RULE", f"Event {i}: the dealer drew on {dealer.words()}; he stands on all "
                       f"17s.", i)
        self._dealer_card(info)
        self.last_action = i

    def _settle(self, i: int, ev: dict) -> None:
        """pay, take or leave: what the dealer did with one wager, judged when the round is over."""
        result = ev["e"]
        stake = self._stake(i, ev)
        hand = self._hand_name(i, ev)
        wager = ev.get("wager")
        if type(wager) is not str or wager not in _WAGER_SET:
            if "wager" not in ev:
                raise doc_.missing("wager", f"$.events[{i}]", i)
            raise doc_.bad_value("wager", wager, "a blackjack wager is \"bet\", \"double\", \"insurance\" or "
                                 "\"jackpot\".", f"$.events[{i}]", i)
        amount = doc_.event_amount(ev, i, required=result == PAY)
        self.settled.append(Settled(i, stake.id, hand, wager, result, amount))

    # --- the end of the round -------------------------------------------------------------------

    def finish(self) -> Outcome:
        self._close_deal(None)
        if self._peek_due() and not self.peeked and not self.peek_flagged:
            self.peek_flagged = True
            self._flag("ILLEGAL_ACTION", f"The dealer never peeked at his hole card "
                       f"({_cards.label(self.dealer.cards[0])} up).", None)
        if not self.dealer_bj and self._live() and self.dealer.best < 17:
            self._flag("DEALER_DRAW_RULE", f"The dealer stood on {self.dealer.words()}; he draws to 17.",
                       self._stop_event())
        owed = self._owed()
        invalid = self.dealer.invalid or any(h.invalid for h in self.hands.values())
        if invalid:
            wagers = None
        else:
            wagers = sorted(owed.values(), key=_wager_key)
            if self.settled:
                compare_settlements(owed, self.settled, self.findings, who=self._who,
                                    wager_label=WAGER_LABEL.__getitem__)
        return Outcome(NAME, wagers, loop.sort_findings(self.findings), self.shoe_cards, self.rules,
                       settled=self.settled)

    def _stop_event(self) -> int | None:
        """The first settlement after the last play or draw: where the dealer stopped."""
        after = self.last_action
        for s in self.settled:
            if s.event > after:
                return s.event
        return None

    def _owed(self) -> dict[tuple, Owed]:
        """What every wager is owed, from the cards as they lie (hands still open count as stood)."""
        owed: dict[tuple, Owed] = {}
        dealer = self.dealer
        dealer_bj = self.dealer_bj
        d_best = dealer.best
        d_bust = dealer.hard > 21
        if dealer_bj:
            d_words = "the dealer has blackjack"
        elif d_bust:
            d_words = f"the dealer busts with {dealer.hard}"
        else:
            d_words = f"the dealer has {d_best}"
        leaves: dict[Stake, list[Hand]] = {}
        for hand in self.play:
            leaves.setdefault(hand.stake, []).append(hand)
        jackpot_pays = self.rules["jackpot_amount"]
        for number in self.order:
            stake = self.by_box[number]
            sid = stake.id
            root = stake.hand
            root_name = root.name
            if stake.even_money is not None:
                owed[(sid, root_name, "bet")] = Owed(sid, root_name, "bet", PAY, stake.bet, stake.bet, "even_money",
                                                     "even money: the blackjack's bet is paid 1:1 at once",
                                                     stake.even_money)
            else:
                for hand in leaves[stake]:
                    self._owe_hand(owed, hand, dealer_bj, d_bust, d_best, d_words)
            if stake.insurance is not None:
                ins = stake.insurance
                if dealer_bj:
                    owed[(sid, root_name, "insurance")] = Owed(sid, root_name, "insurance", PAY, ins * 2, ins,
                                                               why="the dealer has blackjack: insurance pays 2:1")
                else:
                    owed[(sid, root_name, "insurance")] = Owed(sid, root_name, "insurance", TAKE, ins, ins,
                                                               why="the dealer has no blackjack")
            if stake.jackpot is not None:
                first_two = frozenset(root.cards[:2])
                if len(root.cards) >= 2 and first_two == JACKPOT_CARDS:
                    owed[(sid, root_name, "jackpot")] = Owed(sid, root_name, "jackpot", PAY, jackpot_pays,
                                                             stake.jackpot, why="A♠ J♠: the jackpot is won")
                else:
                    owed[(sid, root_name, "jackpot")] = Owed(sid, root_name, "jackpot", TAKE, stake.jackpot,
                                                             stake.jackpot, why="the first two cards are not A♠ J♠")
        return owed

    @staticmethod
    def _owe_hand(owed: dict, hand: Hand, dealer_bj: bool, d_bust: bool, d_best: int, d_words: str) -> None:
        sid, name = hand.stake.id, hand.name
        bet, double = hand.bet, hand.double
        natural = hand.natural
        if dealer_bj:
            if natural:
                result, why = LEAVE, "blackjack against the dealer's blackjack: a push"
            else:
                result, why = TAKE, f"{d_words}: the round ends, only the initial bet is lost"
            owed[(sid, name, "bet")] = Owed(sid, name, "bet", result, bet, bet, why=why)
            if double is not None:
                owed[(sid, name, "double")] = Owed(sid, name, "double", LEAVE, double, double,
                                                   why=f"{d_words}: only the initial bet is lost")
            return
        p_best = hand.best
        if hand.hard > 21:
            result, why = TAKE, f"hand {name} is bust ({hand.hard})"
        elif natural:
            win = blackjack_pay(bet)
            owed[(sid, name, "bet")] = Owed(sid, name, "bet", PAY, win, bet, why="blackjack pays 3:2")
            return
        elif d_bust:
            result, why = PAY, f"{d_words}"
        elif p_best > d_best:
            result, why = PAY, f"{p_best} beats {d_best}"
        elif p_best == d_best:
            result, why = LEAVE, f"{p_best} against {d_best}: a push"
        else:
            result, why = TAKE, f"{p_best} loses to {d_best}"
        owed[(sid, name, "bet")] = Owed(sid, name, "bet", result, bet, bet, why=why)
        if double is not None:
            owed[(sid, name, "double")] = Owed(sid, name, "double", result, double, double, why=why)

    # --- what may happen next -------------------------------------------------------------------

    def moves(self) -> list[dict]:
        """The events the rules allow next, in the order a dealer would do them."""
        if self.phase == DEAL and self.deal_next < len(self.slots):
            to = self.slots[self.deal_next]
            if to == "dealer":
                if self.dealer.cards:
                    return [_move("deal", "Deal your hole card face down.", needs=["card"], to="dealer")]
                return [_move("deal", "Deal your up card face up.", needs=["card"], to="dealer")]
            n = len(self.by_box[to].hand.cards)
            return [_move("deal", f"Deal {'a' if n == 0 else 'the second'} card face up to box {to}.",
                          needs=["card"], to=to)]
        done = {(s.stake, s.hand, s.wager) for s in self.settled}
        owed = self._owed()
        unsettled = [o for key, o in owed.items() if key not in done]
        early = [o for o in unsettled if o.kind == "even_money"]
        if early:
            return [_settle_move(o) for o in early]
        dealer_bj = self.dealer_bj
        if self.phase < PLAY and not self.peeked:
            moves = []
            if self.up == 1:
                for number in self.order:
                    stake = self.by_box[number]
                    if stake.even_money is not None or stake.insurance is not None:
                        continue
                    if stake.hand.natural:
                        moves.append(_move("even_money", f"Box {number} holds blackjack: it may take even money "
                                           f"({fmt(stake.bet)} now).", stake=stake.id))
                    else:
                        most = (stake.bet / 2).quantize(CENT, rounding=ROUND_DOWN)
                        moves.append(_move("insurance", f"Box {number} may insure up to {fmt(most)}.",
                                           needs=["amount"], stake=stake.id, max=fmt(most)))
            if self._peek_due():
                moves.append(_move("peek", "Check your hole card for blackjack."))
                return moves
        if dealer_bj:
            return [_settle_move(o) for o in _settle_order(unsettled)]
        insurance = [o for o in unsettled if o.wager == "insurance"]
        if insurance:
            return [_settle_move(o) for o in insurance]
        if not self.dealer_drew:
            hand = self._current()
            if hand is not None:
                return self._hand_moves(hand)
        if self._live() and self.dealer.best < 17:
            return [_move("draw", f"The dealer has {self.dealer.words()}: he must draw.", needs=["card"])]
        return [_settle_move(o) for o in _settle_order(unsettled)]

    def _hand_moves(self, hand: Hand) -> list[dict]:
        name = hand.name
        if len(hand.cards) < 2:
            return [_move("hit", f"Deal hand {name} its second card.", needs=["card"], hand=name)]
        say = f"Hand {name} ({hand.words()})"
        moves = [_move("hit", f"{say} may hit.", needs=["card"], hand=name),
                 _move("stand", f"{say} may stand.", hand=name)]
        rules = self.rules
        split = _move("split", f"{say} may split (a second bet of {fmt(hand.bet)}).", hand=name)
        if self._ace_limit(hand):  # a split ace dealt another ace, where aces resplit
            return [split, moves[1]]
        if len(hand.cards) == 2:
            if not hand.is_split or rules["double_after_split"]:
                moves.append(_move("double", f"{say} may double for {fmt(hand.bet)}.", needs=["card"], hand=name,
                                   amount=fmt(hand.bet)))
            a, b = _CARD.get(hand.cards[0]), _CARD.get(hand.cards[1])
            if a is not None and b is not None and a[1] == b[1] and self._hands_of(hand) < self.max_hands and \
                    not (hand.split_aces and not rules["resplit_aces"]):
                moves.append(split)
        return moves


def _settle_order(owed: list[Owed]) -> list[Owed]:
    return sorted(owed, key=_wager_key)


def _settle_move(o: Owed) -> dict:
    label = WAGER_LABEL[o.wager]
    who = f"stake {o.stake}, hand {o.hand}"
    if o.result == PAY:
        return _move(PAY, f"Pay {who} its {label}: {fmt(o.amount)}.", stake=o.stake, hand=o.hand, wager=o.wager,
                     amount=fmt(o.amount))
    if o.result == TAKE:
        return _move(TAKE, f"Take {who}'s {label} ({fmt(o.size)}).", stake=o.stake, hand=o.hand, wager=o.wager,
                     amount=fmt(o.size))
    return _move(LEAVE, f"Leave {who}'s {label} ({fmt(o.size)}: a push, returned).", stake=o.stake, hand=o.hand,
                 wager=o.wager, amount=fmt(o.size))


def _target(to) -> str:
    """Whom a deal event dealt to, in words (built only for a finding's message)."""
    return "the dealer" if to == "dealer" else f"box {to}"


def _well_formed(name: str) -> bool:
    parts = name.split(".")
    head = parts[0]
    if not head or len(head) > 3 or not all("0" <= c <= "9" for c in head) or head[0] == "0":
        return False
    return len(parts) <= 12 and all(p in ("1", "2") for p in parts[1:])


def _wager_key(o: Owed):
    return (o.stake, o.hand or "", o.wager)


_GOOD_NAMES: Final[set[str]] = set()
_STAKE_FIELDS: Final = frozenset({"id", "box", "player", "bet", "jackpot", "owner"})
_WAGER_SET: Final = frozenset(WAGERS)
_SETTLE_FIELDS: Final = frozenset({"e", "stake", "hand", "wager", "amount"})
# event name -> (handler, the fields it may carry)
_HANDLERS: Final[Handlers] = {
    "deal": (Replay._deal, frozenset({"e", "to", "card"})),
    "insurance": (Replay._insurance, frozenset({"e", "stake", "amount"})),
    "even_money": (Replay._even_money, frozenset({"e", "stake"})),
    "peek": (Replay._peek, frozenset({"e"})),
    "hit": (Replay._hit, frozenset({"e", "hand", "card"})),
    "stand": (Replay._stand, frozenset({"e", "hand"})),
    "double": (Replay._double, frozenset({"e", "hand", "card", "amount"})),
    "split": (Replay._split, frozenset({"e", "hand"})),
    "draw": (Replay._draw, frozenset({"e", "card"})),
    PAY: (Replay._settle, _SETTLE_FIELDS),
    TAKE: (Replay._settle, _SETTLE_FIELDS),
    LEAVE: (Replay._settle, _SETTLE_FIELDS),
}


# --- the shoe ---------------------------------------------------------------------------------

def shoe_findings(shoe) -> list[Finding]:
    """RESHUFFLE_POINT and CARD_COUNT over a shoe (rules/blackjack.md, Presets).

    Salon ("cut"): a shoe of `decks` × 52 cards; a new shoe is due when fewer than `cut_remaining`
    cards remain before a deal — a round dealt below that point, or a shuffle above it, is a finding.
    Online ("every_round"): every round comes from a freshly shuffled shoe — a round dealt from a
    shoe that already gave cards is a finding.
    """
    from .shoe import count_cards

    rules = shoe.rules
    decks = rules["decks"]
    full = decks * 52
    cut = rules["cut_remaining"]
    every_round = rules["reshuffle"] == EVERY_ROUND
    findings: list[Finding] = []
    used = 0
    for item in shoe.items:
        if item.e == "shuffle":
            if not every_round and used and full - used >= cut:
                findings.append(Finding("RESHUFFLE_POINT", f"Shoe item {item.index}: a new shoe with {full - used} "
                                        f"cards still left; the shoe is played down to the cut ({cut} cards).",
                                        event=item.index))
            used = 0
            continue
        if item.e == "round":
            if every_round:
                if used:
                    findings.append(Finding("RESHUFFLE_POINT", f"Shoe item {item.index}: a round dealt without "
                                            f"shuffling first ({used} card(s) already out); this table shuffles "
                                            f"before every round.", event=item.index))
            elif full - used < cut:
                findings.append(Finding("RESHUFFLE_POINT", f"Shoe item {item.index}: a round dealt with "
                                        f"{full - used} cards left; a new shoe is due below {cut}.", event=item.index))
        used += len(item.cards)
    count_cards(shoe.items, decks, PACK, findings)
    return loop.sort_findings(findings)
