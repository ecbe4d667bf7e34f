"""The end of a blackjack round — what every hand's wagers were owed against the dealer's, the
settlements judged — and the events the rules allow next.
"""

from decimal import ROUND_DOWN

from .. import cards as _cards
from .. import loop
from ..base import LEAVE, PAY, TAKE, Outcome, Owed, compare_settlements
from ..loop import move as _move
from ..money import fmt
from ..sentences import say, total
from .events import Play
from .rules import CARD, CENT, DEAL, JACKPOT_CARDS, NAME, PLAY, WAGER_LABEL, Hand, Stake, blackjack_pay
from .sentences import BLACKJACK, value


class Replay(Play):
    """The state of one round as its events are applied in order, what it owes at its end, and
    what may happen next."""

    # --- the end of the round -------------------------------------------------------------------

    def finish(self) -> Outcome:
        self._close_deal(None)
        if self._peek_due() and not self.peeked and not self.peek_flagged:
            self.peek_flagged = True
            self._say("ILLEGAL_ACTION", {"rule": "never_peeked", "card": _cards.label(self.dealer.cards[0])}, None)
        if not self.dealer_bj and self._live() and self.dealer.best < 17:
            self._say("DEALER_DRAW_RULE", {"rule": "stood_under_17", "value": value(self.dealer)}, self._stop_event())
        owed = self._owed()
        invalid = self.dealer.invalid or any(h.invalid for h in self.hands.values())
        if invalid:
            wagers = None
        else:
            wagers = sorted(owed.values(), key=_wager_key)
            if self.settled:
                compare_settlements(owed, self.settled, self.findings, who=self._who_params, game=NAME)
        return Outcome(
            NAME, wagers, loop.sort_findings(self.findings), self.shoe_cards, self.rules, settled=self.settled
        )

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
            d_words = say("dealer_has", value=BLACKJACK)
        elif d_bust:
            d_words = say("dealer_busts", n=dealer.hard)
        else:
            d_words = say("dealer_has", value=total(d_best))
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
                owed[(sid, root_name, "bet")] = Owed(
                    sid,
                    root_name,
                    "bet",
                    PAY,
                    stake.bet,
                    stake.bet,
                    "even_money",
                    say("even_money_paid"),
                    stake.even_money,
                )
            else:
                for hand in leaves[stake]:
                    self._owe_hand(owed, hand, dealer_bj, d_bust, d_best, d_words)
            if stake.insurance is not None:
                ins = stake.insurance
                if dealer_bj:
                    owed[(sid, root_name, "insurance")] = Owed(
                        sid, root_name, "insurance", PAY, ins * 2, ins, why=say("insurance_wins")
                    )
                else:
                    owed[(sid, root_name, "insurance")] = Owed(
                        sid, root_name, "insurance", TAKE, ins, ins, why=say("dealer_no_blackjack")
                    )
            if stake.jackpot is not None:
                first_two = frozenset(root.cards[:2])
                if len(root.cards) >= 2 and first_two == JACKPOT_CARDS:
                    owed[(sid, root_name, "jackpot")] = Owed(
                        sid, root_name, "jackpot", PAY, jackpot_pays, stake.jackpot, why=say("jackpot_won")
                    )
                else:
                    owed[(sid, root_name, "jackpot")] = Owed(
                        sid, root_name, "jackpot", TAKE, stake.jackpot, stake.jackpot, why=say("jackpot_lost")
                    )
        return owed

    @staticmethod
    def _owe_hand(owed: dict, hand: Hand, dealer_bj: bool, d_bust: bool, d_best: int, d_words: dict) -> None:
        sid, name = hand.stake.id, hand.name
        bet, double = hand.bet, hand.double
        natural = hand.natural
        if dealer_bj:
            if natural:
                result, why = LEAVE, say("blackjack_push")
            else:
                result, why = TAKE, say("round_ends", dealer=d_words)
            owed[(sid, name, "bet")] = Owed(sid, name, "bet", result, bet, bet, why=why)
            if double is not None:
                owed[(sid, name, "double")] = Owed(
                    sid, name, "double", LEAVE, double, double, why=say("initial_bet_only", dealer=d_words)
                )
            return
        p_best = hand.best
        if hand.hard > 21:
            result, why = TAKE, say("hand_bust", hand=name, n=hand.hard)
        elif natural:
            win = blackjack_pay(bet)
            owed[(sid, name, "bet")] = Owed(sid, name, "bet", PAY, win, bet, why=say("blackjack_pays"))
            return
        elif d_bust:
            result, why = PAY, d_words
        elif p_best > d_best:
            result, why = PAY, say("beats", value=total(p_best), dealer_value=total(d_best))
        elif p_best == d_best:
            result, why = LEAVE, say("push", value=total(p_best), dealer_value=total(d_best))
        else:
            result, why = TAKE, say("loses_to", value=total(p_best), dealer_value=total(d_best))
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
            return [
                _move(
                    "deal", f"Deal {'a' if n == 0 else 'the second'} card face up to box {to}.", needs=["card"], to=to
                )
            ]
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
                        moves.append(
                            _move(
                                "even_money",
                                f"Box {number} holds blackjack: it may take even money ({fmt(stake.bet)} now).",
                                stake=stake.id,
                            )
                        )
                    else:
                        most = (stake.bet / 2).quantize(CENT, rounding=ROUND_DOWN)
                        moves.append(
                            _move(
                                "insurance",
                                f"Box {number} may insure up to {fmt(most)}.",
                                needs=["amount"],
                                stake=stake.id,
                                max=fmt(most),
                            )
                        )
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
        moves = [
            _move("hit", f"{say} may hit.", needs=["card"], hand=name),
            _move("stand", f"{say} may stand.", hand=name),
        ]
        rules = self.rules
        split = _move("split", f"{say} may split (a second bet of {fmt(hand.bet)}).", hand=name)
        if self._ace_limit(hand):  # a split ace dealt another ace, where aces resplit
            return [split, moves[1]]
        if len(hand.cards) == 2:
            if not hand.is_split or rules["double_after_split"]:
                moves.append(
                    _move(
                        "double",
                        f"{say} may double for {fmt(hand.bet)}.",
                        needs=["card"],
                        hand=name,
                        amount=fmt(hand.bet),
                    )
                )
            a, b = CARD.get(hand.cards[0]), CARD.get(hand.cards[1])
            if (
                a is not None
                and b is not None
                and a[1] == b[1]
                and self._hands_of(hand) < self.max_hands
                and not (hand.split_aces and not rules["resplit_aces"])
            ):
                moves.append(split)
        return moves


def _settle_order(owed: list[Owed]) -> list[Owed]:
    return sorted(owed, key=_wager_key)


def _settle_move(o: Owed) -> dict:
    label = WAGER_LABEL[o.wager]
    who = f"stake {o.stake}, hand {o.hand}"
    if o.result == PAY:
        return _move(
            PAY,
            f"Pay {who} its {label}: {fmt(o.amount)}.",
            stake=o.stake,
            hand=o.hand,
            wager=o.wager,
            amount=fmt(o.amount),
        )
    if o.result == TAKE:
        return _move(
            TAKE,
            f"Take {who}'s {label} ({fmt(o.size)}).",
            stake=o.stake,
            hand=o.hand,
            wager=o.wager,
            amount=fmt(o.size),
        )
    return _move(
        LEAVE,
        f"Leave {who}'s {label} ({fmt(o.size)}: a push, returned).",
        stake=o.stake,
        hand=o.hand,
        wager=o.wager,
        amount=fmt(o.size),
    )


def _wager_key(o: Owed):
    return (o.stake, o.hand or "", o.wager)
