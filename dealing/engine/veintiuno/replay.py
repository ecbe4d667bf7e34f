"""The end of a veintiuno round — what every hand was owed against the bank, who holds the bank
next, the settlements judged — and the events the rules allow next.
"""

from decimal import Decimal
from typing import Final

from .. import loop
from ..base import LEAVE, PAY, TAKE, Outcome, Owed, compare_settlements
from ..loop import PLAYING
from ..loop import move as _move
from ..money import fmt
from ..sentences import finding, say, total
from .events import Play
from .rules import BUST, DECLARED, KIND_VALUE, MONONA, NAME, NATURAL, SUITED_TWELVE, TAPO, WITHDRAWN, Hand
from .sentences import KIND_PHRASE, SPECIAL, to
from .sentences import value as hand_value


class Replay(Play):
    """The state of one round as its events are applied in order, what it owes at its end, and
    what may happen next."""

    # --- the end of the round -------------------------------------------------------------------

    def bank_next(self) -> str:
        """The first declared natural in playing order takes the bank; otherwise it stays."""
        if self.voided is None:
            for hand in self.order:
                if hand.state == DECLARED and hand.stake.bet is not None:
                    return hand.stake.player
        return self.bank_player

    def owed(self) -> dict[tuple, Owed]:
        """What every hand with a bet is owed, if the bank stops where it is now."""
        owed: dict[tuple, Owed] = {}
        if self.voided is not None:
            why = say("voided", at=self.voided)
            for hand in self.order:
                if hand.bet is not None:
                    owed[(hand.stake.id, hand.name, "bet")] = Owed(
                        hand.stake.id, hand.name, "bet", LEAVE, hand.bet, hand.bet, "final", why
                    )
            return owed
        bank = self.bank
        b_best = bank.best
        b_kind = bank.kind
        b_natural = b_kind == NATURAL
        b_value = KIND_VALUE[b_kind] if b_kind is not None else b_best
        b_bust = b_kind is None and b_best > 21
        b_value_words = KIND_PHRASE[b_kind] if b_kind else total(b_value)
        if b_bust:
            b_words = say("bank_over_with", n=b_best)
        else:
            b_words = say("bank_has", value=b_value_words)
        for hand in self.order:
            bet = hand.bet
            if bet is None:
                continue
            state = hand.state
            kind = hand.kind
            result = TAKE
            multiple: Decimal | int = 1
            if state == WITHDRAWN:
                result, why = LEAVE, _WITHDREW
            elif state == DECLARED:
                result, multiple, why = PAY, 2, _DECLARED
            elif state == BUST:
                why = say("over_21", n=hand.best)
            elif kind == MONONA or kind == SUITED_TWELVE or hand.trillona:
                name = "trillona" if kind is None else SPECIAL[kind]
                if b_natural:
                    why = say("special_loses", special=name)
                else:
                    result = PAY
                    multiple = 3 if kind == MONONA else (self.suited_pays if kind == SUITED_TWELVE else 7)
                    why = say("special_wins", special=name, times=fmt(Decimal(multiple)), bank=b_words)
            else:
                value = hand.value
                words = hand_value(hand)
                if state == TAPO and b_bust:
                    if value <= 21:
                        result, why = PAY, say("tapo_wins", value=words, bank=b_words)
                    else:
                        result, why = LEAVE, say("tapo_over_returned", n=value, bank=b_words)
                elif value > 21:
                    why = say("tapo_over", n=value, bank=b_words)
                elif b_bust:
                    result, why = PAY, say("still_in", value=words, bank=b_words)
                elif value > b_value:
                    result, why = PAY, say("beats", value=words, dealer_value=b_value_words)
                elif value == b_value:
                    why = say("ties_bank", value=words, dealer_value=b_value_words)
                else:
                    why = say("loses_bank", value=words, bank=b_words)
            amount = bet * multiple if result == PAY else bet
            owed[(hand.stake.id, hand.name, "bet")] = Owed(
                hand.stake.id, hand.name, "bet", result, amount, bet, "final", why
            )
        return owed

    def finish(self) -> Outcome:
        for seat in self.seats:
            stake = self.by_seat[seat]
            if stake.bet is None:
                self._illegal(
                    None, stake.hand, {"rule": "never_bet", "stake": stake.id, "name": stake.player, "seat": seat}
                )
        if self.voided is None:
            if not self._deal_done():
                due = self._next_deal()
                self._say(
                    "DEAL_ORDER",
                    {"rule": "never_completed", "to": to(due[1]), "nth": "first" if due[0] == 0 else "second"},
                    None,
                )
            if self.puje is not None:
                for hand in self.order:
                    if hand.state == PLAYING and hand.bet is not None and hand.value < 21:
                        self._illegal(
                            None,
                            hand,
                            {"rule": "stopped_al_puje", "hand": hand.name, "name": hand.stake.player, "n": hand.value},
                        )
        invalid = self.bank.invalid or any(h.invalid for h in self.hands.values() if h.bet is not None)
        extra: dict[str, str | None] = {"bank_next": None}
        if invalid:
            wagers = None
        else:
            owed = self.owed()
            wagers = sorted(owed.values(), key=_wager_key)
            if self.settled:
                compare_settlements(owed, self.settled, self.findings, who=self._who_params, game=NAME)
            nxt = extra["bank_next"] = self.bank_next()
            for i, player in self.bank_to[:1]:
                if player != nxt:
                    why = say("bank_stays" if nxt == self.bank_player else "natural_takes_bank")
                    self.findings.append(
                        finding(
                            "BANK_SUCCESSION",
                            {"rule": "wrong_player", "event": i, "player": player, "due": nxt, "why": why},
                            event=i,
                            expected={"player": nxt},
                            actual={"player": player},
                        )
                    )
        return Outcome(
            NAME,
            wagers,
            loop.sort_findings(self.findings),
            self.shoe_cards,
            self.rules,
            extra=extra,
            settled=self.settled,
        )

    # --- what may happen next -------------------------------------------------------------------

    def moves(self) -> list[dict]:
        """The events the rules allow next, in the order they would come."""
        if self.bank_to:
            return []
        done = {(s.stake, s.hand) for s in self.settled}
        if self.voided is not None:
            return self._settle_moves(self.owed(), done) or [self._bank_to_move()]
        due = self._next_deal()
        if due is not None and self.play_started is None:
            pass_no, to = due
            bets = []
            if pass_no == 1 and not self.second_pass:
                bets = [
                    _move(
                        "bet",
                        f"Stake {s.id} ({s.player}, seat {s.seat}) places a bet of {fmt(self.min)}–{fmt(self.max)}.",
                        needs=["amount"],
                        stake=s.id,
                        min=fmt(self.min),
                        max=fmt(self.max),
                    )
                    for seat in self.seats
                    if (s := self.by_seat[seat]).bet is None
                ]
            if bets:
                return bets
            face = "face down" if pass_no == 0 else "face up"
            if to == "bank":
                return [
                    _move(
                        "deal",
                        f"Deal the bank's own {'first' if pass_no == 0 else 'second'} card, {face}.",
                        needs=["card"],
                        to="bank",
                    )
                ]
            return [_move("deal", f"Deal seat {to} a card {face}.", needs=["card"], to=to)]
        owed = self.owed()
        # Hands over 21 hand their bet to the bank at once.
        busts = {
            h.name for h in self.order if h.state == BUST and h.bet is not None and (h.stake.id, h.name) not in done
        }
        if busts:
            return self._settle_moves({k: o for k, o in owed.items() if o.hand in busts}, done)
        moves = []
        if not self.bank_drew:
            for hand in self.order:
                if hand.state == PLAYING and hand.kind == NATURAL and self.last_action <= hand.second_at:
                    moves.append(
                        _move(
                            "declare",
                            f"{self._hand_who(hand).capitalize()} holds a natural: declare it "
                            f"at once (2:1 and the bank).",
                            hand=hand.name,
                        )
                    )
            if self.puje is None and self.play_started is None and len(self.bank.infos) == 2 and self.bank.value == 20:
                moves.append(_move("puje", "The bank holds 20 in two cards: it may send the table al puje."))
            # Hands on 21 may stand; the first hand under 21 is the one to play.
            for hand in self.order:
                if hand.state != PLAYING or hand.bet is None:
                    continue
                if hand.value >= 21 and len(hand.infos) >= 2:
                    moves.append(
                        _move("stand", f"{self._hand_who(hand).capitalize()} has 21: it stands.", hand=hand.name)
                    )
                    moves.extend(m for m in self._hand_moves(hand) if m["e"] == "split")
                    continue
                moves.extend(self._hand_moves(hand))
                # Withdrawn hands and declared naturals may be settled already: their results are known.
                known = {h.name for h in self.order if h.state in (WITHDRAWN, DECLARED)}
                moves.extend(self._settle_moves({k: o for k, o in owed.items() if o.hand in known}, done))
                return moves
        if self.bank.best <= 21:
            moves.append(
                _move(
                    "draw",
                    f"The bank plays by its own choice: draw (it has {self.bank.best}) or stand and settle.",
                    needs=["card"],
                )
            )
        settle = self._settle_moves(owed, done)
        moves.extend(settle)
        if not settle:
            moves.append(self._bank_to_move())
        return moves

    def _hand_moves(self, hand: Hand) -> list[dict]:
        who = self._hand_who(hand)
        n = hand.name
        value = hand.value
        moves = []
        if len(hand.infos) < 2:
            return [_move("hit", f"Deal {who} its second card, face up.", needs=["card"], hand=n)]
        say = f"{who.capitalize()} ({hand.cards_label()}, {hand.words()})"
        moves.append(_move("hit", f"{say} may take a card.", needs=["card"], hand=n))
        if self.puje is None or value >= 21:
            moves.append(_move("stand", f"{say} may stand.", hand=n))
        if self.puje is None and not hand.split_child:
            moves.append(_move("tapo", f"{say} may take one hidden card (tapo y quedo).", needs=["card"], hand=n))
        if len(hand.infos) == 2:
            a, b = hand.infos
            if a[0][0] == b[0][0] and hand.bet is not None:
                moves.append(
                    _move(
                        "split",
                        f"{say} may open the pair with {fmt(hand.bet * 2)} on the new hand.",
                        hand=n,
                        amount=fmt(hand.bet * 2),
                    )
                )
            if hand.thirteen:
                moves.append(_move("withdraw", f"{say} holds 13 in two cards: it may withdraw (bet returned).", hand=n))
                if hand.seat == self.pie:
                    moves.append(
                        _move(
                            "void",
                            f"{say} is pie de banco with 13: it may void the hand (every bet returned, deal again).",
                            hand=n,
                        )
                    )
        return moves

    def _settle_moves(self, owed: dict, done: set) -> list[dict]:
        out = []
        for o in owed.values():
            if (o.stake, o.hand) in done:
                continue
            who = f"stake {o.stake} ({self.stakes[o.stake].player}), hand {o.hand}"
            if o.result == PAY:
                out.append(
                    _move(
                        PAY,
                        f"Pay {who} {fmt(o.amount)} — {o.why}.",
                        stake=o.stake,
                        hand=o.hand,
                        wager="bet",
                        amount=fmt(o.amount),
                    )
                )
            elif o.result == TAKE:
                out.append(
                    _move(
                        TAKE,
                        f"Take {who}'s bet {fmt(o.size)} — {o.why}.",
                        stake=o.stake,
                        hand=o.hand,
                        wager="bet",
                        amount=fmt(o.size),
                    )
                )
            else:
                out.append(
                    _move(
                        LEAVE,
                        f"Return {who}'s bet {fmt(o.size)} — {o.why}.",
                        stake=o.stake,
                        hand=o.hand,
                        wager="bet",
                        amount=fmt(o.size),
                    )
                )
        return out

    def _bank_to_move(self) -> dict:
        nxt = self.bank_next()
        say = f"The bank stays with {nxt}." if nxt == self.bank_player else f"The bank passes to {nxt}."
        return _move("bank_to", say, player=nxt)


_WITHDREW: Final = say("withdrew")
_DECLARED: Final = say("declared_natural")


def _wager_key(o: Owed):
    return (o.stake, o.hand, o.wager)
