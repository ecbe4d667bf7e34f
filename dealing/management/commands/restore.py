"""`python manage.py restore ARCHIVE --database-url URL --checkpoint-dir DIR [--accept-rollback]`:
a backup restored into a fresh, empty database, its checkpoint log put in DIR (a newer log already
there is kept), then the chains verified against the log in place. A database older than that log
is a rollback — the newest rounds missing — reported and refused (exit 1) unless accepted
(dealing/services/backups.py)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from dealing import services
from dealing.errors import ServiceError


class Command(BaseCommand):
    help = "Restore a backup into a fresh database and verify the chains against the checkpoint log."

    def add_arguments(self, parser):
        parser.add_argument("archive", type=Path)
        parser.add_argument(
            "--database-url", required=True, help="The fresh, empty PostgreSQL database to restore into."
        )
        parser.add_argument("--checkpoint-dir", required=True, type=Path, help="Where the checkpoint log goes (or is).")
        parser.add_argument(
            "--media-root", type=Path, default=None, help="Where the attachments go (default: MEDIA_ROOT)."
        )
        parser.add_argument(
            "--accept-rollback",
            action="store_true",
            help="Accept a database older than the checkpoint log in place (the newest rounds are lost).",
        )

    def handle(self, *args, archive, database_url, checkpoint_dir, accept_rollback, media_root, **options):
        try:
            summary = services.backup_restore(
                archive=archive,
                database_url=database_url,
                checkpoint_dir=checkpoint_dir,
                accept_rollback=accept_rollback,
                media_root=media_root,
            )
        except ServiceError as exc:
            raise CommandError(exc.message, returncode=1) from None
        if not summary.verified:
            self.stderr.write(f"ROLLBACK ACCEPTED: the newest rounds are missing.\n{summary.report}")
        else:
            self.stdout.write(f"restored and verified: {summary.report}")
