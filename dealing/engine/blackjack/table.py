"""A blackjack round's header and state: what the events of events.py read and change, with the
readers and the facts of a hand they share (whose turn it is, why a hand can take no more cards).
"""

from typing import Final

from .. import cards as _cards
from .. import document as doc_
from .. import loop
from ..errors import RoundError
from ..loop import PLAYING, STOOD, Handlers, Round, first_in, lookup, stake_of
from ..money import fmt
from ..sentences import say
from .rules import CARD, DEAL, DONE, EVEN, MAX_TABLE_BOXES, NAME, SUITED, Hand, Stake, house_rules
from .sentences import value


class Table(Round):
    """A round's header (the table, the house rules, one stake a box) and the state its events
    change, with the readers and helpers they share (the events themselves: events.Play)."""

    GAME = NAME
    PACK_PHRASE = "pack_52"
    CARD_EXAMPLE = "TS"
    SUIT_WORDS = "at a blackjack table with the A♠ J♠ jackpot"

    def __init__(self, doc, handlers: Handlers):
        super().__init__(handlers, CARD)
        doc = doc_.header(doc, NAME)
        table = doc_.expect_object(doc["table"] if "table" in doc else loop.missing("table"), "$.table")
        self.min = doc_.amount(table, "min", "$.table")
        self.max = doc_.amount(table, "max", "$.table")
        if self.min > self.max:
            raise RoundError(
                "bad_value", f"The table minimum {fmt(self.min)} is above its maximum {fmt(self.max)}.", path="$.table"
            )
        self.rules = rules = house_rules(doc.get("rules"))
        if rules["jackpot"]:  # the A♠ J♠ jackpot: every card needs its suit
            self.card_table = SUITED
        n_boxes = doc_.integer(table, "boxes", "$.table", required=False)
        if n_boxes is not None and not 1 <= n_boxes <= MAX_TABLE_BOXES:
            raise doc_.bad_value("boxes", n_boxes, f"at a blackjack table has 1 to {MAX_TABLE_BOXES} boxes.", "$.table")
        self.n_boxes = rules["boxes"] if n_boxes is None else n_boxes
        self.copies = rules["decks"]  # packs in the shoe
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
            raise RoundError("no_stakes", "The round has no stakes: at least one box must be played.", path="$.stakes")
        rules = self.rules
        for k, item in enumerate(raw):
            path = f"$.stakes[{k}]"
            doc_.expect_object(item, path)
            doc_.unknown_fields(item, _STAKE_FIELDS, path)
            sid = doc_.text(item, "id", path)
            if sid in self.stakes:
                raise RoundError("duplicate_stake", f'Two stakes have the id "{sid}".', path=f"{path}.id")
            box = doc_.integer(item, "box", path)
            if box < 1:
                raise doc_.bad_value("box", box, "boxes are numbered from 1.", path)
            if box in self.by_box:
                raise RoundError(
                    "duplicate_box",
                    f'Box {box} has two stakes ("{self.by_box[box].id}" and "{sid}"); a blackjack box has one player.',
                    path=f"{path}.box",
                )
            player = doc_.text(item, "player", path, required=False)
            bet = doc_.amount(item, "bet", path)
            jackpot = doc_.amount(item, "jackpot", path, required=False)
            doc_.boolean(item, "owner", path, required=False)
            if jackpot is not None and not rules["jackpot"]:
                raise RoundError(
                    "no_jackpot",
                    f'Stake "{sid}" has a jackpot bet, but this table offers no jackpot '
                    f'side bet (house rule "jackpot" is false).',
                    path=f"{path}.jackpot",
                )
            stake = Stake(sid, box, player, bet, jackpot)
            self.stakes[sid] = stake
            self.by_box[box] = stake
            if box > self.n_boxes:
                self._say("BOX_PLAYERS", {"rule": "no_box", "box": box, "boxes": self.n_boxes}, None, stake=sid)
            if bet < self.min or bet > self.max:
                self._say(
                    "BET_LIMITS",
                    {
                        "rule": "table_limits",
                        "box": box,
                        "stake": sid,
                        "bet": fmt(bet),
                        "low": fmt(self.min),
                        "high": fmt(self.max),
                    },
                    None,
                    stake=sid,
                    wager="bet",
                )
            if jackpot is not None and jackpot != rules["jackpot_bet"]:
                self._say(
                    "BET_LIMITS",
                    {
                        "rule": "jackpot_bet",
                        "box": box,
                        "stake": sid,
                        "jackpot": fmt(jackpot),
                        "due": fmt(rules["jackpot_bet"]),
                    },
                    None,
                    stake=sid,
                    wager="jackpot",
                )

    # --- helpers ----------------------------------------------------------------------------

    def _who(self, stake_id: str, hand=None) -> str:
        stake = self.stakes.get(stake_id)
        head = f"Box {stake.box}, stake {stake_id}" if stake else f"Stake {stake_id}"
        return f"{head}, hand {hand}" if hand is not None and stake is not None and hand != str(stake.box) else head

    def _who_params(self, stake_id: str, hand=None) -> dict:
        """A stake (or a hand of it) in a finding's params (sentences.py: who, box, stake, hand)."""
        stake = self.stakes.get(stake_id)
        if stake is None:
            return {"who": "stake", "stake": stake_id}
        if hand is not None and hand != str(stake.box):
            return {"who": "box_hand", "box": stake.box, "stake": stake_id, "hand": hand}
        return {"who": "box", "box": stake.box, "stake": stake_id}

    def _stake(self, i: int, ev: dict) -> Stake:
        return stake_of(self.stakes, i, ev)

    def _hand_name(self, i: int, ev: dict) -> str:
        name = ev.get("hand")
        if type(name) is not str:
            if "hand" not in ev:
                raise doc_.missing("hand", f"$.events[{i}]", i)
            raise doc_.wrong_type("hand", name, 'a hand name such as "2" or "2.1"', f"$.events[{i}]", i)
        if name in _GOOD_NAMES:
            return name
        if not _well_formed(name):
            raise doc_.bad_value(
                "hand",
                name,
                'a hand is named by its box number, and a split hand H by H.1 and H.2 ("2", "2.1", "2.1.2").',
                f"$.events[{i}]",
                i,
            )
        if len(_GOOD_NAMES) < 10_000:
            _GOOD_NAMES.add(name)
        return name

    def _hand(self, i: int, ev: dict) -> Hand:
        hand = self.hands.get(self._hand_name(i, ev))  # a name well formed, or the precise error
        if hand is None:
            hand = lookup(self.hands, i, ev, "hand", "a hand name", "in play (hands: ")
        return hand

    def _too_many(self, i: int, code: str, n: int) -> None:
        self._say(
            "CARD_COUNT", {"rule": "shoe_of", "event": i, "card": _cards.label(code), "n": n, "decks": self.copies}, i
        )

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

    def _finished_words(self, hand: Hand) -> dict | None:
        """Why a hand can take no more cards (a phrase), or None."""
        state = hand.state
        if state == PLAYING:
            return None
        if state == EVEN:
            return say("took_even_money")
        if state == STOOD:
            return say("stood_on", value=value(hand))
        if hand.hard > 21:
            return say("is_bust", n=hand.hard)
        if hand.natural:
            return say("is_blackjack")
        if hand.double is not None:
            return say("was_doubled")
        if hand.split_aces and len(hand.cards) >= 2 and not self.rules["hit_split_aces"]:
            return say("split_ace_one_card")
        return say("has_total", n=hand.best)

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
        return (
            len(cards) == 2
            and self.rules["resplit_aces"]
            and cards[0][0] == "A"
            and cards[1][0] == "A"
            and self._hands_of(hand) < self.max_hands
        )

    def _hands_of(self, hand: Hand) -> int:
        stake = hand.stake
        return sum(1 for h in self.play if h.stake is stake)

    def _later_acted(self, hand: Hand) -> bool:
        play = self.play
        k = play.index(hand)
        return any(h.acted for h in play[k + 1 :])


def _well_formed(name: str) -> bool:
    parts = name.split(".")
    head = parts[0]
    if not head or len(head) > 3 or not all("0" <= c <= "9" for c in head) or head[0] == "0":
        return False
    return len(parts) <= 12 and all(p in ("1", "2") for p in parts[1:])


_GOOD_NAMES: Final[set[str]] = set()
_STAKE_FIELDS: Final = frozenset({"id", "box", "player", "bet", "jackpot", "owner"})
