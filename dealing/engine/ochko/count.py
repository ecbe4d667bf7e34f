"""Ochko's own count (engine/protection.py, docs/ochko-count.md): the ranks of the 8 × 36 shoe,
the tags of the count, the effect of removal of each rank on the player's edge, and the cards a
round takes out of the shoe.

The effects of removal come from the exact game math (ochko.math): the optimal player's expected
net per Ante off the top of the full shoe less one card of the rank, minus the full shoe's, in %.
`compute_effects()` derives them (about 14 s in pure Python); `EFFECTS` keeps the figures it gave
(tests/engine/test_protection.py checks them against the math). The tags are the integers in
−2 … +2, summing to zero over the deck, whose correlation with the effects is the highest
(docs/ochko-count.md shows the search).
"""

from collections.abc import Iterable, Mapping
from typing import Final

from .. import cards as _cards

RANKS: Final = ("6", "7", "8", "9", "T", "J", "Q", "K", "A")
PER_DECK: Final = {r: 4 for r in RANKS}
DECK: Final = 36
DECKS: Final = 8
COUNT_NAME: Final = "Ochko count"
# Pictures (J = 2, Q = 3, K = 4) and sixes left in the shoe hurt the player; aces, tens and nines
# help him: a card that helps the player, once out, lowers the count.
TAGS: Final = {"6": 1, "7": 0, "8": 0, "9": -1, "T": -1, "J": 1, "Q": 1, "K": 1, "A": -2}

# The optimal player's edge (%, per Ante) off the top of the full 8-deck shoe (ochko.math.edge).
FULL_EDGE: Final = {8: -4.310794956456366}
# rank -> change of the player's edge (%, per Ante) when one card of it leaves the full shoe.
EFFECTS: Final = {
    "6": 0.40324771165612017,
    "7": 0.13148658968789473,
    "8": -0.1457160736903962,
    "9": -0.17938903273659612,
    "T": -0.447929305028385,
    "J": 0.3327688996111311,
    "Q": 0.4393493688240637,
    "K": 0.5100233890867552,
    "A": -0.9997356081921902,
}

# The same for each house rule set the math tells apart (rules/ochko.md: what the dark card's Bet
# does when the box wins, and when box and dealer both bust), keyed (dark_win_bet,
# dark_double_bust_bet): (full shoe's edge %, effects). compute_effects(rules=…) gave them, 6 s each.
RULE_SETS: Final = {
    ("leave", "leave"): (FULL_EDGE[8], EFFECTS),
    ("leave", "take"): (
        -6.428332475406901,
        {
            "6": 0.40849850420931944,
            "7": 0.12267441998147355,
            "8": -0.14599649078153387,
            "9": -0.18838338575518598,
            "T": -0.472955283846499,
            "J": 0.33648027164639327,
            "Q": 0.46171276982092824,
            "K": 0.5522797383050184,
            "A": -1.0352728096336028,
        },
    ),
    ("take", "leave"): (
        -6.557810190531539,
        {
            "6": 0.40932850393418185,
            "7": 0.1151025934121348,
            "8": -0.15102881850667416,
            "9": -0.18690104123818863,
            "T": -0.4756189676838787,
            "J": 0.342824267844815,
            "Q": 0.47269315707882065,
            "K": 0.562148959270262,
            "A": -1.0436377339086116,
        },
    ),
}
# A box that took the dark card and won has its Bet taken: its double bust no longer matters, so
# ("take", "take") is the same game as ("take", "leave").
RULE_SETS[("take", "take")] = RULE_SETS[("take", "leave")]
_COMPUTED: dict[tuple, tuple[float, dict[str, float]]] = {}

_PACK: Final = frozenset(RANKS)


# Every spelling of a card of the 36-card pack the log accepts (suited or not) -> its rank.
_RANK_OF: Final = {
    text: code[0]
    for text, code in (*_cards.spellings().items(), *_cards.suitless_spellings().items())
    if code[0] in _PACK
}


def rank(text: object) -> str | None:
    """The rank of a card as the log spells it (``"KH"``, ``"10d"``, ``"9*"``), or None when it is
    no card of the 36-card pack."""
    return _RANK_OF.get(text) if type(text) is str else None


def round_ranks(doc: Mapping) -> Iterable[str]:
    """The ranks of the cards a round/1 document took out of the shoe, in order.

    As the replay counts them (ochko/events.py): every dealt, hit, dark and drawn card and every
    burn, except the burn that only confirms a card already counted — the dealer's exposed card
    (incident `dealer_card_exposed`) and a misdrawn card sent under the shoe or burned, which the
    incident itself took out."""
    events = doc.get("events") or ()
    rank_of = _RANK_OF
    out = []
    try:
        for ev in events:
            card = ev.get("card")
            if card is None:
                continue  # most events name no card: one look-up each
            e = ev.get("e")
            if e == "incident" or e == "burn":  # the few rounds with a card burned or misdrawn
                return list(_with_incidents(events))
            r = rank_of.get(card)
            if r is not None:
                out.append(r)
    except (AttributeError, TypeError):  # an event that is no object, a card that is no text
        return list(_with_incidents(events))
    return out


def _with_incidents(events) -> Iterable[str]:
    pending: list[str] = []
    dealer_last: str | None = None
    for ev in events:
        if type(ev) is not dict:
            continue
        e = ev.get("e")
        text = ev.get("card")
        if e == "incident":
            if ev.get("kind") == "dealer_card_exposed":
                if dealer_last is not None:
                    pending.append(dealer_last)
                continue
            r = rank(text)
            if r is None:
                continue
            if not ev.get("exposed") or ev.get("resolution") in ("under_shoe", "burned"):
                pending.append(_code(text))
            yield r
            continue
        if text is None:
            continue
        if e == "burn":
            code = _code(text)
            if code in pending:
                pending.remove(code)
                continue
        r = rank(text)
        if r is None:
            continue
        if (e == "deal" and ev.get("to") == "dealer") or e == "draw":
            dealer_last = _code(text)
        yield r


def _code(text: object) -> str:
    return _cards.normalize(text) or (text if type(text) is str else repr(text))


def edge_model(rules: Mapping | None, decks: int) -> tuple[float, dict[str, float]]:
    """(the full shoe's player edge %, each rank's effect of removal per card) for a shoe of `decks`
    decks under the house rules of a round document (`rules`, the defaults when None): the tabled
    figures of the rule set (RULE_SETS), else solved on first use and kept for the process; for a
    shoe of another size the effects are scaled by DECKS / decks (an effect per card shrinks as the
    shoe grows) and the edge is the 8-deck one."""
    from .math.question import read_rules

    in_force = read_rules(dict(rules or {}))
    key = (in_force["dark_win_bet"], in_force["dark_double_bust_bet"])
    got = RULE_SETS.get(key) or _COMPUTED.get(key)
    if got is None:
        got = _COMPUTED[key] = compute_effects(rules={"dark_win_bet": key[0], "dark_double_bust_bet": key[1]})
    full, effects = got
    scale = DECKS / decks
    return full, {r: e * scale for r, e in effects.items()}


def full_edge(decks: int) -> float:
    """The full shoe's player edge (%) for that many decks (the 8-deck figure when not kept)."""
    return FULL_EDGE.get(decks, FULL_EDGE[DECKS])


def compute_effects(decks: int = DECKS, *, rules: Mapping | None = None) -> tuple[float, dict[str, float]]:
    """From the exact game math: the full shoe's player edge (%) and each rank's effect of removal,
    under the house rules `rules` (the defaults when None)."""
    from .math import FULL_COUNTS, solve
    from .odds import RANKS as MATH_RANKS

    asked = dict(rules or {})
    full = float(solve(asked, removed=FULL_COUNTS).round_figures()["mean"]) * 100
    effects = {}
    for i, r in enumerate(MATH_RANKS):
        counts = tuple(c - (k == i) for k, c in enumerate(FULL_COUNTS))
        effects[r] = float(solve(asked, removed=counts).round_figures()["mean"]) * 100 - full
    return full, effects
