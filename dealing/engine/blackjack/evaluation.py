"""Blackjack's part of a player's evaluation (dealing/engine/evaluation.py): which events of a round
are a player's decisions, the optimal play, and what each option was worth for the shoe's composition.

The options' values are the basic-strategy chart's (the game math, dealing/engine/blackjack/math:
each cell's EV per option off the top, conditioned on no dealer blackjack) moved to the composition
before the round by each option's own effects of removal: for every cell and option, the change of
its EV when one card of each rank leaves the full shoe, computed once per rule set by the same
solver. The composition's EV is then the linear estimate

    EV(option | shoe) ≈ EV(option | full) + Σ_r EoR(option, r) · (p_r,full − p_r,shoe) · (N_full − 1)

(p: a rank's share of the shoe). Solving each composition exactly costs seconds a shoe; the linear
estimate costs ten products a decision, which is what lets a year of rounds be evaluated in under
two seconds. Splits and surrender keep their full-shoe value (their removal solves are the
expensive exact split); insurance and even money are exact for the composition (the share of
ten-valued cards among the cards not seen).
"""

import json
import sys
import time
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path

from ..evaluation import Decision
from . import math as game_math
from .math import chart, solver
from .math.dealer import N_RANKS, no_blackjack
from .math.question import RANK_INDEX, RANK_NAMES, full_shoe, read_rules, rules_key
from .math.solver import DOUBLE, HIT, SPLIT, STAND, Solver, can_double, deal_probabilities, total

__all__ = ["decisions", "wager", "option_effects"]

TEN = 9
ACE = 0
MOVES = (STAND, HIT, DOUBLE)  # the options whose effects of removal are solved
_PLAYS = (HIT, STAND, DOUBLE, SPLIT)

# The presets' tables, solved once and shipped (`python -m dealing.engine.blackjack.evaluation`
# rewrites it): the ten removal solves take about a minute of CPU, which no page should wait for.
# Other rule sets are solved on first use and kept for the process.
# Found beside the game math's package, not by this module's __file__: mypyc gives a compiled module
# inside a package a __file__ that names no real place.
TABLE_FILE = Path(game_math.__file__ or ".").resolve().parent.parent / "option_effects.json"
PRESETS = ("salon", "online")

_RULES: dict[str, tuple] = {}
_EFFECTS: dict[tuple, dict] = {}
_SHIPPED: dict[str, dict] = {}


def rules_of(document: Mapping) -> dict:
    return _setup(document)[0]


# ((the house rules as last written, their setup),): a shoe's rounds share their rules. One tuple,
# replaced whole, so that a thread never reads one round's rules with another's setup.
_LAST: list = [({"": None}, ())]


def _setup(document: Mapping) -> tuple:
    """(the rules in force, their option table, the full shoe's rank shares, its size, the memo of
    `_cell`), memoised by the round's house rules as written: a year of rounds asks this once per round,
    and its rounds' rules are nearly always the previous round's (a dict compared, not written out)."""
    rules = document.get("rules") or {}
    last_rules, last_setup = _LAST[0]
    # Equal and of the same types (6 == 6.0 and True == 1, but the rules read them apart).
    if rules == last_rules and all(type(v) is type(last_rules[k]) for k, v in rules.items()):
        return last_setup
    key = repr(sorted(rules.items()))
    got = _RULES.get(key)
    if got is None:
        in_force = read_rules(None, dict(rules))
        full = full_shoe(in_force["decks"])
        n_full = sum(full)
        shares = tuple(c / n_full for c in full)
        got = _RULES[key] = (in_force, option_effects(in_force), shares, n_full, {})
    _LAST[0] = (dict(rules), got)
    return got


def wager(document: Mapping, stake: Mapping) -> Decimal:
    """The stake's initial bet: what a counter sizes by the count."""
    return Decimal(str(stake.get("bet", 0)))


def _hand(r1: int, r2: int) -> tuple:
    return tuple((r1 == k) + (r2 == k) for k in range(N_RANKS))


def _cell_values(s: Solver, weights: dict, rules: dict) -> dict:
    """{(kind, row, up): {option: EV}} for stand, hit and double, averaged over the cell's two-card
    hands as the chart does (weights: the full shoe's deal probabilities)."""
    sums: dict = {}
    reach: dict = {}
    for (a, b, up), w in weights.items():
        hand = _hand(a, b)
        best, soft = total(hand)
        if best == 21 and (a == ACE or b == ACE) and (a == TEN or b == TEN):
            continue
        cells = [("soft" if soft else "hard", best, up)]
        if a == b:
            cells.append(("pair", a, up))
        nb = no_blackjack(up, s.left(up, hand))
        values = {STAND: s.stand(up, hand)[0], HIT: s.hit(up, hand)[0]}
        if can_double(rules, hand, False):
            values[DOUBLE] = s.double(up, hand)[0]
        for cell in cells:
            reach[cell] = reach.get(cell, 0.0) + w * nb
            got = sums.setdefault(cell, {})
            for name, v in values.items():
                got[name] = got.get(name, 0.0) + w * v
    return {cell: {n: v / reach[cell] for n, v in got.items()} for cell, got in sums.items() if reach[cell]}


def option_effects(rules: dict) -> dict:
    """{(kind, row, up): {option: (EV off the top, (EoR per rank …))}} for a rule set (memoised: the
    ten removal solves take tens of seconds, once per process and rule set)."""
    key = rules_key(rules)
    got = _EFFECTS.get(key)
    if got is not None:
        return got
    if not _SHIPPED and TABLE_FILE.exists():
        _SHIPPED.update(json.loads(TABLE_FILE.read_text(encoding="utf-8")))
    shipped = _SHIPPED.get(repr(key))
    if shipped is not None:
        got = _EFFECTS[key] = _from_json(shipped)
        return got
    got = _EFFECTS[key] = solve_effects(rules)
    return got


def _to_json(table: dict) -> dict:
    return {
        f"{kind}|{row}|{up}": {
            name: [value, [float(f"{e:.9g}") for e in eor]] for name, (value, eor) in options.items()
        }
        for (kind, row, up), options in table.items()
    }


def _from_json(data: dict) -> dict:
    out = {}
    for cell, options in data.items():
        kind, row, up = cell.split("|")
        out[(kind, int(row), int(up))] = {name: (value, tuple(eor)) for name, (value, eor) in options.items()}
    return out


def solve_effects(rules: dict) -> dict:
    """The table `option_effects` reads, solved: the chart's values and each option's effects of removal."""
    base = chart(rules).cells
    full = tuple(full_shoe(rules["decks"]))
    weights = {(a, b, up): p for a, b, up, p in deal_probabilities(solver(rules).shoe)}
    removed = []
    for r in range(N_RANKS):
        shoe = tuple(c - (k == r) for k, c in enumerate(full))
        removed.append(_cell_values(Solver(rules, shoe), weights, rules))
    full_values = _cell_values(solver(rules), weights, rules)
    got = {}
    for cell, entry in base.items():
        options = {}
        for name, value in entry["values"].items():
            if name in MOVES and cell in full_values and name in full_values[cell]:
                eor = tuple(
                    removed[r].get(cell, {}).get(name, full_values[cell][name]) - full_values[cell][name]
                    for r in range(N_RANKS)
                )
            else:
                eor = (0.0,) * N_RANKS
            options[name] = (value, eor)
        got[cell] = options
    return got


def write_table(presets: Sequence[str] = PRESETS) -> None:
    """Solve the presets' tables and write TABLE_FILE (after each preset: a long solve keeps what it did)."""
    out = json.loads(TABLE_FILE.read_text(encoding="utf-8")) if TABLE_FILE.exists() else {}
    for preset in presets:
        rules = read_rules(preset, {})
        started = time.process_time()
        out[repr(rules_key(rules))] = _to_json(solve_effects(rules))
        print(f"{preset}: {time.process_time() - started:.1f} s of CPU", file=sys.stderr)
        TABLE_FILE.write_text(json.dumps(out, separators=(",", ":")) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write_table(sys.argv[1:] or PRESETS)


def _shift(remaining: Mapping[str, int], shares: tuple[float, ...], n_full: int) -> tuple:
    """x_r = (p_r,full − p_r,shoe)·(N_full − 1): the composition as equivalent cards removed from a
    full shoe."""
    counts = [0] * N_RANKS
    for rank, n in remaining.items():
        counts[RANK_INDEX[rank[0]]] += n
    n_now = sum(counts) or 1
    return tuple([(shares[r] - counts[r] / n_now) * (n_full - 1) for r in range(N_RANKS)]), counts


def _value(option: tuple[float, tuple[float, ...]], x: tuple[float, ...]) -> float:
    # Typed, so that the compiled build multiplies and adds unboxed doubles (a tenth of the
    # evaluation's time went to boxed floats here); the products summed left to right from 0, as
    # sum() does: the same float to the last bit.
    base: float = option[0]
    eor: tuple[float, ...] = option[1]
    acc: float = 0.0
    for k in range(N_RANKS):
        acc += eor[k] * x[k]
    return base + acc


def decisions(document: Mapping, stakes: Sequence[str], state, round_id: str = "") -> list[Decision]:
    """The decisions of these stakes in a round (see the module): insurance (or even money) while the
    dealer shows an ace, then every hit, stand, double and split of their hands."""
    rules, table, shares, n_full, cells = _setup(document)
    x, shoe = _shift(state.remaining, shares, n_full)
    tc = float(state.true_count)
    round_id = round_id or str(document.get("id", ""))
    mine = {s["id"]: s for s in document.get("stakes", ()) if s["id"] in stakes}
    by_box = {s["box"]: s for s in mine.values()}
    wagers = {sid: wager(document, s) for sid, s in mine.items()}  # one Decimal per stake, not per decision
    hands: dict[str, list[int]] = {}
    seen = list(shoe)
    up = None
    out: list[Decision] = []
    events = document.get("events", ())
    insured: dict[str, str] = {}
    plays: list = []
    for e in events:
        kind = e.get("e")
        if kind == "deal":
            r = RANK_INDEX[e["card"][0]]
            if e["to"] == "dealer":
                if up is None:
                    up = r
                    seen[r] -= 1
            else:
                hands.setdefault(str(e["to"]), []).append(r)
                seen[r] -= 1
        elif kind in ("insurance", "even_money") and e.get("stake") in mine:
            insured[e["stake"]] = "insure" if kind == "insurance" else "even_money"
        elif kind in _PLAYS and "hand" in e:
            plays.append(e)  # walked again below, once the dealer's card is known
    if up is None:
        return out
    if up == ACE:
        left = sum(seen)
        p = seen[TEN] / left if left > 0 else 0.0
        payout = 1.5 if rules["blackjack_pays"] == "3:2" else 1.2
        for sid, stake in mine.items():
            cards = hands.get(str(stake["box"]), [])
            natural = len(cards) == 2 and ACE in cards and TEN in cards
            if natural:
                values = {"even_money": 1.0, "decline": payout * (1 - p)}
                take = "even_money"
            else:
                values = {"insure": (3 * p - 1) / 2, "decline": 0.0}
                take = "insure"
            chosen = insured.get(sid, "decline")
            optimal = take if values[take] > values["decline"] else "decline"
            out.append(
                Decision(
                    round_id,
                    sid,
                    str(stake["box"]),
                    "insurance",
                    chosen,
                    optimal,
                    values[chosen],
                    values[optimal],
                    wagers[sid],
                    tc,
                )
            )
    boxes_hands: dict[int, int] = {}
    for name in hands:
        boxes_hands[int(name)] = 1
    done: set[str] = set()
    for e in plays:
        kind = e["e"]
        name = str(e["hand"])
        box = int(name.split(".")[0])
        stake = by_box.get(box)
        if stake is None:
            continue  # another player's hand: nothing below reads it (the insurance was judged above)
        cards = hands.setdefault(name, [])
        if kind == HIT and len(cards) < 2:  # a split hand's second card: dealt, not chosen
            cards.append(RANK_INDEX[e["card"][0]])
            continue
        if name not in done:
            got = _decision(cells, table, rules, name, cards, up, kind, x, boxes_hands.get(box, 1))
            if got is not None:
                situation, optimal, ev_chosen, ev_optimal = got
                out.append(
                    Decision(
                        round_id,
                        stake["id"],
                        name,
                        situation,
                        kind,
                        optimal,
                        ev_chosen,
                        ev_optimal,
                        wagers[stake["id"]],
                        tc,
                    )
                )
        if kind in (HIT, DOUBLE):
            cards.append(RANK_INDEX[e["card"][0]])
        if kind in (STAND, DOUBLE):
            done.add(name)
        elif kind == SPLIT:
            hands[f"{name}.1"] = cards[:1]
            hands[f"{name}.2"] = cards[1:2]
            boxes_hands[box] = boxes_hands.get(box, 1) + 1
            done.add(name)
    return out


def _decision(
    cells: dict, table: dict, rules: dict, name: str, cards: list[int], up: int, chosen: str, x: tuple, box_hands: int
):
    """(situation, optimal option, EV chosen, EV optimal) of one decision, or None where there is
    nothing to decide (21, bust) or the chart has no such cell."""
    split_hand = "." in name
    key = (tuple(cards), up, split_hand, box_hands < rules["max_hands"])
    # The cell, its situation and the options allowed depend on the hand, not on the shoe: 10,000
    # rounds meet about 3,000 hands (their cards in order), each worked out once per rule set.
    cell = cells.get(key)
    if cell is None:
        cell = cells[key] = _cell(table, rules, cards, up, split_hand, key[3])
    if not cell:
        return None
    situation, options = cell
    values = {n: _value(v, x) for n, v in options}
    if chosen not in values or not values:
        return None
    optimal = max(values, key=lambda n: (values[n], n == chosen))
    return situation, optimal, values[chosen], values[optimal]


def _cell(table: dict, rules: dict, cards: list[int], up: int, split_hand: bool, below_max: bool) -> tuple:
    """(situation, ((option, its table entry) … in the table's order)) of a hand against the
    dealer's card, or () where there is nothing to decide (21, bust) or the chart has no such cell."""
    hand = tuple(cards.count(k) for k in range(N_RANKS))
    best, soft = total(hand)
    if best >= 21:
        return ()
    pair = len(cards) == 2 and cards[0] == cards[1]
    may_split = pair and below_max and (cards[0] != ACE or not split_hand or rules["resplit_aces"])
    label = "soft" if soft else "hard"
    if may_split and ("pair", cards[0], up) in table:
        cell = table[("pair", cards[0], up)]
        situation = f"{RANK_NAMES[cards[0]]},{RANK_NAMES[cards[0]]} v {RANK_NAMES[up]}"
    else:
        cell = table.get((label, best, up))
        situation = f"{label} {best} v {RANK_NAMES[up]}"
        if cell is None:
            return ()
    allowed = {STAND, HIT}
    if len(cards) == 2 and can_double(rules, hand, split_hand):
        allowed.add(DOUBLE)
    if may_split:
        allowed.add(SPLIT)
    return situation, tuple((n, v) for n, v in cell.items() if n in allowed)
