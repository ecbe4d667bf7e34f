"""`python manage.py rollups_rebuild [--check] [--batch N]`

Recomputes the rollups (audit/rollups.py, docs/rollups.md) from the rounds and findings: idempotent,
reading the rounds in id order a batch at a time (memory: one batch and the rollup rows). Needed
after changing CASINO_SHIFTS or TIME_ZONE, or an engine upgrade that changes what a round wagers.
`--check` changes nothing: it lists where the stored rollups differ from the rounds and exits 1 if
they do.
"""

import time

from django.core.management.base import BaseCommand, CommandError

from audit import rollups


class Command(BaseCommand):
    help = "Recompute the rollups of the dashboard and the error rates from the rounds."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="only compare the stored rollups with the rounds")
        parser.add_argument("--batch", type=int, default=2000, help="rounds read per query (default 2000)")

    def handle(self, *args, check=False, batch=2000, **options):
        if batch < 1:
            raise CommandError("--batch is at least 1.")
        started = time.monotonic()
        if check:
            differences = rollups.differences()
            for line in differences[:50]:
                self.stdout.write(line)
            if differences:
                raise CommandError(f"{len(differences)} rollup rows differ from the rounds.")
            self.stdout.write("The rollups agree with the rounds.")
            return

        def progress(done):
            if done % (batch * 50) == 0:
                self.stderr.write(f"{done} rounds read")

        rounds, findings = rollups.rebuild(batch=batch, progress=progress)
        self.stdout.write(
            f"Rollups rebuilt: {rounds} rows of rounds, {findings} rows of findings "
            f"({time.monotonic() - started:.1f} s)."
        )
