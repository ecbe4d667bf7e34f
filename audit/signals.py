"""What audit announces to the apps above it: `run_progressed(run_id=…)` after a chunk's totals are
added to its run (inside that transaction; the run's row is written with UPDATE, so no post_save)."""

from django.dispatch import Signal

run_progressed = Signal()
