"""The exact game math of 21 Ochko: option values (`ev/1`), the optimal house edge (`edge/1`), the chart.

The model (shared/analytics-format.md, rules/ochko.md): one box heads up against the dealer, off
the top of a full 8 × 36 shoe minus every card named (and `removed`). The box sees its first card
and folds (−1) or places a Bet of k Antes, k = 1 … 10, before the dealer opens his card; then,
knowing his up card, it stands, hits or takes one dark card, and plays on optimally. Face-up
ochko (21, a pair of aces, five pictures) and mnogo are settled at once; ties lose; the dealer
draws to 17 and stops on his own pair of aces and five pictures; a dark-card box that wins, or
busts while the dealer busts, is paid its Ante only and its Bet is left or taken per the house
rules `dark_win_bet` / `dark_double_bust_bet`. Values are in Antes, net (a push would be 0).

Exact arithmetic, no floats anywhere. Two facts make the full solve small:

* The probability that the dealer draws one particular sequence of cards from a shoe depends only
  on the multiset of those cards: ∏ (s_r)_(d_r) / (N)_m, with (x)_d the falling factorial. So each
  up card has a fixed list of draw multisets D (at most 338) with the number of orders w(D) in
  which he may draw them (no proper prefix stops him) and the result they give; the dealer's odds
  for any shoe are Σ_D w(D) ∏ (s_r)_(d_r) / (N)_|D|, a sum of integers.
* Every value of a state whose shoe holds n cards is kept as the integer W = V × n!/B!, with one
  floor B = N − 36 for the whole shoe (N: the shoe before any named card). Then hitting is
  W(hand) = Σ_c s_c · W(hand + c), the dark card likewise, the dealer's odds come out as integers
  over the same scale, and options are compared as integers. Fractions are formed only for the
  answers.

A state is the box's cards as a multiset (their order no longer matters once the hand is not
settled: five pictures and the pair of aces are judged on the fifth and second card) and the
dealer's up card; the shoe of a state is the question's shoe minus those cards. Results are
memoised per shoe (the dealer's odds, shared by every rule set) and per shoe × rule set (the
values), so a question about a situation the full solve has met answers from the cache.

Bad questions raise `QuestionError` (a card not in the pack, more copies than the shoe holds, a
hand already settled, an option the rules forbid), whose `field` names the argument at fault.
"""

import functools
from fractions import Fraction

from ...math.questions import Refused
from .. import BET_MULTIPLE_MAX
from ..odds import RANKS, VALUE
from .question import (
    N_RANKS,
    PER_RANK,
    RANK_INDEX,
    QuestionError,
    best_option,
    check_copies,
    check_not_settled,
    decimal,
    decimal_sqrt,
    hand_counts,
    read_cards,
    read_rules,
    rules_jsonable,
    shoe_counts,
)
from .solver import (  # noqa: F401 - the model's names, asked of the package
    ACE,
    ACTIONS,
    BETS,
    BUST,
    DARK,
    HIT,
    RESULTS,
    RULE_COMBINATIONS,
    SHOE_MIN,
    SPAN,
    STAND,
    Node,
    Shoe,
    Solver,
    completing_ranks,
    hand_total,
)

__all__ = ["QuestionError", "ev", "edge", "edge_table", "strategy", "solve", "RULE_COMBINATIONS"]


_SHOES: dict[tuple, Shoe] = {}
_SOLVERS: dict[tuple, Solver] = {}
# Depleted shoes each hold their own caches (a full solve is a few megabytes): only the most
# recently asked few are kept, so a server answering many `removed` questions stays bounded.
# The full shoe, which the pages and the trainer ask about, is never forgotten.
DEPLETED_SHOES_KEPT = 8
FULL_COUNTS = tuple([PER_RANK] * N_RANKS)


def solve(rules: dict | None = None, removed: tuple = (), dark: bool = True) -> Solver:
    """The memoised solver for a rule set and a shoe (`removed`: rank counts or card codes gone)."""
    rules = read_rules(rules)
    counts = removed if _is_counts(removed) else shoe_counts(read_cards(removed, "removed"))
    shoe = _SHOES.pop(counts, None)
    if shoe is None:
        shoe = Shoe(counts)
    _SHOES[counts] = shoe  # last in: the most recently asked
    depleted = [c for c in _SHOES if c != FULL_COUNTS]
    for old in depleted[:-DEPLETED_SHOES_KEPT]:
        del _SHOES[old]
        for stale in [k for k in _SOLVERS if k[0] == old]:
            del _SOLVERS[stale]
    key = (counts, rules["dark_win_bet"], rules["dark_double_bust_bet"], dark)
    solver = _SOLVERS.get(key)
    if solver is None:
        solver = _SOLVERS[key] = Solver(shoe, rules, dark)
    return solver


@functools.cache
def removal_shoes() -> tuple[Shoe, ...]:
    """The nine shoes of the full shoe less one card of each rank (RANKS order), made once: what the
    effects of removal are solved on. One size, so one table of the dealer's odds between them: a
    shoe `left` after the cards of a question is reached from several of them (7 × 8 leaves the
    same shoe as 8 × 7), and its odds are worked out once instead of in each."""
    odds: dict = {}
    return tuple(Shoe(tuple(c - (k == r) for k, c in enumerate(FULL_COUNTS)), odds) for r in range(N_RANKS))


def clear_cache() -> None:
    """Forget every memoised shoe and solver (for timing a cold solve)."""
    _SHOES.clear()
    _SOLVERS.clear()


def cached() -> tuple[list[tuple], list[tuple]]:
    """What is memoised now, least recently asked first: the shoes (their rank counts) and the
    solvers (their keys: the shoe's counts, dark_win_bet, dark_double_bust_bet, dark)."""
    return list(_SHOES), list(_SOLVERS)


def _is_counts(value) -> bool:
    return type(value) is tuple and len(value) == N_RANKS and all(type(c) is int for c in value)


# --- the questions --------------------------------------------------------------------------------


def ev(cards, dealer=None, bet=None, removed=(), rules=None) -> dict:
    """The `ev/1` document: every legal option's exact EV in Antes, and the best one.

    One card and no dealer: the decision before the dealer opens, `fold` and `bet:1` … `bet:10`
    (each averaged over his up card). With the dealer's up card: `stand`, `hit` and `dark` for the
    Bet k (`bet`, default 1), each followed by the optimal play.
    """
    rules = read_rules(rules)
    hand_codes = read_cards(cards, "cards")
    if not hand_codes:
        raise QuestionError("cards", "Name the box's cards: at least one.")
    removed_codes = read_cards(removed, "removed")
    dealer_code = None
    if dealer is not None:
        got = read_cards([dealer], "dealer")
        dealer_code = got[0]
    check_copies(
        [("cards", c) for c in hand_codes]
        + ([("dealer", dealer_code)] if dealer_code else [])
        + [("removed", c) for c in removed_codes]
    )
    check_not_settled(hand_codes)
    if dealer_code is None and len(hand_codes) > 1:
        raise QuestionError(
            "dealer", "A box with two or more cards draws after the dealer opened his card: name his up card."
        )
    if dealer_code is None and bet is not None:
        raise QuestionError(
            "bet",
            "With one card and no dealer's card the question is the Bet itself (fold or "
            "bet:1 … bet:10); a Bet needs the dealer's up card.",
        )
    if bet is None:
        bet = 1 if dealer_code is not None else None
    elif type(bet) is not int or not 1 <= bet <= BET_MULTIPLE_MAX:
        raise QuestionError("bet", f"The Bet is 1 to {BET_MULTIPLE_MAX} Antes, not {bet!r}.")
    counts = shoe_counts(removed_codes)
    named = len(hand_codes) + (dealer_code is not None)
    if sum(counts) - named < SHOE_MIN:
        raise QuestionError(
            "removed",
            f"The shoe would keep {sum(counts) - named} cards after those named; the model needs at least {SHOE_MIN}.",
        )
    solver = solve(rules, counts)
    hand = hand_counts(hand_codes)
    if dealer_code is None:
        values = solver.first_values(RANK_INDEX[hand_codes[0][0]])
    else:
        node = solver.node(hand, RANK_INDEX[dealer_code[0]])
        scale = solver.shoe.scale[node.n - solver.shoe.floor]
        values = {ACTIONS[a]: Fraction(v[bet - 1], scale) for a, v in sorted(node.options.items())}
    return {
        "format": "ev/1",
        "variant": "ochko",
        "preset": None,
        "cards": hand_codes,
        "dealer": dealer_code,
        "bet": bet,
        "removed": removed_codes,
        "options": {name: decimal(v) for name, v in values.items()},
        "best": best_option(values),
    }


def edge(rules=None, *, dark: bool = True) -> dict:
    """The `edge/1` document: the optimal play's house edge per Ante, per unit wagered, and the sd."""
    rules = read_rules(rules)
    figures = _round(rules, dark)
    return {
        "format": "edge/1",
        "variant": "ochko",
        "preset": None,
        "strategy": "optimal",
        "house_edge": decimal(-figures["mean"]),
        "expected_return": decimal(figures["mean"]),
        "wagered": decimal(figures["wagered"]),
        "edge_per_wagered": decimal(-figures["mean"] / figures["wagered"]),
        "sd": decimal_sqrt(figures["square"] - figures["mean"] ** 2),
        "rules": rules_jsonable(rules),
    }


def edge_table() -> list[dict]:
    """`edge/1` for each combination of `dark_win_bet` × `dark_double_bust_bet`."""
    return [edge(dict(combination)) for combination in RULE_COMBINATIONS]


def _round(rules: dict, dark: bool) -> dict:
    return solve(rules, dark=dark).round_figures()


def strategy(bet=1, rules=None) -> dict:
    """The optimal chart for a Bet of `bet` Antes, by hand and the dealer's up card.

    Optimal play is composition-dependent, so a chart cell gathers several hands. Rows are the
    one-card hands (by the card: the box may stand, hit or take its dark card on its first card)
    and the hands of two or more cards by their total. Each cell weighs its hands by how often
    the optimal play off the top reaches them with this Bet, and gives the action most of that
    weight takes (`action`), the weighted mean of that action's EV minus the best other option's
    (`margin`, in Antes; negative where the cell's action is not the best for most hands), and the
    share of the weight for which the cell's action is optimal (`agree`). `bet_decision` is the
    choice after the first card (fold or the best Bet) and `dark_value` the house edge with and
    without the dark-card option.
    """
    rules = read_rules(rules)
    if type(bet) is not int or not 1 <= bet <= BET_MULTIPLE_MAX:
        raise QuestionError("bet", f"The Bet is 1 to {BET_MULTIPLE_MAX} Antes, not {bet!r}.")
    solver = solve(rules)
    shoe = solver.shoe
    i = bet - 1
    reach = _reach(solver, i)
    cells: dict[tuple, dict] = {}
    for (hand, up), weight in reach.items():
        node = solver.node(hand, up)
        row = ("card", RANKS[hand.index(1)]) if sum(hand) == 1 else ("total", hand_total(hand))
        scale = shoe.scale[node.n - shoe.floor]
        values = {a: v[i] for a, v in node.options.items()}
        cell = cells.setdefault((row, up), {"weight": Fraction(0), "by_action": {}})
        cell["weight"] += weight
        # Per action: the weight of the hands where it is optimal, and Σ weight × (its EV − best other).
        for a in values:
            other = max(v for b, v in values.items() if b != a)
            entry = cell["by_action"].setdefault(a, [Fraction(0), Fraction(0)])
            if node.action[i] == a:
                entry[0] += weight
            entry[1] += weight * Fraction(values[a] - other, scale)
    rows = []
    row_keys = [("card", r) for r in RANKS] + sorted({key[0] for key in cells if key[0][0] == "total"})
    for row in row_keys:
        line_cells: dict[str, dict] = {}
        for up in range(N_RANKS):
            found = cells.get((row, up))
            if found is None:
                continue
            by_action = found["by_action"]
            a = max(sorted(by_action), key=lambda b: by_action[b][0])  # the first in tie order wins ties
            line_cells[RANKS[up]] = {
                "action": ACTIONS[a],
                "margin": decimal(by_action[a][1] / found["weight"]),
                "agree": decimal(by_action[a][0] / found["weight"]),
            }
        rows.append({"hand": str(row[1]), "kind": "one_card" if row[0] == "card" else "total", "cells": line_cells})
    bet_decision = {}
    for card in range(N_RANKS):
        values = solver.first_values(card)
        name = best_option(values)
        others = [v for n_, v in values.items() if n_ != name]
        bet_decision[RANKS[card]] = {
            "action": name,
            "ev": decimal(values[name]),
            "margin": decimal(values[name] - max(others)),
        }
    with_dark = _round(rules, True)["mean"]
    without = _round(rules, False)["mean"]
    return {
        "format": "strategy/1",
        "variant": "ochko",
        "preset": None,
        "strategy": "optimal",
        "bet": bet,
        "rules": rules_jsonable(rules),
        "up_cards": list(RANKS),
        "rows": rows,
        "bet_decision": bet_decision,
        "dark_value": {
            "house_edge": decimal(-with_dark),
            "house_edge_without_dark": decimal(-without),
            "value": decimal(with_dark - without),
        },
    }


def _reach(solver: Solver, i: int) -> dict:
    """{(hand, up): probability} of the undecided states the optimal play reaches with Bet BETS[i]."""
    shoe = solver.shoe
    size = shoe.size
    frontier: dict[tuple, Fraction] = {}
    for card in range(N_RANKS):
        hand = tuple(int(r == card) for r in range(N_RANKS))
        p_card = Fraction(shoe.counts[card], size)
        for up in range(N_RANKS):
            s = shoe.counts[up] - hand[up]
            if s and p_card:
                frontier[(hand, up)] = p_card * Fraction(s, size - 1)
    reach: dict[tuple, Fraction] = {}
    while frontier:
        reach.update(frontier)
        following: dict[tuple, Fraction] = {}
        for (hand, up), p in frontier.items():
            node = solver.node(hand, up)
            if node.action[i] != HIT:
                continue
            total = hand_total(hand)
            completes = completing_ranks(hand)
            for c in range(N_RANKS):
                s = node.left[c]
                if not s or total + VALUE[c] >= 21 or c in completes:
                    continue  # settled at once
                key = (hand[:c] + (hand[c] + 1,) + hand[c + 1 :], up)
                following[key] = following.get(key, 0) + p * Fraction(s, node.n)
        frontier = following
    return reach


# --- the command line (math/cli.py) ----------------------------------------------------------------


def cli(args, rules: dict):
    """The answer to `ev|edge|strategy ochko …` (math/cli.py has parsed it and read its rules)."""
    if args.preset is not None:
        raise Refused(f"--preset does not apply to {args.variant}")
    if args.command == "ev":
        return ev(args.cards, dealer=args.dealer, bet=args.bet, removed=args.removed, rules=rules)
    if args.command == "edge":
        if args.strategy not in (None, "optimal"):
            raise Refused(f"--strategy {args.strategy}: {args.variant} has the optimal strategy only")
        if args.all:
            if rules:
                raise Refused("--all gives every combination of the dark-card rules; drop --rule")
            return edge_table()
        return edge(rules)
    return strategy(bet=args.bet, rules=rules)


def reports() -> dict:
    """The Markdown reports of docs/ochko-math.md (python -m dealing.engine.math.report)."""
    from .report import ochko_report, ochko_speed

    return {"ochko": ochko_report, "ochko-speed": ochko_speed}
