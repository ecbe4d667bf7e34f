"""The events of a veintiuno round — the two passes of the deal, the bets, declarations, withdraws,
voids, al puje, the hands' plays and openings, the bank's draw, the settlements, the passing of
the bank — each validated as it is applied (rules/veintiuno.md).
"""

from decimal import Decimal
from typing import Final

from .. import cards as _cards
from .. import document as doc_
from ..base import LEAVE, PAY, TAKE, Settled
from ..errors import RoundError
from ..loop import PLAYING, SPLIT, STOOD, Handlers, Round, deal_target, lookup, stake_of
from ..money import fmt
from ..sentences import finding
from .rules import BUST, CARD, DECLARED, NAME, NATURAL, RELANCINA, TAPO, WITHDRAWN, Hand, Stake, house_rules
from .sentences import to, value, who


class Play(Round):
    """A round's header and state, and its events, each validated and judged as it is applied."""

    def __init__(self, doc):
        super().__init__(_HANDLERS, CARD)
        doc = doc_.header(doc, NAME)
        if "table" not in doc:
            raise doc_.missing("table", "$")
        table = doc_.expect_object(doc["table"], "$.table")
        self.min = doc_.amount(table, "min", "$.table")
        self.max = doc_.amount(table, "max", "$.table")
        if self.min > self.max:
            raise RoundError(
                "bad_value",
                f"The bank's minimum bet {fmt(self.min)} is above its maximum {fmt(self.max)}.",
                path="$.table",
            )
        self.bank_player = doc_.text(doc, "bank", "$")
        self.rules = house_rules(doc.get("rules"))
        self.copies = self.rules["packs"]  # 40-card packs shuffled together
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
            raise RoundError(
                "no_stakes", "The round has no stakes: at least one player must sit against the bank.", path="$.stakes"
            )
        for k, item in enumerate(raw):
            path = f"$.stakes[{k}]"
            if (
                type(item) is dict
                and item.keys() <= _STAKE_FIELDS
                and type(item.get("id")) is str
                and type(item.get("seat")) is int
                and type(item.get("player")) is str
                and item["id"].strip()
                and item["player"].strip()
            ):
                sid, seat, player = item["id"], item["seat"], item["player"]  # well formed: no ceremony
            else:
                doc_.expect_object(item, path)
                doc_.unknown_fields(item, _STAKE_FIELDS, path)
                sid = doc_.text(item, "id", path)
                seat = doc_.integer(item, "seat", path)
                player = doc_.text(item, "player", path)
            if sid in self.stakes:
                raise RoundError("duplicate_stake", f'Two stakes have the id "{sid}".', path=f"{path}.id")
            if seat < 1:
                raise doc_.bad_value(
                    "seat", seat, "seats are numbered from 1 (pie de banco, at the bank's right).", path
                )
            if seat in self.by_seat:
                raise RoundError(
                    "duplicate_seat",
                    f'Stakes "{self.by_seat[seat].id}" and "{sid}" both sit at seat {seat}; one player per seat.',
                    path=f"{path}.seat",
                )
            if player == self.bank_player:
                raise doc_.bad_value(
                    "player", player, "this player holds the bank this round and cannot also bet against it.", path
                )
            stake = Stake(sid, seat, player)
            self.stakes[sid] = stake
            self.by_seat[seat] = stake

    # --- helpers ----------------------------------------------------------------------------

    def _illegal(self, i: int | None, hand: Hand | None, params: dict) -> None:
        """An ILLEGAL_ACTION (veintiuno/sentences.py) about `hand` (or the bank, with None)."""
        stake = hand.stake.id if hand is not None and hand.stake is not None else None
        self.findings.append(
            finding(
                "ILLEGAL_ACTION",
                params,
                event=i,
                stake=stake,
                hand=hand.name if hand is not None and hand.stake is not None else None,
            )
        )

    def _about(self, rule: str, i: int, hand: Hand, **params) -> dict:
        """A finding's params about a hand: rule, the event's head, who (sentences.who) and `params`."""
        out = who(hand)
        out["rule"] = rule
        out["event"] = i
        out.update(params)
        return out

    # The game in messages (loop.Round).
    GAME = NAME
    PACK_PHRASE = "pack_40"
    SUIT_WORDS = "in veintiuno (the suited 12)"
    CARD_EXAMPLE = "KS"

    def _stake(self, i: int, ev: dict) -> Stake:
        try:  # a known stake id: the usual event, without a call
            return self.stakes[ev["stake"]]
        except (KeyError, TypeError):
            return stake_of(self.stakes, i, ev)

    def _hand(self, i: int, ev: dict) -> Hand:
        try:  # a hand in play: the usual event, without a call
            return self.hands[ev["hand"]]
        except (KeyError, TypeError):
            return lookup(self.hands, i, ev, "hand", 'a hand name such as "2" or "2.1"', "in play (hands so far: ")

    def _too_many(self, i: int, code: str, n: int) -> None:
        self._say(
            "CARD_COUNT",
            {
                "rule": "one_pack" if self.copies == 1 else "packs",
                "event": i,
                "card": _cards.label(code),
                "n": n,
                "copies": self.copies,
            },
            i,
        )

    def _who(self, stake_id: str, hand: str | None = None) -> str:
        stake = self.stakes.get(stake_id)
        if stake is None:
            return f"Stake {stake_id}"
        return f"Hand {hand or stake.seat} ({stake.player}, stake {stake_id})"

    def _hand_who(self, hand: Hand) -> str:
        if hand.stake is None:
            return "The bank"
        return f"hand {hand.name} ({hand.stake.player})"

    def _who_params(self, stake_id: str, hand: str | None = None) -> dict:
        """A stake's hand in a settlement finding's params (sentences.py: who "hand", hand, name, stake)."""
        stake = self.stakes.get(stake_id)
        if stake is None:
            return {"who": "stake", "stake": stake_id}
        return {"who": "hand", "hand": hand or stake.seat, "name": stake.player, "stake": stake_id}

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
            self._illegal(i, hand, self._about("after_void", i, hand, act=what, voided=self.voided))
            return False
        if hand.state != PLAYING:
            self._illegal(i, hand, self._about("finished", i, hand, hand_state=hand.state, act=what))
            return False
        if self.deal_left > 0:
            self._say("DEAL_ORDER", self._about("before_deal_done", i, hand), i, stake=hand.stake.id, hand=hand.name)
        elif self.bank_drew:
            self._say("DRAW_ORDER", self._about("after_bank_drew", i, hand), i, stake=hand.stake.id, hand=hand.name)
        else:
            current = self._current()
            if current is not None and current.rank < hand.rank:
                self._say(
                    "DRAW_ORDER",
                    self._about("seat_order", i, hand, current=_hand_phrase(current)),
                    i,
                    stake=hand.stake.id,
                    hand=hand.name,
                )
        self.last_action = i
        if self.play_started is None:
            self.play_started = i
        return True

    # --- events -------------------------------------------------------------------------------

    def _deal(self, i: int, ev: dict) -> None:
        to = deal_target(i, ev, "bank", 'a seat number or "bank"')
        info = self._card(i, ev)
        if to == "bank":
            hand = self.bank
        else:
            stake = self.by_seat.get(to)
            if stake is None:
                self._say("DEAL_ORDER", {"rule": "empty_seat", "event": i, "seat": to}, i)
                return
            hand = stake.hand
        n = hand.dealt
        if (
            n < 2
            and self.plan_at < len(self.plan)
            and self.plan[self.plan_at] == (n, to)
            and self.play_started is None
            and self.voided is None
        ):
            # The deal going as it should: the common case, without ceremony.
            self.plan_at += 1
            self.deal_left -= 1
            if n == 1:
                self.second_pass = True
                hand.second_at = i
            hand.dealt = n + 1
            hand.add(info)
            return
        whom = _to(to)
        if self.voided is not None:
            self._illegal(i, None, {"rule": "deal_after_void", "event": i, "to": whom, "voided": self.voided})
            return
        n = hand.dealt
        if n >= 2:
            self._say("DEAL_ORDER", {"rule": "third_card_hit", "event": i, "to": whom}, i)
        elif self.play_started is not None:
            self._say("DEAL_ORDER", {"rule": "after_play", "event": i, "to": whom, "started": self.play_started}, i)
        elif self.plan_at < len(self.plan) and self.plan[self.plan_at] == (n, to):
            self.plan_at += 1
        else:
            self.plan_at = len(self.plan)  # out of order: from now on the slow way
            due = self._next_deal()
            if due != (n, to):
                self._say(
                    "DEAL_ORDER",
                    {"rule": "pass_order", "event": i, "to": whom, "due": _to(due[1]), "pass": _PASSES[due[0]]},
                    i,
                )
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
            self._illegal(
                i,
                hand,
                {
                    "rule": "stake_already_bet",
                    "event": i,
                    "stake": stake.id,
                    "name": stake.player,
                    "bet": fmt(stake.bet),
                },
            )
            return
        if self.voided is not None:
            self._illegal(i, hand, {"rule": "bet_after_void", "event": i, "voided": self.voided})
            return
        if self.second_pass:
            self._illegal(
                i, hand, {"rule": "bet_after_second_pass", "event": i, "stake": stake.id, "name": stake.player}
            )
        stake.bet = amount
        hand.bet = amount
        if amount < self.min or amount > self.max:
            self._say(
                "BET_LIMITS",
                {
                    "rule": "bank_limits",
                    "seat": stake.seat,
                    "stake": stake.id,
                    "name": stake.player,
                    "bet": fmt(amount),
                    "low": fmt(self.min),
                    "high": fmt(self.max),
                },
                i,
                stake=stake.id,
                hand=hand.name,
                wager="bet",
            )

    def _declare(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        if self.voided is not None:
            self._illegal(i, hand, self._about("declare_after_void", i, hand))
            return
        if hand.state != PLAYING:
            self._illegal(i, hand, self._about("finished", i, hand, hand_state=hand.state, act="declare"))
            return
        if hand.kind != NATURAL:
            cards = hand.cards_label()
            self._illegal(
                i,
                hand,
                self._about("not_a_natural", i, hand, cards=cards)
                if cards
                else self._about("not_a_natural_no_cards", i, hand),
            )
            return
        if self.last_action > hand.second_at:
            self._illegal(i, hand, self._about("late_declaration", i, hand, last=self.last_action))
            return
        hand.state = DECLARED

    def _withdraw(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        if not self._ready(i, hand, "withdraw"):
            return
        if not hand.thirteen:
            self._illegal(i, hand, self._about("withdraw_not_13", i, hand, cards=hand.cards_label(), value=value(hand)))
        hand.state = WITHDRAWN

    def _void(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        if not self._ready(i, hand, "void"):
            return
        not_pie, not_13 = hand.seat != self.pie, not hand.thirteen
        if not_pie and not_13:
            self._illegal(
                i, hand, self._about("void_neither", i, hand, pie=self.pie, cards=hand.cards_label(), value=value(hand))
            )
        elif not_pie:
            self._illegal(i, hand, self._about("void_not_pie", i, hand, pie=self.pie))
        elif not_13:
            self._illegal(i, hand, self._about("void_not_13", i, hand, cards=hand.cards_label(), value=value(hand)))
        self.voided = i

    def _puje(self, i: int, ev: dict) -> None:
        if self.voided is not None:
            self._illegal(i, None, {"rule": "puje_after_void", "event": i, "voided": self.voided})
            return
        if self.puje is not None:
            self._illegal(i, None, {"rule": "puje_twice", "event": i, "puje": self.puje})
            return
        bank = self.bank
        if len(bank.infos) != 2 or bank.value != 20:
            held = bank.cards_label()
            self._illegal(
                i,
                None,
                {"rule": "puje_not_20", "event": i, "cards": held} if held else {"rule": "puje_no_cards", "event": i},
            )
        self.puje = i

    def _hit(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        info = self._card(i, ev)
        if not self._ready(i, hand, "hit"):
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
            self._illegal(i, hand, self._about("stood_al_puje", i, hand, n=hand.value))
        hand.state = STOOD

    def _tapo(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        info = self._card(i, ev)
        if not self._ready(i, hand, "tapo"):
            return
        if self.puje is not None and hand.value < 21:
            self._illegal(i, hand, self._about("tapo_al_puje", i, hand))
        elif hand.split_child:
            self._illegal(i, hand, self._about("tapo_opened", i, hand))
        hand.add(info)
        hand.state = TAPO

    def _split(self, i: int, ev: dict) -> None:
        hand = self._hand(i, ev)
        amount = doc_.event_amount(ev, i)
        if not self._ready(i, hand, "split"):
            return
        if len(hand.infos) != 2:
            self._illegal(i, hand, self._about("open_not_two", i, hand, n=len(hand.infos)))
            return
        a, b = hand.infos
        if hand.kind == RELANCINA:
            self._illegal(i, hand, self._about("open_relancina", i, hand, cards=hand.cards_label()))
        elif a[0][0] != b[0][0]:
            self._illegal(i, hand, self._about("open_unequal", i, hand, cards=hand.cards_label()))
        if hand.bet is not None and amount != hand.bet * 2:
            self._illegal(i, hand, self._about("open_amount", i, hand, amount=fmt(amount), due=fmt(hand.bet * 2)))
        first = Hand(hand.name + ".1", hand.seat, hand.stake, hand.bet, True)
        second = Hand(hand.name + ".2", hand.seat, hand.stake, amount if hand.bet is not None else None, True)
        first.add(a)
        second.add(b)
        hand.state = SPLIT
        self.hands[first.name] = first
        self.hands[second.name] = second
        k = self.order.index(hand)
        self.order[k : k + 1] = [first, second]
        for rank, h in enumerate(self.order):
            h.rank = rank

    def _draw(self, i: int, ev: dict) -> None:
        info = self._card(i, ev)
        if self.voided is not None:
            self._illegal(i, None, {"rule": "bank_after_void", "event": i, "voided": self.voided})
            return
        bank = self.bank
        if self.deal_left > 0:
            self._say("DEAL_ORDER", {"rule": "bank_before_deal_done", "event": i}, i)
        else:
            current = self._current()
            if current is not None:
                self._say("DRAW_ORDER", {"rule": "bank_while_playing", "event": i, "current": _hand_phrase(current)}, i)
        if bank.best > 21:
            self._illegal(i, None, {"rule": "bank_over", "event": i, "n": bank.best})
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
            raise doc_.bad_value("wager", wager, 'the only veintiuno wager is "bet".', f"$.events[{i}]", i)
        amount = doc_.event_amount(ev, i, required=result == PAY)
        self.settled.append(Settled(i, stake.id, hand, wager, result, amount))

    def _bank_to(self, i: int, ev: dict) -> None:
        player = doc_.text(ev, "player", f"$.events[{i}]", i)
        if self.bank_to:
            self._illegal(i, None, {"rule": "bank_passed_twice", "event": i, "at": self.bank_to[0][0]})
        self.bank_to.append((i, player))


def _hand_phrase(hand: Hand) -> dict:
    """Another hand named inside a finding's sentence: "hand 2 (Ana)" (a who.seat_hand phrase)."""
    params = who(hand)
    params["rule"] = "who." + params["who"]
    return params


_to: Final = to
_PASSES: Final = ("first", "second")
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
    name: (getattr(Play, "_settle" if name in (PAY, TAKE, LEAVE) else "_" + name), fields)
    for name, fields in _FIELDS.items()
}


# --- the pack across rounds ----------------------------------------------------------------------
