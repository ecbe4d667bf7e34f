"""21 Ochko's part of a player's evaluation (dealing/engine/evaluation.py): the Bet placed on the
box's first card (fold, or 1 … 10 Antes) and, for the box's owner, every hit, stand and dark card,
against the optimal play for the shoe's composition before the round. EVs are in Antes.

As blackjack's wing does (blackjack/evaluation.py): each option's exact value off the top of the
full 8 × 36 shoe less the cards the box and the dealer show (the game math, ochko/math), moved to
the composition by that option's own effects of removal — the change of its value when one card of
each rank leaves the full shoe, from nine more exact solves of the same rule set —

    EV(option | shoe) ≈ EV(option | full) + Σ_r EoR(option, r) · (p_r,full − p_r,shoe) · (N_full − 1)

An exact solve per composition takes seconds; the nine removal solvers are built once per process
and rule set (about 2.7 s of CPU on first use, their nine shoes sharing one table of the dealer's
odds: `removal_shoes`) and each option's effects kept as it is met, so a decision costs nine
products. docs/protection.md compares the estimate with exact solves.
"""

from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction

from ..evaluation import Decision
from . import BET_MULTIPLE_MAX
from .math import ACTIONS, FULL_COUNTS, Solver, removal_shoes, solve
from .math.question import N_RANKS, RANK_INDEX, read_rules
from .math.solver import hand_total
from .odds import RANKS

__all__ = ["decisions", "wager"]

_RULES: dict[str, dict] = {}
# (rules' key, first card) -> {option: (EV off the top, (EoR per rank …))}
_FIRST: dict[tuple, dict[str, tuple[float, tuple[float, ...]]]] = {}
# (rules' key, hand, up, Bet index) -> {option: (EV off the top, (EoR per rank …))}
_DRAWS: dict[tuple, dict[str, tuple[float, tuple[float, ...]]]] = {}
# rules' key -> the nine solvers of the full shoe less one card of each rank (math's RANKS order)
_REMOVED: dict[tuple, tuple[Solver, ...]] = {}
N_FULL = sum(FULL_COUNTS)
SHARES = tuple(c / N_FULL for c in FULL_COUNTS)


def rules_of(document: Mapping) -> dict:
    rules = document.get("rules") or {}
    key = repr(sorted(rules.items()))
    got = _RULES.get(key)
    if got is None:
        got = _RULES[key] = read_rules(dict(rules))
    return got


def _bet_amounts(document: Mapping) -> dict[str, Decimal]:
    return {e["stake"]: Decimal(str(e["amount"])) for e in document.get("events", ()) if e.get("e") == "bet"}


def wager(document: Mapping, stake: Mapping) -> Decimal:
    """The stake's Ante and Bet: what a player sizing his game by the count risks."""
    return Decimal(str(stake.get("ante", 0))) + _bet_amounts(document).get(stake["id"], Decimal(0))


def _removed(key: tuple, rules: dict) -> tuple[Solver, ...]:
    """The solvers of the full shoe less one card of each rank, for the rule set (built once; their
    nodes are solved as the decisions ask for them). Not `solve`'s: it keeps only a few depleted shoes."""
    got = _REMOVED.get(key)
    if got is None:
        got = _REMOVED[key] = tuple(Solver(shoe, rules) for shoe in removal_shoes())
    return got


def _first(solver: Solver, key: tuple, card: int) -> dict[str, tuple[float, tuple[float, ...]]]:
    got = _FIRST.get((key, card))
    if got is None:
        full = {n: float(v) for n, v in solver.first_values(card).items()}
        removed = [s.first_values(card) for s in _removed(key, solver.rules)]
        got = _FIRST[(key, card)] = {n: (v, tuple(float(values[n]) - v for values in removed)) for n, v in full.items()}
    return got


def shift(remaining: Mapping[str, int]) -> tuple[float, ...]:
    """x_r = (p_r,full − p_r,shoe)·(N_full − 1): the composition before the round as the equivalent
    cards removed from a full shoe (math's RANKS order)."""
    counts = [0] * N_RANKS
    for rank, n in remaining.items():
        counts[RANK_INDEX[rank[0]]] += n
    n_now = sum(counts) or 1
    return tuple((SHARES[r] - counts[r] / n_now) * (N_FULL - 1) for r in range(N_RANKS))


def _moved(options: Mapping[str, tuple[float, tuple[float, ...]]], x: tuple[float, ...]) -> dict[str, float]:
    out = {}
    for name, (base, eor) in options.items():
        acc = 0.0
        for k in range(N_RANKS):
            acc += eor[k] * x[k]
        out[name] = base + acc
    return out


def _owners(stakes: Sequence[Mapping]) -> dict[int, str]:
    owners: dict[int, str] = {}
    for s in stakes:
        if s.get("owner"):
            owners[s["box"]] = s["id"]
    for s in stakes:
        owners.setdefault(s["box"], s["id"])
    return owners


def decisions(document: Mapping, stakes: Sequence[str], state, round_id: str = "") -> list[Decision]:
    rules = rules_of(document)
    solver = solve(rules)
    key = (rules["dark_win_bet"], rules["dark_double_bust_bet"])
    x = shift(state.remaining)
    tc = float(state.true_count)
    round_id = round_id or str(document.get("id", ""))
    all_stakes = list(document.get("stakes", ()))
    mine = {s["id"]: s for s in all_stakes if s["id"] in stakes}
    owners = _owners(all_stakes)
    bets = _bet_amounts(document)
    first: dict[int, int] = {}
    hands: dict[int, list[int]] = {}
    up = None
    out: list[Decision] = []
    for e in document.get("events", ()):
        kind = e.get("e")
        if kind == "deal":
            r = RANK_INDEX[e["card"][0]]
            if e["to"] == "dealer":
                up = r if up is None else up
            else:
                first.setdefault(int(e["to"]), r)
                hands.setdefault(int(e["to"]), []).append(r)
        elif kind in ("bet", "fold") and e.get("stake") in mine:
            stake = mine[e["stake"]]
            card = first.get(stake["box"])
            ante = Decimal(str(stake.get("ante", 0)))
            if card is None or not ante:
                continue
            if kind == "fold":
                chosen = "fold"
            else:
                k = bets[stake["id"]] / ante
                if k != k.to_integral_value() or not 1 <= k <= BET_MULTIPLE_MAX:
                    continue
                chosen = f"bet:{int(k)}"
            values = _moved(_first(solver, key, card), x)
            optimal = max(values, key=lambda n: (values[n], n == chosen))
            out.append(
                Decision(
                    round_id,
                    stake["id"],
                    str(stake["box"]),
                    "first card",
                    chosen,
                    optimal,
                    values[chosen],
                    values[optimal],
                    ante,
                    tc,
                )
            )
        elif kind in ("hit", "stand", "dark") and up is not None:
            box = int(e["box"])
            cards = hands.get(box, [])
            owner = owners.get(box)
            if owner in mine and owner in bets:
                got = _draw(solver, key, cards, up, kind, bets[owner] / Decimal(str(mine[owner]["ante"])), x)
                if got is not None:
                    situation, optimal, ev_chosen, ev_optimal = got
                    ante = Decimal(str(mine[owner]["ante"]))
                    out.append(
                        Decision(round_id, owner, str(box), situation, kind, optimal, ev_chosen, ev_optimal, ante, tc)
                    )
            if kind in ("hit", "dark") and "card" in e:
                cards.append(RANK_INDEX[e["card"][0]])
    return out


def _draw(solver: Solver, key: tuple, cards: list[int], up: int, chosen: str, k: Decimal, x: tuple):
    """(situation, optimal, EV chosen, EV optimal) of a drawing decision with a Bet of k Antes for the
    composition `x`, or None where the hand is settled or the Bet is off the model's 1 … 10."""
    if k != k.to_integral_value() or not 1 <= k <= BET_MULTIPLE_MAX:
        return None
    hand = tuple(cards.count(r) for r in range(N_RANKS))
    if hand_total(hand) >= 21:
        return None
    i = int(k) - 1
    options = _DRAWS.get((key, hand, up, i))
    if options is None:
        full = _node_values(solver, hand, up, i)
        removed = [_node_values(s, hand, up, i) for s in _removed(key, solver.rules)]
        options = _DRAWS[(key, hand, up, i)] = {
            n: (v, tuple(values.get(n, v) - v for values in removed)) for n, v in full.items()
        }
    if chosen not in options:
        return None
    values = _moved(options, x)
    optimal = max(values, key=lambda n: (values[n], n == chosen))
    return f"{hand_total(hand)} v {RANKS[up]}", optimal, values[chosen], values[optimal]


def _node_values(solver: Solver, hand: tuple, up: int, i: int) -> dict[str, float]:
    node = solver.node(hand, up)
    scale = solver.shoe.scale[node.n - solver.shoe.floor]
    return {ACTIONS[a]: float(Fraction(v[i], scale)) for a, v in node.options.items()}
