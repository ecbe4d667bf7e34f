"""`python manage.py import_rounds FILE.jsonl [--as USERNAME] [--table NAME]`: many round logs, one
per line, each through `dealing.services.round_log` (the same checks as the API and the form).

A refused line is reported with its line number and the import goes on; a summary ends the run,
and the exit status is 1 when any line was refused. FILE may be "-" for standard input.
"""

import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from casino.errors import ServiceError
from casino.models import Table
from dealing import services


class Command(BaseCommand):
    help = "Log round/1 documents from a JSON Lines file (one per line) through the same service as the API."

    def add_arguments(self, parser):
        parser.add_argument("file", help="A .jsonl file, or - for standard input.")
        parser.add_argument("--as", dest="username", metavar="USERNAME",
                            help="Log every round as this user (a dealer or pit boss of the tables' pits). "
                                 "By default each round is logged by the dealer it names.")
        parser.add_argument("--table", metavar="NAME",
                            help="Log every round at this table (the documents may then leave out table.name).")

    def handle(self, *args, file, username=None, table=None, **options):
        User = get_user_model()
        user = None
        if username is not None:
            user = User.objects.filter(username=username, is_active=True).first()
            if user is None:
                raise CommandError(f"There is no active user {username!r}.")
        at = None
        if table is not None:
            at = Table.objects.select_related("pit").filter(name=table).first()
            if at is None:
                raise CommandError(f"There is no table named {table!r}.")
        stream = sys.stdin.buffer if file == "-" else self._open(file)
        stored = repeats = refused = 0
        try:
            for number, line in enumerate(stream, 1):
                if not line.strip():
                    continue
                try:
                    record, created = services.round_log(document=line, logged_by=user or self._dealer(line),
                                                         table=at)
                except ServiceError as exc:
                    refused += 1
                    self.stderr.write(f"line {number}: {exc.message}{_where(exc.extra)}")
                    continue
                if created:
                    stored += 1
                else:
                    repeats += 1
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()
        summary = f"{stored} stored, {repeats} already stored, {refused} refused"
        # --- after a batch import: sign every chain's head (docs/chain.md). Kept apart so the
        # import itself can change freely; a checkpoint that fails is reported, the rounds stay.
        self._checkpoint()
        if refused:
            raise CommandError(summary, returncode=1)
        self.stdout.write(summary)

    def _checkpoint(self):
        check = services.checkpoint_write_all()
        if not check.ok:
            self.stderr.write(f"checkpoint not written: {check.message}")

    def _open(self, path):
        try:
            return open(path, "rb")
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror}.") from None

    def _dealer(self, line: bytes):
        """The user a line is logged by when no --as is given: the dealer it names."""
        document = services.read_document(line)
        name = document.get("dealer")
        user = get_user_model().objects.filter(username=name, is_active=True).first() if name else None
        if user is None:
            raise ServiceError(_("The round names no dealer known here; give --as USERNAME."),
                               extra={"code": "unknown_dealer", "path": "$.dealer", "event": None})
        return user


def _where(extra: dict) -> str:
    parts = [f"{key} {extra[key]}" for key in ("code", "path", "event") if extra.get(key) is not None]
    return f" ({', '.join(parts)})" if parts else ""
