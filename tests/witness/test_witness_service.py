"""The witness as its own process: it countersigns the project's checkpoints, keeps them append-only,
refuses a head that goes backwards, and survives a torn tail and a full disk (issue #36, items 3-4)."""

import base64
import http.client
import json
import subprocess
import urllib.error
import urllib.request
import uuid

import pytest
from cryptography.hazmat.primitives import serialization

from witness.store import LOG_FILE, canonical_json

from .running import Project, WitnessProcess, heads


def call(witness, method, path, data: bytes | None = None):
    request = urllib.request.Request(witness.url + path, data=data, method=method)
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            raw = answer.read()
            return answer.status, raw if path == "/key" else json.loads(raw)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def countersigned_by(witness, line: dict) -> bool:
    _, pem = call(witness, "GET", "/key")
    key = serialization.load_pem_public_key(pem)
    unsigned = {k: v for k, v in line.items() if k != "countersig"}
    try:
        key.verify(base64.b64decode(line["countersig"]), canonical_json(unsigned).encode())
    except Exception:
        return False
    return True


@pytest.fixture
def project(tmp_path):
    return Project(tmp_path)


@pytest.fixture
def witness(tmp_path, project):
    running = WitnessProcess(tmp_path / "witness-data", project.pem).start()
    yield running
    running.stop()


def test_the_key_is_made_on_first_start_kept_private_and_published(witness, tmp_path):
    status, pem = call(witness, "GET", "/key")
    assert status == 200 and pem.startswith(b"-----BEGIN PUBLIC KEY-----")
    assert (witness.data / "witness-key.pem").stat().st_mode & 0o077 == 0
    witness.stop()
    witness.start()
    assert call(witness, "GET", "/key")[1] == pem  # the same witness after a restart


def test_a_checkpoint_is_countersigned_kept_and_served(witness, project):
    first = project.checkpoint(heads(a=(3, "h3"), approvals=(1, "x1")))
    status, line = call(witness, "POST", "/heads", first)
    assert status == 201 and line["checkpoint"] == json.loads(first) and countersigned_by(witness, line)
    assert call(witness, "POST", "/heads", first) == (200, line)  # sent twice: the same answer, kept once
    second = project.checkpoint(heads(a=(5, "h5"), approvals=(1, "x1")))
    assert call(witness, "POST", "/heads", second)[0] == 201
    status, latest = call(witness, "GET", "/heads/latest")
    assert status == 200 and latest["checkpoint"]["seq"] == 2 and latest["n"] == 2
    assert [h["checkpoint"]["seq"] for h in call(witness, "GET", "/heads?after=1")[1]["heads"]] == [2]
    assert len((witness.data / LOG_FILE).read_bytes().splitlines()) == 2
    witness.stop()
    witness.start()  # what it holds is read back and checked at start
    assert call(witness, "GET", "/heads/latest")[1] == latest
    assert call(witness, "GET", "/healthz") == (200, {"ok": True, "problem": None, "latest": 2, "key": latest["key"]})


def test_what_is_not_the_projects_checkpoint_is_refused(witness, project, tmp_path):
    assert call(witness, "POST", "/heads", b"{not json")[0] == 400
    assert call(witness, "POST", "/heads", b'{"seq": 1}')[0] == 400
    (tmp_path / "insider").mkdir()
    forged = Project(tmp_path / "insider")  # another key: an insider's
    status, answer = call(witness, "POST", "/heads", forged.checkpoint(heads(a=(1, "h"))))
    assert status == 403 and "not a trusted key" in answer["error"]
    edited = json.loads(project.checkpoint(heads(a=(2, "h2"))))
    edited["heads"]["a"]["count"] = 9
    status, answer = call(witness, "POST", "/heads", canonical_json(edited).encode())
    assert status == 403 and "signature does not verify" in answer["error"]
    connection = http.client.HTTPConnection("127.0.0.1", witness.port, timeout=5)
    connection.putrequest("POST", "/heads")
    connection.putheader("Content-Length", "-1")  # would read until the client hangs up
    connection.endheaders()
    assert connection.getresponse().status == 400
    connection.close()
    assert call(witness, "GET", "/heads/latest")[0] == 404  # nothing was kept


def test_a_head_that_goes_backwards_is_refused(witness, project):
    assert call(witness, "POST", "/heads", project.checkpoint(heads(a=(5, "h5"), b=(2, "g2"))))[0] == 201
    held = (witness.data / LOG_FILE).read_bytes()
    shrunk = project.checkpoint(heads(a=(4, "h4"), b=(2, "g2")))
    status, answer = call(witness, "POST", "/heads", shrunk)
    assert status == 409 and "chain a has 4 links, 5 were countersigned" in answer["error"]
    project.lines.pop()
    rewritten = project.checkpoint(heads(a=(5, "other"), b=(2, "g2")))
    status, answer = call(witness, "POST", "/heads", rewritten)
    assert status == 409 and "chain a's head at 5 links is not the one countersigned" in answer["error"]
    project.lines.pop()
    dropped = project.checkpoint(heads(a=(6, "h6")))
    assert "drops chain b" in call(witness, "POST", "/heads", dropped)[1]["error"]
    project.lines.pop()
    # The project's log rolled back and written again: checkpoint 1 is another line now.
    project.lines.clear()
    again = project.checkpoint(heads(a=(7, "h7"), b=(2, "g2")))
    status, answer = call(witness, "POST", "/heads", again)
    assert status == 409 and "differs from the checkpoint 1 countersigned before" in answer["error"]
    unchained = project.checkpoint(heads(a=(8, "h8"), b=(2, "g2")), seq=2, prev="0" * 64)
    assert "does not follow checkpoint 1" in call(witness, "POST", "/heads", unchained)[1]["error"]
    assert (witness.data / LOG_FILE).read_bytes() == held


def test_a_gap_names_the_checkpoint_that_must_come_first(witness, project):
    one = project.checkpoint(heads(a=(1, "h1")))
    two = project.checkpoint(heads(a=(2, "h2")))
    three = project.checkpoint(heads(a=(3, "h3")))
    assert call(witness, "POST", "/heads", one)[0] == 201
    assert call(witness, "POST", "/heads", three) == (
        409,
        {"error": "checkpoints 2–2 come first", "expected": 2, "latest": 1},
    )
    assert [call(witness, "POST", "/heads", raw)[0] for raw in (two, three)] == [201, 201]


def test_a_torn_tail_stops_appends_until_repaired(witness, project):
    assert call(witness, "POST", "/heads", project.checkpoint(heads(a=(1, "h1"))))[0] == 201
    whole = (witness.data / LOG_FILE).read_bytes()
    witness.stop()
    (witness.data / LOG_FILE).write_bytes(whole + b'{"n":2,"prev":"ab')  # power lost mid-write
    witness.start()
    status, answer = call(witness, "POST", "/heads", project.checkpoint(heads(a=(2, "h2"))))
    assert status == 503 and "line 2 of heads.jsonl is torn" in answer["error"] and "--repair-tail" in answer["error"]
    assert call(witness, "GET", "/heads/latest")[1]["checkpoint"]["seq"] == 1  # reads go on
    assert call(witness, "GET", "/healthz")[0] == 503
    witness.stop()
    assert "cut the torn last line (17 bytes" in witness.repair_tail()
    assert (witness.data / LOG_FILE).read_bytes() == whole
    witness.start()
    assert call(witness, "POST", "/heads", project.lines[-1])[0] == 201
    assert "nothing to repair" in witness.repair_tail()


def test_a_repair_keeps_a_whole_line_that_only_lost_its_newline(witness, project):
    for count in (1, 2):
        call(witness, "POST", "/heads", project.checkpoint(heads(a=(count, f"h{count}"))))
    witness.stop()
    whole = (witness.data / LOG_FILE).read_bytes()
    (witness.data / LOG_FILE).write_bytes(whole[:-1])
    assert "the newline was added" in witness.repair_tail()
    assert (witness.data / LOG_FILE).read_bytes() == whole


@pytest.fixture
def tiny_disk(tmp_path):
    """A 64 KiB tmpfs (root only; skipped elsewhere)."""
    where = tmp_path / f"tiny-{uuid.uuid4().hex[:8]}"
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    yield where
    subprocess.run(["umount", "-l", str(where)], check=True)


def test_on_a_really_full_disk_the_witness_records_nothing_half(tiny_disk, project):
    witness = WitnessProcess(tiny_disk / "data", project.pem).start()
    try:
        (tiny_disk / "filler").write_bytes(b"x" * (64 * 1024 - 4096 * 3))
        many = heads(**{f"t{k}": (1, "a" * 64) for k in range(8)})
        statuses = []
        while 507 not in statuses and len(statuses) < 200:
            statuses.append(call(witness, "POST", "/heads", project.checkpoint(many))[0])
        assert statuses.count(201) > 1 and statuses[-1] == 507
        assert call(witness, "POST", "/heads", project.lines[-1])[1]["error"].startswith(
            "the witness's log cannot be written: No space left on device; nothing was recorded"
        )
        log = (witness.data / LOG_FILE).read_bytes()
        assert log.endswith(b"\n") and len(log.splitlines()) == statuses.count(201)
        (tiny_disk / "filler").unlink()
        assert call(witness, "POST", "/heads", project.lines[-1])[0] == 201  # space again: it goes on
        witness.stop()
        witness.start()
        assert call(witness, "GET", "/healthz")[1]["ok"] is True  # no false alarm after the restart
    finally:
        witness.stop()
