"""What the house rules are worth: the house edge with each single rule changed (the salon's
rule-effects table), the online jackpot side bet (A♠ J♠) exactly, and the cut card (the salon's
78-card reshuffle point against a continuous shuffle) by simulation with its 95 % interval.

    python -m dealing.engine.math.report blackjack      # prints them (docs/blackjack-math.md)

The edges are blackjack.edge's (optimal and basic); the simulation deals heads up, one box
playing the computed basic-strategy chart (blackjack.chart), settled with this module's own
arithmetic (the Monte Carlo test of blackjack.edge goes through the real simulator and engine).
"""

import random
from decimal import Decimal, localcontext
from fractions import Fraction

from .. import math as bj
from .dealer import ACE, TEN
from .question import PAYOUT, decimal, read_rules
from .solver import DOUBLE, HIT, SPLIT, STAND, can_double, dealer_marks, total

# (what changes, the house rules that change it); the first row is the preset itself.
RULE_CHANGES = (
    ("hit_soft_17", {"hit_soft_17": True}),
    ("blackjack_pays", {"blackjack_pays": "6:5"}),
    ("surrender", {"surrender": True}),
    ("resplit_aces", {"resplit_aces": True}),
    ("hit_split_aces", {"hit_split_aces": True}),
    ("max_hands", {"max_hands": 2}),
    ("max_hands", {"max_hands": 3}),
    ("max_hands", {"max_hands": 4}),
    ("double_after_split", {"double_after_split": False}),
    ("double", {"double": "9-11"}),
    ("decks", {"decks": 1}),
    ("decks", {"decks": 2}),
    ("decks", {"decks": 4}),
    ("decks", {"decks": 6}),
    ("decks", {"decks": 8}),
)


def rule_effects(preset: str = "salon") -> dict:
    """The preset's edge and, for each single change, the edge and its difference from the preset's."""
    base_rules = read_rules(preset, None)
    base = bj.edge(preset=preset, spread=False)
    base_basic = bj.edge(preset=preset, strategy="basic", spread=False)
    rows = []
    for name, change in RULE_CHANGES:
        rules = read_rules(preset, change)
        same = all(base_rules.get(k) == v for k, v in change.items())
        marks = dealer_marks()
        # the rows need only the edges, not the (dearer) exact sd of the split rounds
        optimal = base if same else bj.edge(rules=change, preset=preset, spread=False)
        basic = base_basic if same else bj.edge(rules=change, preset=preset, strategy="basic", spread=False)
        if not same:
            bj.forget(rules, marks)
        rows.append(
            {
                "rule": name,
                "value": next(iter(change.values())),
                "preset_value": base_rules[name],
                "unchanged": same,
                "house_edge": optimal["house_edge"],
                "basic_house_edge": basic["house_edge"],
                "change": decimal(float(Decimal(optimal["house_edge"]) - Decimal(base["house_edge"]))),
                "basic_change": decimal(float(Decimal(basic["house_edge"]) - Decimal(base_basic["house_edge"]))),
            }
        )
    return {
        "format": "rule-effects/1",
        "variant": "blackjack",
        "preset": preset,
        "house_edge": base["house_edge"],
        "basic_house_edge": base_basic["house_edge"],
        "rows": rows,
    }


def jackpot(preset: str = "online", rules=None) -> dict:
    """The jackpot side bet: wins when the box's first two cards are A♠ and J♠, in either order."""
    in_force = read_rules(preset, rules)
    decks = in_force["decks"]
    n = 52 * decks
    p = Fraction(2 * decks * decks, n * (n - 1))
    amount = Fraction(str(in_force["jackpot_amount"]))
    stake = Fraction(str(in_force["jackpot_bet"]))
    ev = (p * amount - (1 - p) * stake) / stake
    break_even = (1 - p) * stake / p
    return {
        "format": "jackpot/1",
        "variant": "blackjack",
        "preset": in_force["preset"],
        "decks": decks,
        "probability": _dec(p),
        "one_in": _dec(1 / p),
        "jackpot_amount": format(in_force["jackpot_amount"], "f"),
        "jackpot_bet": format(in_force["jackpot_bet"], "f"),
        "ev": _dec(ev),
        "house_edge": _dec(-ev),
        "break_even_amount": _dec(break_even),
    }


def _dec(value: Fraction) -> str:
    """An exact figure as a decimal string of 18 significant digits."""
    with localcontext() as ctx:
        ctx.prec = 18
        return format(Decimal(value.numerator) / Decimal(value.denominator), "f")


# --- the cut card, by simulation -------------------------------------------------------------------


class _Player:
    """One box playing the chart, settled with plain arithmetic (ranks 0 ace … 9 ten-value)."""

    def __init__(self, rules: dict):
        self.rules = rules
        self.chart = bj.chart(rules)
        self.payout = PAYOUT[rules["blackjack_pays"]]

    @staticmethod
    def _counts(cards):
        out = [0] * 10
        for c in cards:
            out[c] += 1
        return tuple(out)

    def round(self, draw) -> float:
        rules, chart = self.rules, self.chart
        a, up, b, hole = draw(), draw(), draw(), draw()
        player_bj = {a, b} == {ACE, TEN}
        dealer_bj = {up, hole} == {ACE, TEN}
        if dealer_bj:
            return 0.0 if player_bj else -1.0
        if player_bj:
            return self.payout
        hands = [[a, b]]
        stakes = [1.0]
        split = False
        k = 0
        while k < len(hands):
            cards = hands[k]
            if len(cards) == 1:
                cards.append(draw())
            aces = split and cards[0] == ACE
            while True:
                hand = self._counts(cards)
                best, soft = total(hand)
                if best >= 21:
                    break
                if len(cards) == 2:
                    pair = cards[0] == cards[1]
                    if aces and not rules["hit_split_aces"]:
                        if pair and rules["resplit_aces"] and len(hands) < rules["max_hands"]:
                            action = SPLIT
                        else:
                            break
                    elif pair and len(hands) < rules["max_hands"] and chart.resplits(cards[0], up):
                        action = SPLIT
                    else:
                        opts = {STAND: 1, HIT: 1}
                        if can_double(rules, hand, split):
                            opts[DOUBLE] = 1
                        action = chart.first(hand, up, opts, split=True)
                else:
                    action = HIT if chart.hits(best, soft, up) else STAND
                if action == SPLIT:
                    split = True
                    hands[k : k + 1] = [[cards[0]], [cards[1]]]
                    stakes[k : k + 1] = [1.0, 1.0]
                    k -= 1
                    break
                if action == DOUBLE:
                    cards.append(draw())
                    stakes[k] = 2.0
                    break
                if action == STAND:
                    break
                cards.append(draw())
            k += 1
        totals = [total(self._counts(c))[0] for c in hands]
        dealer = [up, hole]
        if any(t <= 21 for t in totals):
            while True:
                best, soft = total(self._counts(dealer))
                if best > 17 or (best == 17 and not (soft and rules["hit_soft_17"])):
                    break
                dealer.append(draw())
        d = total(self._counts(dealer))[0]
        net = 0.0
        for t, s in zip(totals, stakes):
            if t > 21:
                net -= s
            elif d > 21 or t > d:
                net += s
            elif t < d:
                net -= s
        return net


def _shoe(rng, decks: int) -> list:
    cards = [r for r in range(10) for _ in range(4 * decks * (4 if r == TEN else 1))]
    rng.shuffle(cards)
    return cards


def simulate(rounds: int, seed: int, preset: str = "salon", cut: int | None = 78, rules=None) -> dict:
    """Mean net per round of the chart heads up: dealt down to `cut` cards left (None: a fresh
    shoe every round), with its standard error."""
    in_force = read_rules(preset, rules)
    player = _Player(in_force)
    rng = random.Random(seed)
    shoe: list = []

    total_net = total_sq = 0.0
    full = _shoe(rng, in_force["decks"])
    randrange = rng.randrange

    def fresh_draw() -> int:
        # a card at random from what is left of a fresh shoe (as good as shuffling it all)
        i = randrange(len(shoe))
        shoe[i], shoe[-1] = shoe[-1], shoe[i]
        return shoe.pop()

    for _ in range(rounds):
        if cut is None:
            shoe = full[:]
            net = player.round(fresh_draw)
        else:
            if len(shoe) < cut:
                shoe = _shoe(rng, in_force["decks"])
            net = player.round(shoe.pop)
        total_net += net
        total_sq += net * net
    mean = total_net / rounds
    var = (total_sq - rounds * mean * mean) / (rounds - 1)
    return {"rounds": rounds, "mean": mean, "se": (var / rounds) ** 0.5, "sd": var**0.5}


def cut_card(rounds: int = 200_000, seed: int = 2026, preset: str = "salon") -> dict:
    """The salon's 78-card reshuffle point against a continuous shuffle: both simulated, the
    difference of their house edges with its 95 % interval."""
    in_force = read_rules(preset, None)
    cut = in_force["cut_remaining"] if in_force["reshuffle"] == "cut" else 78
    at_cut = simulate(rounds, seed, preset, cut)
    continuous = simulate(rounds, seed + 1, preset, None)
    diff = continuous["mean"] - at_cut["mean"]  # the cut card's house edge minus the continuous one's
    se = (at_cut["se"] ** 2 + continuous["se"] ** 2) ** 0.5
    return {
        "format": "cut-card/1",
        "variant": "blackjack",
        "preset": preset,
        "cut_remaining": cut,
        "rounds": rounds,
        "seed": seed,
        "cut_house_edge": decimal(-at_cut["mean"]),
        "cut_se": decimal(at_cut["se"]),
        "continuous_house_edge": decimal(-continuous["mean"]),
        "continuous_se": decimal(continuous["se"]),
        "difference": decimal(diff),
        "difference_low": decimal(diff - 1.96 * se),
        "difference_high": decimal(diff + 1.96 * se),
        "exact_house_edge": bj.edge(preset=preset, strategy="basic")["house_edge"],
    }


# --- insurance and even money ----------------------------------------------------------------------

INSURANCE_HANDS = (("no ten", ["9S", "7H"]), ("one ten", ["TS", "6H"]), ("two tens", ["TS", "KD"]))


def insurance(preset: str = "salon", rules=None) -> dict:
    """Against an ace up: insurance's EV per unit of it for hands holding no, one and two tens, and
    a blackjack's even money against declining it (all from blackjack.ev)."""
    rows = []
    for name, cards in INSURANCE_HANDS:
        doc = bj.ev(cards, dealer="AC", rules=rules, preset=preset)
        value = Decimal(doc["options"]["insurance"])
        rows.append(
            {
                "hand": name,
                "cards": cards,
                "insurance": doc["options"]["insurance"],
                "dealer_blackjack": decimal(float((value + 1) / 3)),
                "best": doc["best"],
            }
        )
    natural = bj.ev(["AS", "KH"], dealer="AD", rules=rules, preset=preset)
    return {
        "format": "insurance/1",
        "variant": "blackjack",
        "preset": natural["preset"],
        "rows": rows,
        "even_money": natural["options"]["even_money"],
        "decline": natural["options"]["stand"],
        "even_money_best": natural["best"] == "even_money",
    }
