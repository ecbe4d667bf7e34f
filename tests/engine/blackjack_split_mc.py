"""A Monte Carlo of one split, to check the exact split value and the exact square of the box's
result (cross terms included) at full size, where the brute force cannot go:

    ENGINE_PURE=1 PYTHONPATH=. python tests/engine/blackjack_split_mc.py salon 7 5 200000 2026

(preset, pair rank, up rank — 0 the ace, 1 … 8 the two to the nine, 9 a ten — rounds, seed). Each
round shuffles the shoe less the pair and the up card, deals in the casino's order (hole card, each
hand its second card, a resplit when it pairs, the hand played out by the solver's post-split
strategy, the dealer), and settles every hand against the one dealer. A dealer blackjack counts 0,
as the solver's values are E[· 1{no dealer blackjack}]. Figures: docs/blackjack-math.md."""

import math
import random
import sys
import time

from dealing.engine.blackjack.math.question import full_shoe, read_rules
from dealing.engine.blackjack.math.solver import Solver, total


def main() -> None:
    preset, r, up, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    rules = read_rules(preset, None)
    s = Solver(rules, full_shoe(rules["decks"]))
    most = rules["max_hands"] if (r != 0 or rules["resplit_aces"]) else 2
    exact = s.split(up, r, spread=True)
    own = s.split(up, r)
    base = list(s.shoe)
    base[r] -= 2
    base[up] -= 1
    cards = [c for c in range(10) for _ in range(base[c])]
    rng = random.Random(seed)
    act = {}

    def action(hand):
        a = act.get(hand)
        if a is None:
            a = act[hand] = s.post_split_action(up, hand, r, None)
        return a

    def dealer(hole, deck):
        h = [up, hole]
        while True:
            hard = sum(c + 1 for c in h)
            soft = 0 in h and hard <= 11
            best = hard + 10 if soft else hard
            if best > 21:
                return 22
            if best >= 17 and not (rules["hit_soft_17"] and soft and best == 17):
                return best
            h.append(deck.pop())

    vals = []
    t = time.process_time()
    for _ in range(n):
        deck = cards[:]
        rng.shuffle(deck)
        hole = deck.pop()
        if {up, hole} == {0, 9}:
            vals.append(0.0)
            continue
        todo = [r, r]
        hands = 2
        done = []
        while todo:
            first = todo.pop(0)
            c = deck.pop()
            if c == r and hands < most:
                hands += 1
                todo[:0] = [r, r]
                continue
            hand = [0] * 10
            hand[first] += 1
            hand[c] += 1
            bet = 1
            while True:
                h = tuple(hand)
                a = action(h)
                if a == "stand":
                    break
                hand[deck.pop()] += 1
                if a == "double":
                    bet = 2
                    break
            done.append((total(tuple(hand))[0], bet))
        d = dealer(hole, deck)
        net = 0
        for mine, bet in done:
            if mine > 21:
                net -= bet
            elif d > 21 or mine > d:
                net += bet
            elif mine < d:
                net -= bet
        vals.append(float(net))
    m = sum(vals) / n
    q = sum(v * v for v in vals) / n
    se_m = math.sqrt((q - m * m) / n)
    se_q = math.sqrt((sum(v**4 for v in vals) / n - q * q) / n)
    print(
        f"{preset} pair {r} v {up}: {n} splits; mean MC {m:.6f} exact {exact[0]:.6f} ({(m - exact[0]) / se_m:+.2f} se); square MC {q:.6f} exact {exact[2]:.6f} ({(q - exact[2]) / se_q:+.2f} se); hands' own squares only {own[2]:.6f} ({(q - own[2]) / se_q:+.1f} se); {time.process_time() - t:.1f}s"
    )


if __name__ == "__main__":
    main()
