"""The end of an ochko round — what every wager was owed, the settlements judged, their order and
timing — and the events the procedure allows next.
"""

from bisect import bisect_right
from decimal import Decimal
from operator import attrgetter
from typing import Final, cast

from .. import loop
from ..base import LEAVE, PAY, TAKE, Outcome, Owed, compare_settlements
from ..loop import STOOD
from ..loop import move as _move
from ..money import fmt
from ..sentences import say
from . import onesum
from .events import Play
from .rules import BET, BET_MULTIPLE_MAX, DARK, DEAL, DEALER, DRAWING_BOX, NAME, WAGER_LABEL, Box
from .sentences import value


class Replay(Play):
    """The state of one round as its events are applied in order, what it owes at its end, and
    what may happen next."""

    # --- the end of the round -------------------------------------------------------------------

    def finish(self) -> Outcome:
        if not self.opened:
            self._say("ILLEGAL_ACTION", {"rule": "never_opened"}, None)
            self._do_open(self.events_seen)
        if self.phase < DEALER:
            self._undecided(None)
        open_boxes = []
        invalid = False  # a card that is not a card in a hand that decides a wager: nothing is owed
        for box in self.in_order:
            state = box.state
            if state == DRAWING_BOX:
                box.state = state = STOOD
            if state == STOOD or state == DARK:
                open_boxes.append(box)
            if box.playing and box.hand.invalid:
                invalid = True
        dealer = self.dealer
        if open_boxes:
            if not dealer.dealer_stops():
                self._say("DEALER_DRAW_RULE", {"rule": "stopped", "total": dealer.total}, self.dealer_stop_event)
            self._settle_open_boxes(open_boxes)
            if dealer.invalid:
                invalid = True
        if invalid:
            wagers = None
        else:
            wagers = sorted(self.owed.values(), key=_wager_key)
            if self.sums:
                box_of = {sid: s.box for sid, s in self.stakes.items()}
                self.findings.extend(onesum.judge(self.sums, self.owed, box_of, self._who_params))
            if self.settled and not self._settled_as_owed():
                first = compare_settlements(self.owed, self.settled, self.findings, who=self._who_params, game=NAME)
                self._check_timing(first)
        if self.sums:  # each wager a sum covers, as the money moved (also where nothing is owed)
            onesum.as_logged(self.sums, self.owed)
        return Outcome(
            NAME, wagers, loop.sort_findings(self.findings), self.shoe_cards, self.rules, settled=self.settled
        )

    def _settle_open_boxes(self, open_boxes: list[Box]) -> None:
        dealer = self.dealer
        d_score, d_bust, d_combo = dealer.score, dealer.bust, dealer.combination
        ace = self._dealer_first_is_ace()
        rules = self.rules
        d_value = value(d_combo, d_score)
        if d_bust:
            d_words = say("dealer_busts", n=dealer.total)
        else:
            d_words = say("dealer_has", value=d_value)
        for box in open_boxes:
            hand = box.hand
            dark = box.dark is not None
            combo = hand.combination  # Hand.score and Hand.bust, without working it out three times
            b_score = 21 if combo else hand.total
            b_bust = hand.total > 21 and not combo
            b_words = value(combo, hand.total)
            if b_bust and d_bust and dark:
                outcome, why = "double_bust", say("dark_double_bust", n=hand.total, dealer=d_words)
                bet_result = rules["dark_double_bust_bet"]
            elif not b_bust and (d_bust or b_score > d_score):
                outcome = "win"
                if dark:
                    why = say("dark_wins", value=b_words, dealer=d_words)
                    bet_result = rules["dark_win_bet"]
                else:
                    why = say("box_wins", value=b_words, dealer=d_words)
                    bet_result = PAY
            elif not b_bust and b_score == d_score:
                outcome, why = "tie", say("tie_loses", value=b_words, dealer_value=d_value)
            else:
                outcome = "loss"
                why = (
                    say("dark_busts", n=hand.total, dealer=d_words)
                    if b_bust
                    else say("box_loses", value=b_words, dealer=d_words)
                )
            for s in box.playing:
                if outcome in ("win", "double_bust"):
                    self._owe(s, "ante", PAY, s.ante, "final", why)
                    self._owe(s, "bet", bet_result, cast(Decimal, s.bet), "final", why)
                    if s.dealer_bet is not None:
                        self._owe(s, "dealer_bet", PAY, s.dealer_bet, "final", _BOX_WON)
                else:
                    self._owe(s, "ante", TAKE, s.ante, "final", why)
                    self._owe(s, "bet", TAKE, cast(Decimal, s.bet), "final", why)
                    if s.dealer_bet is not None:
                        if outcome == "tie":
                            self._owe(s, "dealer_bet", LEAVE, s.dealer_bet, "final", _TIE_STAYS)
                        elif ace:
                            self._owe(s, "dealer_bet", LEAVE, s.dealer_bet, "final", _ACE_STAYS)
                        else:
                            self._owe(s, "dealer_bet", TAKE, s.dealer_bet, "final", _BOX_LOST)

    def _settled_as_owed(self) -> bool:
        """Whether every wager was settled once, as owed and in time: the usual round, told in one pass.

        The same conditions as `compare_settlements` and `_check_timing` (keep them in step), for
        the answer only: any doubt returns False, and those two then find and explain each fault.
        """
        owed, stakes, settled = self.owed, self.stakes, self.settled
        if len(settled) != len(owed):  # a wager missing, or one settled twice or without being owed
            return False
        actions = self.drawing_actions
        last_draw = -1 if self.last_draw is None else self.last_draw
        pending = owed.copy()  # popped as settled: a wager settled twice, or never owed, finds nothing
        dealer_bet_boxes = set()  # boxes where a playing stake's dealer bet was already settled
        last_box = None
        for s in settled:
            o = pending.pop((s.stake, None, s.wager), None)
            if o is None or s.result != o.result:
                return False
            if s.amount is not None and s.amount != (o.amount if o.result == PAY else o.size):
                return False
            stake = stakes[s.stake]
            box_no = stake.box
            if stake.decision == BET:
                if s.wager == "dealer_bet":
                    dealer_bet_boxes.add(box_no)
                elif box_no in dealer_bet_boxes:
                    return False  # the box's Bet or Ante settled after its dealer bet
            kind = o.kind
            if kind == "instant":
                k = bisect_right(actions, cast(int, o.event))  # an instant result has its event
                if k < len(actions) and actions[k] < s.event:
                    return False
            elif kind == "final":
                if s.event < last_draw or last_box is not None and box_no > last_box:
                    return False
                last_box = box_no
        return True

    def _check_timing(self, first: dict) -> None:
        """Instant results settled before the next drawing action; final settlement 6 → 1, dealer bets last.

        `first` maps each settled wager to the event that first settled it.
        """
        owed = self.owed
        stakes = self.stakes
        actions = self.drawing_actions
        last_box = None
        last_main: dict[int, int] = {}
        for s in self.settled:
            if s.wager != "dealer_bet":
                stake = stakes[s.stake]
                if stake.decision == BET:
                    last_main[stake.box] = s.event
        last_draw = self.last_draw
        # Each wager's first settlement, in event order: `first` holds only wagers that were owed.
        # Every check below is about that one event, so at most one finding comes from each.
        for key, s in first.items():
            o = owed[key]
            if o.kind == "instant":
                at = s.event
                # The first drawing action after the instant result (actions are in event order).
                k = bisect_right(actions, cast(int, o.event))  # an instant result has its event
                if k < len(actions) and actions[k] < at:
                    a = actions[k]
                    params = self._who_params(o.stake)
                    params.update(
                        rule="ochko" if o.result == PAY else "mnogo",
                        event=at,
                        wager=o.wager,
                        game=NAME,
                        at=o.event,
                        action=a,
                    )
                    self._say("LATE_SETTLEMENT", params, at, stake=o.stake, wager=o.wager)
                continue
            stake = stakes[s.stake]
            box_no = stake.box
            if s.wager == "dealer_bet" and stake.decision == BET and last_main.get(box_no, -1) > s.event:
                params = self._who_params(s.stake)
                params.update(rule="dealer_bet_first", event=s.event)
                self._say("PAYMENT_ORDER", params, s.event, stake=s.stake, wager=s.wager)
                continue
            if o.kind != "final":
                continue
            if last_draw is not None and s.event < last_draw:
                params = self._who_params(s.stake)
                params.update(rule="before_dealer", event=s.event)
                self._say("PAYMENT_ORDER", params, s.event, stake=s.stake, wager=s.wager)
                continue
            if last_box is not None and box_no > last_box:
                self._say(
                    "PAYMENT_ORDER",
                    {"rule": "box_order", "event": s.event, "box": box_no, "after": last_box},
                    s.event,
                    stake=s.stake,
                    wager=s.wager,
                )
            last_box = box_no

    # --- what may happen next -------------------------------------------------------------------

    def moves(self) -> list[dict]:
        """The events the procedure allows next, in the order a dealer would do them."""
        unsettled = self._unsettled()
        if self.phase == DEAL or (not self.opened and not self._all_dealt()):
            for number in self.order:
                if not self.boxes[number].dealt:
                    return [_move("deal", f"Deal a card face up to box {number}.", needs=["card"], to=number)]
            if not self.dealer.cards or self.replace_dealer_card:
                return [_move("deal", "Deal your own card face down.", needs=["card"], to="dealer")]
        if not self.opened:
            moves = []
            for number in self.order:
                for s in self.boxes[number].stakes:
                    if s.decision is None:
                        moves.append(_move("fold", f"Stake {s.id} (box {number}) may fold.", stake=s.id))
                        moves.append(
                            _move(
                                "bet",
                                f"Stake {s.id} (box {number}) may play: a Bet of "
                                f"{fmt(s.ante)}–{fmt(s.ante * BET_MULTIPLE_MAX)}.",
                                needs=["amount"],
                                stake=s.id,
                                min=fmt(s.ante),
                                max=fmt(s.ante * BET_MULTIPLE_MAX),
                            )
                        )
            fold_takes = [o for o in unsettled if o.kind == "fold"]
            moves.extend(self._settle_move(o) for o in fold_takes)
            if not moves:
                moves.append(_move("open", "Close the Bets and open your card."))
            return moves
        instant = [o for o in unsettled if o.kind in ("instant", "fold")]
        if instant:
            return [self._settle_move(o) for o in _instant_order(instant)]
        instant_db = [o for o in unsettled if o.kind == "instant_db"]
        if instant_db:
            return [self._settle_move(o) for o in instant_db]
        box = self._first_drawing_box()
        if box is not None and self.phase < DEALER:
            n = box.number
            say = f"Box {n} ({box.hand.total}) may hit, stand or take a dark card."
            return [
                _move("hit", say, needs=["card"], box=n),
                _move("stand", say, box=n),
                _move("dark", say, needs=["card"], box=n),
            ]
        open_boxes = [self.boxes[n] for n in self.order if self.boxes[n].state in (STOOD, DARK)]
        if not open_boxes:
            return []
        if not self.dealer.dealer_stops() and self.dealer_stop_event is None:
            return [_move("draw", f"The dealer must draw (he has {self.dealer.total}).", needs=["card"])]
        for box in open_boxes:
            if box.dark is not None and not box.revealed:
                return [_move("reveal", f"Turn box {box.number}'s dark card.", box=box.number)]
        # Final settlement: work out what the open boxes are owed, on a copy of the state.
        probe = _Probe(self)
        final = probe.final_owed()
        done = {(s.stake, s.wager) for s in self.settled}
        for number in reversed(self.order):
            box = self.boxes[number]
            if box not in open_boxes:
                continue
            main = [final[(s.id, None, w)] for s in box.playing for w in ("bet", "ante") if (s.id, w) not in done]
            if main:
                return [self._settle_move(o) for o in main]
            extra = [
                final[(s.id, None, "dealer_bet")]
                for s in box.playing
                if s.dealer_bet is not None and (s.id, "dealer_bet") not in done
            ]
            if extra:
                return [self._settle_move(o) for o in extra]
        return []

    def _all_dealt(self) -> bool:
        return all(self.boxes[n].dealt for n in self.order) and bool(self.dealer.cards) and not self.replace_dealer_card

    def _unsettled(self) -> list[Owed]:
        done = {(s.stake, s.wager) for s in self.settled}
        return [o for o in self.owed.values() if (o.stake, o.wager) not in done]

    def _settle_move(self, o: Owed) -> dict:
        label = WAGER_LABEL[o.wager]
        who = f"stake {o.stake} (box {self.stakes[o.stake].box})"
        if o.result == PAY:
            return _move(
                PAY, f"Pay {who} its {label} {fmt(o.amount)}.", stake=o.stake, wager=o.wager, amount=fmt(o.amount)
            )
        if o.result == TAKE:
            return _move(
                TAKE,
                f"Take {who}'s {label} {fmt(o.size)} to the float.",
                stake=o.stake,
                wager=o.wager,
                amount=fmt(o.size),
            )
        return _move(LEAVE, f"Leave {who}'s {label} {fmt(o.size)} (returned, not paid).", stake=o.stake, wager=o.wager)


class _Probe:
    """What the open boxes would be owed if the dealer stopped now (for the list of next moves)."""

    def __init__(self, replay: Replay):
        self.replay = replay

    def final_owed(self) -> dict:
        r = self.replay
        saved = dict(r.owed)
        try:
            r._settle_open_boxes([r.boxes[n] for n in r.order if r.boxes[n].state in (STOOD, DARK)])
            return dict(r.owed)
        finally:
            r.owed = saved


_BOX_WON: Final = say("box_won")
_BOX_LOST: Final = say("box_lost")
_TIE_STAYS: Final = say("tie_stays")
_ACE_STAYS: Final = say("ace_stays")


def _instant_order(owed: list[Owed]) -> list[Owed]:
    return sorted(owed, key=lambda o: (o.event or 0, o.wager != "bet", o.wager))


# (stake, wager): settlement/1's order. attrgetter builds the key in C, without a Python call per wager.
_wager_key = attrgetter("stake", "wager")
