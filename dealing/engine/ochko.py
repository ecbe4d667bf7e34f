"""21 Ochko, the Russian casino procedure (rules/ochko.md): replay, settle, audit, next moves.

A round is replayed event by event through the phases of the procedure — deal, decisions,
open, drawing, the dealer's draw, reveal, settlement. Each event is validated as it is applied
(a log we cannot follow raises `RoundError`), every departure from the procedure becomes a
`Finding`, and the replay keeps going so that one mistake never hides the next.
"""

from bisect import bisect_right
from decimal import Decimal
from operator import attrgetter
from typing import Final, cast

from . import cards as _cards
from . import document as doc_
from . import loop
from .base import LEAVE, PAY, TAKE, Option, Outcome, Owed, Settled, compare_settlements, plain_rules
from .errors import RoundError
from .findings import Finding
from .loop import STOOD, Handlers, Round, deal_target, first_in, stake_of
from .loop import move as _move
from .money import INT_AMOUNTS as _INT_AMOUNTS
from .money import ZERO, fmt

# Final: the compiled engine (native.py) reads these as C constants instead of module lookups.
NAME: Final = "ochko"
PACK: Final = _cards.pack("6789TJQKA")
DECKS: Final = 8
MAX_BOXES: Final = 6
MAX_STAKES_PER_BOX: Final = 3
BET_MULTIPLE_MAX: Final = 10

WAGERS: Final = ("ante", "bet", "dealer_bet")
WAGER_LABEL: Final = {"ante": "Ante", "bet": "Bet", "dealer_bet": "dealer bet"}

OPTIONS = {
    "dark_win_bet": Option("dark_win_bet", LEAVE, "choice",
                           "A winning dark-card box is paid its Ante only; its Bet is returned (leave) or taken.",
                           choices=(LEAVE, TAKE)),
    "dark_double_bust_bet": Option("dark_double_bust_bet", LEAVE, "choice",
                                   "A dark-card box that busts when the dealer busts too is paid its Ante only; "
                                   "its Bet is returned (leave) or taken.", choices=(LEAVE, TAKE)),
    "dealer_bet_min": Option("dealer_bet_min", Decimal(1), "amount", "The smallest dealer bet, in table units."),
}

# Card facts by spelling: (code, value, is_ace, is_picture, in_pack). Cards outside the 36-card
# pack keep their face value so the rest of the procedure can still be checked around them.
_FACE = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
_CARD: Final = loop.card_table(_FACE.__getitem__, PACK)
# The codes a hand holds are canonical codes (keys of _CARD themselves) or texts that are no card
# at all (never keys of _CARD), so these sets tell an ace or a picture from the code alone.
_ACES: Final = frozenset(info[0] for info in _CARD.values() if info[2])
_PICTURES: Final = frozenset(info[0] for info in _CARD.values() if info[3])

# Phases of the procedure.
DEAL: Final = 0
DECIDE: Final = 1
DRAWING: Final = 2
DEALER: Final = 3
DONE: Final = 4
# States of a box.
WAITING: Final = "waiting"
DRAWING_BOX: Final = "drawing"
DARK: Final = "dark"
OCHKO: Final = "ochko"
MNOGO: Final = "mnogo"
OUT: Final = "out"
FOLD: Final = "fold"
BET: Final = "bet"


_DEFAULT_RULES: Final = {name: opt.default for name, opt in OPTIONS.items()}


def house_rules(rules) -> dict:
    return plain_rules(NAME, OPTIONS, _DEFAULT_RULES, rules)


class Hand:
    """Cards on a box or in front of the dealer. A is always 11: there are no soft totals."""

    __slots__ = ("cards", "total", "invalid")

    def __init__(self):
        self.cards: list[str] = []
        self.total = 0
        self.invalid = False

    def add(self, info: tuple) -> None:
        # Runs for every card; the aces and pictures only matter for two- and five-card hands,
        # so `combination` looks at the codes instead of keeping counts here.
        self.cards.append(info[0])
        self.total += info[1]
        if not info[4]:
            self.invalid = True

    def clear(self) -> None:
        self.cards = []
        self.total = 0
        self.invalid = False

    @property
    def combination(self) -> str | None:
        """The ochko combinations that count 21 whatever the total."""
        cards = self.cards
        n = len(cards)
        if n == 2 and cards[0] in _ACES and cards[1] in _ACES:
            return "pair of aces"
        if n == 5 and _PICTURES.issuperset(cards):
            return "five pictures"
        return None

    @property
    def score(self) -> int:
        return 21 if self.combination else self.total

    @property
    def bust(self) -> bool:
        return self.total > 21 and not self.combination

    def dealer_stops(self) -> bool:
        return self.total >= 17 or self.combination is not None


class Stake:
    __slots__ = ("id", "box", "player", "ante", "dealer_bet", "owner", "decision", "bet")

    def __init__(self, id_, box, player, ante, dealer_bet, owner):
        self.id = id_
        self.box = box
        self.player = player
        self.ante = ante
        self.dealer_bet = dealer_bet
        self.owner = owner
        self.decision = None
        self.bet = None


class Box:
    __slots__ = ("number", "stakes", "hand", "state", "dark", "revealed", "dealt", "instant_at", "playing")

    def __init__(self, number):
        self.number = number
        self.stakes: list[Stake] = []
        self.hand = Hand()
        self.state = WAITING
        self.dark = None  # the dark card's code, once taken
        self.revealed = False
        self.dealt = False
        self.instant_at = None
        self.playing: list[Stake] = []


class Replay(Round):
    """The state of one round as its events are applied in order."""

    def __init__(self, doc):
        super().__init__(NAME, _HANDLERS, _CARD, "the 36-card pack (6 to Ace)", "TS")
        self.copies = DECKS
        doc = doc_.header(doc, NAME)
        self.doc = doc
        table = doc_.expect_object(doc.get("table") if "table" in doc else loop.missing("table"), "$.table")
        self.min = doc_.amount(table, "min", "$.table")
        self.max = doc_.amount(table, "max", "$.table")
        if self.min > self.max:
            raise RoundError("bad_value", f"The table minimum {fmt(self.min)} is above its maximum {fmt(self.max)}.",
                             path="$.table")
        n_boxes = doc_.integer(table, "boxes", "$.table", required=False)
        self.n_boxes = MAX_BOXES if n_boxes is None else n_boxes
        if not 1 <= self.n_boxes <= MAX_BOXES:
            raise doc_.bad_value("boxes", n_boxes, f"an ochko table has 1 to {MAX_BOXES} boxes.", "$.table")
        self.rules = house_rules(doc.get("rules"))
        self.dealer_id = doc.get("dealer")
        self.stakes: dict[str, Stake] = {}
        self.boxes: dict[int, Box] = {}
        self._read_stakes(doc.get("stakes") if "stakes" in doc else loop.missing("stakes"))
        self.order = sorted(self.boxes)  # boxes in play, 1 -> 6
        self.in_order = [self.boxes[n] for n in self.order]  # the same boxes themselves, for the hot loops
        self.dealer = Hand()
        self.phase = DEAL
        self.opened = False
        self.deal_checked = False
        self.replace_dealer_card = False
        self.pending_burn: list[str] = []  # cards already counted that a later burn event only confirms
        self.drawing_actions: list[int] = []
        self.last_draw: int | None = None
        self.dealer_stop_event: int | None = None  # set by `run`
        self.nothing_open_flagged = False
        self.out_of_turn: set[int] = set()
        self.owed: dict[tuple, Owed] = {}

    # --- the header -----------------------------------------------------------------------------

    def _read_stakes(self, raw) -> None:
        raw = doc_.expect_list(raw, "$.stakes")
        if not raw:
            raise RoundError("no_stakes", "The round has no stakes: at least one box must be played.",
                             path="$.stakes")
        owners: dict[int, str] = {}
        stakes, boxes = self.stakes, self.boxes
        for k, item in enumerate(raw):
            fast = _fast_stake(item)
            if fast is not None:
                sid, box_no, player, ante, dealer_bet, owner = fast
            else:
                path = f"$.stakes[{k}]"
                doc_.expect_object(item, path)
                doc_.unknown_fields(item, _STAKE_FIELDS, path)
                sid = doc_.text(item, "id", path)
                box_no = doc_.integer(item, "box", path)
                player = doc_.text(item, "player", path)
                ante = doc_.amount(item, "ante", path)
                dealer_bet = doc_.amount(item, "dealer_bet", path, required=False)
                owner = doc_.boolean(item, "owner", path, required=False)
            if sid in stakes:
                raise RoundError("duplicate_stake", f"Two stakes have the id \"{sid}\".",
                                 path=f"$.stakes[{k}].id")
            if owner:
                if box_no in owners:
                    raise RoundError("bad_value", f"Box {box_no} has two owners: stakes \"{owners[box_no]}\" and "
                                     f"\"{sid}\".", path=f"$.stakes[{k}].owner")
                owners[box_no] = sid
            stake = stakes[sid] = Stake(sid, box_no, player, ante, dealer_bet, bool(owner))
            box = boxes.get(box_no)
            if box is None:
                box = boxes[box_no] = Box(box_no)
            box.stakes.append(stake)
        for box in boxes.values():
            if box.number not in owners:
                box.stakes[0].owner = True
        self._check_stakes()

    def _check_stakes(self) -> None:
        add = self.findings.append
        lo, hi = self.min, self.max
        dealer_bet_min = self.rules["dealer_bet_min"]
        for number in sorted(self.boxes):
            box = self.boxes[number]
            if not 1 <= number <= self.n_boxes:
                add(Finding("BOX_PLAYERS", f"Box {number} does not exist: the table has boxes 1 to {self.n_boxes}.",
                            stake=box.stakes[0].id))
            if len(box.stakes) > MAX_STAKES_PER_BOX:
                add(Finding("BOX_PLAYERS", f"Box {number} has {len(box.stakes)} stakes: at most "
                            f"{MAX_STAKES_PER_BOX} players share a box.", stake=box.stakes[MAX_STAKES_PER_BOX].id))
            for s in box.stakes:
                if s.ante < lo or s.ante > hi:
                    add(Finding("ANTE_LIMITS", f"Box {number}, stake {s.id}: Ante {fmt(s.ante)} is outside the "
                                f"table limits {fmt(lo)}–{fmt(hi)}.", stake=s.id, wager="ante"))
                if s.dealer_bet is not None and s.dealer_bet < dealer_bet_min:
                    add(Finding("DEALER_BET_MIN", f"Box {number}, stake {s.id}: dealer bet {fmt(s.dealer_bet)} is "
                                f"under the minimum {fmt(dealer_bet_min)}.", stake=s.id,
                                wager="dealer_bet"))
            if len(box.stakes) > 1:  # one stake's Ante was checked against the maximum just above
                total = sum((s.ante for s in box.stakes), ZERO)
                if total > hi:
                    add(Finding("ANTE_LIMITS", f"Box {number}: the Antes add up to {fmt(total)}, over the table "
                                f"maximum {fmt(hi)}.", stake=box.stakes[-1].id, wager="ante"))

    # --- helpers ----------------------------------------------------------------------------

    def _stake(self, i: int, ev: dict) -> Stake:
        if "stake" in ev and ev["stake"] is None:  # an ochko log has always called this one missing
            raise doc_.missing("stake", f"$.events[{i}]", i)
        return stake_of(self.stakes, i, ev)

    def _box_number(self, i: int, ev: dict, key: str = "box") -> int:
        n = ev.get(key)
        if type(n) is not int:
            if n is None and key not in ev:
                raise doc_.missing(key, f"$.events[{i}]", i)
            raise doc_.wrong_type(key, n, "a box number", f"$.events[{i}]", i)
        return n

    def _too_many(self, i: int, code: str, n: int) -> None:
        self._flag("CARD_COUNT", f"Event {i}: {_cards.label(code)} appears {n} times; the shoe holds only "
                   f"{DECKS}.", i)

    def _check_dealt(self, i: int) -> None:
        if self.deal_checked:
            return
        self.deal_checked = True
        for box in self.in_order:
            if not box.dealt:
                self._flag("DEAL_ORDER", f"Box {box.number} was never dealt its card.", i)
        if not self.dealer.cards:
            self._flag("DEAL_ORDER", "The dealer never dealt his own card.", i)

    def _who(self, stake_id: str, hand=None) -> str:
        stake = self.stakes.get(stake_id)
        return f"Box {stake.box}, stake {stake_id}" if stake else f"Stake {stake_id}"

    def _owe(self, stake: Stake, wager: str, result: str, size: Decimal, kind: str, why: str,
             event: int | None = None) -> None:
        # Every ochko wager pays 1:1, so the amount paid is the wager itself.
        self.owed[(stake.id, None, wager)] = Owed(stake.id, None, wager, result, size, size, kind, why, event)

    def _first_drawing_box(self) -> Box | None:
        """The box whose turn it is: boxes draw 1 → 6."""
        return first_in(self.in_order, DRAWING_BOX)

    # --- events -------------------------------------------------------------------------------

    def ran(self) -> None:
        # Where the dealer stopped: the first event after his last draw, if any came after it
        # (worked out once here rather than tested at every event).
        last, n = self.last_draw, self.events_seen
        self.dealer_stop_event = last + 1 if last is not None and last + 1 < n else None

    def _deal(self, i: int, ev: dict) -> None:
        to = deal_target(i, ev, "dealer", "a box number or \"dealer\"")
        info = self._card(i, ev)
        if self.phase != DEAL:
            self._flag("DEAL_ORDER", f"Event {i}: a card dealt to {'the dealer' if to == 'dealer' else f'box {to}'} "
                       f"after the decisions began.", i)
        if to == "dealer":
            if self.replace_dealer_card:
                self.replace_dealer_card = False
                self.dealer.clear()
            elif self.dealer.cards:
                self._flag("DEAL_ORDER", f"Event {i}: the dealer dealt himself a second card.", i)
            else:
                for earlier in self.in_order:
                    if not earlier.dealt:
                        self._flag("DEAL_ORDER", f"Event {i}: the dealer's card was dealt before box "
                                   f"{earlier.number}'s.", i)
                        break
            self.dealer.add(info)
            return
        box = self.boxes.get(to)
        if box is None:
            self._flag("DEAL_ORDER", f"Event {i}: box {to} has no stakes, so nothing is dealt to it.", i)
            return
        if box.dealt:
            self._flag("DEAL_ORDER", f"Event {i}: box {to} was dealt twice.", i)
        elif self.dealer.cards:
            self._flag("DEAL_ORDER", f"Event {i}: box {to} was dealt after the dealer's own card.", i)
        else:
            for first in self.in_order:
                if not first.dealt:
                    if first is not box:
                        self._flag("DEAL_ORDER", f"Event {i}: box {to} was dealt before box {first.number}: the "
                                   f"deal goes 1 → 6.", i)
                    break
        box.dealt = True
        box.hand.add(info)

    def _decide(self, i: int, stake: Stake, what: str) -> bool:
        if self.opened:
            self._flag("ILLEGAL_ACTION", f"Event {i}: stake {stake.id} {what} after the dealer opened his card.", i,
                       stake=stake.id)
        if stake.decision is not None:
            done = "folded" if stake.decision == FOLD else f"placed its Bet of {fmt(cast(Decimal, stake.bet))}"
            self._flag("ILLEGAL_ACTION", f"Event {i}: stake {stake.id} already {done}.", i, stake=stake.id)
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
        if self._decide(i, stake, "folded"):
            self._do_fold(i, stake)

    def _do_fold(self, i: int | None, stake: Stake) -> None:
        stake.decision = FOLD
        why = "the stake folded: the Ante goes to the float"
        self._owe(stake, "ante", TAKE, stake.ante, "fold", why, i)
        if stake.dealer_bet is not None:
            self._owe(stake, "dealer_bet", TAKE, stake.dealer_bet, "fold", "the stake folded", i)

    def _bet(self, i: int, ev: dict) -> None:
        try:
            stake = self.stakes[ev["stake"]]
        except (KeyError, TypeError):
            stake = self._stake(i, ev)  # raises the precise error
        amount = doc_.event_amount(ev, i)
        if not self._decide(i, stake, "placed a Bet"):
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
            self._flag("BET_RANGE", f"Box {stake.box}, stake {stake.id}: Bet {fmt(amount)} is outside 1–10× its "
                       f"Ante ({fmt(stake.ante)}–{fmt(stake.ante * BET_MULTIPLE_MAX)}).", i, stake=stake.id,
                       wager="bet")

    def _open(self, i: int, ev: dict) -> None:
        if self.opened:
            self._flag("ILLEGAL_ACTION", f"Event {i}: the dealer opened his card a second time.", i)
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
                    self._flag("ILLEGAL_ACTION", f"Stake {stake.id} (box {box.number}) neither folded nor placed a "
                               f"Bet; it counts as folded.", i, stake=stake.id)
                    self._do_fold(i, stake)

    def _ensure_open(self, i: int, who: str) -> None:
        if not self.opened:
            self._flag("ILLEGAL_ACTION", f"Event {i}: {who} before the dealer opened his card.", i)
            self._do_open(i)

    def _box_event(self, i: int, ev: dict) -> None:
        """hit, dark or stand: the box's drawing, in turn 1 → 6."""
        action = ev["e"]
        n = ev.get("box")
        if type(n) is not int:
            n = self._box_number(i, ev)
        info = self._card(i, ev) if action != "stand" else None
        if not self.opened:  # checked here so that the message is only built when it is needed
            self._ensure_open(i, f"box {n} drew")
        self.drawing_actions.append(i)
        box = self.boxes.get(n)
        if box is None or box.state != DRAWING_BOX:
            if box is None or box.state == OUT:
                self._flag("ILLEGAL_ACTION", f"Event {i}: box {n} is not in play.", i)
            else:
                self._flag("ILLEGAL_ACTION", f"Event {i}: box {n} {_FINISHED[box.state](box)}; it cannot "
                           f"{_ACTION_WORDS[action]}.", i, stake=box.stakes[0].id)
            return
        if self.phase >= DEALER:
            self._flag("DRAW_ORDER", f"Event {i}: box {n} drew after the dealer had started drawing.", i)
        elif n not in self.out_of_turn:
            # The first box still drawing: this box, which is drawing, or one before it.
            first = self._first_drawing_box()
            if first is not None and first is not box:
                self.out_of_turn.add(n)
                self._flag("DRAW_ORDER", f"Event {i}: box {n} drew before box {first.number} had finished; boxes "
                           f"draw 1 → 6.", i)
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
            why = f"ochko ({combo or '21'}) while drawing: Bet and Ante are paid 1:1 at once"
            for s in box.playing:
                self._owe(s, "bet", PAY, cast(Decimal, s.bet), "instant", why, i)  # a playing stake has bet
                self._owe(s, "ante", PAY, s.ante, "instant", why, i)
                if s.dealer_bet is not None:
                    self._owe(s, "dealer_bet", PAY, s.dealer_bet, "instant_db", "the box won: paid 1:1", i)
        elif hand.total > 21:
            box.state = MNOGO
            why = f"mnogo ({hand.total}): Bet and Ante go to the float at once"
            ace = self._dealer_first_is_ace()
            for s in box.playing:
                self._owe(s, "bet", TAKE, cast(Decimal, s.bet), "instant", why, i)
                self._owe(s, "ante", TAKE, s.ante, "instant", why, i)
                if s.dealer_bet is not None:
                    if ace:
                        self._owe(s, "dealer_bet", LEAVE, s.dealer_bet, "instant_db",
                                  "the dealer's first card is an Ace: the dealer bet stays", i)
                    else:
                        self._owe(s, "dealer_bet", TAKE, s.dealer_bet, "instant_db", "the box lost", i)
        else:
            return
        box.instant_at = i

    def _dealer_first_is_ace(self) -> bool:
        return bool(self.dealer.cards) and self.dealer.cards[0][0] == "A"

    def _draw(self, i: int, ev: dict) -> None:
        info = self._card(i, ev)
        if not self.opened:
            self._ensure_open(i, "the dealer drew")
        anything_open = False  # a box still waiting for the dealer's result
        for box in self.in_order:
            state = box.state
            if state == DRAWING_BOX:
                self._flag("DRAW_ORDER", f"Event {i}: the dealer drew before box {box.number} had finished "
                           f"drawing.", i)
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
                self._flag("DEALER_DRAW_RULE", f"Event {i}: the dealer drew although every box was already settled; "
                           f"he should discard his card without drawing.", i)
        elif self.dealer.dealer_stops():
            combo = self.dealer.combination
            self._flag("DEALER_DRAW_RULE", f"Event {i}: the dealer drew on "
                       f"{combo or self.dealer.total}; he must stop on 17 or more"
                       f"{'' if not combo else ' and on a ' + combo}.", i)
        self.dealer.add(info)
        self.last_draw = i
        self.drawing_actions.append(i)

    def _reveal(self, i: int, ev: dict) -> None:
        n = self._box_number(i, ev)
        box = self.boxes.get(n)
        if box is None or box.dark is None:
            self._flag("ILLEGAL_ACTION", f"Event {i}: box {n} has no dark card to reveal.", i)
            return
        if box.revealed:
            self._flag("ILLEGAL_ACTION", f"Event {i}: box {n}'s dark card was already revealed.", i)
            return
        box.revealed = True
        if self.phase < DEALER:
            self._flag("ILLEGAL_ACTION", f"Event {i}: box {n}'s dark card was turned before the dealer finished "
                       f"drawing; nobody may see it until then.", i, stake=box.stakes[0].id)

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
            raise doc_.bad_value("wager", ev["wager"], "an ochko wager is \"ante\", \"bet\" or \"dealer_bet\".",
                                 f"$.events[{i}]", i) from None
        amount = doc_.event_amount(ev, i, required=result == PAY)
        self.settled.append(Settled(i, stake.id, None, wager, result, amount))

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
            raise doc_.bad_value("kind", kind, "an incident is \"dealer_card_exposed\" or \"misdrawn_card\".", path, i)
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
            raise doc_.bad_value("resolution", resolution, "it is \"burned\", \"under_shoe\" or {\"to\": <box>}.",
                                 path, i)
        reported_by = doc_.text(ev, "reported_by", path, i)
        approved_by = doc_.text(ev, "approved_by", path, i, required=False, nullable=True)
        doc_.text(ev, "note", path, i, required=False, nullable=True)
        what = "the dealer's exposed card" if kind == "dealer_card_exposed" else "the misdrawn card"
        if approved_by is None:
            self._flag("INCIDENT_UNAPPROVED", f"Event {i}: {what} ({text}) has no pit boss's approval on record.", i)
        elif approved_by == reported_by:
            self._flag("INCIDENT_UNAPPROVED", f"Event {i}: {what} was approved by {approved_by}, who reported it; "
                       f"another person must approve.", i)
        elif self.dealer_id is not None and approved_by == self.dealer_id:
            self._flag("INCIDENT_UNAPPROVED", f"Event {i}: {what} was approved by the round's own dealer "
                       f"{approved_by}; a dealer never resolves his own incident.", i)
        code = _cards.normalize(text) or text
        if kind == "dealer_card_exposed":
            if resolution != "burned":
                self._flag("INCIDENT_RESOLUTION", f"Event {i}: the dealer's exposed card must be burned in the pit "
                           f"boss's presence and replaced, not {_resolution_words(resolution)}.", i)
            if self.dealer.cards:
                # The exposed card is already counted; its burn only confirms it left play.
                self.pending_burn.append(self.dealer.cards[-1])
                self.replace_dealer_card = True
            return
        info = _CARD.get(text) or (text, 0, False, False, False)
        self._count(i, info)
        if not exposed:
            if resolution != "under_shoe":
                self._flag("INCIDENT_RESOLUTION", f"Event {i}: a misdrawn card that nobody saw goes under the shoe, "
                           f"not {_resolution_words(resolution)}.", i)
            self.pending_burn.append(code)
            return
        if resolution == "under_shoe":
            self._flag("INCIDENT_RESOLUTION", f"Event {i}: an exposed misdrawn card stays on the table; the pit boss "
                       f"places it on a box or has it burned.", i)
            self.pending_burn.append(code)
        elif resolution == "burned":
            self.pending_burn.append(code)
        else:
            box = self.boxes.get(cast(int, to_box))  # read above: the resolution is {"to": <box>}
            if box is None or box.state in (OUT, STOOD, DARK, OCHKO, MNOGO):
                self._flag("INCIDENT_RESOLUTION", f"Event {i}: the pit boss placed the card on box {to_box}, which "
                           f"is not drawing.", i)
                return
            box.hand.add(info)
            if box.state == DRAWING_BOX:
                self._instant(i, box)

    # --- the end of the round -------------------------------------------------------------------

    def finish(self) -> Outcome:
        if not self.opened:
            self._flag("ILLEGAL_ACTION", "The round ends before the dealer opened his card.", None)
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
                self._flag("DEALER_DRAW_RULE", f"The dealer stopped on {dealer.total}; he must draw on 16 or less.",
                           self.dealer_stop_event)
            self._settle_open_boxes(open_boxes)
            if dealer.invalid:
                invalid = True
        if invalid:
            wagers = None
        else:
            wagers = sorted(self.owed.values(), key=_wager_key)
            if self.settled and not self._settled_as_owed():
                first = compare_settlements(self.owed, self.settled, self.findings, who=self._who,
                                            wager_label=WAGER_LABEL.__getitem__)
                self._check_timing(first)
        return Outcome(NAME, wagers, loop.sort_findings(self.findings), self.shoe_cards, self.rules,
                       settled=self.settled)

    def _settle_open_boxes(self, open_boxes: list[Box]) -> None:
        dealer = self.dealer
        d_score, d_bust, d_combo = dealer.score, dealer.bust, dealer.combination
        ace = self._dealer_first_is_ace()
        rules = self.rules
        if d_bust:
            d_words = f"the dealer busts with {dealer.total}"
        else:
            d_words = f"the dealer has {d_combo or d_score}"
        for box in open_boxes:
            hand = box.hand
            dark = box.dark is not None
            combo = hand.combination  # Hand.score and Hand.bust, without working it out three times
            b_score = 21 if combo else hand.total
            b_bust = hand.total > 21 and not combo
            b_words = combo or str(hand.total)
            if b_bust and d_bust and dark:
                outcome, why = "double_bust", f"dark card busts ({hand.total}) and {d_words}: only the Ante is paid"
                bet_result = rules["dark_double_bust_bet"]
            elif not b_bust and (d_bust or b_score > d_score):
                outcome = "win"
                if dark:
                    why = f"dark-card box wins ({b_words}; {d_words}): only the Ante is paid"
                    bet_result = rules["dark_win_bet"]
                else:
                    why = f"box {b_words} wins; {d_words}"
                    bet_result = PAY
            elif not b_bust and b_score == d_score:
                outcome, why = "tie", f"tie: {b_words} against {d_words.removeprefix('the dealer has ')} — ties lose"
            else:
                outcome = "loss"
                why = (f"dark card busts ({hand.total}); {d_words}" if b_bust else f"box {b_words} loses; {d_words}")
            for s in box.playing:
                if outcome in ("win", "double_bust"):
                    self._owe(s, "ante", PAY, s.ante, "final", why)
                    self._owe(s, "bet", bet_result, cast(Decimal, s.bet), "final", why)
                    if s.dealer_bet is not None:
                        self._owe(s, "dealer_bet", PAY, s.dealer_bet, "final", "the box won: paid 1:1")
                else:
                    self._owe(s, "ante", TAKE, s.ante, "final", why)
                    self._owe(s, "bet", TAKE, cast(Decimal, s.bet), "final", why)
                    if s.dealer_bet is not None:
                        if outcome == "tie":
                            self._owe(s, "dealer_bet", LEAVE, s.dealer_bet, "final", "tie: the dealer bet stays")
                        elif ace:
                            self._owe(s, "dealer_bet", LEAVE, s.dealer_bet, "final",
                                      "the dealer's first card is an Ace: the dealer bet stays")
                        else:
                            self._owe(s, "dealer_bet", TAKE, s.dealer_bet, "final", "the box lost")

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
                    self._flag("LATE_SETTLEMENT", f"Event {at}: {self._who(o.stake)}'s {WAGER_LABEL[o.wager]} "
                               f"({'ochko' if o.result == PAY else 'mnogo'} at event {o.event}) was settled only "
                               f"after the next drawing action (event {a}).", at, stake=o.stake, wager=o.wager)
                continue
            stake = stakes[s.stake]
            box_no = stake.box
            if s.wager == "dealer_bet" and stake.decision == BET and last_main.get(box_no, -1) > s.event:
                self._flag("PAYMENT_ORDER", f"Event {s.event}: {self._who(s.stake)}'s dealer bet was settled before "
                           f"the box's Bet and Ante.", s.event, stake=s.stake, wager=s.wager)
                continue
            if o.kind != "final":
                continue
            if last_draw is not None and s.event < last_draw:
                self._flag("PAYMENT_ORDER", f"Event {s.event}: {self._who(s.stake)} was settled before the dealer "
                           f"finished drawing.", s.event, stake=s.stake, wager=s.wager)
                continue
            if last_box is not None and box_no > last_box:
                self._flag("PAYMENT_ORDER", f"Event {s.event}: box {box_no} was settled after box {last_box}; "
                           f"settlement goes from box 6 down to box 1.", s.event, stake=s.stake, wager=s.wager)
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
                        moves.append(_move("bet", f"Stake {s.id} (box {number}) may play: a Bet of "
                                           f"{fmt(s.ante)}–{fmt(s.ante * BET_MULTIPLE_MAX)}.", needs=["amount"],
                                           stake=s.id, min=fmt(s.ante), max=fmt(s.ante * BET_MULTIPLE_MAX)))
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
            return [_move("hit", say, needs=["card"], box=n), _move("stand", say, box=n),
                    _move("dark", say, needs=["card"], box=n)]
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
            main = [final[(s.id, None, w)] for s in box.playing for w in ("bet", "ante")
                    if (s.id, w) not in done]
            if main:
                return [self._settle_move(o) for o in main]
            extra = [final[(s.id, None, "dealer_bet")] for s in box.playing
                     if s.dealer_bet is not None and (s.id, "dealer_bet") not in done]
            if extra:
                return [self._settle_move(o) for o in extra]
        return []

    def _all_dealt(self) -> bool:
        return all(self.boxes[n].dealt for n in self.order) and bool(self.dealer.cards) \
            and not self.replace_dealer_card

    def _unsettled(self) -> list[Owed]:
        done = {(s.stake, s.wager) for s in self.settled}
        return [o for o in self.owed.values() if (o.stake, o.wager) not in done]

    def _settle_move(self, o: Owed) -> dict:
        label = WAGER_LABEL[o.wager]
        who = f"stake {o.stake} (box {self.stakes[o.stake].box})"
        if o.result == PAY:
            return _move(PAY, f"Pay {who} its {label} {fmt(o.amount)}.", stake=o.stake, wager=o.wager,
                         amount=fmt(o.amount))
        if o.result == TAKE:
            return _move(TAKE, f"Take {who}'s {label} {fmt(o.size)} to the float.", stake=o.stake, wager=o.wager,
                         amount=fmt(o.size))
        return _move(LEAVE, f"Leave {who}'s {label} {fmt(o.size)} (returned, not paid).", stake=o.stake,
                     wager=o.wager)


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


def _instant_order(owed: list[Owed]) -> list[Owed]:
    return sorted(owed, key=lambda o: (o.event or 0, o.wager != "bet", o.wager))


def _resolution_words(resolution) -> str:
    if isinstance(resolution, dict):
        return f"placed on box {resolution.get('to')}"
    return {"under_shoe": "put under the shoe", "burned": "burned"}.get(resolution, repr(resolution))


# (stake, wager): settlement/1's order. attrgetter builds the key in C, without a Python call per wager.
_wager_key = attrgetter("stake", "wager")


_FINISHED: Final = {
    STOOD: lambda b: f"already stood on {b.hand.total}",
    DARK: lambda b: "has taken its dark card, which ends its drawing",
    OCHKO: lambda b: "already has ochko",
    MNOGO: lambda b: f"already has mnogo ({b.hand.total})",
    WAITING: lambda b: "is not drawing",
}
_ACTION_WORDS: Final = {"hit": "take another card", "dark": "take a dark card", "stand": "stand again"}
_STAKE_FIELDS: Final = frozenset({"id", "box", "player", "ante", "dealer_bet", "owner"})
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
    "burn": frozenset({"e", "card", "reason"}),
    "incident": frozenset({"e", "kind", "card", "exposed", "resolution", "reported_by", "approved_by", "note"}),
}
# event name -> (handler, the fields it may carry)
_HANDLERS: Final[Handlers] = {
    "deal": (Replay._deal, _FIELDS["deal"]),
    "fold": (Replay._fold, _FIELDS["fold"]),
    "bet": (Replay._bet, _FIELDS["bet"]),
    "open": (Replay._open, _FIELDS["open"]),
    "hit": (Replay._box_event, _FIELDS["hit"]),
    "dark": (Replay._box_event, _FIELDS["dark"]),
    "stand": (Replay._box_event, _FIELDS["stand"]),
    "draw": (Replay._draw, _FIELDS["draw"]),
    "reveal": (Replay._reveal, _FIELDS["reveal"]),
    "pay": (Replay._settle, _FIELDS["pay"]),
    "take": (Replay._settle, _FIELDS["take"]),
    "leave": (Replay._settle, _FIELDS["leave"]),
    "burn": (Replay._burn, _FIELDS["burn"]),
    "incident": (Replay._incident, _FIELDS["incident"]),
}


def _fast_stake(item):
    """A well-formed stake read without ceremony, or None to let the precise readers explain.

    Subscripts and `in` rather than .get(): they skip a method call each, and any stake that is
    not plainly well-formed simply goes to the precise readers.
    """
    if type(item) is not dict or not _STAKE_FIELDS.issuperset(item):
        return None
    try:
        sid, box_no, player, ante = item["id"], item["box"], item["player"], item["ante"]
    except KeyError:
        return None
    if type(sid) is not str or type(box_no) is not int or type(player) is not str or type(ante) is not int:
        return None
    ante = _INT_AMOUNTS.get(ante)
    if ante is None or not sid.strip() or not player.strip():
        return None
    dealer_bet = owner = None
    if "dealer_bet" in item:
        dealer_bet = item["dealer_bet"]
        if type(dealer_bet) is not int:
            return None
        dealer_bet = _INT_AMOUNTS.get(dealer_bet)
        if dealer_bet is None:
            return None
    if "owner" in item:
        owner = item["owner"]
        if type(owner) is not bool:
            return None
    return sid, box_no, player, ante, dealer_bet, owner


LOAD_BURNS: Final = 6
DEALER_CHANGE_BURNS: Final = 1


def shoe_findings(shoe) -> list[Finding]:
    """BURN_COUNT, BURN_FEE and CARD_COUNT over a shoe (rules/ochko.md, The shoe)."""
    from .shoe import count_cards

    findings: list[Finding] = []
    fee_due = shoe.table_min / 2
    # The shoe document starts at its loading: 6 burns are due before the first round.
    due: tuple[str, int, int] | None = ("load", LOAD_BURNS, 0)
    burns = 0
    for item in shoe.items:
        if item.e in ("shuffle", "dealer_change"):
            due = ("load", LOAD_BURNS, item.index) if item.e == "shuffle" else \
                ("dealer_change", DEALER_CHANGE_BURNS, item.index)
            burns = 0
        elif item.e == "burn":
            if item.reason == "paid":
                if item.fee != fee_due:
                    paid = "no fee" if item.fee is None else f"a fee of {fmt(item.fee)}"
                    findings.append(Finding("BURN_FEE", f"Shoe item {item.index}: a paid burn with {paid}; the fee is "
                                            f"half the table minimum, {fmt(fee_due)}.", event=item.index))
            elif due is not None:
                burns += 1
        elif item.e == "round" and due is not None:
            what, wanted, at = due
            if burns != wanted:
                after = "the shoe was loaded" if what == "load" else "the dealer changed"
                findings.append(Finding("BURN_COUNT", f"Shoe item {item.index}: after {after} (item {at}) {burns} "
                                        f"card(s) were burned before the next round; the procedure burns {wanted}.",
                                        event=item.index))
            due = None
    count_cards(shoe.items, DECKS, PACK, findings)
    return loop.sort_findings(findings)
