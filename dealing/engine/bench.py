"""Engine throughput: parse + replay + settle + audit of simulated logs with settlement events.

    python -m dealing.engine.bench [--rounds N] [--variant ochko]

Single process, five passes; the median pass is reported with the slowest and fastest. Two figures per variant: from JSON text (what the CLI and
the API receive, JSON decoding included) and from already-decoded documents (the engine alone).
The engine measured is the one imports use: compiled with mypyc when built (native.py), else its
Python source; `pure_rates()` measures the source in a child process with ENGINE_PURE=1.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time

from . import VARIANTS, games, native, settle
from .__main__ import to_json
from .document import load_json


def _available(variant: str) -> bool:
    """A game the bench can deal rounds of: one with a simulator (games.py)."""
    game = games.get(variant)
    return game is not None and game.simulator is not None


PASSES = 5


def _rates(fn, items, passes: int = PASSES) -> list[float]:
    """Rounds/s of each pass, slowest first: on a shared 2-core machine one pass swings by ±15 %,
    so the median is the figure and the spread goes with it (never the best pass alone)."""
    rates = []
    for _ in range(passes):
        start = time.perf_counter()
        for item in items:
            fn(item)
        rates.append(len(items) / (time.perf_counter() - start))
    return sorted(rates)


def _median(rates: list[float]) -> float:
    return rates[len(rates) // 2]


def measure(variant: str, rounds: int = 3000, seed: int = 2026) -> dict:
    from .simulators import simulate

    texts = [to_json(sim.doc) for sim in simulate(variant, rounds, seed=seed)]
    docs = [load_json(text) for text in texts]
    events = sum(len(doc["events"]) for doc in docs) / len(docs)
    # Every simulated log must be clean, or we would be timing error paths.
    assert all(not settle(doc)["findings"] for doc in docs[:200])
    from_text = _rates(settle, texts)
    from_docs = _rates(settle, docs)
    return {
        "variant": variant,
        "rounds": rounds,
        "events_per_round": round(events, 1),
        "rounds_per_s_from_json": round(_median(from_text)),
        "rounds_per_s_from_dicts": round(_median(from_docs)),
        "events_per_s_from_dicts": round(_median(from_docs) * events),
        "passes": len(from_docs),
        "spread_from_dicts": [round(from_docs[0]), round(from_docs[-1])],
        "spread_from_json": [round(from_text[0]), round(from_text[-1])],
        "engine": "compiled" if native.guard() else "pure Python",
    }


def run(rounds: int = 3000, variants=None) -> list[dict]:
    return [measure(v, rounds) for v in (variants or VARIANTS) if _available(v)]


def pure_rates(rounds: int = 3000, variants=None) -> dict[str, int]:
    """Rounds/s from documents of the pure-Python engine, per variant (a child process)."""
    argv = [sys.executable, "-m", "dealing.engine.bench", "--rounds", str(rounds)]
    for v in variants or VARIANTS:
        argv += ["--variant", v]
    done = subprocess.run(
        argv, capture_output=True, text=True, check=True, env=dict(os.environ, **{native.PURE_ENV: "1"})
    )
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return {row["variant"]: row["rounds_per_s_from_dicts"] for row in rows}


def machine() -> str:
    return f"{platform.python_implementation()} {platform.python_version()} on {platform.machine()}, {_cpu_name()}"


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dealing.engine.bench")
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--variant", action="append", choices=VARIANTS)
    args = parser.parse_args(argv)
    for row in run(args.rounds, args.variant):
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
