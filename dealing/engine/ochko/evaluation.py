"""21 Ochko's part of a player's evaluation (dealing/engine/evaluation.py): the Bet placed on the
box's first card (fold, or 1 … 10 Antes) and, for the box's owner, every hit, stand and dark card,
against the optimal play for the shoe — the exact game math (dealing/engine/ochko/math) of the full
8 × 36 shoe less the cards the box and the dealer show. EVs are in Antes.

The composition before the round moves the edge (protection.shoe_states' `edge`, from the effects
of removal) but not these values: an exact solve per composition takes seconds, and Ochko's
options have no per-option effects of removal tabled yet (docs/protection.md).
"""

from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction

from ..evaluation import Decision
from . import BET_MULTIPLE_MAX
from .math import ACTIONS, Solver, solve
from .math.question import N_RANKS, RANK_INDEX, read_rules
from .math.solver import hand_total
from .odds import RANKS

__all__ = ["decisions", "wager"]

_RULES: dict[str, dict] = {}
_FIRST: dict[tuple, dict[str, float]] = {}


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


def _first(solver: Solver, key: tuple, card: int) -> dict[str, float]:
    got = _FIRST.get((key, card))
    if got is None:
        got = _FIRST[(key, card)] = {n: float(v) for n, v in solver.first_values(card).items()}
    return got


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
            values = _first(solver, key, card)
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
                got = _draw(solver, cards, up, kind, bets[owner] / Decimal(str(mine[owner]["ante"])))
                if got is not None:
                    situation, optimal, ev_chosen, ev_optimal = got
                    ante = Decimal(str(mine[owner]["ante"]))
                    out.append(
                        Decision(round_id, owner, str(box), situation, kind, optimal, ev_chosen, ev_optimal, ante, tc)
                    )
            if kind in ("hit", "dark") and "card" in e:
                cards.append(RANK_INDEX[e["card"][0]])
    return out


def _draw(solver: Solver, cards: list[int], up: int, chosen: str, k: Decimal):
    """(situation, optimal, EV chosen, EV optimal) of a drawing decision with a Bet of k Antes, or
    None where the hand is settled or the Bet is off the model's 1 … 10."""
    if k != k.to_integral_value() or not 1 <= k <= BET_MULTIPLE_MAX:
        return None
    hand = tuple(cards.count(r) for r in range(N_RANKS))
    if hand_total(hand) >= 21:
        return None
    node = solver.node(hand, up)
    scale = solver.shoe.scale[node.n - solver.shoe.floor]
    i = int(k) - 1
    values = {ACTIONS[a]: float(Fraction(v[i], scale)) for a, v in node.options.items()}
    if chosen not in values:
        return None
    optimal = max(values, key=lambda n: (values[n], n == chosen))
    return f"{hand_total(hand)} v {RANKS[up]}", optimal, values[chosen], values[optimal]
