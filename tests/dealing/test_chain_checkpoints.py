"""`manage.py checkpoint`, the checkpoints a store must have, and a checkpoint log that survives a
full disk (issue #36, items 3 and 4; docs/chain.md)."""

import base64
import errno
import os
import secrets
import subprocess
import uuid

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse

from dealing import chain_selectors, checkpoint_log, services, tasks
from dealing.models import ChainCheck, Round

pytestmark = pytest.mark.django_db


class Sink:
    def __init__(self):
        self.text = ""

    def write(self, text):
        self.text += text

    def flush(self):
        pass


def run(name, *args):
    """(exit code, what the command printed or the error it raised)."""
    out, err = Sink(), Sink()
    try:
        call_command(name, *args, stdout=out, stderr=err)
    except CommandError as exc:
        return exc.returncode, str(exc)
    return 0, out.text + err.text


@pytest.fixture
def rounds(staff, tables, logged):
    services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    return [logged(tables.ochko, staff.dealer, seed=k) for k in range(3)]


@pytest.fixture
def signing_key(settings):
    """A configured key (as in production): checkpoints are then required, not only noted."""
    settings.CHECKPOINT_SIGNING_KEY = base64.b64encode(secrets.token_bytes(32)).decode()
    settings.CHECKPOINT_DEV_KEY = False


def log_files(settings):
    return sorted(settings.CHECKPOINT_DIR.glob(checkpoint_log.FILE_GLOB))


def test_the_command_signs_every_chain_and_records_it(rounds, settings):
    code, out = run("checkpoint")
    assert code == 0 and out.startswith("checkpoint 1 in checkpoints-") and out.rstrip().endswith("written")
    check = ChainCheck.objects.get(kind=ChainCheck.Kind.CHECKPOINT)
    assert check.ok and check.seq == 1 and check.records == 3
    body, problem = checkpoint_log.latest()
    assert problem is None and body["heads"][str(rounds[0].table_id)]["count"] == 3
    assert run("checkpoint")[1].startswith("checkpoint 2 in ")
    assert run("verify_chain")[0] == 0


def test_the_command_fails_with_the_reason_when_no_checkpoint_can_be_written(rounds, settings, tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("")
    settings.CHECKPOINT_DIR = blocked / "checkpoints"
    code, message = run("checkpoint")
    assert code == 1 and "checkpoint not written: The checkpoint directory" in message


def test_with_a_key_configured_a_store_whose_checkpoints_were_deleted_fails(rounds, settings, signing_key):
    assert run("checkpoint")[0] == 0
    settings.CHECKPOINT_GRACE_S = 0  # the rounds are "old": every checkpoint since would have signed them
    assert run("verify_chain")[0] == 0
    for path in log_files(settings):
        path.unlink()
    ChainCheck.objects.all().delete()
    code, message = run("verify_chain")
    assert code == 1
    assert "R-1: dealing_round, link 0, row id" in message
    assert "no checkpoint signs this chain: checkpoints are missing" in message


def test_without_a_key_configured_a_missing_log_is_only_noted(rounds, settings):
    settings.CHECKPOINT_GRACE_S = 0
    code, message = run("verify_chain")
    assert code == 0 and "no checkpoint key is configured" in message


def test_fresh_records_need_no_checkpoint_yet(rounds, settings, signing_key):
    settings.CHECKPOINT_GRACE_S = 3600
    assert run("verify_chain")[0] == 0


def test_a_cut_tail_of_the_log_is_found_against_the_records_signed_since(
    rounds, staff, tables, logged, settings, signing_key
):
    run("checkpoint")
    logged(tables.ochko, staff.dealer, seed=7)
    run("checkpoint")
    (path,) = log_files(settings)
    path.write_bytes(path.read_bytes().splitlines(keepends=True)[0])  # the newest line cut…
    ChainCheck.objects.filter(seq=2).delete()  # …and its record
    settings.CHECKPOINT_GRACE_S = 0
    code, message = run("verify_chain")
    assert code == 1 and "R-1: dealing_round, link 3, row id" in message
    assert "the newest checkpoint (" in message and "signs only its first 3 links" in message
    assert run("checkpoint")[0] == 0 and run("verify_chain")[0] == 0  # signed again: nothing is missing


def test_demo_floor_ends_with_a_checkpoint(settings):
    settings.DEBUG = True
    out = Sink()
    call_command("demo_floor", stdout=out, stderr=out)
    check = ChainCheck.objects.get(kind=ChainCheck.Kind.CHECKPOINT)
    assert check.ok and check.records == Round.objects.count() > 0
    assert f"checkpoint {check.seq} in " in out.text
    assert run("verify_chain")[0] == 0


# --- a full disk ------------------------------------------------------------------------------


def full_disk_after(monkeypatch, budget: int):
    """os.write as on a disk with `budget` bytes left: what fits is written, then ENOSPC."""
    real = os.write
    left = [budget]

    def write(descriptor, data):
        if left[0] <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written = real(descriptor, bytes(data[: left[0]]))
        left[0] -= written
        return written

    monkeypatch.setattr(checkpoint_log.os, "write", write)


def test_a_write_that_fills_the_disk_is_taken_back_and_not_recorded(rounds, settings, monkeypatch):
    run("checkpoint")
    (path,) = log_files(settings)
    before = path.read_bytes()
    full_disk_after(monkeypatch, 100)
    code, message = run("checkpoint")
    assert code == 1 and "No space left on device. Nothing was recorded." in message
    assert path.read_bytes() == before  # the half line was cut back off
    assert not ChainCheck.objects.filter(kind="checkpoint", ok=True, seq=2).exists()
    assert ChainCheck.objects.filter(kind="checkpoint", ok=False).count() == 1
    monkeypatch.undo()
    assert run("checkpoint")[1].startswith("checkpoint 2 in ")  # space again: the log goes on
    assert run("verify_chain")[0] == 0


def test_a_torn_tail_is_named_blocks_appends_and_is_repaired_without_a_false_alarm(rounds, settings, monkeypatch):
    run("checkpoint")
    (path,) = log_files(settings)
    whole = path.read_bytes()
    full_disk_after(monkeypatch, 100)
    monkeypatch.setattr(checkpoint_log.os, "ftruncate", lambda *a: (_ for _ in ()).throw(OSError(errno.EIO, "EIO")))
    assert run("checkpoint")[0] == 1
    monkeypatch.undo()
    assert path.read_bytes().startswith(whole) and len(path.read_bytes()) == len(whole) + 100  # torn
    code, message = run("verify_chain")
    assert code == 1 and "line 2 of " in message and "is torn" in message and checkpoint_log.REPAIR in message
    code, message = run("checkpoint")
    assert code == 1 and "was torn by a write that stopped part-way" in message
    code, out = run("checkpoint", "--repair-tail")
    assert code == 0 and "cut the torn last line (100 bytes" in out and "checkpoint 2 in " in out
    assert path.read_bytes().startswith(whole)
    assert run("verify_chain")[0] == 0
    assert run("checkpoint", "--repair-tail")[1].startswith("repair: the checkpoint log ends with a whole line")


def test_the_repair_never_cuts_a_whole_signed_checkpoint(rounds, settings):
    run("checkpoint")
    run("checkpoint")
    (path,) = log_files(settings)
    whole = path.read_bytes()
    path.write_bytes(whole[:-1])  # only the newline lost
    code, out = run("checkpoint", "--repair-tail")
    assert code == 0 and "a whole signed checkpoint without its newline" in out
    assert path.read_bytes().startswith(whole) and run("verify_chain")[0] == 0


@pytest.fixture
def tiny_disk(tmp_path):
    """A 16 KiB tmpfs (root only; skipped elsewhere, the simulated ENOSPC above covers the logic)."""
    where = tmp_path / f"tiny-{uuid.uuid4().hex[:8]}"
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(where)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    yield where
    subprocess.run(["umount", str(where)], check=True)


def test_on_a_really_full_tmpfs_no_checkpoint_is_half_written(rounds, settings, signing_key, tiny_disk):
    settings.CHECKPOINT_DIR = tiny_disk
    filler = tiny_disk / "filler"
    filler.write_bytes(b"x" * 8000)  # half the disk taken by something else: a page is left for the log
    outcomes = []
    while 1 not in outcomes and len(outcomes) < 40:
        outcomes.append(run("checkpoint")[0])
    assert outcomes.count(0) > 1 and outcomes[-1] == 1  # some fit, then the disk was full
    for path in log_files(settings):
        assert path.read_bytes().endswith(b"\n")
    assert run("verify_chain")[0] == 0
    filler.unlink()
    written = ChainCheck.objects.filter(kind="checkpoint", ok=True).count()
    assert run("checkpoint")[1].startswith(f"checkpoint {written + 1} in ")
    assert run("verify_chain")[0] == 0


# --- new links verified as they are checkpointed; the dashboard's state from the signed log -------


def sql(statement, params=()):
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def critical():
    return [item["what"] for item in chain_selectors.chain_health()["critical"]]


def test_new_links_are_verified_as_they_are_checkpointed_and_a_broken_chain_is_not_signed_over(
    rounds, staff, tables, logged, settings
):
    run("checkpoint")
    newer = logged(tables.ochko, staff.dealer, seed=8)
    sql("UPDATE dealing_round SET table_min = 1 WHERE id = %s", [newer.pk])  # behind the application's back
    code, message = run("checkpoint")
    assert code == 1 and f"chain broken: R-1: dealing_round, link 3, row id {newer.pk}:" in message
    assert "signed at their previous head" in message
    body, problem = checkpoint_log.latest()
    assert problem is None and body["seq"] == 2
    assert body["heads"][str(tables.ochko.pk)]["count"] == 3  # the head signed before, not the broken one
    assert body["verified"]["new"]["ok"] is False and "link 3" in body["verified"]["new"]["breaks"][0]
    failed = ChainCheck.objects.get(kind=ChainCheck.Kind.VERIFICATION)
    assert not failed.ok and failed.breaks[0]["link"] == 3  # on the dashboard at once, not after the night
    assert critical() == ["verification", "signed"]


def test_a_rewritten_signed_head_is_found_by_the_next_checkpoint(rounds, settings):
    run("checkpoint")
    sql("UPDATE dealing_round SET table_min = 1 WHERE id = %s", [rounds[2].pk])
    code, message = run("checkpoint")
    assert code == 1 and f"R-1: dealing_round, link 2, row id {rounds[2].pk}:" in message
    with pytest.raises(tasks.ChainBroken, match="R-1: dealing_round, link 2"):
        tasks.chain_checkpoint.apply(throw=True)


def test_the_dashboard_takes_the_chains_state_from_the_signed_log_not_from_a_row(
    rounds, staff, tables, logged, settings, client_for
):
    run("checkpoint")
    newer = logged(tables.ochko, staff.dealer, seed=8)
    sql("UPDATE dealing_round SET table_min = 1 WHERE id = %s", [newer.pk])
    run("checkpoint")
    # The insider deletes the failed check and inserts a passing one…
    ChainCheck.objects.filter(ok=False).delete()
    ChainCheck.objects.create(kind=ChainCheck.Kind.VERIFICATION, ok=True, records=4, message="chain intact")
    assert critical() == ["signed"]  # …the signed line still says what was found
    page = client_for("auditor").get(reverse("audit:dashboard")).content.decode()
    assert 'data-what="signed"' in page and "R-1: dealing_round, link 3" in page
    # Put right and verified whole, the signed state is clean again.
    sql("UPDATE dealing_round SET table_min = %s WHERE id = %s", [newer.table_min, newer.pk])
    assert run("verify_chain", "--record")[0] == 0
    assert critical() == []
    body, _ = checkpoint_log.latest()
    assert body["verified"]["full"]["ok"] is True and body["verified"]["new"]["ok"] is True


def test_a_full_verification_that_fails_stays_in_the_signed_log_until_the_next_one(rounds, settings):
    run("checkpoint")
    sql("UPDATE dealing_round SET table_min = 1 WHERE id = %s", [rounds[0].pk])  # deep in the signed part
    assert run("verify_chain", "--record")[0] == 1
    ChainCheck.objects.filter(kind=ChainCheck.Kind.VERIFICATION).delete()
    run("checkpoint")  # the new links are fine; the full verification's failure is carried
    body, _ = checkpoint_log.latest()
    assert body["verified"]["new"]["ok"] is True and body["verified"]["full"]["ok"] is False
    assert critical() == ["signed"]


def test_a_cut_or_stale_log_is_critical_on_the_dashboard(rounds, settings, signing_key):
    run("checkpoint")
    run("checkpoint")
    assert critical() == []
    (path,) = log_files(settings)
    path.write_bytes(path.read_bytes().splitlines(keepends=True)[0])
    assert critical() == ["cut"]
    settings.CHECKPOINT_GRACE_S = 0
    assert critical() == ["stale", "cut"]


def test_only_a_verification_of_the_whole_chains_is_signed_as_full(rounds, settings):
    run("checkpoint")
    assert run("verify_chain", "--table", "R-1", "--record")[0] == 0
    body, _ = checkpoint_log.latest()
    assert body["seq"] == 1 and body["verified"]["full"] is None  # one table checked: nothing signed as full
    assert run("verify_chain", "--record")[0] == 0
    body, _ = checkpoint_log.latest()
    assert body["seq"] == 2 and body["verified"]["full"]["ok"] is True and body["verified"]["full"]["records"] == 3
