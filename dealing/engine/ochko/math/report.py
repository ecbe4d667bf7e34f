"""The results tables of docs/ochko-math.md, as Markdown, from the engine's own figures.

    python -m dealing.engine.math.report ochko          # the tables
    python -m dealing.engine.math.report ochko-speed    # the timings

Every number printed here comes from `ochko.edge`, `ochko.strategy` and `ochko.ev`; the page
pastes this output under the command, so re-running it checks the page.
"""

import time
from decimal import Decimal

from .. import math as ochko


def _pct(text: str, places: int = 4) -> str:
    return f"{Decimal(text) * 100:.{places}f} %"


def _num(text: str, places: int = 6) -> str:
    return f"{Decimal(text):+.{places}f}"


def ochko_report() -> str:
    started = time.perf_counter()
    ochko.clear_cache()
    out: list[str] = []
    add = out.append
    add("### House edge under optimal play, per combination of the dark-card house rules\n")
    add(
        "| dark_win_bet | dark_double_bust_bet | house edge per Ante | wagered (Ante + Bet) | edge per unit wagered "
        "| sd of a round | house edge without the dark card | the dark card's value |"
    )
    add("|---|---|---:|---:|---:|---:|---:|---:|")
    for combination in ochko.RULE_COMBINATIONS:
        doc = ochko.edge(dict(combination))
        without = ochko.edge(dict(combination), dark=False)
        value = Decimal(without["house_edge"]) - Decimal(doc["house_edge"])
        add(
            f"| {combination['dark_win_bet']} | {combination['dark_double_bust_bet']} | {_pct(doc['house_edge'])} "
            f"| {Decimal(doc['wagered']):.6f} | {_pct(doc['edge_per_wagered'])} | {Decimal(doc['sd']):.6f} "
            f"| {_pct(without['house_edge'])} | {_pct(str(value))} |"
        )
    solve_time = time.perf_counter() - started
    solver = ochko.solve()
    add("")
    add(
        f"Size of the default solve: {len(solver._nodes):,} states (the box's cards × the up card), "
        f"{len(solver.shoe._dealer):,} dealer distributions; the dealer's draw multisets per up card: "
        + ", ".join(f"{r} {sum(len(g) for _, g in draws)}" for r, draws in zip(ochko.RANKS, ochko.DEALER_DRAWS))
        + ".\n"
    )
    add(
        "Exact values (default rules, `edge ochko`): house edge "
        f"{ochko.edge()['house_edge']}, edge per unit wagered {ochko.edge()['edge_per_wagered']}, "
        f"sd {ochko.edge()['sd']}.\n"
    )
    add("### The Bet after the first card (default rules)\n")
    add("EV in Antes of folding and of each Bet, before the dealer opens his card (`ev ochko --cards …`).\n")
    add("| first card | fold | " + " | ".join(f"bet {k}" for k in ochko.BETS) + " | best |")
    add("|---|" + "---:|" * (len(ochko.BETS) + 1) + "---|")
    for rank in ochko.RANKS:
        doc = ochko.ev([rank + "S"])
        cells = " | ".join(_num(v, 4) for v in doc["options"].values())
        add(f"| {rank} | {cells} | {doc['best']} |")
    add("")
    for bet in (1, 10):
        doc = ochko.strategy(bet=bet)
        add(f"### The chart for a Bet of {bet} Ante{'s' if bet > 1 else ''} (default rules)\n")
        add(
            "S stand, H hit, D dark card; the figure is the margin in Antes over the next best option "
            "(the cell's hands weighed by how often optimal play reaches them); * marks a cell where "
            "some of its hands play otherwise (the share that agrees follows the star).\n"
        )
        add("| hand | " + " | ".join(doc["up_cards"]) + " |")
        add("|---|" + "---|" * len(doc["up_cards"]))
        for row in doc["rows"]:
            name = f"{row['hand']} (one card)" if row["kind"] == "one_card" else f"total {row['hand']}"
            grid: list[str] = []
            for up in doc["up_cards"]:
                cell = row["cells"].get(up)
                if cell is None:
                    grid.append("")
                    continue
                star = "" if cell["agree"] == "1" else f" *{Decimal(cell['agree']) * 100:.2f} %"
                grid.append(f"{cell['action'][0].upper()} {Decimal(cell['margin']):.3f}{star}")
            add(f"| {name} | " + " | ".join(grid) + " |")
        add("")
    add(
        f"(Generated in {time.perf_counter() - started:.1f} s; the four rule sets with and without the dark card "
        f"solved from cold in {solve_time:.1f} s.)"
    )
    return "\n".join(out) + "\n"


def ochko_speed() -> str:
    """Timings of the questions the issue sets targets for: wall clock and this process's CPU time
    (the machine may be shared; the CPU time is what the code costs)."""
    lines = []

    def timed(what: str, work) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        lines.append(f"{what}: {time.perf_counter() - wall:.3f} s wall, {time.process_time() - cpu:.3f} s CPU")

    def other_rules():
        for combination in ochko.RULE_COMBINATIONS:
            ochko.edge(dict(combination))
            ochko.edge(dict(combination), dark=False)

    ochko.clear_cache()
    timed("full solve, default rules, from cold (edge ochko)", ochko.edge)
    timed("the other three rule sets and all four without the dark card", other_rules)
    timed("both charts (strategy ochko --bet 1, --bet 10)", lambda: [ochko.strategy(bet=k) for k in (1, 10)])
    questions = [(["TS", "6H"], "9C", 10), (["AS"], None, None), (["JS", "QH", "KD"], "AC", 5), (["9S", "7D"], "TS", 1)]
    times = []
    for _ in range(250):
        for cards, dealer, bet in questions:
            t = time.perf_counter()
            ochko.ev(cards, dealer=dealer, bet=bet)
            times.append(time.perf_counter() - t)
    times.sort()
    lines.append(
        f"warm ev (1,000 questions): median {times[len(times) // 2] * 1000:.3f} ms, "
        f"99th percentile {times[int(len(times) * 0.99)] * 1000:.3f} ms, max {times[-1] * 1000:.3f} ms"
    )
    timed(
        "cold ev on a depleted shoe, a two-card hand against an up card",
        lambda: ochko.ev(["TS", "6H"], dealer="9C", bet=10, removed=["6S", "7S", "TD"]),
    )
    timed(
        "cold ev on a depleted shoe, the one-card question (all nine up cards)",
        lambda: ochko.ev(["JS"], removed=["6S", "7S", "TD"]),
    )
    return "\n".join(lines) + "\n"
