"""What chaining the rest of the record costs (issue #36, items 1 and 2), on a floor of N rounds:

    python manage.py shell -c "from bench.records import main; main(rounds=20_000)"

Prints one JSON object. Run it on a throwaway database (it leaves its rows and links behind:
deleting linked rows would only append deletion links).

- `round_log_ms`: logging a round through `services.round_log`, the per-round median over
  `logged` rounds, with the record links written ("after") and with every record link switched
  off ("before": `rows_touched` patched out), alternating one round each so both see the same machine. Logging a round writes no
  record link (a pending verdict needs none), so the two should agree.
- `verdicts_ms_per_1000`: the audit's verdict upsert (audit.state.rounds_record_audit) of 1,000
  rounds, before and after (each verdict is a link of `dealing_roundaudit`).
- `link_unlinked_s`: `manage.py link_records` over the verdicts written "before".
- `checkpoint_incremental_s`: beat's task on the floor of N rounds with N verdict links, after
  `new` more rounds logged and audited: the checkpoint walks the new links and compares every
  chained relation's rows with their latest links (the full compare is most of it).
- `verify_full_s`: `chain_verify()` of the whole store.
"""

import contextlib
import json
import statistics
import time
import uuid
from unittest import mock

from django.db import transaction

from audit import state as audit_state
from bench.audit import bench_floor
from bench.chain import load_chain
from dealing import services
from dealing.engine.simulators import simulate
from dealing.models import RecordLink, Round
from dealing.services import record_links


def _timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def _no_links(*args, **kwargs) -> int:
    return 0


def main(*, rounds: int = 20_000, logged: int = 200, new: int = 100) -> dict:
    pit, table, dealer = bench_floor(f"records-{uuid.uuid4().hex[:8]}")
    load_chain(table=table, dealer=dealer, rounds=rounds)
    ids = list(Round.objects.filter(table=table).order_by("pk").values_list("pk", flat=True))
    before, after = [], []
    half = len(ids) // 2
    for start in range(0, len(ids), 1000):
        chunk = ids[start : start + 1000]
        off = start < half
        with _links_off() if off else _Nothing():
            seconds = _timed(lambda chunk=chunk: _verdicts(chunk))
        (before if off else after).append(seconds * 1000)
    linked = _timed(services.records_link_unlinked)
    services.checkpoint_write_all()  # the first walks everything; the beat task then walks what is new

    sims = list(
        simulate(
            table.variant, logged + new, seed=7, mistake_rate=0.0, table_min=table.min_bet, table_max=table.max_bet
        )
    )
    docs = []
    for sim in sims:
        doc = dict(sim.doc, id=str(uuid.uuid4()))
        doc["table"] = {**doc["table"], "name": table.name}
        doc["dealer"] = dealer.username
        docs.append(doc)
    log_before, log_after = [], []
    for k, doc in enumerate(docs[:logged]):
        off = k % 2 == 0
        with _links_off() if off else _Nothing():
            seconds = _timed(lambda doc=doc: services.round_log(document=doc, logged_by=dealer))
        (log_before if off else log_after).append(seconds * 1000)
    services.checkpoint_write_all()
    fresh = []
    for doc in docs[logged:]:
        record, _created = services.round_log(document=doc, logged_by=dealer)
        fresh.append(record.pk)
    _verdicts(fresh)
    incremental = _timed(services.checkpoint_write_all)
    report = {}
    full = _timed(lambda: report.setdefault("ok", services.chain_verify().ok))
    out = {
        "rounds": Round.objects.filter(table=table).count(),
        "record_links": RecordLink.objects.count(),
        "round_log_ms": {
            "before": round(statistics.median(log_before), 2),
            "after": round(statistics.median(log_after), 2),
        },
        "verdicts_ms_per_1000": {
            "before": round(statistics.median(before), 1),
            "after": round(statistics.median(after), 1),
        },
        "link_unlinked_s": round(linked, 2),
        "checkpoint_incremental_s": round(incremental, 2),
        "verify_full_s": round(full, 2),
        "intact": report["ok"],
    }
    print(json.dumps(out))
    return out


def _links_off():
    """No record link written anywhere: the signals' writer and the bulk writers' name for it."""
    stack = contextlib.ExitStack()
    stack.enter_context(mock.patch.object(record_links, "rows_touched", _no_links))
    stack.enter_context(mock.patch.object(services, "records_touched", _no_links))
    return stack


def _verdicts(chunk):
    with transaction.atomic():
        audit_state.rounds_record_audit(by_status={"clean": chunk}, engine_version="bench")


class _Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
