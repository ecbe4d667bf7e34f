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

The package: rules.py (the pack, wagers, house rules, hands), events.py (the header and each
event), replay.py (the end of the round and the next moves); here, the checks across a shoe.
"""

from .. import cards as _cards
from .. import loop
from ..findings import Finding
from ..sentences import finding, where
from .replay import Replay
from .rules import NAME, OPTIONS, PACK, PACK_SIZE, RANKS, WAGER_LABEL, WAGERS, Hand, Stake, house_rules

__all__ = [
    "NAME",
    "RANKS",
    "PACK",
    "PACK_SIZE",
    "WAGERS",
    "WAGER_LABEL",
    "OPTIONS",
    "house_rules",
    "Hand",
    "Stake",
    "Replay",
    "shoe_findings",
]


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
                findings.append(
                    finding(
                        "CARD_COUNT",
                        {
                            "rule": "pack_not_run_out",
                            "item": item.index,
                            "where": where(item),
                            "card": _cards.label(code),
                            "n": pack_size - left,
                            "size": pack_size,
                        },
                        event=item.index,
                    )
                )
            on_table[code] = on_table.get(code, 0) + 1
    return loop.sort_findings(findings)
