"""Chain verification speed: `chain_verify` over a table of N stored rounds with their stake rows.

    from bench.chain import chain_verify_speed
    chain_verify_speed(rounds=100_000)   # → {"rounds": …, "rounds_per_s": …, "peak_rss_mb": …, …}

    manage.py bench --chain-only --chain-rounds 100000 1000000   # prints one JSON line a size (PostgreSQL)

Loading. `load_chain` writes valid links with `bulk_create`: a pool of simulated rounds, each
checked and settled by the engine as `round_log` does (`services.rounds._prepare`), repeated under
fresh ids, sealed by `dealing.chain.seal_round` (the one link function) with their stake rows.

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
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from casino.models import Staff, Table
from dealing import chain, engine
from dealing.engine.base import rules_jsonable
from dealing.engine.simulators import simulate
from dealing.models import Round, Stake
from dealing.services.rounds import _logged_float, _prepare

ROOT = Path(settings.BASE_DIR)


def load_chain(*, table: Table, dealer, rounds: int, pool: int = 50, batch: int = 2000, seed: int = 2026) -> int:
    """Append `rounds` valid links (with stake rows) to `table`'s chain; returns how many were written."""
    prepared = []
    for sim in simulate(table.variant, min(rounds, pool), seed=seed, mistake_rate=0.1,
                        table_min=table.min_bet, table_max=table.max_bet):
        doc = dict(sim.doc)
        doc["table"] = {"name": table.name, "min": doc["table"]["min"], "max": doc["table"]["max"]}
        if table.variant != "veintiuno":
            doc["dealer"] = dealer.get_username()
        prepared.append(_prepare(doc, table=table, logged_by=dealer))
    house_rules = chain.json_safe(rules_jsonable(engine.house_rules(table.variant, table.rules)))
    done = 0
    while done < rounds:
        size = min(batch, rounds - done)
        with transaction.atomic():
            Table.objects.select_for_update().filter(pk=table.pk).first()
            last = Round.objects.filter(table=table).order_by("-chain_index").values_list("chain_index",
                                                                                         "sha256").first()
            index, prev = (0, "") if last is None else (last[0] + 1, last[1])
            records, stakes_of = [], []
            now = timezone.now()
            for k in range(size):
                p = prepared[(done + k) % len(prepared)]
                document = dict(p.document, id=str(uuid.uuid4()))
                record = Round(
                    uid=document["id"], table=table, dealer=dealer, variant=table.variant, house_rules=house_rules,
                    table_min=Decimal(str(document["table"]["min"])), table_max=Decimal(str(document["table"]["max"])),
                    document=document, chain_index=index, prev_sha256=prev, logged_by=dealer, logged_at=now,
                    float_owed=chain.money_column(p.outcome.float),
                    float_logged=chain.money_column(_logged_float(p.outcome)))
                chain.seal_round(record, p.stakes)
                prev, index = record.sha256, index + 1
                records.append(record)
                stakes_of.append(p.stakes)
            Round.objects.bulk_create(records, batch_size=1000)
            Stake.objects.bulk_create(
                [Stake(round_id=record.pk, **{name: getattr(s, name) for name in chain.STAKE_FIELDS})
                 for record, stakes in zip(records, stakes_of) for s in stakes], batch_size=5000)
        done += size
    return done


def _floor(tag: str):
    from bench.audit import bench_floor

    return bench_floor(f"chain-{tag}")


def _remove(pit, table, dealer) -> None:
    while True:
        ids = list(Round.objects.filter(table=table).order_by("-chain_index").values_list("pk", flat=True)[:20_000])
        if not ids:
            break
        Stake.objects.filter(round_id__in=ids).delete()
        Round.objects.filter(pk__in=ids).delete()
    Staff.objects.filter(user=dealer).delete()
    table.delete()
    pit.delete()
    dealer.delete()


def chain_verify_speed(*, rounds: int = 100_000) -> dict:
    tag = uuid.uuid4().hex[:8]
    pit, table, dealer = _floor(tag)
    try:
        started = time.perf_counter()
        load_chain(table=table, dealer=dealer, rounds=rounds)
        loaded = time.perf_counter() - started
        stakes = Stake.objects.filter(round__table=table).count()
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        started = time.perf_counter()
        done = subprocess.run([sys.executable, str(ROOT / "manage.py"), "verify_chain", "--table", table.name],
                              env=dict(os.environ), capture_output=True, text=True)
        took = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        return {
            "rounds": rounds, "stakes": stakes, "load_s": round(loaded, 1), "verify_s": round(took, 1),
            "rounds_per_s": round(rounds / took), "peak_rss_mb": round(max(peak, before) / 1024, 1),
            "verdict": done.stdout.strip() or done.stderr.strip()[-300:],
        }
    finally:
        _remove(pit, table, dealer)

