"""Chain verification speed: `chain_verify` over a table of N stored rounds with their stake rows.

    from bench.chain import chain_verify_speed
    chain_verify_speed(rounds=100_000)   # → {"rounds": …, "rounds_per_s": …, "peak_rss_mb": …, …}

    manage.py bench --chain-only --chain-rounds 100000 1000000   # prints one JSON line a size (PostgreSQL)

Loading. `load_chain` is the audit bench's loader (`bench.audit.load_rounds`) with stake rows: a
pool of simulated rounds, each checked and settled by the engine as `round_log` does, repeated
under fresh ids, sealed by `dealing.chain.seal_round` (the one link function) with their stake rows.

Measuring. `manage.py verify_chain --table NAME` runs in a child process, so its peak resident
memory (ru_maxrss of the child) is the verifier's alone; rounds/s is rounds / wall time of that
process (Django's start-up of about a second included, so small sizes read low). Flat memory
shows as the same peak at 100k and 1M rounds. The bench's rows are removed afterwards.
"""

import os
import resource
import subprocess
import sys
import time
import uuid
from pathlib import Path

from django.conf import settings

from bench.audit import bench_floor, bench_floor_remove, load_rounds
from casino.models import Table
from dealing.models import Stake

ROOT = Path(settings.BASE_DIR)


def load_chain(*, table: Table, dealer, rounds: int, pool: int = 50, batch: int = 2000, seed: int = 2026) -> int:
    """Append `rounds` valid links (with stake rows) to `table`'s chain; returns how many were written."""
    return sum(
        len(written)
        for written in load_rounds(
            table=table, dealer=dealer, n=rounds, seed=seed, pool=pool, batch=batch, with_stakes=True
        )
    )


def chain_verify_speed(*, rounds: int = 100_000) -> dict:
    tag = uuid.uuid4().hex[:8]
    pit, table, dealer = bench_floor(f"chain-{tag}")
    try:
        started = time.perf_counter()
        load_chain(table=table, dealer=dealer, rounds=rounds)
        loaded = time.perf_counter() - started
        stakes = Stake.objects.filter(round__table=table).count()
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), "verify_chain", "--table", table.name],
            env=dict(os.environ),
            capture_output=True,
            text=True,
        )
        took = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        return {
            "rounds": rounds,
            "stakes": stakes,
            "load_s": round(loaded, 1),
            "verify_s": round(took, 1),
            "rounds_per_s": round(rounds / took),
            "peak_rss_mb": round(max(peak, before) / 1024, 1),
            "verdict": done.stdout.strip() or done.stderr.strip()[-300:],
        }
    finally:
        bench_floor_remove(pit, table, dealer)
