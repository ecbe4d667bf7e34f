"""The game math of blackjack, both presets and any shoe: option values (`ev/1`), the house edge
off the top under composition-dependent optimal play or the basic-strategy chart (`edge/1`), and
that chart (`strategy`), computed from the same numbers (shared/analytics-format.md; the model,
the exact split and the float bound are docs/blackjack-math.md).

    from dealing.engine.blackjack import math as blackjack
    blackjack.ev(["TS", "6H"], dealer="TC")            # ev/1, salon
    blackjack.edge(preset="online", strategy="basic")  # edge/1
    blackjack.strategy(preset="salon")                 # the hard / soft / pairs chart

House rules: the engine's (rules/blackjack.md: decks, max_hands, resplit_aces, hit_split_aces,
double_after_split, …) and four the math model adds for the rule-effects table: hit_soft_17,
blackjack_pays (3:2 | 6:5), surrender (late), double (any | 9-11).
"""

from collections import OrderedDict

from ...math.questions import Refused
from .dealer import ACE, N_RANKS, TEN, no_blackjack
from .question import (
    PAYOUT,
    RANK_INDEX,
    RANK_NAMES,
    QuestionError,
    best_option,
    check_copies,
    counts,
    decimal,
    decimal_sqrt,
    full_shoe,
    read_cards,
    read_rules,
    rules_jsonable,
    rules_key,
)
from .solver import (
    DOUBLE,
    HIT,
    ORDER,
    SPLIT,
    STAND,
    SURRENDER,
    Solver,
    can_double,
    deal_probabilities,
    forget_dealers_since,
    natural,
    total,
)

__all__ = ["QuestionError", "ev", "edge", "strategy", "solver", "chart", "clear_cache", "EV_ORDER"]

EV_ORDER = ORDER + ("insurance", "even_money")
LETTER = {STAND: "S", HIT: "H", DOUBLE: "D", SPLIT: "P", SURRENDER: "R"}
HARD_ROWS = tuple(range(4, 21))
SOFT_ROWS = tuple(range(12, 21))
PAIR_ROWS = tuple(range(1, N_RANKS)) + (0,)  # 2,2 … T,T then A,A
KEEP_SHOES = 8

_FULL: dict = {}
_RECENT: "OrderedDict[tuple, Solver]" = OrderedDict()
_CHARTS: dict = {}
_EDGES: dict = {}


def clear_cache() -> None:
    _FULL.clear()
    _RECENT.clear()
    _CHARTS.clear()
    _EDGES.clear()


def forget(rules: dict, dealer_marks: dict[bool, int] | None = None) -> None:
    """Drop the full-shoe solver of a rule set (its edge and chart stay cached): a solve holds
    about 100 MB of memo, so the rule-effects table keeps only the figures of the rule sets it tries.
    With `dealer_marks` (solver.dealer_marks() taken before the rule set was solved) the dealer odds
    its shoes added go too: another deck count's shoes, or the other dealer rule's whole memo, are
    never asked again by the presets, and kept they held most of a warmed process's memory."""
    key = (rules_key(rules), tuple(full_shoe(rules["decks"])))
    _FULL.pop(key, None)
    if dealer_marks is not None:
        forget_dealers_since(dealer_marks)


def solver(rules: dict, removed: tuple = (0,) * N_RANKS) -> Solver:
    """The solver for a rule set and a shoe (the full shoe less `removed`), memoised."""
    shoe = tuple(f - r for f, r in zip(full_shoe(rules["decks"]), removed))
    key = (rules_key(rules), shoe)
    if not any(removed):
        got = _FULL.get(key)
        if got is None:
            got = _FULL[key] = Solver(rules, shoe)
        return got
    got = _RECENT.get(key)
    if got is None:
        got = _RECENT[key] = Solver(rules, shoe)
        while len(_RECENT) > KEEP_SHOES:
            _RECENT.popitem(last=False)
    else:
        _RECENT.move_to_end(key)
    return got


# --- ev/1 ------------------------------------------------------------------------------------------


def ev(cards, dealer=None, removed=(), rules=None, preset=None, hands=1) -> dict:
    """Every legal option of the hand against the up card, in units of the bet (see the module).

    `hands` > 1: the hand was made by splitting (its first card is the card split) and the box has
    that many hands now. The house rules then decide what it may do: split aces take one card
    unless `hit_split_aces`; a double only with `double_after_split`; a resplit while the box has
    fewer than `max_hands` hands (aces only with `resplit_aces`); an ace and a ten make a plain 21;
    no insurance. The split's value counts the hands this pair may still grow into."""
    in_force = read_rules(preset, rules)
    if type(hands) is not int or not 1 <= hands <= in_force["max_hands"]:
        raise QuestionError("hands", f"A box has 1 to {in_force['max_hands']} hands under these rules, not {hands!r}.")
    hand_codes = read_cards(cards, "cards")
    if len(hand_codes) < 2:
        raise QuestionError("cards", "Name the hand's cards: at least two (e.g. TS 6H).")
    up_codes = read_cards(dealer, "dealer")
    if len(up_codes) != 1:
        raise QuestionError("dealer", "Name the dealer's up card: one card (e.g. TC).")
    removed_codes = read_cards(removed, "removed")
    check_copies(
        [("cards", c) for c in hand_codes] + [("dealer", up_codes[0])] + [("removed", c) for c in removed_codes],
        in_force["decks"],
    )
    hand = counts(hand_codes)
    up = counts(up_codes).index(1)
    best, soft = total(hand)
    if best > 21:
        raise QuestionError("cards", f"{best} is bust: the hand is already settled.")
    out = {}
    gone = counts(removed_codes)
    if sum(full_shoe(in_force["decks"])) - sum(gone) - len(hand_codes) - 1 < 30:
        raise QuestionError("removed", "The shoe left is too small for the model (fewer than 30 cards).")
    s = solver(in_force, gone)
    shoe = s.left(up, hand)
    nb = no_blackjack(up, shoe)
    payout = PAYOUT[in_force["blackjack_pays"]]
    if hands > 1:
        out = _split_hand(s, in_force, up, hand, hand_codes, hands)
    elif natural(hand):
        if up != ACE:
            raise QuestionError("cards", "A blackjack against that up card is settled at once: there is no decision.")
        out["stand"] = payout * nb  # declining even money is decided before the peek
        out["even_money"] = 1.0
    else:
        if len(hand_codes) == 2:
            values = s.options(up, hand)
        else:
            values = {STAND: s.stand(up, hand), HIT: s.hit(up, hand)}
            if best == 21:
                values.pop(HIT)
        for name in ORDER:
            if name in values:
                out[name] = values[name][0] / nb
        if best == 21:
            out.pop(HIT, None)
        if up == ACE and len(hand_codes) == 2:
            out["insurance"] = 3 * shoe[TEN] / sum(shoe) - 1
    doc = {
        "format": "ev/1",
        "variant": "blackjack",
        "preset": in_force["preset"],
        "cards": hand_codes,
        "dealer": up_codes[0],
        "bet": None,
        "removed": removed_codes,
        "options": {k: decimal(v) for k, v in out.items()},
        "best": best_option({k: v for k, v in out.items() if k != "insurance"}, EV_ORDER),
        "rules": rules_jsonable(in_force),
    }
    if hands > 1:
        doc["hands"] = hands
    return doc


def _split_hand(s: Solver, rules: dict, up: int, hand: tuple, codes: list[str], hands: int) -> dict:
    """The options of a hand made by splitting (see `ev`), conditioned on no dealer blackjack."""
    nb = no_blackjack(up, s.left(up, hand))
    first = RANK_INDEX[codes[0][0]]
    aces = first == ACE
    best, _soft = total(hand)
    values = {STAND: s.stand(up, hand)}
    one_card = aces and not rules["hit_split_aces"]
    if best < 21 and not (one_card and len(codes) == 2):
        values[HIT] = s.hit(up, hand)
    if len(codes) == 2 and best < 21 and not one_card and can_double(rules, hand, True):
        values[DOUBLE] = s.double(up, hand)
    pair = len(codes) == 2 and hand[first] == 2
    if pair and hands < rules["max_hands"] and (not aces or rules["resplit_aces"]):
        values[SPLIT] = s.split(up, first, most=rules["max_hands"] - hands + 1)
    return {name: values[name][0] / nb for name in ORDER if name in values}


# --- the chart -------------------------------------------------------------------------------------


class Chart:
    """The total-dependent basic strategy: one action per (hard total | soft total | pair) × up card."""

    def __init__(self, cells: dict):
        self.cells = cells  # {("hard"|"soft"|"pair", row, up): {"action", "fallback", "values"}}

    def _cell(self, hand: tuple, up: int) -> dict | None:
        best, soft = total(hand)
        return self.cells.get(("soft" if soft else "hard", best, up))

    def first(self, hand: tuple, up: int, opts: dict, split: bool = False) -> str:
        pair = next((r for r in range(N_RANKS) if hand[r] == 2), None)
        if pair is not None and not split and SPLIT in opts and self.cells[("pair", pair, up)]["action"] == SPLIT:
            return SPLIT
        cell = self._cell(hand, up)
        if cell is None:
            return STAND
        action = cell["action"]
        if action in opts and action != SPLIT:
            return action
        second = cell.get("second")
        if second in opts and second not in (SPLIT, DOUBLE):
            return second
        return cell["fallback"]

    def hits(self, best: int, soft: bool, up: int) -> bool:
        cell = self.cells.get(("soft" if soft else "hard", best, up))
        if cell is None:
            return best < 12
        return cell["fallback"] == HIT

    def resplits(self, r: int, up: int) -> bool:
        return self.cells[("pair", r, up)]["action"] == SPLIT


def _cell_hands(kind: str, row: int):
    for a in range(N_RANKS):
        for b in range(a, N_RANKS):
            hand = tuple((a == k) + (b == k) for k in range(N_RANKS))
            if natural(hand):
                continue
            best, soft = total(hand)
            if kind == "pair":
                if a == b == row:
                    yield hand
            elif (kind == "soft") == soft and best == row:
                yield hand


def chart(rules: dict) -> Chart:
    key = rules_key(rules)
    got = _CHARTS.get(key)
    if got is not None:
        return got
    s = solver(rules)
    weight = {}
    for a, b, up, p in deal_probabilities(s.shoe):
        weight[(a, b, up)] = p
    cells = {}
    for kind, rows in (("hard", HARD_ROWS), ("soft", SOFT_ROWS), ("pair", PAIR_ROWS)):
        for row in rows:
            for up in range(N_RANKS):
                sums: dict = {}
                reach = 0.0
                for hand in _cell_hands(kind, row):
                    a = next(k for k in range(N_RANKS) if hand[k])
                    b = max(k for k in range(N_RANKS) if hand[k])
                    w = weight.get((a, b, up), 0.0)
                    if not w:
                        continue
                    opts = s.options(up, hand)
                    if kind != "pair":
                        opts.pop(SPLIT, None)
                    nb = no_blackjack(up, s.left(up, hand))
                    reach += w * nb
                    for name, value in opts.items():
                        sums[name] = sums.get(name, 0.0) + w * value[0]
                if not reach:
                    continue
                values = {name: sums[name] / reach for name in ORDER if name in sums}
                ranked = sorted(values, key=lambda n: (-values[n], ORDER.index(n)))
                if kind == "pair":
                    # the pair's cell: split, or play the hand as its total says
                    no_split = max((n for n in values if n != SPLIT), key=lambda n: values[n])
                    action = SPLIT if values.get(SPLIT, float("-inf")) > values[no_split] else no_split
                    second = no_split if action == SPLIT else ranked[1] if ranked[0] == action else ranked[0]
                else:
                    action, second = ranked[0], ranked[1]
                fallback = HIT if values[HIT] > values[STAND] else STAND
                cells[(kind, row, up)] = {
                    "action": action,
                    "second": second,
                    "fallback": fallback,
                    "margin": values[action] - values[second],
                    "values": values,
                }
    got = _CHARTS[key] = Chart(cells)
    return got


def strategy(rules=None, preset=None) -> dict:
    """The basic-strategy chart: hard, soft and pairs rows by up card, each cell its action, the
    action when it is not allowed (doubling after three cards: Dh / Ds), the EV margin over the
    next best option and every option's EV (conditioned on no dealer blackjack)."""
    in_force = read_rules(preset, rules)
    table = chart(in_force)
    ups = [RANK_NAMES[u] for u in (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)]
    out = {
        "format": "strategy/1",
        "variant": "blackjack",
        "preset": in_force["preset"],
        "up_cards": ups,
        "rules": rules_jsonable(in_force),
    }
    for kind, rows in (("hard", HARD_ROWS), ("soft", SOFT_ROWS), ("pair", PAIR_ROWS)):
        grid = []
        for row in rows:
            cells = []
            for up in (1, 2, 3, 4, 5, 6, 7, 8, 9, 0):
                cell = table.cells.get((kind, row, up))
                code = LETTER[cell["action"]]
                if cell["action"] in (DOUBLE, SURRENDER):
                    code += LETTER[cell["fallback"]].lower()
                cells.append(
                    {
                        "up": RANK_NAMES[up],
                        "action": cell["action"],
                        "code": code,
                        "fallback": cell["fallback"],
                        "margin": decimal(cell["margin"]),
                        "options": {k: decimal(v) for k, v in cell["values"].items()},
                    }
                )
            name = (
                f"{RANK_NAMES[row]},{RANK_NAMES[row]}"
                if kind == "pair"
                else (f"soft {row}" if kind == "soft" else f"hard {row}")
            )
            grid.append({"hand": name, "total": row if kind != "pair" else None, "cells": cells})
        out["pairs" if kind == "pair" else kind] = grid
    return out


# --- edge/1 ----------------------------------------------------------------------------------------


def round_value(rules: dict, strategy_name: str = "optimal") -> dict:
    """E[net], E[wagered], E[net²] of one round off the top, and how often each first action is taken."""
    key = (rules_key(rules), strategy_name)
    got = _EDGES.get(key)
    if got is not None:
        return got
    s = solver(rules)
    policy = chart(rules) if strategy_name == "basic" else None
    payout = PAYOUT[rules["blackjack_pays"]]
    mean = wager = square = 0.0
    splits: list = []
    for a, b, up, p in deal_probabilities(s.shoe):
        hand = tuple((a == k) + (b == k) for k in range(N_RANKS))
        nb = no_blackjack(up, s.left(up, hand))
        pbj = 1.0 - nb
        if natural(hand):
            # even money and insurance are side options of `ev` (the contract lists them apart):
            # the round's play never takes them, at 3:2 and at 6:5 alike
            m, w, q = payout * nb, 1.0, payout * payout * nb
        else:
            opts = s.options(up, hand, policy=policy)
            if policy is None:
                pick = best_option({k: v[0] for k, v in opts.items()}, ORDER)
            else:
                pick = policy.first(hand, up, opts)
            m, w, q = opts[pick]
            if pick == SPLIT:
                # the round's square needs the split hands' cross terms too (`round_square`)
                splits.append((p, up, next(k for k in range(N_RANKS) if hand[k] == 2)))
            m, w, q = m - pbj, w + pbj, q + pbj
        mean += p * m
        wager += p * w
        square += p * q
    got = _EDGES[key] = {"mean": mean, "wager": wager, "square": square, "splits": splits}
    return got


def round_square(rules: dict, strategy_name: str = "optimal") -> float:
    """E[net²] of one round off the top, exact: `round_value`'s square has each split hand's own
    square; this adds, for every split the play takes, the cross terms between its hands (they
    share the dealer's hand and the shoe: spread.py, docs/blackjack-math.md)."""
    got = round_value(rules, strategy_name)
    if "exact_square" not in got:
        s = solver(rules)
        policy = chart(rules) if strategy_name == "basic" else None
        square = got["square"]
        for p, up, r in got["splits"]:
            own = s.split(up, r, policy)[2]
            square += p * (s.split(up, r, policy, spread=True)[2] - own)
        got["exact_square"] = square
    return got["exact_square"]


def edge(rules=None, preset=None, strategy="optimal", spread=True) -> dict:
    """edge/1. `spread=False` leaves out `sd` (the rule-effects table wants only the edges: the
    exact spread of the split rounds costs more than the edge itself)."""
    in_force = read_rules(preset, rules)
    if strategy not in ("optimal", "basic"):
        raise QuestionError("strategy", f"--strategy {strategy}: it is optimal or basic.")
    got = round_value(in_force, strategy)
    house = -got["mean"]
    doc = {
        "format": "edge/1",
        "variant": "blackjack",
        "preset": in_force["preset"],
        "strategy": strategy,
        "house_edge": decimal(house),
        "expected_return": decimal(got["mean"]),
        "wagered": decimal(got["wager"]),
        "edge_per_wagered": decimal(house / got["wager"]),
        "sd": decimal_sqrt(round_square(in_force, strategy) - got["mean"] ** 2) if spread else None,
        "rules": rules_jsonable(in_force),
    }
    if not spread:
        doc.pop("sd")
    return doc


# --- the command line (math/cli.py) ----------------------------------------------------------------


def cli(args, rules: dict):
    """The answer to `ev|edge|strategy blackjack …` (math/cli.py has parsed it and read its rules)."""
    if args.command == "ev":
        if args.bet is not None:
            raise Refused("--bet does not apply to blackjack (every EV is per unit of the bet)")
        return ev(args.cards, dealer=args.dealer, removed=args.removed, rules=rules, preset=args.preset)
    if args.command == "edge":
        if args.all:
            raise Refused("--all applies to ochko only")
        return edge(rules, preset=args.preset, strategy=args.strategy or "optimal")
    if args.bet != 1:
        raise Refused("--bet does not apply to blackjack")
    return strategy(rules, preset=args.preset)


def reports() -> dict:
    """The Markdown reports of docs/blackjack-math.md (python -m dealing.engine.math.report)."""
    from .report import blackjack_report, blackjack_speed

    return {"blackjack": blackjack_report, "blackjack-speed": blackjack_speed}
