"""What audit announces to the apps above it, inside the transaction of what it announces (these rows
are written with UPDATE or in bulk, so no post_save tells of them):

    run_progressed(run_id=…)       a chunk's totals were added to its run
    findings_written(tables=…)     a batch of findings was added, changed or dropped in bulk (a
                                   chunk's rounds, a shoe): {table id: findings written}, once per batch
"""

from django.dispatch import Signal

run_progressed = Signal()
findings_written = Signal()
