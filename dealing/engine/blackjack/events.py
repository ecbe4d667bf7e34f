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
from ..sentences import say
from .rules import CARD, DEAL, DEALER, DONE, EVEN, OFFERS, PLAY, WAGERS, Hand, Stake
from .sentences import to, value
from .table import Table


class Play(Table):
    """The events of a blackjack round, each validated and judged as it is applied."""

    def __init__(self, doc):
        super().__init__(doc, _HANDLERS)

    def _deal(self, i: int, ev: dict) -> None:
        to = deal_target(i, ev, "dealer", 'a box number or "dealer"')
        info = self._card(i, ev)
        if to != "dealer" and to not in self.by_box:
            self._say("DEAL_ORDER", {"rule": "no_stake", "event": i, "box": to}, i)
            return
        if self.phase != DEAL:
            self._say("DEAL_ORDER", {"rule": "after_deal", "event": i, "to": _target(to)}, i)
        else:
            slots, filled = self.slots, self.filled
            first = self.deal_next
            slot: int | None
            if first < len(slots) and slots[first] == to:
                slot = first
            else:
                slot = next((k for k in range(first, len(slots)) if not filled[k] and slots[k] == to), None)
            if slot is None:
                self._say("DEAL_ORDER", {"rule": "third_card", "event": i, "to": _target(to)}, i)
            else:
                filled[slot] = True
                if slot != first:
                    self._say(
                        "DEAL_ORDER",
                        {"rule": "deal_out_of_turn", "event": i, "to": _target(to), "last": self.order[-1]},
                        i,
                    )
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
            self._say("DEAL_ORDER", {"rule": "incomplete", "missing": [_target(t) for t in missing]}, i)

    def _offer(self, i: int, stake: Stake, what: str) -> dict | None:
        """Why an insurance / even-money decision is out of place (a phrase), or None when it is offered."""
        self._close_deal(i)
        if self.up != 1:
            return say("offer_no_ace", offer=what)
        if self.peeked or self.phase >= PLAY:
            return say("offer_closed", offer=what)
        if stake.even_money is not None or stake.insurance is not None:
            return say("offer_decided", stake=stake.id)
        return None

    def _insurance(self, i: int, ev: dict) -> None:
        stake = self._stake(i, ev)
        amount = doc_.event_amount(ev, i)
        why = self._offer(i, stake, "insurance")
        if why is None and stake.hand.natural:
            why = say("offer_blackjack")
        if why is not None:
            self._say(
                "ILLEGAL_ACTION",
                {"rule": "void_insurance", "event": i, "box": stake.box, "amount": fmt(amount), "why": why},
                i,
                stake=stake.id,
                wager="insurance",
            )
            return
        stake.insurance = amount
        stake.insured_at = i
        if amount * 2 > stake.bet:
            self._say(
                "INSURANCE_AMOUNT",
                {"rule": "over_half", "event": i, "box": stake.box, "amount": fmt(amount), "bet": fmt(stake.bet)},
                i,
                stake=stake.id,
                wager="insurance",
            )

    def _even_money(self, i: int, ev: dict) -> None:
        stake = self._stake(i, ev)
        why = self._offer(i, stake, "even_money")
        hand = stake.hand
        if why is None and not hand.natural:
            why = say("offer_not_blackjack", value=value(hand))
        if why is not None:
            self._say(
                "ILLEGAL_ACTION",
                {"rule": "void_even_money", "event": i, "box": stake.box, "why": why},
                i,
                stake=stake.id,
                wager="bet",
            )
            return
        stake.even_money = i
        hand.state = EVEN

    def _peek(self, i: int, ev: dict) -> None:
        self._close_deal(i)
        if not self._peek_due():
            self._say(
                "ILLEGAL_ACTION",
                {"rule": "peek_up_card", "event": i, "card": _cards.label(self.dealer.cards[0])}
                if self.dealer.cards
                else {"rule": "peek_no_card", "event": i},
                i,
            )
        elif self.peeked:
            self._say("ILLEGAL_ACTION", {"rule": "peek_twice", "event": i}, i)
        elif self.phase >= PLAY and not self.peek_flagged:
            self.peek_flagged = True
            self._say("ILLEGAL_ACTION", {"rule": "peek_late", "event": i}, i)
        self.peeked = True

    def _begin_play(self, i: int, hand: str, play: str) -> bool:
        """Start of play (the offers close). False when the dealer's blackjack had already ended the round."""
        self._close_deal(i)
        if self.phase < PLAY:
            self.phase = PLAY
            if self._peek_due() and not self.peeked and not self.peek_flagged:
                self.peek_flagged = True
                self._say(
                    "ILLEGAL_ACTION",
                    {
                        "rule": "before_peek",
                        "event": i,
                        "hand": hand,
                        "play": play,
                        "card": _cards.label(self.dealer.cards[0]),
                    },
                    i,
                )
        if self.dealer_bj:
            self._say("ILLEGAL_ACTION", {"rule": "after_dealer_blackjack", "event": i, "hand": hand, "play": play}, i)
            return False
        return True

    def _turn(self, i: int, hand: Hand, what: str) -> bool:
        """Check a play (hit, stand, double, split) on `hand` comes in turn. False when the hand is not a
        hand any more (it was split)."""
        if not self._begin_play(i, hand.name, what):
            return False
        stake_id = hand.stake.id if hand.stake else None
        if hand.state == SPLIT:
            self._say(
                "ILLEGAL_ACTION",
                {"rule": "was_split", "event": i, "hand": hand.name, "play": what},
                i,
                stake=stake_id,
                hand=hand.name,
            )
            return False
        if self.dealer_drew:
            self._say(
                "DRAW_ORDER",
                {"rule": "after_dealer_drew", "event": i, "hand": hand.name},
                i,
                stake=stake_id,
                hand=hand.name,
            )
        elif hand.state == PLAYING:
            current = self._current()  # never None: this hand is still playing
            if current is not None and current is not hand:
                self._say(
                    "DRAW_ORDER",
                    {"rule": "hand_early", "event": i, "hand": hand.name, "current": current.name},
                    i,
                    stake=stake_id,
                    hand=hand.name,
                )
        hand.acted = True
        self.last_action = i
        return True

    def _hit(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        info = self._card(i, ev)
        if not self._turn(i, hand, "hit"):
            return
        why = self._finished_words(hand)
        if why is None and self._ace_limit(hand):
            why = _SPLIT_ACE
        if why is not None:
            self._say(
                "ILLEGAL_ACTION",
                {"rule": "cannot_hit", "event": i, "hand": hand.name, "why": why},
                i,
                stake=hand.stake.id,
                hand=hand.name,
            )
        hand.add(info)
        self._after_card(hand)

    def _stand(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        if not self._turn(i, hand, "stand"):
            return
        state = hand.state
        if state == PLAYING:
            if len(hand.cards) < 2:
                self._say(
                    "ILLEGAL_ACTION",
                    {"rule": "stood_one_card", "event": i, "hand": hand.name},
                    i,
                    stake=hand.stake.id,
                    hand=hand.name,
                )
            hand.state = STOOD
        elif state == DONE and hand.hard <= 21 and not self._later_acted(hand):
            hand.state = STOOD  # a stand on a finished 21, double or split ace says nothing new
        else:
            self._say(
                "ILLEGAL_ACTION",
                {"rule": "cannot_stand", "event": i, "hand": hand.name, "why": self._finished_words(hand)},
                i,
                stake=hand.stake.id,
                hand=hand.name,
            )

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
            why = _SPLIT_ACE
        if why is None:
            if len(hand.cards) != 2:
                why = say("double_two_cards", n=len(hand.cards))
            elif hand.is_split and not rules["double_after_split"]:
                why = say("no_double_after_split")
            elif amount != hand.bet:
                why = say("double_amount", amount=fmt(amount), bet=fmt(hand.bet))
        if why is not None:
            self._say(
                "ILLEGAL_ACTION",
                {"rule": "bad_double", "event": i, "hand": hand.name, "why": why},
                i,
                stake=hand.stake.id,
                hand=hand.name,
                wager="double",
            )
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
            self._say(
                "ILLEGAL_ACTION",
                {"rule": "split_not_pair", "event": i, "hand": hand.name, "n": len(cards)},
                i,
                stake=stake_id,
                hand=hand.name,
            )
            return
        a, b = CARD.get(cards[0]), CARD.get(cards[1])
        aces = a is not None and b is not None and a[2] and b[2]
        hands_now = self._hands_of(hand)
        why: dict | None = None
        if aces and hand.split_aces and not rules["resplit_aces"]:
            why = say("resplit_aces")
        elif hand.state != PLAYING:
            why = self._finished_words(hand)
        elif a is None or b is None or a[1] != b[1]:
            why = say("unequal_pair", card=_cards.label(cards[0]), card2=_cards.label(cards[1]))
        elif hands_now + 1 > self.max_hands:
            why = say("too_many_hands", n=hands_now + 1, box=hand.stake.box, most=self.max_hands)
        if why is not None:
            self._say(
                "ILLEGAL_ACTION",
                {"rule": "bad_split", "event": i, "hand": hand.name, "why": why},
                i,
                stake=stake_id,
                hand=hand.name,
            )
        first = Hand(hand.name + ".1", hand.stake, hand.bet, True)
        second = Hand(hand.name + ".2", hand.stake, hand.bet, True)
        for child, code in ((first, cards[0]), (second, cards[1])):
            child.add(CARD.get(code) or (code, *loop.NO_CARD_INFO))
            child.split_aces = aces
            self.hands[child.name] = child
        hand.state = SPLIT
        k = self.play.index(hand)
        self.play[k : k + 1] = [first, second]

    def _draw(self, i: int, ev: dict) -> None:
        info = self._card(i, ev)
        self._close_deal(i)
        if self.phase < PLAY:
            self.phase = PLAY
            if self._peek_due() and not self.peeked and not self.peek_flagged:
                self.peek_flagged = True
                self._say(
                    "ILLEGAL_ACTION",
                    {"rule": "no_peek_draw", "event": i, "card": _cards.label(self.dealer.cards[0])},
                    i,
                )
        if not self.dealer_drew:
            current = self._current()
            if current is not None:
                self._say("DRAW_ORDER", {"rule": "dealer_before_hand", "event": i, "hand": current.name}, i)
        self.phase = DEALER
        self.dealer_drew = True
        dealer = self.dealer
        if self.dealer_bj:
            self._say("DEALER_DRAW_RULE", {"rule": "after_blackjack", "event": i}, i)
        elif not self._live():
            if not self.idle_draw_flagged:
                self.idle_draw_flagged = True
                self._say("DEALER_DRAW_RULE", {"rule": "nothing_live", "event": i}, i)
        elif dealer.best >= 17:
            self._say("DEALER_DRAW_RULE", {"rule": "drew_on_17", "event": i, "value": value(dealer)}, i)
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
            raise doc_.bad_value(
                "wager", wager, 'a blackjack wager is "bet", "double", "insurance" or "jackpot".', f"$.events[{i}]", i
            )
        amount = doc_.event_amount(ev, i, required=result == PAY)
        self.settled.append(Settled(i, stake.id, hand, wager, result, amount))


_target: Final = to
_SPLIT_ACE: Final = say("split_ace_one_card")

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
