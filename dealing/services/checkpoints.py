"""The chains' signed checkpoints and their verification.

    checkpoint_write_all()   every chain's head (record count, head link), signed and appended to the
                             checkpoint log outside the database (dealing.checkpoint_log); a ChainCheck
                             row records it, or the reason it failed (a directory that cannot be written)
    chain_verify(...)        walks every table's chain of rounds (with their stake rows), the approvals'
                             chain and the checkpoint log, streaming; the first break of each chain,
                             named (chain, stored table, link, what); recorded as a ChainCheck on request

`manage.py verify_chain`, the Celery tasks (dealing.tasks) and the pages call these.
"""

import itertools
import logging
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from casino.models import Table
from dealing import chain, chain_selectors, checkpoint_log, hooks, witness_mirror
from dealing.chain import APPROVALS, APPROVALS_CHAIN, CHECKPOINTS, ROUNDS, Break, Head, Walk

from ..models import Approval, ChainCheck, Round
from . import record_links

CHUNK = 2000

log = logging.getLogger(__name__)


def chain_heads() -> dict[str, dict]:
    """Every chain's head as a checkpoint records it: by table id (and "approvals"), its name, how
    many links and the last link. One indexed lookup per table (the (table, link) index)."""
    heads: dict[str, dict] = {}
    for table_id, name in Table.objects.order_by("pk").values_list("pk", "name"):
        last = (
            Round.objects.filter(table_id=table_id)
            .order_by("-chain_index")
            .values_list("chain_index", "sha256")
            .first()
        )
        if last is not None:
            heads[str(table_id)] = {"name": name, "count": last[0] + 1, "head": last[1]}
    last = Approval.objects.order_by("-link").values_list("link", "hmac").first()
    if last is not None:
        heads[APPROVALS_CHAIN] = {"name": APPROVALS_CHAIN, "count": last[0] + 1, "head": last[1]}
    # The rest of the record: one chain per relation the apps registered ("records:<table>").
    heads.update(record_links.heads())
    return heads


def checkpoint_write_all(*, full: dict | None = None) -> ChainCheck:
    """Verify the links added since the latest checkpoint, sign every chain's head and append it to the
    checkpoint log; record the outcome (ok, or the error: rounds keep being logged whatever happens
    here). Returns the ChainCheck row.

    A chain whose new links do not verify keeps the head the latest checkpoint signed (a broken
    chain is never signed over), and the break is recorded at once — a failed verification, a
    critical item on the audit dashboard — and in the signed line itself (`verified`), so the
    dashboard's state comes from the log, which nobody can rewrite without the signing key.
    `full`: the outcome of a verification of the whole chains (`chain_verify(record=True)`), signed
    in this line and carried into every later one until the next."""
    at = timezone.now()
    try:
        signed, problem = checkpoint_log.latest()
    except checkpoint_log.CheckpointError as exc:
        signed, problem = None, str(exc)
    report = ChainReport()
    with _snapshot():  # the heads and the links walked to them, as of one moment
        heads = chain_heads()
        # With the latest line unreadable nothing is known to be signed: the append refuses a torn
        # tail, and the full verification reports the rest.
        broken_chains = {} if problem is not None else _new_links_verify(heads, signed, report)
        # The rounds' numbers, of every round (not only the new ones): one cheap statement.
        for table_id, name, link, row_id, stored, wanted in chain_selectors.table_round_wrong():
            broken_chains.setdefault(
                str(table_id),
                Break(name, ROUNDS, link, row_id, chain.table_round_problem(stored, wanted)),
            )
    breaks = list(broken_chains.values())
    if breaks:
        for key in broken_chains:
            previous = (signed or {}).get("heads", {}).get(key)
            if previous is None:
                heads.pop(key, None)
            else:
                heads[key] = previous
        message = "; ".join(str(b) for b in breaks)
        log.critical("checkpoint: new links do not verify: %s", message)
        ChainCheck.objects.create(
            kind=ChainCheck.Kind.VERIFICATION,
            at=at,
            ok=False,
            records=report.records,
            message=message,
            breaks=[asdict(b) for b in breaks],
        )
        hooks.chain_broken([str(b) for b in breaks])
    links = report.records + report.approvals + report.facts
    verified = {
        "scan": report.scan,
        "new": {"ok": not breaks, "links": links, "breaks": [str(b) for b in breaks]},
        "full": full if full is not None else (signed or {}).get("verified", {}).get("full"),
    }
    try:
        seq, digest, path = checkpoint_log.append(heads, at=at, verified=verified)
    except checkpoint_log.CheckpointError as exc:
        return ChainCheck.objects.create(kind=ChainCheck.Kind.CHECKPOINT, at=at, ok=False, message=str(exc))
    records = sum(h["count"] for name, h in heads.items() if name.isdigit())  # the tables' rounds
    mirrored = witness_mirror.mirror(seq)  # never raises: the witness's outage only degrades
    return ChainCheck.objects.create(
        kind=ChainCheck.Kind.CHECKPOINT,
        at=at,
        ok=True,
        records=records,
        seq=seq,
        digest=digest,
        message=f"checkpoint {seq} in {path.name}: {len(heads)} chains, {links} new links verified"
        + ("" if mirrored is None else f"; {mirrored}"),
        breaks=[asdict(b) for b in breaks],  # chains whose new links broke: signed at their previous head
    )


def _new_links_verify(heads: dict, signed: dict | None, report: "ChainReport", chunk: int = CHUNK) -> dict[str, Break]:
    """Walk every chain from the head the latest checkpoint signed (that link included: it must still
    be the one signed) to the head about to be signed; a chain the latest checkpoint signed that has
    fewer links now, or is gone, breaks too. The first break of each chain, by its key in the heads
    (a table's id, or "approvals")."""
    before = {} if signed is None else signed.get("heads", {})
    # Where each chained relation's comparison of rows goes on (signed in the line: `verified.scan`).
    scan = dict(((signed or {}).get("verified") or {}).get("scan") or {})
    report.scan = scan
    found = {}
    # Every chained relation too, linked or not yet: a row forged into an empty relation is a break.
    relations = {relation.key for relation in record_links.relations()}
    for key in sorted(set(heads) | set(before) | relations):
        now, then = heads.get(key), before.get(key)
        head = None if then is None else Head(int(then["count"]), then["head"], signed["at"])
        start = 0 if head is None else max(0, head.count - 1)
        stop = 0 if now is None else int(now["count"])
        if key == APPROVALS_CHAIN:
            broken = _walk_approvals(head, report, chunk, start=start, stop=stop)
        elif key.startswith(record_links.PREFIX):
            broken = record_links.relation_verify(key, head, report, start=start, stop=stop, chunk=chunk, scan=scan)
        else:
            name = (now or then).get("name", key)
            broken = _walk_table(int(key), name, head, report, chunk, start=start, stop=stop)
        if broken is not None:
            found[key] = broken
    return found


@dataclass
class ChainReport:
    """What `chain_verify` found: the first break of each chain (and of the checkpoint log)."""

    records: int = 0
    stakes: int = 0
    approvals: int = 0
    facts: int = 0  # links of the other relations (record_links)
    scan: dict = field(default_factory=dict)  # a checkpoint's: where each relation's comparison of rows goes on
    tables: int = 0
    checkpoint_seq: int | None = None
    checkpoint_at: str | None = None
    breaks: list[Break] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.breaks

    def to_dict(self) -> dict:
        """The report as `verify_chain --json` writes it."""
        return {
            "ok": self.ok,
            "records": self.records,
            "stakes": self.stakes,
            "tables": self.tables,
            "approvals": self.approvals,
            "facts": self.facts,
            "checkpoint_seq": self.checkpoint_seq,
            "checkpoint_at": self.checkpoint_at,
            "breaks": [asdict(b) for b in self.breaks],
            "notes": list(self.notes),
        }

    def summary(self) -> str:
        checkpoint = (
            "no checkpoint yet"
            if self.checkpoint_seq is None
            else f"checkpoint {self.checkpoint_seq} of {self.checkpoint_at}"
        )
        return (
            f"{self.records} records, {self.stakes} stakes, {self.tables} tables, {self.approvals} approvals, "
            f"{checkpoint}, {self.facts} record links"
        )


def chain_verify(*, table: Table | None = None, record: bool = False, chunk: int = CHUNK, progress=None) -> ChainReport:
    """Check every chain (or one table's) from its first link to its head against the latest
    checkpoint, and the checkpoint log itself; streams every record (memory stays flat). With
    `record`, the outcome is stored as a ChainCheck (the dashboard shows the latest). `progress(report)`
    is called every `chunk` records and after each table (a long walk says how far it is)."""
    report = ChainReport()
    tick = progress or (lambda report: None)
    latest_written = (
        ChainCheck.objects.filter(kind=ChainCheck.Kind.CHECKPOINT, ok=True)
        .order_by("-seq")
        .values_list("seq", "digest", "at")
        .first()
    )
    witness = witness_mirror.witnessed()  # the witness's copy: the local log must reach it
    log = checkpoint_log.read(
        want=[seq for seq in (latest_written and latest_written[0], witness and witness.seq) if seq is not None]
    )
    if log.problem is not None:
        report.breaks.append(log.problem)
    if witness is not None:
        report.breaks.extend(witness_mirror.compare(witness, log))
        if witness.note:
            report.notes.append(witness.note)
    if latest_written is not None:
        seq, digest, at = latest_written
        when = at.isoformat(timespec="seconds")
        if log.lines == 0:
            report.breaks.append(
                Break(
                    checkpoint_log.LOG,
                    CHECKPOINTS,
                    seq,
                    None,
                    f"the checkpoint log is gone: no line in {checkpoint_log.directory()}, "
                    f"but checkpoint {seq} was written at {when} (a file was deleted)",
                )
            )
        elif log.last_seq < seq:
            report.breaks.append(
                Break(
                    checkpoint_log.LOG,
                    CHECKPOINTS,
                    seq,
                    None,
                    f"the log ends at checkpoint {log.last_seq}, but checkpoint {seq} was written "
                    f"at {when} (the newest lines or file were removed)",
                )
            )
        elif log.digests.get(seq) not in (None, digest):
            report.breaks.append(
                Break(
                    checkpoint_log.LOG,
                    CHECKPOINTS,
                    seq,
                    None,
                    f"checkpoint {seq} is not the line written at {when} (it was replaced)",
                )
            )
    heads, signed_heads = log.heads(), (log.last or {}).get("heads", {})
    if witness is not None and witness.seq is not None and witness.seq > log.last_seq:
        # The local log was cut behind the witness: the chains are held to the heads the witness
        # countersigned (signed by the checkpoint key too), so each chain cut with it is named.
        signed_heads = witness.line["checkpoint"]["heads"]
        at = witness.line["checkpoint"]["at"]
        heads = {key: Head(int(h["count"]), h["head"], at) for key, h in signed_heads.items()}
    if log.last is not None:
        report.checkpoint_seq, report.checkpoint_at = log.last_seq, log.last["at"]
    due = _unsigned_before()
    tables = Table.objects.order_by("name")
    if table is not None:
        tables = tables.filter(pk=table.pk)
    seen: set[str] = set()
    for t in tables.values_list("pk", "name").iterator():
        report.tables += 1
        seen.add(str(t[0]))
        with _snapshot():
            broken = _walk_table(t[0], t[1], heads.get(str(t[0])), report, chunk, due, tick=tick)
        if broken is not None:
            report.breaks.append(broken)
        tick(report)
    if table is None:
        for key, head in heads.items():
            if key.isdigit() and key not in seen and head.count:
                report.breaks.append(
                    Break(
                        signed_heads[key].get("name", key),
                        ROUNDS,
                        0,
                        None,
                        f"the table (id {key}) and its {head.count} links are gone, but the "
                        f"checkpoint of {head.at} signed them",
                    )
                )
        with _snapshot():
            broken = _walk_approvals(heads.get(APPROVALS_CHAIN), report, chunk, due)
        if broken is not None:
            report.breaks.append(broken)
        # Every relation the apps chained, and any the latest checkpoint signed (a relation's links
        # all deleted still has its signed head).
        keys = {r.key for r in record_links.relations()} | {k for k in heads if k.startswith(record_links.PREFIX)}
        for key in sorted(keys):
            with _snapshot():
                broken = record_links.relation_verify(key, heads.get(key), report, due=due, chunk=chunk)
            if broken is not None:
                report.breaks.append(broken)
    if log.last is None and due is None:
        report.notes.append(
            "no checkpoint has been written yet and no checkpoint key is configured: "
            "the deletion of the newest records cannot be told"
        )
    if not report.ok and (record or table is None):
        hooks.chain_broken([str(b) for b in report.breaks])
    if record:
        check = ChainCheck.objects.create(
            kind=ChainCheck.Kind.VERIFICATION,
            ok=report.ok,
            records=report.records,
            message=report.summary() if report.ok else "; ".join(str(b) for b in report.breaks),
            breaks=[asdict(b) for b in report.breaks],
        )
        # …and, for the whole chains, signed into the log, where deleting this row or inserting a
        # passing one changes nothing.
        if table is not None:
            return report
        checkpoint_write_all(
            full={
                "ok": report.ok,
                "at": check.at.isoformat(timespec="seconds"),
                "records": report.records,
                "breaks": [str(b) for b in report.breaks],
            }
        )
    return report


@contextmanager
def _snapshot():
    """One read-only transaction for a walk: on PostgreSQL its cursors stream (a cursor declared
    outside a transaction is WITH HOLD, which the server materialises whole first) and, unless a
    caller's transaction is already open, read one snapshot (repeatable read)."""
    outer = connection.in_atomic_block
    with transaction.atomic():
        if connection.vendor == "postgresql" and not outer:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def _unsigned_before():
    """The time before which every record must be signed by a checkpoint, or None when checkpoints are
    not required (no key configured, docs/chain.md): a checkpoint is taken every CHECKPOINT_INTERVAL_S,
    and after each import and demo floor, so a record older than CHECKPOINT_GRACE_S that none signs
    means the log, or its newest lines, were removed (and their ChainCheck rows with them) — or
    that checkpoints are failing. Either way its deletion could no longer be told."""
    if not checkpoint_log.expected():
        return None
    return timezone.now() - timedelta(seconds=settings.CHECKPOINT_GRACE_S)


def _unsigned(chain_name: str, relation: str, row_id: int, link: int, at, checkpoint: Head | None) -> Break:
    signed = (
        "no checkpoint signs this chain"
        if checkpoint is None
        else f"the newest checkpoint ({checkpoint.at}) signs only its first {checkpoint.count} links"
    )
    return Break(
        chain_name,
        relation,
        link,
        row_id,
        f"link {link} was stored at {at.isoformat(timespec='seconds')} but {signed}: checkpoints are missing "
        f"(the checkpoint log or its newest lines were removed, or checkpoints have been failing for "
        f"more than {settings.CHECKPOINT_GRACE_S} s)",
    )


def _walk_table(
    table_id: int,
    name: str,
    checkpoint: Head | None,
    report: ChainReport,
    chunk: int,
    due=None,
    *,
    tick=None,
    start: int = 0,
    stop: int | None = None,
) -> Break | None:
    """Walk a table's chain (`start`…`stop`-1 of it: from a link on, the first one's own previous-hash
    is taken as it stands, the link itself recomputed)."""
    walk = Walk(name, ROUNDS, checkpoint)
    walk.expected = start
    first_unsigned = 0 if checkpoint is None else checkpoint.count
    unsigned = None
    rounds = chain_selectors.chain_round_rows(table_id=table_id, chunk=chunk, start=start, stop=stop)
    stakes = chain_selectors.chain_stake_rows(table_id=table_id, chunk=chunk * 4, start=start, stop=stop)
    # The rounds' query first: were a round committed between the two (outside one snapshot), its
    # stake rows would come after every round read, and be left unread rather than judged.
    first = next(rounds, None)
    pending = None if first is None else next(stakes, None)
    if start and first is not None:
        walk.prev = first.prev_sha256
    # The number a round is shown by (`table_round`) is derived from the chain: a new round takes one
    # more than the table's highest so far, a correction its original's. Checked as the walk goes, so
    # renumbering rounds behind the application's back is a break too. A walk from a link on takes
    # its first new round's number as it stands.
    highest = 0 if not start else None
    try:
        for row in itertools.chain(() if first is None else (first,), rounds):
            report.records += 1
            if tick is not None and report.records % chunk == 0:
                tick(report)
            mine = []
            while pending is not None and pending[0] == row.chain_index:
                mine.append(pending[1:])
                pending = next(stakes, None)
            report.stakes += len(mine)
            if due is not None and row.chain_index == first_unsigned and row.logged_at < due:
                unsigned = _unsigned(name, ROUNDS, row.pk, row.chain_index, row.logged_at, checkpoint)
            if not walk.step(
                link=row.chain_index,
                row_id=row.pk,
                prev=row.prev_sha256,
                stored=row.sha256,
                key_id=row.chain_key,
                mismatch=lambda key, row=row, mine=mine: chain.round_mismatch(row, mine, key),
            ):
                break
            if row.supersedes_id is not None:
                wanted = row.supersedes_table_round
            else:
                wanted = row.table_round if highest is None else highest + 1
                highest = wanted
            if row.table_round != wanted:
                walk.fail(ROUNDS, row.chain_index, row.pk, chain.table_round_problem(row.table_round, wanted))
                break
    finally:
        rounds.close()
        stakes.close()
    return walk.end() or unsigned


def _walk_approvals(
    checkpoint: Head | None, report: ChainReport, chunk: int, due=None, *, start: int = 0, stop: int | None = None
) -> Break | None:
    walk = Walk(APPROVALS_CHAIN, APPROVALS, checkpoint)
    walk.expected = start
    first_unsigned = 0 if checkpoint is None else checkpoint.count
    unsigned = None
    rows = chain_selectors.chain_approval_rows(chunk=chunk, start=start, stop=stop)
    try:
        for row in rows:
            if start and walk.expected == start == row.link:
                walk.prev = row.prev_hmac  # the walk starts at a link: its previous-hash as it stands
            report.approvals += 1
            if due is not None and row.link == first_unsigned and row.decided_at < due:
                unsigned = _unsigned(APPROVALS_CHAIN, APPROVALS, row.pk, row.link, row.decided_at, checkpoint)
            if not walk.step(
                link=row.link,
                row_id=row.pk,
                prev=row.prev_hmac,
                stored=row.hmac,
                key_id=row.chain_key,
                mismatch=lambda key, row=row: chain.approval_mismatch(row, key) or chain.supersession_mismatch(row),
            ):
                break
    finally:
        rows.close()
    return walk.end() or unsigned
