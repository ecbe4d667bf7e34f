"""Every write of audit: audits of rounds and shoes, reviews of findings, audit runs.

Plain functions with keyword-only arguments, in four modules by what they write — `rounds`
(auditing stored rounds, the sweep of rounds whose audit never arrived), `runs` (audit runs and
their chunks), `reviews` (auditors' decisions), `shoes` (the shoe checks) — and all of them here,
so callers write `from audit import services; services.rounds_audit(...)`. Each one is one
transaction: an audit writes a round's findings and its audit status together, a chunk of a run
writes its rounds' results together with its own "done" mark and the run's totals.
"""

from .reviews import MAX_BULK_REVIEW, finding_review
from .rounds import (
    MAX_ERROR_SAMPLES,
    AuditTotals,
    fingerprints,
    round_audit,
    rounds_audit,
    rounds_overdue_audit,
    rounds_overdue_requeue,
)
from .runs import (
    CHUNKS_PER_PLAN_SLICE,
    DEFAULT_CHUNK_SIZE,
    MAX_CHUNK_SIZE,
    PLAN_SECONDS,
    ChunkBusy,
    audit_chunks_requeue_expired,
    audit_run_chunk_process,
    audit_run_fail,
    audit_run_plan,
    audit_run_rerun,
    audit_run_resume,
    audit_run_start,
    audit_runs_resume_stalled,
    day_start,
    nightly_audit,
    run_selection,
)
from .shoes import shoe_audit, shoe_audit_request, shoes_to_audit

__all__ = [
    "CHUNKS_PER_PLAN_SLICE",
    "DEFAULT_CHUNK_SIZE",
    "MAX_BULK_REVIEW",
    "MAX_CHUNK_SIZE",
    "MAX_ERROR_SAMPLES",
    "PLAN_SECONDS",
    "AuditTotals",
    "ChunkBusy",
    "audit_chunks_requeue_expired",
    "audit_run_chunk_process",
    "audit_run_fail",
    "audit_run_plan",
    "audit_run_rerun",
    "audit_run_resume",
    "audit_run_start",
    "audit_runs_resume_stalled",
    "day_start",
    "finding_review",
    "fingerprints",
    "nightly_audit",
    "round_audit",
    "rounds_audit",
    "rounds_overdue_audit",
    "rounds_overdue_requeue",
    "run_selection",
    "shoe_audit",
    "shoe_audit_request",
    "shoes_to_audit",
]
