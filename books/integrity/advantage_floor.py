"""Simulated floors for the ADVANTAGE_PLAY signal (detection.advantage_play; docs/signals.md): tables of
honest players and planted advantage players, dealt by the engine's simulators, read back as the scan
reads them — the count rebuilt from the round logs (engine/protection.py), not the simulator's own.

    python -m books.integrity.advantage_floor [--tables 60] [--shoes 30] [--seed 2026]

prints the false-alarm rate of the test on honest players at the scan's level (each test alone, and
the floors on which Holm's correction flags anybody honest) and the detection rate of each planted
kind (docs/benchmarks.md keeps the figures). Pure Python: no database.
"""

import argparse
import random
from collections import defaultdict
from decimal import Decimal

from dealing.engine import protection
from dealing.engine.blackjack.simulator import players as blackjack_players
from dealing.engine.ochko import simulator_players as ochko_players
from dealing.engine.simulators.players import HONEST

from ..stats import holm
from .detection import CountedRound, Thresholds, advantage_play


def _wagers(doc: dict) -> tuple[tuple[str, Decimal], ...]:
    out = []
    for s in doc["stakes"]:
        main = Decimal(str(s.get("bet") or 0))
        if "ante" in s:  # Ochko: the Bet is an event, the Ante a stake's field
            main = Decimal(str(s["ante"])) + sum(
                (Decimal(str(ev["amount"])) for ev in doc["events"] if ev.get("e") == "bet" and ev["stake"] == s["id"]),
                Decimal("0"),
            )
        out.append((s.get("player") or "", main))
    return tuple(out)


def counted(game: str, table: int, shoe_docs: list[tuple[int, list[dict]]], decks: int) -> list[CountedRound]:
    """CountedRound rows of a table's shoes (shoe number, its round/1 documents or shoe/1 items)."""
    rows = []
    for shoe, items in shoe_docs:
        docs = [i["round"] if i.get("e") == "round" else i for i in items if i.get("e") in (None, "round")]
        for state, doc in zip(protection.shoe_states(game, items, decks=decks), docs, strict=True):
            rows.append(CountedRound(len(rows), table, table * 10_000 + shoe, game, state.true_count, _wagers(doc)))
    return rows


def blackjack_table(rng, table: int, kinds: list[str], shoes: int) -> list[CountedRound]:
    seated = [blackjack_players.Player(f"T{table}-{k}-{kind}", kind) for k, kind in enumerate(kinds)]
    dealt = blackjack_players.simulate_table(rng, players=seated, shoes=shoes)
    return counted("blackjack", table, [(k, [d.doc for d in s]) for k, s in enumerate(dealt)], 6)


def ochko_table(rng, table: int, kinds: list[str], shoes: int) -> list[CountedRound]:
    seated = [ochko_players.Player(f"T{table}-{k}-{kind}", kind) for k, kind in enumerate(kinds)]
    dealt = ochko_players.simulate_table(rng, players=seated, shoes=shoes)
    return counted("ochko", table, [(k, items) for k, (items, _d) in enumerate(dealt)], 8)


def _kind(player: str) -> str:
    return player.rsplit("-", 1)[1]


def rates(*, tables: int = 60, shoes: int = 30, seed: int = 2026, t: Thresholds | None = None) -> dict:
    """Half the tables blackjack, half Ochko; each of the first ones seats honest players only, each
    of the others one planted advantage player among honest ones. Returns the counts behind the rates."""
    t = t or Thresholds()
    rng = random.Random(seed)
    tests = defaultdict(int)
    alarms = defaultdict(int)  # unadjusted p <= alpha, per kind
    alarms_05 = defaultdict(int)  # unadjusted p <= 0.05: the same test at a level where rates show
    flagged = defaultdict(int)  # after Holm over the floor
    floors_with_false_alarm = 0
    floors = 0
    for k in range(tables):
        blackjack = k % 2 == 0
        honest = list(HONEST) + ["random"]
        planted = None if k < tables // 2 else ("counter" if k % 4 == 2 else "wonger" if blackjack else "ochko_counter")
        if planted and not blackjack:
            planted = "ochko_counter"
        kinds = honest + ([planted] if planted else [])
        if blackjack:
            rows = blackjack_table(rng, k, kinds[:5], shoes)
        else:
            rows = ochko_table(rng, k, kinds[:6], shoes)
        candidates = advantage_play(rows, t)
        adjusted = holm([c.p_value for c in candidates])
        floors += 1
        false_alarm = False
        for c, p in zip(candidates, adjusted, strict=True):
            kind = _kind(c.player)
            tests[kind] += 1
            alarms[kind] += c.p_value <= t.alpha
            alarms_05[kind] += c.p_value <= 0.05
            flagged[kind] += p <= t.alpha
            false_alarm |= kind in HONEST and p <= t.alpha
        floors_with_false_alarm += false_alarm
        for kind in kinds:
            tests.setdefault(kind, 0)
    return {
        "alpha": t.alpha,
        "tables": tables,
        "shoes": shoes,
        "tests": dict(tests),
        "alarms": dict(alarms),
        "alarms_05": dict(alarms_05),
        "flagged": dict(flagged),
        "floors": floors,
        "floors_with_false_alarm": floors_with_false_alarm,
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--shoes", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--alpha", type=float, default=Thresholds().alpha)
    args = parser.parse_args(argv)
    got = rates(tables=args.tables, shoes=args.shoes, seed=args.seed, t=Thresholds(alpha=args.alpha))
    print(f"alpha {got['alpha']}, {got['tables']} tables of {got['shoes']} shoes")
    for kind, n in sorted(got["tests"].items()):
        a, f, a5 = got["alarms"].get(kind, 0), got["flagged"].get(kind, 0), got["alarms_05"].get(kind, 0)
        print(
            f"{kind:14} tests {n:5}  p<=0.05 {a5:5} ({a5 / n if n else 0:.4f})  p<=alpha {a:5} ({a / n if n else 0:.4f})"
            f"  flagged after Holm {f:5} ({f / n if n else 0:.4f})"
        )
    print(f"tables where Holm flags an honest player: {got['floors_with_false_alarm']} of {got['floors']}")


if __name__ == "__main__":
    main()
