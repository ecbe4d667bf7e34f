"""The events of a blackjack round — the deal, insurance and even money, the peek, the players'
plays, the dealer's draw, the settlements — each validated as it is applied (rules/blackjack.md).
The round's header and state, and the helpers the events share, are table.py's.
"""

from typing import Final

from .. import cards as _cards
from .. import document as doc_
from .. import loop
from ..base import LEAVE, PAY, TAKE, Settled
from ..loop import PLAYING, SPLIT, STOOD, Handlers, deal_target
from ..money import fmt
from .rules import CARD, DEAL, DEALER, DONE, EVEN, OFFERS, PLAY, WAGERS, Hand, Stake
from .table import Table


class Play(Table):
    """The events of a blackjack round, each validated and judged as it is applied."""

    def __init__(self, doc):
        super().__init__(doc, _HANDLERS)

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
        a, b = CARD.get(cards[0]), CARD.get(cards[1])
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
            child.add(CARD.get(code) or (code, *loop.NO_CARD_INFO))
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


def _target(to) -> str:
    """Whom a deal event dealt to, in words (built only for a finding's message)."""
    return "the dealer" if to == "dealer" else f"box {to}"

_WAGER_SET: Final = frozenset(WAGERS)
_SETTLE_FIELDS: Final = frozenset({"e", "stake", "hand", "wager", "amount"})
# event name -> (handler, the fields it may carry)
_HANDLERS: Final[Handlers] = {
    "deal": (Play._deal, frozenset({"e", "to", "card"})),
    "insurance": (Play._insurance, frozenset({"e", "stake", "amount"})),
    "even_money": (Play._even_money, frozenset({"e", "stake"})),
    "peek": (Play._peek, frozenset({"e"})),
    "hit": (Play._hit, frozenset({"e", "hand", "card"})),
    "stand": (Play._stand, frozenset({"e", "hand"})),
    "double": (Play._double, frozenset({"e", "hand", "card", "amount"})),
    "split": (Play._split, frozenset({"e", "hand"})),
    "draw": (Play._draw, frozenset({"e", "card"})),
    PAY: (Play._settle, _SETTLE_FIELDS),
    TAKE: (Play._settle, _SETTLE_FIELDS),
    LEAVE: (Play._settle, _SETTLE_FIELDS),
}
