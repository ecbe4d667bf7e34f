"""The witness's fault drills (issue #36, items 3 and 4; docs/operations.md "Fault drills"): a real
witness process beside the project — stopped, then back; the local checkpoint log cut behind it; a
full checkpoint disk. Each drill asserts what a person on the floor or an auditor would see."""

import base64
import errno
import json
import secrets
import subprocess
import urllib.request
import uuid

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.core.management import call_command
from django.urls import reverse
from prometheus_client.parser import text_string_to_metric_families

from dealing import chain_selectors, checkpoint_log, services, tasks, witness_mirror
from dealing.models import ChainCheck, Round
from tests.witness.running import WitnessProcess

from .test_chain_checkpoints import Sink, full_disk_after, log_files, run, sql

pytestmark = pytest.mark.django_db


@pytest.fixture
def rounds(staff, tables, logged):
    services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    return [logged(tables.ochko, staff.dealer, seed=k) for k in range(3)]


@pytest.fixture
def witness(settings, tmp_path):
    """A configured signing key (production), a witness that knows its public half, and the project
    pointed at the witness with the witness's key pinned."""
    raw = secrets.token_bytes(32)
    settings.CHECKPOINT_SIGNING_KEY = base64.b64encode(raw).decode()
    settings.CHECKPOINT_DEV_KEY = False
    public = tmp_path / "checkpoint-public.pem"
    public.write_bytes(checkpoint_log.public_pem(Ed25519PrivateKey.from_private_bytes(raw).public_key()))
    running = WitnessProcess(tmp_path / "witness", public).start()
    settings.WITNESS_URL = running.url
    settings.WITNESS_PUBLIC_KEY = str(running.data / "witness-public.pem")
    settings.WITNESS_TIMEOUT = 1.0
    yield running
    running.stop()


def witness_latest(witness) -> int:
    with urllib.request.urlopen(witness.url + "/heads/latest", timeout=5) as answer:
        return json.loads(answer.read())["checkpoint"]["seq"]


def scrape(client) -> dict[str, float]:
    text = client.get("/metrics").content.decode()
    return {
        sample.name: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name.startswith("casino_witness")
    }


def dashboard(client_for) -> str:
    return client_for("auditor").get(reverse("audit:dashboard")).content.decode()


def test_every_checkpoint_is_countersigned_and_kept_beside_the_log(rounds, witness, settings, client_for):
    code, out = run("checkpoint")
    assert code == 0 and "countersigned by the witness (1 sent)" in out
    assert witness_latest(witness) == 1
    receipt = witness_mirror.receipts()[1]
    assert witness_mirror.check_line(receipt) is None
    assert receipt["digest"] == ChainCheck.objects.get(kind="checkpoint", seq=1).digest
    assert run("verify_chain")[0] == 0
    page = dashboard(client_for)
    assert 'data-testid="witness-ok"' in page and 'data-testid="witness-unreachable"' not in page


def test_drill_the_witness_stopped(rounds, witness, staff, tables, logged, client, client_for):
    assert run("checkpoint")[0] == 0
    witness.stop()
    # Rounds are still logged, and checkpoints still written locally: the outage only degrades.
    newer = [logged(tables.ochko, staff.dealer, seed=10 + k) for k in range(2)]
    assert Round.objects.filter(pk__in=[r.pk for r in newer]).count() == 2
    for _ in range(2):
        code, out = run("checkpoint")
        assert code == 0 and "the witness is unreachable (" in out and "sent with the next checkpoint" in out
    assert ChainCheck.objects.filter(kind="checkpoint", ok=True).count() == 3
    page = dashboard(client_for)
    assert 'data-testid="witness-unreachable"' in page and "unreachable since" in page
    assert "2 checkpoints wait to be countersigned" in page
    assert chain_selectors.chain_health()["critical"] == []  # an outage is not a tampering
    figures = scrape(client)
    assert figures["casino_witness_reachable"] == 0
    assert figures["casino_witness_failures_total"] == 2 and figures["casino_witness_backlog"] == 2
    # Verification goes on without it, and says the log was not compared.
    code, out = run("verify_chain")
    assert code == 0 and "could not be reached" in out
    # Back: the next checkpoint sends the backlog first, in order.
    witness.start()
    logged(tables.ochko, staff.dealer, seed=20)
    code, out = run("checkpoint")
    assert code == 0 and "countersigned by the witness (3 sent)" in out
    assert witness_latest(witness) == 4 and sorted(witness_mirror.receipts()) == [1, 2, 3, 4]
    page = dashboard(client_for)
    assert 'data-testid="witness-unreachable"' not in page and "up to checkpoint 4" in page
    figures = scrape(client)
    assert figures["casino_witness_reachable"] == 1 and figures["casino_witness_backlog"] == 0
    assert figures["casino_witness_failures_total"] == 2  # counted, not forgotten
    assert run("verify_chain")[0] == 0


def test_the_demo_floor_and_beats_checkpoints_are_mirrored_and_never_fail_for_the_witness(witness, settings):
    settings.DEBUG = True
    call_command("demo_floor", stdout=Sink(), stderr=Sink())
    assert witness_latest(witness) == ChainCheck.objects.get(kind="checkpoint").seq == 1
    witness.stop()
    assert tasks.chain_checkpoint.apply(throw=True).successful()  # beat's task: the outage is no failure
    assert ChainCheck.objects.filter(kind="checkpoint", ok=True).count() == 2
    witness.start()
    tasks.chain_checkpoint.apply(throw=True)
    assert witness_latest(witness) == 3


def test_drill_the_local_log_cut_fails_verification_because_of_the_witness(
    rounds, witness, staff, tables, logged, settings, client_for
):
    run("checkpoint")
    newest = logged(tables.ochko, staff.dealer, seed=7)
    run("checkpoint")
    # The insider: the newest round deleted, the log's newest line cut, the database's record of the
    # checkpoint and the countersignatures beside the log removed — nothing local is left to tell.
    sql("DELETE FROM dealing_stake WHERE round_id = %s", [newest.pk])
    sql("DELETE FROM dealing_roundaudit WHERE round_id = %s", [newest.pk])
    sql("DELETE FROM dealing_round WHERE id = %s", [newest.pk])
    (path,) = log_files(settings)
    path.write_bytes(path.read_bytes().splitlines(keepends=True)[0])
    ChainCheck.objects.filter(kind="checkpoint", seq=2).delete()
    (settings.CHECKPOINT_DIR / witness_mirror.RECEIPTS_FILE).unlink()
    url = settings.WITNESS_URL
    settings.WITNESS_URL = ""
    assert run("verify_chain")[0] == 0  # without the witness the cut is not seen…
    settings.WITNESS_URL = url
    code, message = run("verify_chain")  # …with it, it fails, naming what is missing
    assert code == 1
    assert f"witness: checkpoint log, link 2: the witness at {url} countersigned checkpoint 2" in message
    assert "the local log ends at checkpoint 1: checkpoint 2 missing (the log was cut or rolled back)" in message
    assert "R-1: dealing_round" in message and "4" in message  # the chain shorter than countersigned
    # The next checkpoint is refused by the witness (another line 2), critical on the dashboard.
    code, out = run("checkpoint")
    assert "the witness refused it: checkpoint 2 differs from the checkpoint 2 countersigned before" in out
    assert [c["what"] for c in chain_selectors.chain_health()["critical"]] == ["witness_refused"]
    assert 'data-what="witness_refused"' in dashboard(client_for)
    assert run("verify_chain")[0] == 1


def test_drill_a_whole_log_restored_from_an_older_backup_is_seen(rounds, witness, staff, tables, logged, settings):
    run("checkpoint")
    (path,) = log_files(settings)
    backup = path.read_bytes()
    for seed in (30, 31):
        logged(tables.ochko, staff.dealer, seed=seed)
        run("checkpoint")
    path.write_bytes(backup)  # the log as it was (the database's rows of 2 and 3 gone with it)
    ChainCheck.objects.filter(kind="checkpoint", seq__gt=1).delete()
    code, message = run("verify_chain")
    assert code == 1 and "checkpoints 2–3 missing" in message


def test_a_forged_witness_answer_is_a_break(rounds, witness, settings, tmp_path):
    run("checkpoint")
    other = tmp_path / "other.pem"
    other.write_bytes(checkpoint_log.public_pem(Ed25519PrivateKey.generate().public_key()))
    settings.WITNESS_PUBLIC_KEY = str(other)  # the key pinned is not the one answering
    code, message = run("verify_chain")
    assert code == 1 and "the witness's newest checkpoint does not verify: it is countersigned by key" in message


@pytest.fixture
def tiny_disk(tmp_path):
    where = tmp_path / f"tiny-{uuid.uuid4().hex[:8]}"
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(where)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    yield where
    subprocess.run(["umount", "-l", str(where)], check=True)


def test_drill_a_full_checkpoint_disk(rounds, witness, settings, tiny_disk, monkeypatch):
    """On a real 16 KiB tmpfs: checkpoints until the disk is full, none half-written, no false alarm
    (the witness agrees); then a tail torn anyway, repaired by the documented command."""
    settings.CHECKPOINT_DIR = tiny_disk
    filler = tiny_disk / "filler"
    filler.write_bytes(b"x" * 8000)
    outcomes = []
    while 1 not in outcomes and len(outcomes) < 40:
        outcomes.append(run("checkpoint")[0])
    assert outcomes.count(0) > 1 and outcomes[-1] == 1
    assert all(path.read_bytes().endswith(b"\n") for path in log_files(settings))
    written = ChainCheck.objects.filter(kind="checkpoint", ok=True).count()
    assert witness_latest(witness) == written  # the witness holds exactly what was recorded
    assert run("verify_chain")[0] == 0
    filler.unlink()
    # A tail torn anyway: ENOSPC after 100 bytes of the line, and even the cut-back fails.
    full_disk_after(monkeypatch, 100)
    monkeypatch.setattr(
        checkpoint_log.os, "ftruncate", lambda *a: (_ for _ in ()).throw(OSError(errno.ENOSPC, "No space"))
    )
    assert run("checkpoint")[0] == 1
    monkeypatch.undo()
    code, message = run("verify_chain")
    assert code == 1 and "is torn" in message and checkpoint_log.REPAIR in message
    code, out = run("checkpoint", "--repair-tail")
    assert code == 0 and "cut the torn last line (100 bytes" in out and f"checkpoint {written + 1} in " in out
    assert "countersigned by the witness" in out
    assert run("verify_chain")[0] == 0  # no false alarm, from the log or from the witness
    assert witness_latest(witness) == written + 1
