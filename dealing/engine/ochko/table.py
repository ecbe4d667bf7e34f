"""An ochko round's header and state: what the events of events.py read and change."""

from decimal import Decimal
from typing import Final

from .. import cards as _cards
from .. import document as doc_
from .. import loop
from ..base import Owed
from ..errors import RoundError
from ..loop import Handlers, Round, stake_of
from ..money import INT_AMOUNTS as _INT_AMOUNTS
from ..money import ZERO, fmt
from ..sentences import finding
from .onesum import Sum
from .rules import CARD, DEAL, DECKS, DRAWING_BOX, MAX_BOXES, MAX_STAKES_PER_BOX, NAME, Box, Hand, Stake, house_rules


class Table(Round):
    """A round's header (the table, the house rules, the stakes in their boxes) and the state its
    events change, with the readers and helpers they share (the events themselves: events.Play)."""

    GAME = NAME
    PACK_PHRASE = "pack_36"
    CARD_EXAMPLE = "TS"

    def __init__(self, doc, handlers: Handlers):
        super().__init__(handlers, CARD)
        self.copies = DECKS
        doc = doc_.header(doc, NAME)
        table = doc_.expect_object(doc.get("table") if "table" in doc else loop.missing("table"), "$.table")
        self.min = doc_.amount(table, "min", "$.table")
        self.max = doc_.amount(table, "max", "$.table")
        if self.min > self.max:
            raise RoundError(
                "bad_value", f"The table minimum {fmt(self.min)} is above its maximum {fmt(self.max)}.", path="$.table"
            )
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
        self.sums: list[Sum] = []  # payments of several boxes in one sum (onesum.py), in event order

    # --- the header -----------------------------------------------------------------------------

    def _read_stakes(self, raw) -> None:
        raw = doc_.expect_list(raw, "$.stakes")
        if not raw:
            raise RoundError("no_stakes", "The round has no stakes: at least one box must be played.", path="$.stakes")
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
                player = doc_.text(item, "player", path, required=False)
                ante = doc_.amount(item, "ante", path)
                dealer_bet = doc_.amount(item, "dealer_bet", path, required=False)
                owner = doc_.boolean(item, "owner", path, required=False)
            if sid in stakes:
                raise RoundError("duplicate_stake", f'Two stakes have the id "{sid}".', path=f"$.stakes[{k}].id")
            if owner:
                if box_no in owners:
                    raise RoundError(
                        "bad_value",
                        f'Box {box_no} has two owners: stakes "{owners[box_no]}" and "{sid}".',
                        path=f"$.stakes[{k}].owner",
                    )
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
                add(
                    finding(
                        "BOX_PLAYERS", {"rule": "no_box", "box": number, "boxes": self.n_boxes}, stake=box.stakes[0].id
                    )
                )
            if len(box.stakes) > MAX_STAKES_PER_BOX:
                add(
                    finding(
                        "BOX_PLAYERS",
                        {"rule": "crowded", "box": number, "n": len(box.stakes), "most": MAX_STAKES_PER_BOX},
                        stake=box.stakes[MAX_STAKES_PER_BOX].id,
                    )
                )
            for s in box.stakes:
                if s.ante < lo or s.ante > hi:
                    add(
                        finding(
                            "ANTE_LIMITS",
                            {
                                "rule": "ante",
                                "box": number,
                                "stake": s.id,
                                "ante": fmt(s.ante),
                                "low": fmt(lo),
                                "high": fmt(hi),
                            },
                            stake=s.id,
                            wager="ante",
                        )
                    )
                if s.dealer_bet is not None and s.dealer_bet < dealer_bet_min:
                    add(
                        finding(
                            "DEALER_BET_MIN",
                            {
                                "rule": "under",
                                "box": number,
                                "stake": s.id,
                                "bet": fmt(s.dealer_bet),
                                "low": fmt(dealer_bet_min),
                            },
                            stake=s.id,
                            wager="dealer_bet",
                        )
                    )
            if len(box.stakes) > 1:  # one stake's Ante was checked against the maximum just above
                total = sum((s.ante for s in box.stakes), ZERO)
                if total > hi:
                    add(
                        finding(
                            "ANTE_LIMITS",
                            {"rule": "box_total", "box": number, "total": fmt(total), "high": fmt(hi)},
                            stake=box.stakes[-1].id,
                            wager="ante",
                        )
                    )

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
        self._say("CARD_COUNT", {"rule": "round", "event": i, "card": _cards.label(code), "n": n, "most": DECKS}, i)

    def _check_dealt(self, i: int) -> None:
        if self.deal_checked:
            return
        self.deal_checked = True
        for box in self.in_order:
            if not box.dealt:
                self._say("DEAL_ORDER", {"rule": "never_dealt", "box": box.number}, i)
        if not self.dealer.cards:
            self._say("DEAL_ORDER", {"rule": "dealer_never"}, i)

    def _who(self, stake_id: str, hand=None) -> str:
        stake = self.stakes.get(stake_id)
        return f"Box {stake.box}, stake {stake_id}" if stake else f"Stake {stake_id}"

    def _who_params(self, stake_id: str, hand=None) -> dict:
        """A stake in a finding's params (sentences.py: who, box, stake)."""
        stake = self.stakes.get(stake_id)
        if stake is None:
            return {"who": "stake", "stake": stake_id}
        return {"who": "box", "box": stake.box, "stake": stake_id}

    def _owe(
        self, stake: Stake, wager: str, result: str, size: Decimal, kind: str, why: dict, event: int | None = None
    ) -> None:
        # Every ochko wager pays 1:1, so the amount paid is the wager itself.
        self.owed[(stake.id, None, wager)] = Owed(stake.id, None, wager, result, size, size, kind, why, event)

    def _first_drawing_box(self) -> Box | None:
        """The box whose turn it is: boxes draw 1 → 6."""
        for box in self.in_order:  # on every box's action: a loop here rather than a call
            if box.state == DRAWING_BOX:
                return box
        return None


_STAKE_FIELDS: Final = frozenset({"id", "box", "player", "ante", "dealer_bet", "owner"})


def _fast_stake(item):
    """A well-formed stake read without ceremony, or None to let the precise readers explain.

    Subscripts and `in` rather than .get(): they skip a method call each, and any stake that is
    not plainly well-formed simply goes to the precise readers.
    """
    if type(item) is not dict or not _STAKE_FIELDS.issuperset(item):
        return None
    try:
        sid, box_no, ante = item["id"], item["box"], item["ante"]
    except KeyError:
        return None
    player = item["player"] if "player" in item else None  # optional: an anonymous player
    if type(sid) is not str or type(box_no) is not int or type(ante) is not int:
        return None
    if player is not None and (type(player) is not str or not player.strip()):
        return None
    ante = _INT_AMOUNTS.get(ante)
    if ante is None or not sid.strip():
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
