"""Mirroring the checkpoints to the witness (`python -m witness`, witness/), and comparing with its copy.

    mirror(seq)     after a checkpoint is appended: posts it to WITNESS_URL (and, when the witness
                    answers that earlier ones must come first, the backlog), checks the
                    countersignature and keeps it beside the log (`witness-receipts.jsonl`). The
                    witness unreachable only degrades: logged, counted (`witness-state.json`, read
                    by /metrics and the dashboard), retried with the next checkpoint.
    witnessed()     the witness's newest countersigned checkpoint, checked: what `verify_chain`
                    compares the local log with — a log cut or rolled back behind it fails.

No Django model here (the layer of dealing.checkpoint_log); HTTP by the standard library, with a
short timeout (WITNESS_TIMEOUT): a checkpoint never waits long for the witness.
"""

import base64
import json
import logging
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from dealing import checkpoint_log
from dealing.chain import CHECKPOINTS, Break, canonical_json

RECEIPTS_FILE = "witness-receipts.jsonl"
STATE_FILE = "witness-state.json"
WITNESS = "witness"  # the name the witness goes by in a report
BACKLOG_PER_CHECKPOINT = 500  # a long outage is caught up over a few checkpoints, each one short

log = logging.getLogger(__name__)

_fetched_keys: dict[str, Ed25519PublicKey] = {}  # by URL, when no key is pinned


class WitnessError(Exception):
    """The witness could not be reached, or answered what is not a countersignature."""


class Refused(Exception):
    """The witness refused a checkpoint (409: backwards, out of order; 403: not signed by a key it
    knows — the checkpoint key was rotated and the witness not told)."""

    def __init__(self, status: int, body: dict):
        super().__init__(body.get("error") or f"HTTP {status}")
        self.status = status
        self.body = body


def _settings():
    from django.conf import settings

    return settings


def configured() -> bool:
    return bool(_settings().WITNESS_URL)


def url() -> str:
    return _settings().WITNESS_URL


def _request(method: str, path: str, body: bytes | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(
        url() + path, data=body, method=method, headers={"Content-Type": "application/json"} if body else {}
    )
    try:
        with urllib.request.urlopen(request, timeout=_settings().WITNESS_TIMEOUT) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        data = error.read()
        if error.code >= 500:
            raise WitnessError(f"HTTP {error.code}: {_error_text(data)}") from None
        return error.code, data
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise WitnessError(str(reason)) from None


def _error_text(data: bytes) -> str:
    try:
        return str(json.loads(data).get("error"))
    except (ValueError, AttributeError):
        return data[:200].decode("utf-8", "replace")


def witness_key() -> tuple[Ed25519PublicKey, bool]:
    """The witness's public key and whether it is pinned (WITNESS_PUBLIC_KEY: a PEM file's path or the
    base64 of the raw 32 bytes); unpinned, the key the witness publishes at GET /key."""
    value = (_settings().WITNESS_PUBLIC_KEY or "").strip()
    if value:
        try:
            path = Path(value)
            if path.is_file():
                key = serialization.load_pem_public_key(path.read_bytes())
            else:
                key = Ed25519PublicKey.from_public_bytes(base64.b64decode(value, validate=True))
        except (OSError, ValueError, TypeError) as exc:
            raise WitnessError(f"WITNESS_PUBLIC_KEY is not an Ed25519 public key ({exc})") from None
        if not isinstance(key, Ed25519PublicKey):
            raise WitnessError("WITNESS_PUBLIC_KEY is not an Ed25519 public key")
        return key, True
    if url() not in _fetched_keys:
        status, data = _request("GET", "/key")
        try:
            key = serialization.load_pem_public_key(data)
        except ValueError:
            key = None
        if status != 200 or not isinstance(key, Ed25519PublicKey):
            raise WitnessError("GET /key did not answer an Ed25519 public key")
        _fetched_keys[url()] = key
    return _fetched_keys[url()], False


def check_line(line: object) -> str | None:
    """None when `line` is a countersignature by the witness's key of a checkpoint signed by a trusted
    checkpoint key, else what is wrong."""
    if not isinstance(line, dict) or not isinstance(line.get("checkpoint"), dict):
        return "the answer is not a countersigned checkpoint"
    key, _pinned = witness_key()
    if line.get("key") != checkpoint_log.fingerprint(key):
        return f"it is countersigned by key {line.get('key')!r}, not the witness's {checkpoint_log.fingerprint(key)}"
    unsigned = {name: value for name, value in line.items() if name != "countersig"}
    try:
        key.verify(base64.b64decode(line.get("countersig") or "", validate=True), canonical_json(unsigned).encode())
    except (InvalidSignature, ValueError, TypeError):
        return "its countersignature does not verify"
    wrong = checkpoint_log.signature_problem(line["checkpoint"])
    if wrong is not None:
        return f"the checkpoint it holds is not the project's: {wrong}"
    if line.get("digest") != checkpoint_log.line_digest(canonical_json(line["checkpoint"]).encode()):
        return "its digest is not the checkpoint's"
    return None


# --- the state the dashboard and /metrics read -----------------------------------------------------


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def state() -> dict:
    """What the latest attempts found: `reachable`, `since` (the first failure of an outage), `error`,
    `failures` (every failed attempt, counted), `refused` (the witness's last refusal, cleared by a
    countersignature), `countersigned` (the newest checkpoint seq it countersigned) and when."""
    empty = {"reachable": True, "since": None, "error": "", "failures": 0, "refused": None, "countersigned": None}
    try:
        found = json.loads((checkpoint_log.directory() / STATE_FILE).read_text())
    except (OSError, ValueError):
        return empty
    return {**empty, **found} if isinstance(found, dict) else empty


def _save_state(changes: dict) -> None:
    """Written to a temporary file and renamed: never half a state; on a full disk the state is left as
    it was (logged) — it is operational, not evidence."""
    where = checkpoint_log.directory() / STATE_FILE
    partial = where.with_name(where.name + ".partial")
    try:
        partial.write_text(json.dumps({**state(), **changes}))
        os.replace(partial, where)
    except OSError as exc:
        log.warning("witness: its state cannot be saved in %s: %s", where.parent, exc.strerror or exc)
        partial.unlink(missing_ok=True)


def _keep_receipt(line: dict) -> None:
    """Keep the countersignature beside the log. A receipt torn by a full disk is cut off first (the
    witness answers the same countersignature again when the checkpoint is sent once more)."""
    path = checkpoint_log.directory() / RECEIPTS_FILE
    raw = canonical_json(line).encode() + b"\n"
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            size = os.fstat(descriptor).st_size
            if size:
                data = os.pread(descriptor, min(size, 1 << 20), max(0, size - (1 << 20)))
                if not data.endswith(b"\n"):
                    size = max(0, size - len(data)) + data.rfind(b"\n") + 1
                    os.ftruncate(descriptor, size)
            try:
                view = memoryview(raw)
                offset = size
                while view:
                    written = os.pwrite(descriptor, view, offset)
                    view, offset = view[written:], offset + written
                os.fsync(descriptor)
            except OSError:
                os.ftruncate(descriptor, size)
                raise
        finally:
            os.close(descriptor)
    except OSError as exc:
        log.warning("witness: the countersignature of checkpoint %s cannot be kept: %s", line["checkpoint"]["seq"], exc)


def receipts() -> dict[int, dict]:
    """The countersignatures kept beside the log, by checkpoint seq."""
    found = {}
    try:
        with open(checkpoint_log.directory() / RECEIPTS_FILE, "rb") as stream:
            for raw in stream:
                try:
                    line = json.loads(raw)
                    found[int(line["checkpoint"]["seq"])] = line
                except (ValueError, KeyError, TypeError):
                    continue
    except OSError:
        pass
    return found


# --- mirroring ---------------------------------------------------------------------------------------


@dataclass
class Mirrored:
    """What mirroring a checkpoint did: how many the witness countersigned now, the newest seq it holds,
    or why not (`error`: unreachable; `refused`: it would not)."""

    sent: int = 0
    countersigned: int | None = None
    error: str | None = None
    refused: str | None = None

    def __str__(self) -> str:
        if self.refused:
            return f"the witness refused it: {self.refused}"
        if self.error:
            return f"the witness is unreachable ({self.error}): it is sent with the next checkpoint"
        return f"countersigned by the witness ({self.sent} sent)"


def _post(raw: bytes) -> dict:
    status, data = _request("POST", "/heads", raw)
    try:
        body = json.loads(data)
    except ValueError:
        raise WitnessError(f"HTTP {status}: the answer is not JSON") from None
    if status in (403, 409):  # the witness's own verdict on this checkpoint
        raise Refused(status, body if isinstance(body, dict) else {})
    if status not in (200, 201):  # a wrong URL, a proxy in the way: not a verdict on the log
        raise WitnessError(f"HTTP {status}: {_error_text(data)}")
    wrong = check_line(body)
    if wrong is not None:
        raise WitnessError(f"the witness's answer does not verify: {wrong}")
    if body.get("digest") != checkpoint_log.line_digest(raw):
        raise WitnessError("the witness countersigned another checkpoint than the one sent")
    _keep_receipt(body)
    return body


def mirror(seq: int) -> Mirrored | None:
    """Send checkpoint `seq` (just appended) to the witness, with the backlog it asks for first; None
    when no witness is configured. Never raises: an outage is logged and counted, and the next
    checkpoint sends what is missing."""
    if not configured():
        return None
    done = Mirrored()
    lines = dict(checkpoint_log.lines_after(seq - 1))
    try:
        if seq not in lines:
            raise WitnessError(f"checkpoint {seq} is not in the local log")
        try:
            done.countersigned = int(_post(lines[seq])["checkpoint"]["seq"])
            done.sent = 1
        except Refused as refused:
            expected = refused.body.get("expected")
            if refused.status != 409 or not isinstance(expected, int) or expected >= seq:
                raise
            # The witness missed checkpoints (its outage): the backlog first, in order, then this one.
            backlog = checkpoint_log.lines_after(expected - 1)
            for number, raw in backlog:
                if number > seq or done.sent >= BACKLOG_PER_CHECKPOINT:
                    break
                done.countersigned = int(_post(raw)["checkpoint"]["seq"])
                done.sent += 1
    except WitnessError as exc:
        done.error = str(exc)
        previous = state()
        log.warning("witness: checkpoint %s not countersigned, the witness at %s is unreachable: %s", seq, url(), exc)
        _save_state(
            {
                "reachable": False,
                "since": previous["since"] if not previous["reachable"] and previous["since"] else _now(),
                "error": done.error,
                "failures": int(previous["failures"]) + 1,
            }
        )
        return done
    except Refused as refused:
        done.refused = str(refused)
        log.critical("witness: the witness at %s refused checkpoint %s: %s", url(), seq, refused)
        _save_state({"reachable": True, "since": None, "error": "", "refused": done.refused})
        return done
    _save_state(
        {
            "reachable": True,
            "since": None,
            "error": "",
            "refused": None,
            "countersigned": done.countersigned,
            "at": _now(),
        }
    )
    return done


# --- comparing -------------------------------------------------------------------------------------


@dataclass
class Witnessed:
    """The witness's newest countersigned checkpoint (`line`), or why there is none to compare with:
    `problem` (an answer that does not verify: a break) or `note` (unreachable, or nothing yet)."""

    line: dict | None = None
    problem: str | None = None
    note: str | None = None

    @property
    def seq(self) -> int | None:
        return None if self.line is None else int(self.line["checkpoint"]["seq"])


def witnessed() -> Witnessed | None:
    """The witness's newest countersigned checkpoint, checked; None when no witness is configured."""
    if not configured():
        return None
    try:
        status, data = _request("GET", "/heads/latest")
        if status == 404:
            return Witnessed(note=f"the witness at {url()} holds no checkpoint yet")
        try:
            line = json.loads(data)
        except ValueError:
            line = None
        if status != 200:
            return Witnessed(note=f"the witness at {url()} answered HTTP {status}")
        wrong = check_line(line)
        _key, pinned = witness_key()
    except WitnessError as exc:
        return Witnessed(
            note=f"the witness at {url()} could not be reached ({exc}): the log was not compared with its copy"
        )
    if wrong is not None:
        return Witnessed(problem=f"the witness's newest checkpoint does not verify: {wrong}")
    found = Witnessed(line=line)
    if not pinned:
        found.note = "WITNESS_PUBLIC_KEY is not set: the witness's key was taken from its own answer"
    return found


def compare(found: Witnessed, log_state: "checkpoint_log.LogState") -> list[Break]:
    """What the local log lacks against the witness's copy: a log that ends before the checkpoint the
    witness countersigned (cut, or rolled back to a backup), or whose line of that seq is another."""
    if found.problem is not None:
        return [Break(WITNESS, CHECKPOINTS, None, None, found.problem)]
    if found.line is None:
        return []
    seq, at = found.seq, found.line["checkpoint"]["at"]
    received = found.line.get("received", "")
    if log_state.last_seq < seq:
        missing = (
            f"checkpoint {seq}" if log_state.last_seq + 1 == seq else f"checkpoints {log_state.last_seq + 1}–{seq}"
        )
        ends = "has no line" if log_state.lines == 0 else f"ends at checkpoint {log_state.last_seq}"
        return [
            Break(
                WITNESS,
                CHECKPOINTS,
                seq,
                None,
                f"the witness at {url()} countersigned checkpoint {seq} of {at} (received {received}), but the "
                f"local log {ends}: {missing} missing (the log was cut or rolled back)",
            )
        ]
    if log_state.digests.get(seq) not in (None, found.line["digest"]):
        return [
            Break(
                WITNESS,
                CHECKPOINTS,
                seq,
                None,
                f"checkpoint {seq} of the local log is not the one the witness at {url()} countersigned "
                f"(the log was rewritten)",
            )
        ]
    return []


def health(local_seq: int | None) -> dict | None:
    """The witness's state for the dashboard and /metrics (None when none is configured): reachable
    or since when not, how many checkpoints of the local log wait to be countersigned (`backlog`),
    failed attempts counted, and the witness's refusal, if any."""
    if not configured():
        return None
    found = state()
    since = found["since"]
    countersigned = found["countersigned"]
    return {
        "url": url(),
        "reachable": bool(found["reachable"]),
        "since": None if not since else datetime.fromisoformat(since),
        "error": found["error"],
        "failures": int(found["failures"]),
        "refused": found["refused"],
        "countersigned": countersigned,
        "backlog": max(0, (local_seq or 0) - (countersigned or 0)),
    }
