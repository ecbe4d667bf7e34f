"""`python manage.py checkpoint [--repair-tail]`: sign every chain's head now (docs/chain.md).

Without options: the links added since the latest checkpoint verified, then one checkpoint of
every chain, appended to the checkpoint log and recorded as a ChainCheck — what Celery beat does
every CHECKPOINT_INTERVAL_S, `import_rounds` and `demo_floor` at their end. Prints "checkpoint N
in FILE: … written" (exit 0); or why none could be (exit 1; nothing was appended then); or, after
it, each chain whose new links do not verify (exit 1; those chains were signed at their previous
head, and the break is on the audit dashboard at once).

--repair-tail: remove the torn end of the log's newest file, a line a write left half-written (a
full disk, a power cut), once it is confirmed not to be a whole signed checkpoint; then take a
checkpoint. A log that ends with a whole line is left as it is.
"""

from django.core.management.base import BaseCommand, CommandError

from dealing import checkpoint_log, services
from dealing.chain import Break


class Command(BaseCommand):
    help = (
        "Sign every chain's head now and append it to the checkpoint log (--repair-tail: first cut a torn last line)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--repair-tail",
            action="store_true",
            help="First remove a half-written last line of the log (never a whole signed checkpoint).",
        )

    def handle(self, *args, repair_tail=False, **options):
        if repair_tail:
            try:
                repair = checkpoint_log.repair_tail()
            except checkpoint_log.CheckpointError as exc:
                raise CommandError(str(exc), returncode=1) from None
            self.stdout.write(f"repair: {repair}")
        check = services.checkpoint_write_all()
        if not check.ok:
            raise CommandError(f"checkpoint not written: {check.message}", returncode=1)
        self.stdout.write(f"{check.message} written")
        if check.breaks:
            raise CommandError(
                "chain broken: "
                + "\nchain broken: ".join(str(Break(**b)) for b in check.breaks)
                + "\n(these chains were signed at their previous head)",
                returncode=1,
            )
