"""`python manage.py backup --output FILE.tar.gz`: the database (pg_dump), the checkpoint log, the
public keys and the incidents' attachments (MEDIA_ROOT) in one archive with a manifest of sha256
sums — never a private key (dealing/services/backups.py; docs/operations.md, "Backups")."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from dealing import services
from dealing.errors import ServiceError


class Command(BaseCommand):
    help = "Back up the database, the checkpoint log and the public keys (never a private key) into one archive."

    def add_arguments(self, parser):
        parser.add_argument(
            "--output", required=True, type=Path, help="The archive to write (.tar.gz); never overwritten."
        )

    def handle(self, *args, output, **options):
        try:
            summary = services.backup_write(output=output)
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(
            f"backup written: {summary.path} ({summary.files} files, checkpoint log to line {summary.checkpoint_seq})"
        )
