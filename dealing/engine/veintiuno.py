"""21 ecuatoriano (veintiuno), the rotating-bank home game (rules/veintiuno.md): replay, settle,
audit, next moves.

Nobody is a house here: one player holds the **bank** and deals; the others sit at seats 1, 2, …
(seat 1 at the bank's right is *pie de banco*). A round is replayed event by event — the first
pass face down, the bets, the second pass face up, the hands in playing order, the bank, the
settlement and the passing of the bank. Each event is validated as it is applied (a log we
cannot follow raises `RoundError`), every departure from the rules becomes a `Finding`, and the
replay keeps going so that one mistake never hides the next. An illegal action that physically
happened (a split with the wrong amount, a withdraw without a 13, …) is flagged and then settled
as it was played; one that cannot take effect (a card to a hand already over) is flagged and
ignored.

Hands are named by seat (``"2"``); opening (splitting) hand ``H`` makes ``H.1`` (its first card,
keeping the bet) and ``H.2`` (its second card, with the new bet), played in that order, depth
first (``"2.1.1"`` after a second opening).

Decisions where the rules page is silent (it decides everything it says):
- Pie de banco is the first seat in play (seat 1 when it is taken).
- A two-card 13 counts aces at their best, so A 2 is a 13. The bank's two-card 12 counts 20, so
  it may send the table al puje; a suited one counts 21 and may not.
- Opening takes twice the bet of the hand being opened (round-format.md); the amount is not held
  to the bank's maximum. An opened hand plays face up, so a tapo on it is illegal.
- A trillona is 21 in exactly seven cards (eight cards making 21 are a plain 21); a tapo card can
  complete one, and then it pays 7:1 like any trillona.
- A natural is declared "at once": after its second card and before any other playing action (a
  hit, stand, tapo, opening, withdraw, void or the bank's draw). A late declaration is illegal and
  the hand plays on as a plain 21.
- Al puje a hand may still withdraw on 13, open a pair or declare; it may not stand or take a tapo
  under 21. The puje may come at any time while the bank holds its two cards.
- A void returns every bet, a natural declared before it included, and the bank stays.
- Hitting on 21 is not illegal (a soft 21 may draw on, and a trillona is chased that way); a hand
  on 21 does not hold up the hands after it.
- No drawing rule for the bank (it plays by its own choice): only a draw over 21 is illegal.
- A bust hand's bet goes to the bank at once, but settling it later is not a finding; neither is
  a log without `bank_to` (only a `bank_to` naming the wrong player is).
"""

from decimal import Decimal
from typing import Final

from . import cards as _cards
from . import document as doc_
from . import loop
from .base import LEAVE, PAY, TAKE, Option, Outcome, Owed, Settled, compare_settlements, plain_rules
from .errors import RoundError
from .findings import Finding
from .loop import PLAYING, SPLIT, STOOD, Handlers, Round, deal_target, lookup, soft_total, stake_of
from .loop import move as _move
from .money import fmt

NAME: Final = "veintiuno"
RANKS: Final = "A234567JQK"
PACK: Final = _cards.pack(RANKS)
PACK_SIZE: Final = len(PACK)  # 40
PICTURES: Final = frozenset("JQK")
TRILLONA_CARDS: Final = 7

WAGERS: Final = ("bet",)
WAGER_LABEL: Final = {"bet": "bet"}

OPTIONS: Final = {
    "suited_twelve_pays": Option("suited_twelve_pays", 2, "int",
                                 "A two-card 12 of one suit counts 21 and pays this many times the bet "
                                 "(unless the bank holds a natural).", minimum=1, maximum=10),
    "packs": Option("packs", 1, "int", "How many 40-card packs are shuffled together (one by default, more by "
                    "agreement).", minimum=1, maximum=8),
}

# Two-card hands (rules/veintiuno.md, Special hands).
NATURAL: Final = "natural"
MONONA: Final = "moñona"
RELANCINA: Final = "relancina"
TWELVE: Final = "twelve"
SUITED_TWELVE: Final = "suited twelve"
KIND_VALUE: Final = {NATURAL: 21, MONONA: 21, SUITED_TWELVE: 21, TWELVE: 20, RELANCINA: 20}
KIND_WORDS: Final = {NATURAL: "a natural (A + picture)", MONONA: "a moñona (two aces)", RELANCINA: "a relancina",
              TWELVE: "a two-card 12 (counts 20)", SUITED_TWELVE: "a suited two-card 12 (counts 21)"}

# Card facts by spelling: (code, value with A as 1, is_ace, is_picture, in_pack). Cards outside the
# 40-card pack keep their face value so the rest of the round can still be checked around them.
_FACE: Final = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 10, "Q": 10, "K": 10, "A": 1}
_CARD: Final = loop.card_table(_FACE.__getitem__, PACK)
_BY_CODE: Final = {info[0]: info for info in _CARD.values()}


def _classify(a: str, b: str) -> str | None:
    ra, rb = a[0], b[0]
    if ra == "A" and rb == "A":
        return MONONA
    if (ra == "A" and rb in PICTURES) or (rb == "A" and ra in PICTURES):
        return NATURAL
    if ra in PICTURES and rb in PICTURES:
        return RELANCINA if ra != rb else None
    if ra != "A" and rb != "A" and _FACE[ra] + _FACE[rb] == 12:
        return SUITED_TWELVE if a[1] == b[1] else TWELVE
    return None


_TWO: Final[dict[tuple, str]] = {}
for _a in _BY_CODE:
    for _b in _BY_CODE:
        _kind = _classify(_a, _b)
        if _kind is not None:
            _TWO[(_a, _b)] = _kind
del _a, _b, _kind

# Hand states (with loop.PLAYING, STOOD and SPLIT).
BUST: Final = "over"
TAPO: Final = "tapo"
DECLARED: Final = "declared"
WITHDRAWN: Final = "withdrawn"
_FINISHED: Final = {
    STOOD: "has already stood",
    BUST: "is already over 21",
    TAPO: "has taken its tapo y quedo card, which ends it",
    DECLARED: "is a declared natural, already finished",
    WITHDRAWN: "has withdrawn",
    SPLIT: "has been opened into two hands",
}


_DEFAULT_RULES: Final = {name: opt.default for name, opt in OPTIONS.items()}


def house_rules(rules) -> dict:
    return plain_rules(NAME, OPTIONS, _DEFAULT_RULES, rules)


class Hand:
    """The cards of one hand (or of the bank). Aces count 11 when that does not take it over 21."""

    __slots__ = ("name", "seat", "stake", "infos", "hard", "aces", "bet", "state", "split_child", "dealt",
                 "second_at", "invalid", "rank")

    def __init__(self, name: str, seat, stake, bet: Decimal | None = None, split_child: bool = False):
        self.name = name
        self.seat = seat
        self.stake = stake
        self.infos: list[tuple] = []
        self.hard = 0
        self.aces = 0
        self.bet = bet
        self.state = PLAYING
        self.split_child = split_child
        self.dealt = 0  # cards from the two passes of the deal
        self.second_at = -1  # the event that gave it its second card
        self.invalid = False
        self.rank = 0  # position in playing order (refreshed on a split)

    def add(self, info: tuple) -> None:
        self.infos.append(info)
        self.hard += info[1]
        self.aces += info[2]
        if not info[4]:
            self.invalid = True

    @property
    def kind(self) -> str | None:
        infos = self.infos
        if len(infos) != 2:
            return None
        return _TWO.get((infos[0][0], infos[1][0]))

    @property
    def best(self) -> int:
        return soft_total(self.hard, self.aces)

    @property
    def value(self) -> int:
        infos = self.infos
        if len(infos) == 2:
            kind = _TWO.get((infos[0][0], infos[1][0]))
            if kind is not None:
                return KIND_VALUE[kind]
        return soft_total(self.hard, self.aces)

    @property
    def thirteen(self) -> bool:
        return len(self.infos) == 2 and self.best == 13

    @property
    def trillona(self) -> bool:
        return len(self.infos) == TRILLONA_CARDS and self.best == 21

    def words(self) -> str:
        kind = self.kind
        if kind is not None:
            return KIND_WORDS[kind]
        if self.trillona:
            return "a trillona (21 in seven cards)"
        return str(self.best)

    def cards_label(self) -> str:
        return " ".join(_cards.label(info[0]) for info in self.infos)


class Stake:
    __slots__ = ("id", "seat", "player", "bet", "hand")
    hand: "Hand"  # given by Replay as soon as the stakes are read: the hand and its stake name each other

    def __init__(self, id_: str, seat: int, player: str):
        self.id = id_
        self.seat = seat
        self.player = player
        self.bet: Decimal | None = None


class Replay(Round):
    """The state of one round as its events are applied in order."""

    def __init__(self, doc):
        super().__init__(NAME, _HANDLERS, _CARD, "the 40-card pack (A, 2–7, J, Q, K; no 8, 9 or 10)", "KS")
        doc = doc_.header(doc, NAME)
        self.doc = doc
        if "table" not in doc:
            raise doc_.missing("table", "$")
        table = doc_.expect_object(doc["table"], "$.table")
        self.min = doc_.amount(table, "min", "$.table")
        self.max = doc_.amount(table, "max", "$.table")
        if self.min > self.max:
            raise RoundError("bad_value", f"The bank's minimum bet {fmt(self.min)} is above its maximum "
                             f"{fmt(self.max)}.", path="$.table")
        self.bank_player = doc_.text(doc, "bank", "$")
        self.rules = house_rules(doc.get("rules"))
        self.packs = self.copies = self.rules["packs"]
        self.suited_pays = Decimal(self.rules["suited_twelve_pays"])
        self.stakes: dict[str, Stake] = {}
        self.by_seat: dict[int, Stake] = {}
        if "stakes" not in doc:
            raise doc_.missing("stakes", "$")
        self._read_stakes(doc["stakes"])
        self.seats = sorted(self.by_seat)
        self.pie = self.seats[0]  # pie de banco: the first to play after the bank
        self.hands: dict[str, Hand] = {}
        self.order: list[Hand] = []  # the hands still in the game's playing order (split hands replaced)
        for seat in self.seats:
            stake = self.by_seat[seat]
            hand = Hand(str(seat), seat, stake)
            stake.hand = hand
            self.hands[hand.name] = hand
            hand.rank = len(self.order)
            self.order.append(hand)
        self.bank = Hand("bank", None, None)
        # The deal as it should come: each pass from the first seat onwards, then the bank.
        self.plan = [(p, seat) for p in (0, 1) for seat in self.seats + ["bank"]]
        self.plan_at = 0  # the next card due in `plan` (while the deal goes in order)
        self.deal_left = len(self.plan)  # cards of the two passes still to come
        self.second_pass = False
        self.play_started: int | None = None
        self.last_action = -1  # the last playing action of a hand or the bank (a natural is declared before it)
        self.puje: int | None = None
        self.voided: int | None = None
        self.bank_drew = False
        self.bank_to: list[tuple[int, str]] = []

    # --- the header -----------------------------------------------------------------------------

    def _read_stakes(self, raw) -> None:
        raw = doc_.expect_list(raw, "$.stakes")
        if not raw:
            raise RoundError("no_stakes", "The round has no stakes: at least one player must sit against the bank.",
                             path="$.stakes")
        for k, item in enumerate(raw):
            path = f"$.stakes[{k}]"
            if type(item) is dict and item.keys() <= _STAKE_FIELDS and type(item.get("id")) is str \
                    and type(item.get("seat")) is int and type(item.get("player")) is str \
                    and item["id"].strip() and item["player"].strip():
                sid, seat, player = item["id"], item["seat"], item["player"]  # well formed: no ceremony
            else:
                doc_.expect_object(item, path)
                doc_.unknown_fields(item, _STAKE_FIELDS, path)
                sid = doc_.text(item, "id", path)
                seat = doc_.integer(item, "seat", path)
                player = doc_.text(item, "player", path)
            if sid in self.stakes:
                raise RoundError("duplicate_stake", f"Two stakes have the id \"{sid}\".", path=f"{path}.id")
            if seat < 1:
                raise doc_.bad_value("seat", seat, "seats are numbered from 1 (pie de banco, at the bank's right).",
                                     path)
            if seat in self.by_seat:
                raise RoundError("duplicate_seat", f"Stakes \"{self.by_seat[seat].id}\" and \"{sid}\" both sit at "
                                 f"seat {seat}; one player per seat.", path=f"{path}.seat")
            if player == self.bank_player:
                raise doc_.bad_value("player", player, "this player holds the bank this round and cannot also bet "
                                     "against it.", path)
            stake = Stake(sid, seat, player)
            self.stakes[sid] = stake
            self.by_seat[seat] = stake

    # --- helpers ----------------------------------------------------------------------------

    def _illegal(self, i: int | None, hand: Hand | None, message: str) -> None:
        stake = hand.stake.id if hand is not None and hand.stake is not None else None
        self.findings.append(Finding("ILLEGAL_ACTION", message, event=i, stake=stake,
                                     hand=hand.name if hand is not None and hand.stake is not None else None))

    def _stake(self, i: int, ev: dict) -> Stake:
        return stake_of(self.stakes, i, ev)

    def _hand(self, i: int, ev: dict) -> Hand:
        return lookup(self.hands, i, ev, "hand", "a hand name such as \"2\" or \"2.1\"", "in play (hands so far: ")

    def _too_many(self, i: int, code: str, n: int) -> None:
        self._flag("CARD_COUNT", f"Event {i}: {_cards.label(code)} comes out {n} times in one round; "
                   f"{'the pack holds' if self.packs == 1 else f'{self.packs} packs hold'} only {self.packs}.", i)

    def _who(self, stake_id: str, hand: str | None = None) -> str:
        stake = self.stakes.get(stake_id)
        if stake is None:
            return f"Stake {stake_id}"
        return f"Hand {hand or stake.seat} ({stake.player}, stake {stake_id})"

    def _hand_who(self, hand: Hand) -> str:
        if hand.stake is None:
            return "The bank"
        return f"hand {hand.name} ({hand.stake.player})"

    def _deal_done(self) -> bool:
        return self.deal_left <= 0

    def _next_deal(self):
        """The card the deal owes next: (pass, seat or "bank"), or None when both passes are done."""
        for pass_no in (0, 1):
            for seat in self.seats:
                if self.by_seat[seat].hand.dealt <= pass_no:
                    return pass_no, seat
            if self.bank.dealt <= pass_no:
                return pass_no, "bank"
        return None

    def _current(self) -> Hand | None:
        """The hand whose turn it is: the first in playing order still drawing below 21."""
        for hand in self.order:
            if hand.state == PLAYING and hand.stake.bet is not None and hand.value < 21:
                return hand
        return None

    def _ready(self, i: int, hand: Hand, what: str) -> bool:
        """Checks before a hand acts. False when the action cannot take effect."""
        if self.voided is not None:
            self._illegal(i, hand, f"Event {i}: {self._hand_who(hand)} cannot {what}: the hand was voided at event "
                          f"{self.voided} and every bet returned.")
            return False
        if hand.state != PLAYING:
            self._illegal(i, hand, f"Event {i}: {self._hand_who(hand)} {_FINISHED[hand.state]}; it cannot {what}.")
            return False
        if self.deal_left > 0:
            self._flag("DEAL_ORDER", f"Event {i}: {self._hand_who(hand)} played before the deal was complete.", i,
                       stake=hand.stake.id, hand=hand.name)
        elif self.bank_drew:
            self._flag("DRAW_ORDER", f"Event {i}: {self._hand_who(hand)} played after the bank began drawing.", i,
                       stake=hand.stake.id, hand=hand.name)
        else:
            current = self._current()
            if current is not None and current.rank < hand.rank:
                self._flag("DRAW_ORDER", f"Event {i}: {self._hand_who(hand)} played before {self._hand_who(current)} "
                           f"had finished; hands play in seat order from the bank's right.", i,
                           stake=hand.stake.id, hand=hand.name)
        self.last_action = i
        if self.play_started is None:
            self.play_started = i
        return True

    # --- events -------------------------------------------------------------------------------

    def _deal(self, i: int, ev: dict) -> None:
        to = deal_target(i, ev, "bank", "a seat number or \"bank\"")
        info = self._card(i, ev)
        if to == "bank":
            hand = self.bank
        else:
            stake = self.by_seat.get(to)
            if stake is None:
                self._flag("DEAL_ORDER", f"Event {i}: nobody sits at seat {to}, so no card is dealt there.", i)
                return
            hand = stake.hand
        n = hand.dealt
        if n < 2 and self.plan_at < len(self.plan) and self.plan[self.plan_at] == (n, to) \
                and self.play_started is None and self.voided is None:
            # The deal going as it should: the common case, without ceremony.
            self.plan_at += 1
            self.deal_left -= 1
            if n == 1:
                self.second_pass = True
                hand.second_at = i
            hand.dealt = n + 1
            hand.add(info)
            return
        who = "the bank" if to == "bank" else f"seat {to}"
        if self.voided is not None:
            self._illegal(i, None, f"Event {i}: a card dealt to {who} after the hand was voided (event "
                          f"{self.voided}); the new deal is a new round.")
            return
        n = hand.dealt
        if n >= 2:
            self._flag("DEAL_ORDER", f"Event {i}: {who} was dealt a third card in the deal; a card after the deal "
                       f"is a hit (or the bank's draw).", i)
        elif self.play_started is not None:
            self._flag("DEAL_ORDER", f"Event {i}: a card dealt to {who} after play began (event "
                       f"{self.play_started}).", i)
        elif self.plan_at < len(self.plan) and self.plan[self.plan_at] == (n, to):
            self.plan_at += 1
        else:
            self.plan_at = len(self.plan)  # out of order: from now on the slow way
            due = self._next_deal()
            if due != (n, to):
                due_who = "the bank" if due[1] == "bank" else f"seat {due[1]}"
                passes = ("first pass, face down", "second pass, face up")
                self._flag("DEAL_ORDER", f"Event {i}: a card dealt to {who} when the next card was due to {due_who} "
                           f"({passes[due[0]]}); each pass goes from seat 1 onwards, then the bank.", i)
        if n == 1:
            self.second_pass = True
            hand.second_at = i
        if n < 2:
            self.deal_left -= 1
        hand.dealt = n + 1
        hand.add(info)
        if hand.stake is not None and hand.best > 21:  # only a third card can do this
            hand.state = BUST

    def _bet(self, i: int, ev: dict) -> None:
        stake = self._stake(i, ev)
        amount = doc_.event_amount(ev, i)
        hand = stake.hand
        if stake.bet is not None:
            self._illegal(i, hand, f"Event {i}: stake {stake.id} ({stake.player}) already bet {fmt(stake.bet)}.")
            return
        if self.voided is not None:
            self._illegal(i, hand, f"Event {i}: a bet after the hand was voided (event {self.voided}).")
            return
        if self.second_pass:
            self._illegal(i, hand, f"Event {i}: stake {stake.id} ({stake.player}) bet after the second pass began; "
                          f"bets are placed on the first card only.")
        stake.bet = amount
        hand.bet = amount
        if amount < self.min or amount > self.max:
            self._flag("BET_LIMITS", f"Seat {stake.seat}, stake {stake.id} ({stake.player}): a bet of {fmt(amount)} "
                       f"is outside the bank's limits {fmt(self.min)}–{fmt(self.max)}.", i, stake=stake.id,
                       hand=hand.name, wager="bet")

    def _declare(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        if self.voided is not None:
            self._illegal(i, hand, f"Event {i}: {self._hand_who(hand)} declared after the hand was voided.")
            return
        if hand.state != PLAYING:
            self._illegal(i, hand, f"Event {i}: {self._hand_who(hand)} {_FINISHED[hand.state]}; it cannot declare.")
            return
        if hand.kind != NATURAL:
            self._illegal(i, hand, f"Event {i}: {self._hand_who(hand)} declared a natural holding "
                          f"{hand.cards_label() or 'no cards'}; only A + J/Q/K in two cards is one.")
            return
        if self.last_action > hand.second_at:
            self._illegal(i, hand, f"Event {i}: {self._hand_who(hand)} declared its natural only after another "
                          f"action (event {self.last_action}); a natural is declared at once, so it plays on as a "
                          f"plain 21.")
            return
        hand.state = DECLARED

    def _withdraw(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        if not self._ready(i, hand, "withdraw"):
            return
        if not hand.thirteen:
            self._illegal(i, hand, f"Event {i}: {self._hand_who(hand)} withdrew holding {hand.cards_label()} "
                          f"({hand.words()}); only a two-card 13 may withdraw. The bet was returned as played.")
        hand.state = WITHDRAWN

    def _void(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        if not self._ready(i, hand, "void the hand"):
            return
        why = []
        if hand.seat != self.pie:
            why.append(f"only pie de banco (seat {self.pie}) may void the hand")
        if not hand.thirteen:
            why.append(f"it holds {hand.cards_label()} ({hand.words()}), not a two-card 13")
        if why:
            self._illegal(i, hand, f"Event {i}: {self._hand_who(hand)} voided the hand, but {' and '.join(why)}. "
                          f"Every bet was returned as played.")
        self.voided = i

    def _puje(self, i: int, ev: dict) -> None:
        if self.voided is not None:
            self._illegal(i, None, f"Event {i}: al puje after the hand was voided (event {self.voided}).")
            return
        if self.puje is not None:
            self._illegal(i, None, f"Event {i}: the table is already al puje (event {self.puje}).")
            return
        bank = self.bank
        if len(bank.infos) != 2 or bank.value != 20:
            held = bank.cards_label() or "no cards"
            self._illegal(i, None, f"Event {i}: the bank sent the table al puje holding {held}; only a bank with 20 "
                          f"in two cards may. The hands were fed as played.")
        self.puje = i

    def _hit(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        info = self._card(i, ev)
        if not self._ready(i, hand, "take another card"):
            return
        hand.add(info)
        if len(hand.infos) == 2:
            hand.second_at = i
        if hand.best > 21:
            hand.state = BUST

    def _stand(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        if not self._ready(i, hand, "stand"):
            return
        if self.puje is not None and hand.value < 21:
            self._illegal(i, hand, f"Event {i}: {self._hand_who(hand)} stood on {hand.value} al puje; every hand "
                          f"under 21 must draw until it has 21 or is over.")
        hand.state = STOOD

    def _tapo(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        info = self._card(i, ev)
        if not self._ready(i, hand, "take a tapo y quedo card"):
            return
        if self.puje is not None and hand.value < 21:
            self._illegal(i, hand, f"Event {i}: {self._hand_who(hand)} took a tapo y quedo al puje; every hand "
                          f"under 21 draws face up until it has 21 or is over.")
        elif hand.split_child:
            self._illegal(i, hand, f"Event {i}: {self._hand_who(hand)} took a tapo y quedo on an opened hand; "
                          f"opened hands are dealt face up.")
        hand.add(info)
        hand.state = TAPO

    def _split(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        amount = doc_.event_amount(ev, i)
        if not self._ready(i, hand, "open (split)"):
            return
        if len(hand.infos) != 2:
            self._illegal(i, hand, f"Event {i}: {self._hand_who(hand)} holds {len(hand.infos)} card(s); only two "
                          f"equal cards can be opened.")
            return
        a, b = hand.infos
        if hand.kind == RELANCINA:
            self._illegal(i, hand, f"Event {i}: {self._hand_who(hand)} opened a relancina "
                          f"({hand.cards_label()}); a relancina cannot be opened.")
        elif a[0][0] != b[0][0]:
            self._illegal(i, hand, f"Event {i}: {self._hand_who(hand)} opened unequal cards ({hand.cards_label()}); "
                          f"only two cards of the same rank can be opened.")
        if hand.bet is not None and amount != hand.bet * 2:
            self._illegal(i, hand, f"Event {i}: {self._hand_who(hand)} opened with {fmt(amount)} on the new hand; "
                          f"opening takes twice the bet, {fmt(hand.bet * 2)}. Settled as placed.")
        first = Hand(hand.name + ".1", hand.seat, hand.stake, hand.bet, True)
        second = Hand(hand.name + ".2", hand.seat, hand.stake, amount if hand.bet is not None else None, True)
        first.add(a)
        second.add(b)
        hand.state = SPLIT
        self.hands[first.name] = first
        self.hands[second.name] = second
        k = self.order.index(hand)
        self.order[k:k + 1] = [first, second]
        for rank, h in enumerate(self.order):
            h.rank = rank

    def _draw(self, i: int, ev: dict) -> None:
        info = self._card(i, ev)
        if self.voided is not None:
            self._illegal(i, None, f"Event {i}: the bank drew after the hand was voided (event {self.voided}).")
            return
        bank = self.bank
        if self.deal_left > 0:
            self._flag("DEAL_ORDER", f"Event {i}: the bank drew before the deal was complete.", i)
        else:
            current = self._current()
            if current is not None:
                self._flag("DRAW_ORDER", f"Event {i}: the bank drew while {self._hand_who(current)} was still "
                           f"playing; the bank plays last.", i)
        if bank.best > 21:
            self._illegal(i, None, f"Event {i}: the bank drew although it is already over 21 ({bank.best}).")
        bank.add(info)
        self.bank_drew = True
        self.last_action = i
        if self.play_started is None:
            self.play_started = i

    def _settle(self, i: int, ev: dict) -> None:
        """pay, take or leave: what the dealer did with one bet, judged when the round is over."""
        result = ev["e"]
        stake = self._stake(i, ev)
        hand = ev.get("hand")
        if type(hand) is not str or hand not in self.hands:
            hand = doc_.text(ev, "hand", f"$.events[{i}]", i)
        wager = ev.get("wager")
        if wager != "bet":
            if "wager" not in ev:
                raise doc_.missing("wager", f"$.events[{i}]", i)
            raise doc_.bad_value("wager", wager, "the only veintiuno wager is \"bet\".", f"$.events[{i}]", i)
        amount = doc_.event_amount(ev, i, required=result == PAY)
        self.settled.append(Settled(i, stake.id, hand, wager, result, amount))

    def _bank_to(self, i: int, ev: dict) -> None:
        player = doc_.text(ev, "player", f"$.events[{i}]", i)
        if self.bank_to:
            self._illegal(i, None, f"Event {i}: the bank was already passed at event {self.bank_to[0][0]}.")
        self.bank_to.append((i, player))

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
            why = f"the hand was voided (event {self.voided}): every bet is returned"
            for hand in self.order:
                if hand.bet is not None:
                    owed[(hand.stake.id, hand.name, "bet")] = Owed(hand.stake.id, hand.name, "bet", LEAVE, hand.bet,
                                                                   hand.bet, "final", why)
            return owed
        bank = self.bank
        b_best = bank.best
        b_kind = bank.kind
        b_natural = b_kind == NATURAL
        b_value = KIND_VALUE[b_kind] if b_kind is not None else b_best
        b_bust = b_kind is None and b_best > 21
        if b_bust:
            b_words = f"the bank is over with {b_best}"
        else:
            b_words = f"the bank has {KIND_WORDS[b_kind] if b_kind else b_value}"
        for hand in self.order:
            bet = hand.bet
            if bet is None:
                continue
            state = hand.state
            kind = hand.kind
            result = TAKE
            multiple: Decimal | int = 1
            if state == WITHDRAWN:
                result, why = LEAVE, "withdrew: the bet is returned"
            elif state == DECLARED:
                result, multiple, why = PAY, 2, "a declared natural wins 2:1 whatever the bank holds"
            elif state == BUST:
                why = f"over 21 ({hand.best}): the bet goes to the bank at once"
            elif kind == MONONA or kind == SUITED_TWELVE or hand.trillona:
                name = "trillona" if kind is None else kind
                if b_natural:
                    why = f"{name} loses to the bank's natural"
                else:
                    result = PAY
                    multiple = 3 if kind == MONONA else (self.suited_pays if kind == SUITED_TWELVE else 7)
                    why = f"{name} wins {fmt(Decimal(multiple))}:1; {b_words}"
            else:
                value = hand.value
                words = hand.words()
                if state == TAPO and b_bust:
                    if value <= 21:
                        result, why = PAY, f"tapo y quedo on {words} and {b_words}: paid 1:1"
                    else:
                        result, why = LEAVE, f"tapo y quedo over 21 ({value}) but {b_words}: the bet is returned"
                elif value > 21:
                    why = f"tapo y quedo over 21 ({value}); {b_words}"
                elif b_bust:
                    result, why = PAY, f"{words} is still in and {b_words}"
                elif value > b_value:
                    result, why = PAY, f"{words} beats {b_words.removeprefix('the bank has ')}"
                elif value == b_value:
                    why = f"{words} ties {b_words.removeprefix('the bank has ')}: ties go to the bank"
                else:
                    why = f"{words} loses; {b_words}"
            amount = bet * multiple if result == PAY else bet
            owed[(hand.stake.id, hand.name, "bet")] = Owed(hand.stake.id, hand.name, "bet", result, amount, bet,
                                                           "final", why)
        return owed

    def finish(self) -> Outcome:
        for seat in self.seats:
            stake = self.by_seat[seat]
            if stake.bet is None:
                self._illegal(None, stake.hand, f"Stake {stake.id} ({stake.player}, seat {seat}) never placed a bet; "
                              f"it has no wager this round.")
        if self.voided is None:
            if not self._deal_done():
                due = self._next_deal()
                who = "the bank" if due[1] == "bank" else f"seat {due[1]}"
                self._flag("DEAL_ORDER", f"The deal was never completed: {who} is missing its "
                           f"{'first' if due[0] == 0 else 'second'} card.", None)
            if self.puje is not None:
                for hand in self.order:
                    if hand.state == PLAYING and hand.bet is not None and hand.value < 21:
                        self._illegal(None, hand, f"{self._hand_who(hand).capitalize()} stopped on {hand.value} al "
                                      f"puje; every hand under 21 must draw until it has 21 or is over.")
        invalid = self.bank.invalid or any(h.invalid for h in self.hands.values() if h.bet is not None)
        extra: dict[str, str | None] = {"bank_next": None}
        if invalid:
            wagers = None
        else:
            owed = self.owed()
            wagers = sorted(owed.values(), key=_wager_key)
            if self.settled:
                compare_settlements(owed, self.settled, self.findings, who=self._who,
                                    wager_label=WAGER_LABEL.__getitem__)
            nxt = extra["bank_next"] = self.bank_next()
            for i, player in self.bank_to[:1]:
                if player != nxt:
                    if nxt == self.bank_player:
                        why = "no natural was declared, so the bank stays"
                    else:
                        why = "the first declared natural in playing order takes the bank"
                    self.findings.append(Finding(
                        "BANK_SUCCESSION", f"Event {i}: the bank was passed to {player}; it should go to {nxt} — "
                        f"{why}.", event=i, expected={"player": nxt}, actual={"player": player}))
        return Outcome(NAME, wagers, loop.sort_findings(self.findings), self.shoe_cards, self.rules, extra=extra,
                       settled=self.settled)

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
                bets = [_move("bet", f"Stake {s.id} ({s.player}, seat {s.seat}) places a bet of "
                              f"{fmt(self.min)}–{fmt(self.max)}.", needs=["amount"], stake=s.id, min=fmt(self.min),
                              max=fmt(self.max))
                        for seat in self.seats if (s := self.by_seat[seat]).bet is None]
            if bets:
                return bets
            face = "face down" if pass_no == 0 else "face up"
            if to == "bank":
                return [_move("deal", f"Deal the bank's own {'first' if pass_no == 0 else 'second'} card, {face}.",
                              needs=["card"], to="bank")]
            return [_move("deal", f"Deal seat {to} a card {face}.", needs=["card"], to=to)]
        owed = self.owed()
        # Hands over 21 hand their bet to the bank at once.
        busts = {h.name for h in self.order if h.state == BUST and h.bet is not None and (h.stake.id, h.name) not in done}
        if busts:
            return self._settle_moves({k: o for k, o in owed.items() if o.hand in busts}, done)
        moves = []
        if not self.bank_drew:
            for hand in self.order:
                if hand.state == PLAYING and hand.kind == NATURAL and self.last_action <= hand.second_at:
                    moves.append(_move("declare", f"{self._hand_who(hand).capitalize()} holds a natural: declare it "
                                       f"at once (2:1 and the bank).", hand=hand.name))
            if self.puje is None and self.play_started is None and len(self.bank.infos) == 2 \
                    and self.bank.value == 20:
                moves.append(_move("puje", "The bank holds 20 in two cards: it may send the table al puje."))
            # Hands on 21 may stand; the first hand under 21 is the one to play.
            for hand in self.order:
                if hand.state != PLAYING or hand.bet is None:
                    continue
                if hand.value >= 21 and len(hand.infos) >= 2:
                    moves.append(_move("stand", f"{self._hand_who(hand).capitalize()} has 21: it stands.",
                                       hand=hand.name))
                    moves.extend(m for m in self._hand_moves(hand) if m["e"] == "split")
                    continue
                moves.extend(self._hand_moves(hand))
                # Withdrawn hands and declared naturals may be settled already: their results are known.
                known = {h.name for h in self.order if h.state in (WITHDRAWN, DECLARED)}
                moves.extend(self._settle_moves({k: o for k, o in owed.items() if o.hand in known}, done))
                return moves
        if self.bank.best <= 21:
            moves.append(_move("draw", f"The bank plays by its own choice: draw (it has {self.bank.best}) or stand "
                               f"and settle.", needs=["card"]))
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
                moves.append(_move("split", f"{say} may open the pair with {fmt(hand.bet * 2)} on the new hand.",
                                   hand=n, amount=fmt(hand.bet * 2)))
            if hand.thirteen:
                moves.append(_move("withdraw", f"{say} holds 13 in two cards: it may withdraw (bet returned).",
                                   hand=n))
                if hand.seat == self.pie:
                    moves.append(_move("void", f"{say} is pie de banco with 13: it may void the hand (every bet "
                                       f"returned, deal again).", hand=n))
        return moves

    def _settle_moves(self, owed: dict, done: set) -> list[dict]:
        out = []
        for o in owed.values():
            if (o.stake, o.hand) in done:
                continue
            who = f"stake {o.stake} ({self.stakes[o.stake].player}), hand {o.hand}"
            if o.result == PAY:
                out.append(_move(PAY, f"Pay {who} {fmt(o.amount)} — {o.why}.", stake=o.stake, hand=o.hand,
                                 wager="bet", amount=fmt(o.amount)))
            elif o.result == TAKE:
                out.append(_move(TAKE, f"Take {who}'s bet {fmt(o.size)} — {o.why}.", stake=o.stake, hand=o.hand,
                                 wager="bet", amount=fmt(o.size)))
            else:
                out.append(_move(LEAVE, f"Return {who}'s bet {fmt(o.size)} — {o.why}.", stake=o.stake, hand=o.hand,
                                 wager="bet", amount=fmt(o.size)))
        return out

    def _bank_to_move(self) -> dict:
        nxt = self.bank_next()
        say = f"The bank stays with {nxt}." if nxt == self.bank_player else f"The bank passes to {nxt}."
        return _move("bank_to", say, player=nxt)


def _wager_key(o: Owed):
    return (o.stake, o.hand, o.wager)


_STAKE_FIELDS: Final = frozenset({"id", "seat", "player"})
_FIELDS: Final = {
    "deal": frozenset({"e", "to", "card"}),
    "bet": frozenset({"e", "stake", "amount"}),
    "declare": frozenset({"e", "hand"}),
    "withdraw": frozenset({"e", "hand"}),
    "void": frozenset({"e", "hand"}),
    "puje": frozenset({"e"}),
    "hit": frozenset({"e", "hand", "card"}),
    "stand": frozenset({"e", "hand"}),
    "tapo": frozenset({"e", "hand", "card"}),
    "split": frozenset({"e", "hand", "amount"}),
    "draw": frozenset({"e", "card"}),
    "pay": frozenset({"e", "stake", "hand", "wager", "amount"}),
    "take": frozenset({"e", "stake", "hand", "wager", "amount"}),
    "leave": frozenset({"e", "stake", "hand", "wager", "amount"}),
    "bank_to": frozenset({"e", "player"}),
}
# event name -> (handler, the fields it may carry)
_HANDLERS: Final[Handlers] = {
    name: (getattr(Replay, "_settle" if name in (PAY, TAKE, LEAVE) else "_" + name), fields)
    for name, fields in _FIELDS.items()}


# --- the pack across rounds ----------------------------------------------------------------------

def shoe_findings(shoe) -> list[Finding]:
    """CARD_COUNT over a `shoe/1` of veintiuno: the pack is dealt to the end before it is gathered.

    A card may come out again only after the pack it belongs to has run out. The first pack after a
    `shuffle` item holds 40 × packs cards; when it runs out the cards are gathered and shuffled
    again — all of them except those on the table in the round being dealt, which stay out of the
    new pack until that round is over. Burned cards (there are none in the game, but a log may
    record one) count as dealt.
    """
    packs = shoe.rules["packs"]
    full = {code: packs for code in PACK}
    available = dict(full)
    size = PACK_SIZE * packs
    pack_size = left = size
    findings: list[Finding] = []
    for item in shoe.items:
        if item.e == "shuffle":
            available = dict(full)
            pack_size = left = size
            continue
        on_table: dict[str, int] = {}
        for code in item.cards:
            if code not in PACK:
                continue
            if left <= 0:
                available = {c: max(0, packs - on_table.get(c, 0)) for c in PACK}
                pack_size = left = sum(available.values())
            left -= 1
            n = available[code]
            if n:
                available[code] = n - 1
            else:
                where = f"round {item.round_id}" if item.round_id else f"item {item.index}"
                findings.append(Finding("CARD_COUNT", f"Shoe item {item.index} ({where}): {_cards.label(code)} comes "
                                        f"out again before the pack has run out ({pack_size - left} of its "
                                        f"{pack_size} cards dealt). The pack is dealt to the end before it is "
                                        f"gathered and shuffled.", event=item.index))
            on_table[code] = on_table.get(code, 0) + 1
    return loop.sort_findings(findings)
