"""A backup of what must be restored together, and its restore: the database (pg_dump), the
checkpoint log and the public keys that verify it — never a private key (the chain key and the
checkpoints' signing key are kept apart, in the key store: with them, whoever holds the archive
could rebuild the chain it is meant to check).

The archive (a .tar.gz):

    manifest.json             format, when, the database's name, the newest checkpoint line, each file's sha256
    checkpoints/*.jsonl       the checkpoint log, copied *before* the dump: every head it signs is in the dump;
                              beside it the witness's receipts (its countersignatures), when there is a witness
    keys/*.pem                the public keys: the log directory's, CHECKPOINT_PUBLIC_KEY's, the signing key's own
    database.dump             pg_dump --format=custom
    media/incidents/…         incidents' attachments (MEDIA_ROOT), copied *after* the dump: a file is
                              stored before its row commits, so every row the dump holds finds its file

A restore goes into a fresh, empty database, puts the log in place — unless the log directory
already holds a newer log, which is kept — and then verifies the chains against the log in a
process of its own (`manage.py verify_chain` on the restored database). A database older than the
log in place is a rollback: the newest rounds are missing. It is reported and refused (the restored
database stays, for inspection) unless the operator accepts it.
"""

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from django.conf import settings
from django.db import connection
from django.utils import timezone

from dealing import checkpoint_log, witness_mirror
from dealing.errors import ServiceError

FORMAT = 1
MANAGE = Path(__file__).resolve().parents[2] / "manage.py"
# What of MEDIA_ROOT a backup carries: the incidents' attachments (dealing.incident_models).
MEDIA_FOLDERS = ("incidents",)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def newest_seq(directory: Path) -> int | None:
    """The number of the last line of the checkpoint log in `directory`, or None (no log)."""
    for path in sorted(Path(directory).glob(checkpoint_log.FILE_GLOB), reverse=True):
        lines = [line for line in path.read_bytes().splitlines() if line.strip()]
        if lines:
            return int(json.loads(lines[-1])["seq"])
    return None


def _public_keys() -> dict[str, bytes]:
    """Every public key a verifier may need, by file name; private keys are only read to derive
    their public half."""
    keys: dict[str, bytes] = {}
    for public in checkpoint_log.trusted_keys().values():
        keys[checkpoint_log.PUBLIC_KEY_FILE.format(fingerprint=checkpoint_log.fingerprint(public))] = (
            checkpoint_log.public_pem(public)
        )
    for path in checkpoint_log.directory().glob(checkpoint_log.PUBLIC_KEY_FILE.format(fingerprint="*")):
        keys.setdefault(path.name, path.read_bytes())
    return keys


def _pg_env(db: dict) -> dict:
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return env


def _pg_args(db: dict) -> list[str]:
    args = []
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if db.get(key):
            args += [flag, str(db[key])]
    return args


def _run(args: list[str], *, env: dict, what: str) -> None:
    result = subprocess.run(args, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise ServiceError(f"{what} failed: {result.stderr.strip() or result.stdout.strip()}")


@dataclass
class BackupSummary:
    path: Path
    checkpoint_seq: int | None
    files: int


def backup_write(*, output: Path) -> BackupSummary:
    """Write the archive to `output` (a .tar.gz). PostgreSQL only: a SQLite file is copied as it is."""
    if connection.vendor != "postgresql":
        raise ServiceError("A backup needs PostgreSQL (DATABASE_URL); a SQLite database is a file: copy it.")
    output = Path(output)
    if output.exists():
        raise ServiceError(f"{output} exists already: a backup never overwrites one.")
    db = connection.settings_dict
    with tempfile.TemporaryDirectory(prefix="casino-backup-") as work:
        work = Path(work)
        # The log first, then the dump: rounds are only appended, so the dump holds every head
        # the copied log signs (the other way round a checkpoint could sign rounds the dump lacks).
        (work / "checkpoints").mkdir()
        for path in sorted(checkpoint_log.directory().glob(checkpoint_log.FILE_GLOB)):
            shutil.copy2(path, work / "checkpoints" / path.name)
        receipts = checkpoint_log.directory() / witness_mirror.RECEIPTS_FILE
        if receipts.is_file():  # the witness's countersignatures of those checkpoints (docs/witness.md)
            shutil.copy2(receipts, work / "checkpoints" / receipts.name)
        (work / "keys").mkdir()
        for name, pem in _public_keys().items():
            (work / "keys" / name).write_bytes(pem)
        _run(
            [
                "pg_dump",
                "--format=custom",
                "--no-owner",
                "--file",
                str(work / "database.dump"),
                *_pg_args(db),
                db["NAME"],
            ],
            env=_pg_env(db),
            what="pg_dump",
        )
        for folder in MEDIA_FOLDERS:
            if (Path(settings.MEDIA_ROOT) / folder).is_dir():
                shutil.copytree(Path(settings.MEDIA_ROOT) / folder, work / "media" / folder)
        files = sorted(p for p in work.rglob("*") if p.is_file())
        manifest = {
            "format": FORMAT,
            "created": timezone.now().isoformat(),
            "database": db["NAME"],
            "checkpoint_seq": newest_seq(work / "checkpoints"),
            "files": {str(p.relative_to(work)): _sha256(p) for p in files},
        }
        output.parent.mkdir(parents=True, exist_ok=True)
        partial = output.with_name(output.name + ".partial")
        with tarfile.open(partial, "w:gz") as tar:
            data = json.dumps(manifest, indent=2).encode()
            info = tarfile.TarInfo("manifest.json")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
            for path in files:
                tar.add(path, arcname=str(path.relative_to(work)))
        partial.rename(output)
    return BackupSummary(output, manifest["checkpoint_seq"], len(files))


@dataclass
class RestoreSummary:
    checkpoint_seq: int | None  # the archive's newest checkpoint line
    log_kept: bool  # a newer log was in place and stays
    verified: bool
    report: str  # verify_chain's words


def _database_is_empty(url: str) -> bool:
    import psycopg

    with psycopg.connect(url, connect_timeout=10) as conn:
        return conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()[0] == 0


def backup_restore(
    *, archive: Path, database_url: str, checkpoint_dir: Path, accept_rollback: bool = False, media_root=None
) -> RestoreSummary:
    """Restore `archive` into the empty database at `database_url`, the log into `checkpoint_dir` and
    the attachments into `media_root` (MEDIA_ROOT by default; a file already there is kept), then verify. Raises ServiceError on a damaged archive, a database that is not
    empty, a failed pg_restore, or a chain that does not verify (a rollback unless accepted)."""
    if urlparse(database_url).scheme not in ("postgres", "postgresql"):
        raise ServiceError("Restore into PostgreSQL: --database-url postgres://user@host:5432/name.")
    checkpoint_dir = Path(checkpoint_dir)
    with tempfile.TemporaryDirectory(prefix="casino-restore-") as work:
        work = Path(work)
        try:
            with tarfile.open(archive, "r:gz") as tar:
                tar.extractall(work, filter="data")
            manifest = json.loads((work / "manifest.json").read_text())
        except (OSError, EOFError, tarfile.TarError, ValueError, KeyError) as exc:
            raise ServiceError(f"{archive} is not a backup of this system: {exc}") from None
        if manifest.get("format") != FORMAT:
            raise ServiceError(f"{archive}: backup format {manifest.get('format')!r}, expected {FORMAT}.")
        for name, digest in manifest["files"].items():
            path = work / name
            if not path.is_file() or _sha256(path) != digest:
                raise ServiceError(f"{archive}: {name} is missing or damaged (its sha256 differs from the manifest's).")
        if not _database_is_empty(database_url):
            raise ServiceError("The database to restore into is not empty: create a fresh one.")

        in_place = newest_seq(checkpoint_dir) if checkpoint_dir.exists() else None
        backed_up = manifest["checkpoint_seq"]
        log_kept = in_place is not None and (backed_up is None or in_place > backed_up)
        checkpoint_dir.mkdir(parents=True, exist_ok=True)
        if not log_kept:
            for path in sorted((work / "checkpoints").glob(checkpoint_log.FILE_GLOB)):
                shutil.copy2(path, checkpoint_dir / path.name)
            receipts = work / "checkpoints" / witness_mirror.RECEIPTS_FILE
            if receipts.is_file():
                shutil.copy2(receipts, checkpoint_dir / receipts.name)
        for path in sorted((work / "keys").glob("*.pem")):
            if not (checkpoint_dir / path.name).exists():
                shutil.copy2(path, checkpoint_dir / path.name)

        media_root = Path(media_root or settings.MEDIA_ROOT)
        for path in sorted(p for p in (work / "media").rglob("*") if p.is_file()):
            target = media_root / path.relative_to(work / "media")
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target)

        parsed = urlparse(database_url)
        db = {
            "HOST": parsed.hostname,
            "PORT": parsed.port,
            "USER": unquote(parsed.username or ""),
            "PASSWORD": unquote(parsed.password or ""),
        }
        _run(
            [
                "pg_restore",
                "--no-owner",
                "--no-privileges",
                "--exit-on-error",
                *_pg_args(db),
                "--dbname",
                parsed.path.lstrip("/"),
                str(work / "database.dump"),
            ],
            env=_pg_env(db),
            what="pg_restore",
        )

    # The verification in a process of its own, on the restored database and the log in place, with
    # the production settings (keys from the environment, as every process of the site has them).
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "casino.settings",
        "DATABASE_URL": database_url,
        "CHECKPOINT_DIR": str(checkpoint_dir),
        "MEDIA_ROOT": str(media_root),
    }
    result = subprocess.run(
        [sys.executable, str(MANAGE), "verify_chain", "--skip-checks"], env=env, capture_output=True, text=True
    )
    report = (result.stdout + result.stderr).strip()
    summary = RestoreSummary(backed_up, log_kept, result.returncode == 0, report)
    if result.returncode != 0:
        if log_kept and not accept_rollback:
            raise ServiceError(
                f"Rollback: the checkpoint log in {checkpoint_dir} goes to line {in_place}, the backup to "
                f"line {backed_up}; the newest rounds are missing from the restored database.\n{report}"
            )
        if not log_kept:
            raise ServiceError(f"The restored database does not verify against its own checkpoint log:\n{report}")
    return summary
