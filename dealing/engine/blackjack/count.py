"""Blackjack's count (engine/protection.py): the ranks of the shoe, the Hi-Lo tags, the effect of
removal of each rank on the player's edge, and the cards a round takes out of the shoe.

The ranks are the game math's: A, 2 … 9 and T for every ten-value card (J, Q and K count as T: no
rule tells them apart). The effects of removal are the salon preset's (6 decks, S17, DAS, four
hands): `compute_effects()` derives them from the exact solver (blackjack.math) — the optimal
player's edge off the top of the full shoe less one card of the rank, minus the full shoe's — and
`EFFECTS` keeps its figures, since each of the eleven solves takes about 17 s in pure Python
(tests/engine/test_protection.py recomputes the full edge and the 5's effect with the solver).
"""

from collections.abc import Iterable, Mapping
from typing import Final

from .. import cards as _cards

RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
PER_DECK: Final = {r: 16 if r == "T" else 4 for r in RANKS}
DECK: Final = 52
DECKS: Final = 6  # the shoe EFFECTS and FULL_EDGE were computed for (the salon's)
COUNT_NAME: Final = "Hi-Lo"
# Hi-Lo: the low cards help the dealer, the tens and aces the player.
TAGS: Final = {"A": -1, "2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "7": 0, "8": 0, "9": 0, "T": -1}
_TEN_VALUE: Final = {"T": "T", "J": "T", "Q": "T", "K": "T"}

# The player's edge (%) off the top of the full shoe under optimal play, per number of decks
# (salon rules; blackjack.math edge(rules={"decks": d}, preset="salon")).
FULL_EDGE: Final = {6: -0.40287023611541783}
# rank -> change of the player's edge (%) when one card of it leaves the full 6-deck shoe
# (compute_effects(), about 3 minutes of CPU in pure Python: docs/ochko-count.md, Regenerating).
EFFECTS: Final = {
    "A": -0.09453158212027724,
    "2": 0.0636130051955281,
    "3": 0.07338806271732679,
    "4": 0.09910364787175008,
    "5": 0.12633991178546394,
    "6": 0.07275135794995241,
    "7": 0.04462960213011752,
    "8": -0.005695999136993757,
    "9": -0.03382269744896227,
    "T": -0.08306261476637156,
}

# The rules the game math tells apart (the others — boxes, jackpot, reshuffling — leave a round's
# odds alone), in this order in the keys of RULE_SETS.
MATH_RULES: Final = (
    "blackjack_pays",
    "hit_soft_17",
    "surrender",
    "double",
    "double_after_split",
    "max_hands",
    "resplit_aces",
    "hit_split_aces",
)
# (the math rules' values, decks) -> (full shoe's edge %, effects): the presets' rule sets
# (compute_effects(None, preset=…)). Salon: the figures above; online: 8 decks, two hands at most.
RULE_SETS: Final = {
    (("3:2", False, False, "any", True, 4, False, False), 6): (FULL_EDGE[6], EFFECTS),
    (("3:2", False, False, "any", True, 2, False, False), 8): (
        -0.4857803589472567,
        {
            "A": -0.0710902800738673,
            "2": 0.04776599756458333,
            "3": 0.05500138504077878,
            "4": 0.0736070412466755,
            "5": 0.09367490615330376,
            "6": 0.054672336066591276,
            "7": 0.03414363092340794,
            "8": -0.002213839338660817,
            "9": -0.024828371856744247,
            "T": -0.06199376866651596,
        },
    ),
}
_COMPUTED: dict[tuple, tuple[float, dict[str, float]]] = {}
_READ: dict[str, tuple] = {}


def rule_set(rules: Mapping | None) -> tuple:
    """(the math rules' values, decks) of a round document's rules (its preset's, salon by default)."""
    text = repr(sorted((rules or {}).items()))
    got = _READ.get(text)
    if got is None:
        from .math.question import read_rules

        in_force = read_rules(None, dict(rules or {}))
        got = _READ[text] = (tuple(in_force[name] for name in MATH_RULES), in_force["decks"])
    return got


def edge_model(rules: Mapping | None, decks: int) -> tuple[float, dict[str, float]]:
    """(the full shoe's player edge %, each rank's effect of removal per card) for a shoe of `decks`
    decks under a round document's rules: the tabled figures of the rule set (RULE_SETS); for a rule
    set tabled at another number of decks, its figures with the effects scaled by tabled decks /
    decks (an effect per card shrinks as the shoe grows); any other rule set solved on first use
    (eleven exact solves, minutes of CPU) and kept for the process."""
    math_rules, _their_decks = rule_set(rules)
    got = RULE_SETS.get((math_rules, decks)) or _COMPUTED.get((math_rules, decks))
    if got is not None:
        return got[0], dict(got[1])
    tabled = [d for m, d in RULE_SETS if m == math_rules]
    if tabled:
        near = min(tabled, key=lambda d: abs(d - decks))
        full, effects = RULE_SETS[(math_rules, near)]
        return full, {r: e * near / decks for r, e in effects.items()}
    asked = {name: value for name, value in zip(MATH_RULES, math_rules)}
    got = _COMPUTED[(math_rules, decks)] = compute_effects(decks, rules=asked)
    return got[0], dict(got[1])


# Every spelling of a card the log accepts (suited or not) -> its rank: one look-up a card.
_RANK_OF: Final = {
    text: _TEN_VALUE.get(code[0], code[0])
    for text, code in (*_cards.spellings().items(), *_cards.suitless_spellings().items())
}


def rank(text: object) -> str | None:
    """The rank of a card as the log spells it (``"KH"``, ``"10d"``, ``"9*"``), or None."""
    return _RANK_OF.get(text) if type(text) is str else None


def round_ranks(doc: Mapping) -> Iterable[str]:
    """The ranks of the cards a round/1 document took out of the shoe, in order: every card an
    event names (deal, hit, double, draw). A card that is no card of the pack is left out (the
    audit reports it as CARD_INVALID)."""
    rank_of = _RANK_OF
    events = doc.get("events") or ()
    out = []
    try:
        for ev in events:
            card = ev.get("card")
            if card is not None:
                r = rank_of.get(card)
                if r is not None:
                    out.append(r)
    except (AttributeError, TypeError):  # an event that is no object, a card that is no text
        return [r for ev in events if type(ev) is dict and (r := rank(ev.get("card"))) is not None]
    return out


def full_edge(decks: int) -> float:
    """The full shoe's player edge (%) for that many decks (the nearest computed when not kept)."""
    if decks in FULL_EDGE:
        return FULL_EDGE[decks]
    return FULL_EDGE[min(FULL_EDGE, key=lambda d: abs(d - decks))]


def compute_effects(
    decks: int | None = DECKS, ranks: tuple[str, ...] = RANKS, *, preset: str = "salon", rules: Mapping | None = None
) -> tuple[float, dict[str, float]]:
    """From the exact solver: the full shoe's player edge (%) and the effect of removal of each of
    `ranks` (every rank by default), for a preset and house rules (`decks`, when given, over them)."""
    from .math import clear_cache
    from .math import solver as solver_of
    from .math.dealer import N_RANKS, no_blackjack
    from .math.question import PAYOUT, best_option, read_rules
    from .math.solver import ORDER, deal_probabilities, natural

    asked = {k: v for k, v in (rules or {}).items() if k != "preset"}
    if decks is not None:
        asked["decks"] = decks
    rules = read_rules(preset, asked)
    payout = PAYOUT[rules["blackjack_pays"]]

    def mean(removed: tuple) -> float:
        s = solver_of(rules, removed)
        got = 0.0
        for a, b, up, p in deal_probabilities(s.shoe):
            hand = tuple((a == k) + (b == k) for k in range(N_RANKS))
            nb = no_blackjack(up, s.left(up, hand))
            if natural(hand):
                got += p * payout * nb
            else:
                opts = s.options(up, hand)
                pick = best_option({k: v[0] for k, v in opts.items()}, ORDER)
                got += p * (opts[pick][0] - (1.0 - nb))
        clear_cache()  # a solve holds hundreds of megabytes: keep one at a time
        return 100.0 * got

    full = mean((0,) * N_RANKS)
    effects = {}
    for r in ranks:
        i = RANKS.index(r)
        removed = tuple(int(k == i) for k in range(N_RANKS))
        effects[r] = mean(removed) - full
    return full, effects
