"""What the round replay page draws: the table as it stood at the end of a round, and the owed
versus logged settlement of every wager.

The table is the game's own layout (`dealing.games.layout_for(variant).table`, dealing/games/
<variant>/layout.py): it walks the stored `round/1` document once and places every card where it
went, keeping each card's event index so findings can be marked on the cards they concern. It only
places cards; the rules stay the engine's (`engine.replay`), whose outcome gives the owed side of
`wager_rows`.
"""

from dataclasses import dataclass, field
from decimal import Decimal

from dealing import games
from dealing.engine.base import PAY, TAKE
from dealing.engine.money import fmt
from dealing.games.layout import CARDS, CardView, TableLayout, card, int_or_none

__all__ = ["CardView", "TableLayout", "WagerRow", "card", "table_layout", "wager_rows"]


def table_layout(doc: dict, *, flagged_events=(), flagged_stakes=(), boxes: int | None = None) -> TableLayout:
    """The table drawn from a round document. `flagged_events` / `flagged_stakes`: what findings name."""
    # A round of a game without a layout of its own: each card where its event put it.
    layout = games.layout_for(doc.get("variant")) or CARDS
    return layout.table(doc, flagged_events=flagged_events, flagged_stakes=flagged_stakes, boxes=boxes)


# --- owed versus logged ----------------------------------------------------------------------------


@dataclass
class WagerRow:
    stake: str
    hand: str
    wager: str
    box: str
    player: str
    owed_result: str = ""
    owed_amount: str = ""
    logged_result: str = ""
    logged_amount: str = ""
    logged_event: int | None = None
    delta: Decimal | None = None
    codes: list[str] = field(default_factory=list)
    why: str = ""
    verdict: dict | None = None  # the reason as a phrase (Owed.verdict): the page says it with |verdict

    @property
    def flagged(self) -> bool:
        return bool(self.codes)


def wager_rows(doc: dict, outcome, findings) -> list[WagerRow]:
    """One row per owed wager (and per logged settlement nothing was owed for, or a second one),
    with the findings of that wager. `findings` are rows with stake, hand, wager and code."""
    places = {}
    for item in doc.get("stakes") or []:
        if isinstance(item, dict):
            places[str(item.get("id"))] = (str(item.get("box", item.get("seat", ""))), str(item.get("player", "")))
    codes: dict[tuple, list[str]] = {}
    for f in findings:
        if f.stake:
            codes.setdefault((f.stake, f.hand or "", f.wager or ""), []).append(f.code)
    rows: list[WagerRow] = []
    seen = set()
    owed_keys = set()
    for w in outcome.wagers or []:
        key = (w.stake, w.hand or "", w.wager)
        owed_keys.add(key)
        box, player = places.get(w.stake, ("", ""))
        rows.append(
            WagerRow(
                w.stake,
                w.hand or "",
                w.wager,
                box,
                player,
                owed_result=w.result,
                owed_amount=fmt(w.amount if w.result == PAY else w.size),
                why=w.why,
                verdict=w.verdict,
                codes=list(codes.get(key, [])),
            )
        )
    by_key = {(r.stake, r.hand, r.wager): r for r in rows}
    for s in outcome.settled:
        key = (s.stake, s.hand or "", s.wager)
        row = by_key.get(key)
        amount = s.amount
        if amount is None and row is not None and s.result == TAKE:
            amount = Decimal(row.owed_amount)
        if row is None or key in seen:
            box, player = places.get(s.stake, ("", ""))
            extra = WagerRow(
                s.stake,
                s.hand or "",
                s.wager,
                box,
                player,
                logged_result=s.result,
                logged_amount="" if amount is None else fmt(amount),
                logged_event=s.event,
                codes=[c for c in codes.get(key, []) if c == "UNEXPECTED_SETTLEMENT"],
            )
            rows.append(extra)
            continue
        seen.add(key)
        row.logged_result = s.result
        row.logged_amount = "" if amount is None else fmt(amount)
        row.logged_event = s.event
    if outcome.settled:  # a log without settlement events is only told what is owed
        for row in rows:
            row.delta = _delta(row)
    rows.sort(key=lambda r: (_sort_box(r.box), r.stake, r.hand, r.wager, r.logged_event or 0))
    return rows


def _sort_box(box: str):
    number = int_or_none(box)
    return (0, number) if number is not None else (1, box)


def _signed(result: str, amount: str) -> Decimal | None:
    if not result:
        return None
    if result == PAY:
        return Decimal(amount or 0)
    if result == TAKE:
        return -Decimal(amount or 0)
    return Decimal(0)


def _delta(row: WagerRow) -> Decimal | None:
    """What the player received minus what was owed, for this row (None when nothing to compare)."""
    owed = _signed(row.owed_result, row.owed_amount)
    logged = _signed(row.logged_result, row.logged_amount)
    if owed is None and logged is None:
        return None
    return (logged or Decimal(0)) - (owed or Decimal(0))
