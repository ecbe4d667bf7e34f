"""The results tables of docs/blackjack-math.md, as Markdown, from the engine's own figures.

    python -m dealing.engine.math.report blackjack          # the tables
    python -m dealing.engine.math.report blackjack-speed    # the timings

Every number printed comes from the game math's edge / strategy / ev (math/__init__.py) and its
rule effects (math/effects.py).
"""

import time
from decimal import Decimal

from .. import math as bj
from . import effects as fx


def _pct(text: str, places: int = 3) -> str:
    return (
        f"{Decimal(text) * 100:+.{places}f} %".replace("+", "")
        if Decimal(text) >= 0
        else f"{Decimal(text) * 100:.{places}f} %"
    )


def _delta(text: str, places: int = 3) -> str:
    return f"{Decimal(text) * 100:+.{places}f}"


def blackjack_report(cut_rounds: int = 1_000_000) -> str:
    out: list[str] = []
    add = out.append
    add("### House edge off the top\n")
    add("| preset | strategy | house edge | wagered | edge per unit wagered | sd of a round |")
    add("|---|---|---:|---:|---:|---:|")
    for preset in ("salon", "online"):
        for strategy in ("optimal", "basic"):
            doc = bj.edge(preset=preset, strategy=strategy)
            add(
                f"| {preset} | {strategy} | {_pct(doc['house_edge'], 4)} | {Decimal(doc['wagered']):.6f} "
                f"| {_pct(doc['edge_per_wagered'], 4)} | {Decimal(doc['sd']):.6f} |"
            )
    add("")
    for preset in ("salon", "online"):
        add(f"### Split values, {preset} (exact; EV per unit of the first bet, no dealer blackjack)\n")
        ups = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
        add("| pair | " + " | ".join(ups) + " |")
        add("|---|" + "---:|" * len(ups))
        for pair in ups:
            cells = [bj.ev([pair + "S", pair + "H"], dealer=up + "C", preset=preset)["options"]["split"] for up in ups]
            add(f"| {pair},{pair} | " + " | ".join(f"{Decimal(c):+.12f}" for c in cells) + " |")
        add("")
    for preset in ("salon", "online"):
        doc = bj.strategy(preset=preset)
        add(f"### The basic-strategy chart, {preset}\n")
        add(
            "H hit, S stand, D double (Dh: else hit, Ds: else stand), P split; the figure is the EV margin over "
            "the next best option, in units of the bet.\n"
        )
        add("| hand | " + " | ".join("10" if u == "T" else u for u in doc["up_cards"]) + " |")
        add("|---|" + "---|" * len(doc["up_cards"]))
        for key in ("hard", "soft", "pairs"):
            for row in doc[key]:
                add(
                    f"| {row['hand']} | "
                    + " | ".join(f"{c['code']} {Decimal(c['margin']):.3f}" for c in row["cells"])
                    + " |"
                )
        add("")
    for preset in ("salon", "online"):
        effects = fx.rule_effects(preset)
        add(f"### Rule effects, {preset} (each rule changed alone)\n")
        add(
            f"The preset's edge: {_pct(effects['house_edge'], 4)} optimal, {_pct(effects['basic_house_edge'], 4)} "
            "basic strategy.\n"
        )
        add(
            "| rule | value | preset's value | house edge (optimal) | change (points of %) | house edge (basic) "
            "| change (basic) |"
        )
        add("|---|---|---|---:|---:|---:|---:|")
        for row in effects["rows"]:
            add(
                f"| {row['rule']} | {row['value']} | {row['preset_value']} | {_pct(row['house_edge'], 4)} "
                f"| {_delta(row['change'])} | {_pct(row['basic_house_edge'], 4)} | {_delta(row['basic_change'])} |"
            )
        add("")
    jp = fx.jackpot()
    add("### The jackpot side bet (online, A♠ J♠)\n")
    add(
        f"P = {jp['probability']} (1 in {Decimal(jp['one_in']):.2f}); at a jackpot of {jp['jackpot_amount']} on a "
        f"{jp['jackpot_bet']} bet its EV is {Decimal(jp['ev']):+.6f} per unit (house edge "
        f"{_pct(jp['house_edge'], 3)}); break-even jackpot {Decimal(jp['break_even_amount']):.2f}.\n"
    )
    started = time.perf_counter()
    cut = fx.cut_card(cut_rounds)
    add(f"### The cut card (salon: reshuffle below {cut['cut_remaining']} cards) against a continuous shuffle\n")
    add(
        f"{cut['rounds']:,} rounds each, heads up, basic strategy, seed {cut['seed']}: house edge with the cut card "
        f"{_pct(cut['cut_house_edge'], 3)} (se {_pct(cut['cut_se'], 3)}), continuous shuffle "
        f"{_pct(cut['continuous_house_edge'], 3)} (se {_pct(cut['continuous_se'], 3)}); the difference "
        f"(cut − continuous) {_delta(cut['difference'])} points, 95 % interval [{_delta(cut['difference_low'])}, "
        f"{_delta(cut['difference_high'])}]. Exact edge of the chart off the top: {_pct(cut['exact_house_edge'], 4)}. "
        f"({time.perf_counter() - started:.0f} s.)\n"
    )
    return "\n".join(out) + "\n"


def blackjack_speed() -> str:
    lines = []

    def timed(what: str, work) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        lines.append(f"{what}: {time.perf_counter() - wall:.3f} s wall, {time.process_time() - cpu:.3f} s CPU")

    bj.clear_cache()
    timed("optimal salon edge from cold (edge blackjack --preset salon)", lambda: bj.edge(preset="salon"))
    timed("the full chart after it (strategy blackjack --preset salon)", lambda: bj.strategy(preset="salon"))
    timed("the basic-strategy edge after it", lambda: bj.edge(preset="salon", strategy="basic"))
    timed("optimal online edge from cold", lambda: bj.edge(preset="online"))
    questions = [(["TS", "6H"], "TC"), (["8S", "8H"], "6D"), (["AS", "7H"], "AC"), (["5S", "4H", "3D"], "9S")]
    times = []
    for _ in range(250):
        for cards, up in questions:
            t = time.perf_counter()
            bj.ev(cards, dealer=up)
            times.append(time.perf_counter() - t)
    times.sort()
    lines.append(
        f"warm ev (1,000 questions): median {times[len(times) // 2] * 1000:.3f} ms, "
        f"99th percentile {times[int(len(times) * 0.99)] * 1000:.3f} ms, max {times[-1] * 1000:.3f} ms"
    )
    timed(
        "cold ev on a depleted shoe (T,6 v T, 20 cards removed)",
        lambda: bj.ev(["TS", "6H"], dealer="TC", removed=["2S", "3S", "4S", "5S", "6S"] * 4),
    )
    return "\n".join(lines) + "\n"
