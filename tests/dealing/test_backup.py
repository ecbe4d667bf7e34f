"""`manage.py backup` / `restore`: the round trip (back up, log more, restore into a fresh database,
the chains verify) and a rollback (an older backup beside a newer checkpoint log) refused."""

import tarfile
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection

from dealing import checkpoint_log, services, witness_mirror

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="pg_dump needs PostgreSQL (DATABASE_URL)"),
]


@pytest.fixture
def fresh_database():
    """fresh_database() → the URL of a new, empty database, dropped after the test."""
    import psycopg

    db = connection.settings_dict
    made = []

    def admin_url(name):
        password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
        return f"postgresql://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"

    def make() -> str:
        name = f"test_restore_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(admin_url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        made.append(name)
        return admin_url(name)

    yield make
    with psycopg.connect(admin_url("postgres"), autocommit=True) as conn:
        for name in made:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_back_up_log_more_restore_into_a_fresh_database_and_the_chains_verify(
    staff, tables, logged, tmp_path, settings, fresh_database
):
    for seed in range(3):
        logged(tables.ochko, staff.dealer, seed=seed)
    incident = services.incident_report(
        table=tables.ochko,
        kind="dealer_card_exposed",
        card="KH",
        exposed=True,
        resolution="burned",
        dealer=staff.dealer,
        reported_by=staff.inspector,
    )
    photo = services.incident_attach(
        incident=incident,
        added_by=staff.inspector,
        upload=SimpleUploadedFile("table.png", b"\x89PNG\r\n\x1a\n" + bytes(40), "image/png"),
    )
    assert services.checkpoint_write_all().ok
    # What a witness countersigned is kept beside the log (dealing/witness_mirror.py): it travels too.
    receipt = b'{"checkpoint": {"seq": 1}, "countersignature": "c2lnbmVk"}\n'
    (checkpoint_log.directory() / witness_mirror.RECEIPTS_FILE).write_bytes(receipt)
    archive = tmp_path / "backup.tar.gz"
    call_command("backup", "--output", str(archive))

    with tarfile.open(archive) as tar:
        names = tar.getnames()
    assert "database.dump" in names and "manifest.json" in names
    assert any(n.startswith("checkpoints/checkpoints-") for n in names)
    assert any(n.startswith("keys/checkpoint-public-") for n in names)
    assert f"media/{photo.file.name}" in names  # the attachments travel with the database
    assert not [n for n in names if "signing" in n or "private" in n]  # never a private key
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if member.isfile():
                assert b"PRIVATE KEY" not in tar.extractfile(member).read()

    # More rounds and a newer checkpoint after the backup: the backup's set is still consistent.
    logged(tables.ochko, staff.dealer, seed=9)
    assert services.checkpoint_write_all().ok

    restored_log, restored_media = tmp_path / "restored-checkpoints", tmp_path / "restored-media"
    call_command(
        "restore",
        str(archive),
        "--database-url",
        fresh_database(),
        "--checkpoint-dir",
        str(restored_log),
        "--media-root",
        str(restored_media),
    )
    assert sorted(p.name for p in restored_log.glob("checkpoints-*.jsonl"))
    assert (restored_media / photo.file.name).read_bytes() == photo.file.open("rb").read()
    assert (restored_log / witness_mirror.RECEIPTS_FILE).read_bytes() == receipt


def test_an_older_backup_beside_a_newer_checkpoint_log_is_a_rollback(
    staff, tables, logged, tmp_path, settings, fresh_database
):
    logged(tables.ochko, staff.dealer, seed=1)
    assert services.checkpoint_write_all().ok
    archive = tmp_path / "backup.tar.gz"
    call_command("backup", "--output", str(archive))
    logged(tables.ochko, staff.dealer, seed=2)
    assert services.checkpoint_write_all().ok  # the live log now signs a round the backup lacks

    with pytest.raises(CommandError, match="Rollback") as refused:
        call_command(
            "restore",
            str(archive),
            "--database-url",
            fresh_database(),
            "--checkpoint-dir",
            str(settings.CHECKPOINT_DIR),
        )
    assert "newest records were deleted" in str(refused.value)
    # Accepted on purpose, it restores and says what was lost.
    call_command(
        "restore",
        str(archive),
        "--database-url",
        fresh_database(),
        "--checkpoint-dir",
        str(settings.CHECKPOINT_DIR),
        "--accept-rollback",
    )


def test_a_damaged_archive_or_a_database_in_use_is_refused(staff, tables, logged, tmp_path, fresh_database):
    logged(tables.ochko, staff.dealer, seed=1)
    archive = tmp_path / "backup.tar.gz"
    call_command("backup", "--output", str(archive))
    with pytest.raises(CommandError, match="never overwrites"):
        call_command("backup", "--output", str(archive))
    target = fresh_database()
    call_command("restore", str(archive), "--database-url", target, "--checkpoint-dir", str(tmp_path / "log"))
    with pytest.raises(CommandError, match="not empty"):
        call_command("restore", str(archive), "--database-url", target, "--checkpoint-dir", str(tmp_path / "log"))
    damaged = tmp_path / "damaged.tar.gz"
    damaged.write_bytes(archive.read_bytes()[:-200])
    with pytest.raises(CommandError, match="not a backup|damaged"):
        call_command(
            "restore", str(damaged), "--database-url", fresh_database(), "--checkpoint-dir", str(tmp_path / "x")
        )
