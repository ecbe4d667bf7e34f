"""The events of an ochko round — deal, decisions, open, drawing, the dealer's draw, reveal,
settlement, burns and incidents — each validated as it is applied (rules/ochko.md).
"""

from decimal import Decimal
from typing import Final, cast

from .. import cards as _cards
from .. import document as doc_
from ..base import LEAVE, PAY, TAKE, Settled
from ..loop import STOOD, Handlers, deal_target
from ..money import fmt
from ..sentences import say
from . import onesum
from .incidents import out_of_procedure
from .rules import (
    BET,
    BET_MULTIPLE_MAX,
    CARD,
    DARK,
    DEAL,
    DEALER,
    DECIDE,
    DRAWING,
    DRAWING_BOX,
    FOLD,
    MNOGO,
    OCHKO,
    OUT,
    WAGERS,
    WAITING,
    Box,
    Stake,
)
from .sentences import value
from .table import Table


class Play(Table):
    """The events of an ochko round, each validated and judged as it is applied."""

    def __init__(self, doc):
        super().__init__(doc, _HANDLERS)

    def ran(self) -> None:
        # Where the dealer stopped: the first event after his last draw, if any came after it
        # (worked out once here rather than tested at every event).
        last, n = self.last_draw, self.events_seen
        self.dealer_stop_event = last + 1 if last is not None and last + 1 < n else None

    def _deal(self, i: int, ev: dict) -> None:
        to = deal_target(i, ev, "dealer", 'a box number or "dealer"')
        info = self._card(i, ev)
        if self.phase != DEAL:
            self._say(
                "DEAL_ORDER",
                {"rule": "late_dealer", "event": i} if to == "dealer" else {"rule": "late_box", "event": i, "box": to},
                i,
            )
        if to == "dealer":
            if self.replace_dealer_card:
                self.replace_dealer_card = False
                self.dealer.clear()
            elif self.dealer.cards:
                self._say("DEAL_ORDER", {"rule": "dealer_twice", "event": i}, i)
            else:
                for earlier in self.in_order:
                    if not earlier.dealt:
                        self._say("DEAL_ORDER", {"rule": "dealer_early", "event": i, "box": earlier.number}, i)
                        break
            self.dealer.add(info)
            return
        box = self.boxes.get(to)
        if box is None:
            self._say("DEAL_ORDER", {"rule": "empty_box", "event": i, "box": to}, i)
            return
        if box.dealt:
            self._say("DEAL_ORDER", {"rule": "box_twice", "event": i, "box": to}, i)
        elif self.dealer.cards:
            self._say("DEAL_ORDER", {"rule": "after_dealer", "event": i, "box": to}, i)
        else:
            for first in self.in_order:
                if not first.dealt:
                    if first is not box:
                        self._say(
                            "DEAL_ORDER", {"rule": "out_of_turn", "event": i, "box": to, "first": first.number}, i
                        )
                    break
        box.dealt = True
        box.hand.add(info)

    def _decide(self, i: int, stake: Stake, what: str) -> bool:
        if self.opened:
            self._say(
                "ILLEGAL_ACTION", {"rule": what + "_after_open", "event": i, "stake": stake.id}, i, stake=stake.id
            )
        if stake.decision is not None:
            if stake.decision == FOLD:
                self._say(
                    "ILLEGAL_ACTION", {"rule": "already_folded", "event": i, "stake": stake.id}, i, stake=stake.id
                )
            else:
                self._say(
                    "ILLEGAL_ACTION",
                    {"rule": "already_bet", "event": i, "stake": stake.id, "bet": fmt(cast(Decimal, stake.bet))},
                    i,
                    stake=stake.id,
                )
            return False
        if not self.deal_checked:  # the first decision: the deal is over
            if self.phase == DEAL:
                self.phase = DECIDE
            self._check_dealt(i)
        return True

    def _fold(self, i: int, ev: dict) -> None:
        try:
            stake = self.stakes[ev["stake"]]
        except (KeyError, TypeError):
            stake = self._stake(i, ev)  # raises the precise error
        if self._decide(i, stake, "fold"):
            self._do_fold(i, stake)

    def _do_fold(self, i: int | None, stake: Stake) -> None:
        stake.decision = FOLD
        self._owe(stake, "ante", TAKE, stake.ante, "fold", _FOLD_ANTE, i)
        if stake.dealer_bet is not None:
            self._owe(stake, "dealer_bet", TAKE, stake.dealer_bet, "fold", _FOLDED, i)

    def _bet(self, i: int, ev: dict) -> None:
        try:
            stake = self.stakes[ev["stake"]]
        except (KeyError, TypeError):
            stake = self._stake(i, ev)  # raises the precise error
        amount = doc_.event_amount(ev, i)
        if not self._decide(i, stake, "bet"):
            return
        stake.decision = BET
        stake.bet = amount
        if self.opened:
            box = self.boxes[stake.box]
            box.playing.append(stake)
            if box.state == OUT and self.phase < DEALER:
                box.state = DRAWING_BOX
        ante = stake.ante
        if amount < ante or amount > ante * BET_MULTIPLE_MAX:
            self._say(
                "BET_RANGE",
                {
                    "rule": "range",
                    "box": stake.box,
                    "stake": stake.id,
                    "bet": fmt(amount),
                    "low": fmt(stake.ante),
                    "high": fmt(stake.ante * BET_MULTIPLE_MAX),
                },
                i,
                stake=stake.id,
                wager="bet",
            )

    def _open(self, i: int, ev: dict) -> None:
        if self.opened:
            self._say("ILLEGAL_ACTION", {"rule": "open_twice", "event": i}, i)
            return
        self._do_open(i)

    def _do_open(self, i: int) -> None:
        self._check_dealt(i)
        for box in self.in_order:
            box.playing = playing = []
            for s in box.stakes:
                if s.decision == BET:
                    playing.append(s)
            box.state = DRAWING_BOX if playing else OUT
        self.opened = True
        self.phase = DRAWING

    def _undecided(self, i: int | None) -> None:
        """A stake that never folded nor bet by the time its box had to draw counts as folded."""
        for box in self.in_order:
            for stake in box.stakes:
                if stake.decision is None:
                    self._say(
                        "ILLEGAL_ACTION", {"rule": "undecided", "stake": stake.id, "box": box.number}, i, stake=stake.id
                    )
                    self._do_fold(i, stake)

    def _ensure_open(self, i: int, box: int | None) -> None:
        """A box (or, with None, the dealer) drew: the dealer opens his card first."""
        if not self.opened:
            self._say(
                "ILLEGAL_ACTION",
                {"rule": "dealer_drew_unopened", "event": i}
                if box is None
                else {"rule": "box_drew_unopened", "event": i, "box": box},
                i,
            )
            self._do_open(i)

    def _box_event(self, i: int, ev: dict) -> None:
        """hit, dark or stand: the box's drawing, in turn 1 → 6."""
        action = ev["e"]
        n = ev.get("box")
        if type(n) is not int:
            n = self._box_number(i, ev)
        info = self._card(i, ev) if action != "stand" else None
        if not self.opened:  # checked here so that the message is only built when it is needed
            self._ensure_open(i, n)
        self.drawing_actions.append(i)
        box = self.boxes.get(n)
        if box is None or box.state != DRAWING_BOX:
            if box is None or box.state == OUT:
                self._say("ILLEGAL_ACTION", {"rule": "not_in_play", "event": i, "box": n}, i)
            else:
                params = {
                    "rule": "box_finished",
                    "event": i,
                    "box": n,
                    "box_state": _FINISHED[box.state],
                    "box_action": action,
                }
                if box.state == STOOD or box.state == MNOGO:
                    params["total"] = box.hand.total
                self._say("ILLEGAL_ACTION", params, i, stake=box.stakes[0].id)
            return
        if self.phase >= DEALER:
            self._say("DRAW_ORDER", {"rule": "after_dealer", "event": i, "box": n}, i)
        elif n not in self.out_of_turn:
            # The first box still drawing: this box, which is drawing, or one before it.
            first = self._first_drawing_box()
            if first is not None and first is not box:
                self.out_of_turn.add(n)
                self._say("DRAW_ORDER", {"rule": "box_early", "event": i, "box": n, "first": first.number}, i)
        if action == "stand":
            box.state = STOOD
        elif action == "dark":
            info = cast(tuple, info)  # hit and dark carry a card
            box.hand.add(info)
            box.dark = info[0]
            box.state = DARK
        else:
            info = cast(tuple, info)
            hand = box.hand
            hand.add(info)
            if hand.total >= 21 or len(hand.cards) == 5:
                self._instant(i, box)

    def _instant(self, i: int, box: Box) -> None:
        """Face-up ochko or mnogo while drawing: settled at once, whatever the dealer draws later."""
        hand = box.hand
        combo = hand.combination
        if combo or hand.total == 21:
            box.state = OCHKO
            why = say("instant_ochko", value=value(combo, 21))
            for s in box.playing:
                self._owe(s, "bet", PAY, cast(Decimal, s.bet), "instant", why, i)  # a playing stake has bet
                self._owe(s, "ante", PAY, s.ante, "instant", why, i)
                if s.dealer_bet is not None:
                    self._owe(s, "dealer_bet", PAY, s.dealer_bet, "instant_db", _BOX_WON, i)
        elif hand.total > 21:
            box.state = MNOGO
            why = say("instant_mnogo", n=hand.total)
            ace = self._dealer_first_is_ace()
            for s in box.playing:
                self._owe(s, "bet", TAKE, cast(Decimal, s.bet), "instant", why, i)
                self._owe(s, "ante", TAKE, s.ante, "instant", why, i)
                if s.dealer_bet is not None:
                    if ace:
                        self._owe(s, "dealer_bet", LEAVE, s.dealer_bet, "instant_db", _ACE_STAYS, i)
                    else:
                        self._owe(s, "dealer_bet", TAKE, s.dealer_bet, "instant_db", _BOX_LOST, i)
        else:
            return
        box.instant_at = i

    def _dealer_first_is_ace(self) -> bool:
        return bool(self.dealer.cards) and self.dealer.cards[0][0] == "A"

    def _draw(self, i: int, ev: dict) -> None:
        info = self._card(i, ev)
        if not self.opened:
            self._ensure_open(i, None)
        anything_open = False  # a box still waiting for the dealer's result
        for box in self.in_order:
            state = box.state
            if state == DRAWING_BOX:
                self._say("DRAW_ORDER", {"rule": "dealer_early", "event": i, "box": box.number}, i)
                box.state = STOOD
                anything_open = True
            elif state == STOOD or state == DARK:
                anything_open = True
        if self.phase < DEALER:
            self._undecided(i)  # folds stakes; no box changes state
        self.phase = DEALER
        if not anything_open:
            if not self.nothing_open_flagged:
                self.nothing_open_flagged = True
                self._say("DEALER_DRAW_RULE", {"rule": "nothing_open", "event": i}, i)
        elif self.dealer.dealer_stops():
            combo = self.dealer.combination
            self._say(
                "DEALER_DRAW_RULE",
                {
                    "rule": "drew_on" if combo is None else "drew_on_combination",
                    "event": i,
                    "value": value(combo, self.dealer.total),
                },
                i,
            )
        self.dealer.add(info)
        self.last_draw = i
        self.drawing_actions.append(i)

    def _reveal(self, i: int, ev: dict) -> None:
        n = self._box_number(i, ev)
        box = self.boxes.get(n)
        if box is None or box.dark is None:
            self._say("ILLEGAL_ACTION", {"rule": "no_dark_card", "event": i, "box": n}, i)
            return
        if box.revealed:
            self._say("ILLEGAL_ACTION", {"rule": "dark_revealed", "event": i, "box": n}, i)
            return
        box.revealed = True
        if self.phase < DEALER:
            self._say("ILLEGAL_ACTION", {"rule": "dark_early", "event": i, "box": n}, i, stake=box.stakes[0].id)

    def _settle(self, i: int, ev: dict) -> None:
        """pay, take or leave: what the dealer did with one wager, judged when the round is over."""
        result = ev["e"]
        try:
            # Only a known stake id and one of the three wager names get through both lookups.
            stake = self.stakes[ev["stake"]]
            wager = _WAGER_NAMES[ev["wager"]]
        except (KeyError, TypeError):
            stake = self._stake(i, ev)  # raises the precise error, or the wager's below
            if "wager" not in ev:
                raise doc_.missing("wager", f"$.events[{i}]", i) from None
            raise doc_.bad_value(
                "wager", ev["wager"], 'an ochko wager is "ante", "bet" or "dealer_bet".', f"$.events[{i}]", i
            ) from None
        amount = doc_.event_amount(ev, i, required=result == PAY)
        self.settled.append(Settled(i, stake.id, None, wager, result, amount))

    def _pay_sum(self, i: int, ev: dict) -> None:
        """Several boxes paid with one sum: each wager it covers settled as paid, judged at the end."""
        paid = onesum.read(i, ev, self.boxes)
        self.sums.append(paid)
        self.settled.extend(paid.covered)

    def _burn(self, i: int, ev: dict) -> None:
        text = ev.get("card")
        doc_.text(ev, "reason", f"$.events[{i}]", i, required=False)
        if type(text) is str:
            code = _cards.normalize(text) or text
            if code in self.pending_burn:
                self.pending_burn.remove(code)
                return
        self._card(i, ev)

    def _incident(self, i: int, ev: dict) -> None:
        path = f"$.events[{i}]"
        kind = doc_.text(ev, "kind", path, i)
        if kind not in ("dealer_card_exposed", "misdrawn_card"):
            raise doc_.bad_value("kind", kind, 'an incident is "dealer_card_exposed" or "misdrawn_card".', path, i)
        text = doc_.text(ev, "card", path, i)
        exposed = doc_.boolean(ev, "exposed", path, i)
        resolution = ev.get("resolution")
        to_box = None
        if type(resolution) is dict:
            doc_.unknown_fields(resolution, {"to"}, f"{path}.resolution", i)
            to_box = self._box_number(i, resolution, "to")
        elif resolution not in ("burned", "under_shoe"):
            if "resolution" not in ev:
                raise doc_.missing("resolution", path, i)
            raise doc_.bad_value("resolution", resolution, 'it is "burned", "under_shoe" or {"to": <box>}.', path, i)
        reported_by = doc_.text(ev, "reported_by", path, i)
        approved_by = doc_.text(ev, "approved_by", path, i, required=False, nullable=True)
        doc_.text(ev, "note", path, i, required=False, nullable=True)
        if approved_by is None:
            self._say("INCIDENT_UNAPPROVED", {"rule": "unapproved", "event": i, "incident": kind, "card": text}, i)
        elif approved_by == reported_by:
            self._say("INCIDENT_UNAPPROVED", {"rule": "own_report", "event": i, "incident": kind, "by": approved_by}, i)
        elif self.dealer_id is not None and approved_by == self.dealer_id:
            self._say("INCIDENT_UNAPPROVED", {"rule": "own_dealer", "event": i, "incident": kind, "by": approved_by}, i)
        elif self.approvers is not None and approved_by not in self.approvers:
            # Told who may approve (the pit bosses of the table's pit, by the store): a name alone is no approval.
            self._say(
                "INCIDENT_UNAPPROVED", {"rule": "not_pit_boss", "event": i, "incident": kind, "by": approved_by}, i
            )
        code = _cards.normalize(text) or text
        wrong = out_of_procedure(kind, exposed, resolution)
        if wrong is not None:
            self._say("INCIDENT_RESOLUTION", {**wrong, "event": i}, i)
        if kind == "dealer_card_exposed":
            if self.dealer.cards:
                # The exposed card is already counted; its burn only confirms it left play.
                self.pending_burn.append(self.dealer.cards[-1])
                self.replace_dealer_card = True
            return
        info = CARD.get(text) or (text, 0, False, False, False)
        self._count(i, info)
        if not exposed or resolution in ("under_shoe", "burned"):
            self.pending_burn.append(code)
            return
        box = self.boxes.get(cast(int, to_box))  # read above: the resolution is {"to": <box>}
        if box is None or box.state in (OUT, STOOD, DARK, OCHKO, MNOGO):
            self._say("INCIDENT_RESOLUTION", {"rule": "box_not_drawing", "event": i, "box": to_box}, i)
            return
        box.hand.add(info)
        if box.state == DRAWING_BOX:
            self._instant(i, box)


# A box's state, as the finding that it cannot draw says it (ochko/sentences.py: box_state.*).
_FINISHED: Final = {STOOD: "stood", DARK: "dark", OCHKO: "ochko", MNOGO: "mnogo", WAITING: "waiting"}
_FOLD_ANTE: Final = say("fold_ante")
_FOLDED: Final = say("folded")
_BOX_WON: Final = say("box_won")
_BOX_LOST: Final = say("box_lost")
_ACE_STAYS: Final = say("ace_stays")
_WAGER_NAMES: Final = {w: w for w in WAGERS}
_FIELDS: Final = {
    "deal": frozenset({"e", "to", "card"}),
    "fold": frozenset({"e", "stake"}),
    "bet": frozenset({"e", "stake", "amount"}),
    "open": frozenset({"e"}),
    "hit": frozenset({"e", "box", "card"}),
    "dark": frozenset({"e", "box", "card"}),
    "stand": frozenset({"e", "box"}),
    "draw": frozenset({"e", "card"}),
    "reveal": frozenset({"e", "box"}),
    "pay": frozenset({"e", "stake", "wager", "amount"}),
    "take": frozenset({"e", "stake", "wager", "amount"}),
    "leave": frozenset({"e", "stake", "wager", "amount"}),
    onesum.EVENT: onesum.FIELDS,
    "burn": frozenset({"e", "card", "reason"}),
    "incident": frozenset({"e", "kind", "card", "exposed", "resolution", "reported_by", "approved_by", "note"}),
}
# event name -> (handler, the fields it may carry)
_HANDLERS: Final[Handlers] = {
    "deal": (Play._deal, _FIELDS["deal"]),
    "fold": (Play._fold, _FIELDS["fold"]),
    "bet": (Play._bet, _FIELDS["bet"]),
    "open": (Play._open, _FIELDS["open"]),
    "hit": (Play._box_event, _FIELDS["hit"]),
    "dark": (Play._box_event, _FIELDS["dark"]),
    "stand": (Play._box_event, _FIELDS["stand"]),
    "draw": (Play._draw, _FIELDS["draw"]),
    "reveal": (Play._reveal, _FIELDS["reveal"]),
    "pay": (Play._settle, _FIELDS["pay"]),
    "take": (Play._settle, _FIELDS["take"]),
    "leave": (Play._settle, _FIELDS["leave"]),
    onesum.EVENT: (Play._pay_sum, _FIELDS[onesum.EVENT]),
    "burn": (Play._burn, _FIELDS["burn"]),
    "incident": (Play._incident, _FIELDS["incident"]),
}
