"""Celery tasks of dealing: the chains' checkpoints and their verification (CELERY_BEAT_SCHEDULE).

- `chain_checkpoint()` — verifies the links added since the latest checkpoint (a break fails the
  task, is a critical item on the audit dashboard at once, and is signed into the log), signs every
  chain's head and appends it to the checkpoint log; a
  directory that cannot be written fails the task with the reason (its status says it, and the
  audit dashboard shows it); rounds keep being logged meanwhile.
- `chain_verify()` — walks every chain and the checkpoint log; a break fails the task and is a
  critical item on the audit dashboard (the ChainCheck it records).
"""

import logging

from celery import shared_task

from .checkpoint_log import CheckpointError
from .services.checkpoints import chain_verify as _chain_verify
from .services.checkpoints import checkpoint_write_all

log = logging.getLogger(__name__)


class ChainBroken(Exception):
    """A verification found a break (the message names each one)."""


@shared_task(name="dealing.tasks.chain_checkpoint")
def chain_checkpoint() -> str:
    check = checkpoint_write_all()
    if not check.ok:
        log.error("chain_checkpoint: %s", check.message)
        raise CheckpointError(check.message)
    if check.breaks:  # written, but some chains' new links do not verify (logged critical already)
        raise ChainBroken(
            "; ".join(f"{b['chain']}: {b['relation']}, link {b['link']}: {b['problem']}" for b in check.breaks)
        )
    return check.message


@shared_task(name="dealing.tasks.chain_verify")
def chain_verify() -> str:
    report = _chain_verify(record=True)
    if not report.ok:
        message = "; ".join(str(b) for b in report.breaks)
        log.critical("chain_verify: %s", message)
        raise ChainBroken(message)
    return f"chain intact ({report.summary()})"
