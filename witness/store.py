"""The witness's own storage: its Ed25519 key and an append-only log of the checkpoints it countersigned.

In the data directory (`--data`):

    witness-key.pem          the witness's private key, generated on first start (0600)
    witness-public.pem       its public half, also served at GET /key
    heads.jsonl              one JSON line per countersigned checkpoint:

    {"n": 7, "prev": "<sha256 of line 6>", "received": "2026-12-05T08:00:00.000000+00:00",
     "digest": "<sha256 of the project's checkpoint line>", "checkpoint": {…the project's signed line…},
     "key": "<the witness key's fingerprint>", "countersig": "<base64 Ed25519 over the line without it>"}

A line is appended whole, fsync'd and read back, or the file is cut back to its size before (a full
disk answers "nothing recorded"). A tail torn anyway (power lost mid-write) stops appends until
`python -m witness --data DIR --repair-tail` removes it — as the project's own checkpoint log.

Nothing of the project is imported: the witness runs on another host, with its own disk, and only
knows the project's checkpoint public key(s).
"""

import base64
import fcntl
import hashlib
import json
import os
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

KEY_FILE = "witness-key.pem"
PUBLIC_FILE = "witness-public.pem"
LOG_FILE = "heads.jsonl"
LOCK_FILE = ".witness.lock"
REPAIR = "python -m witness --data DIR --repair-tail"


def canonical_json(value) -> str:
    """The text a line is signed as: the project signs its checkpoints the same way
    (`dealing.chain.canonical_json`), so the witness verifies the very bytes the project wrote."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def fingerprint(public: Ed25519PublicKey) -> str:
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def public_pem(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


def digest(raw: bytes) -> str:
    return hashlib.sha256(raw.rstrip(b"\n")).hexdigest()


def load_public_keys(paths: list[str]) -> dict[str, Ed25519PublicKey]:
    """The project's checkpoint public keys (PEM files), by fingerprint."""
    keys = {}
    for item in paths:
        key = serialization.load_pem_public_key(Path(item).read_bytes())
        if not isinstance(key, Ed25519PublicKey):
            raise ValueError(f"{item} is not an Ed25519 public key")
        keys[fingerprint(key)] = key
    return keys


def verify(body: dict, keys: dict[str, Ed25519PublicKey], *, key_field: str, sig_field: str) -> str | None:
    """None when `body[sig_field]` is a signature, by the key `body[key_field]` names, of the body
    without it; else what is wrong."""
    key = keys.get(body.get(key_field))
    if key is None:
        return f"it is signed by key {body.get(key_field)!r}, which is not a trusted key"
    unsigned = {name: value for name, value in body.items() if name != sig_field}
    try:
        key.verify(base64.b64decode(body.get(sig_field) or "", validate=True), canonical_json(unsigned).encode())
    except (InvalidSignature, ValueError, TypeError):
        return "its signature does not verify"
    return None


class Refused(Exception):
    """A checkpoint the witness will not countersign: `status` is the HTTP answer, the message says why."""

    def __init__(self, status: int, message: str, **extra):
        super().__init__(message)
        self.status = status
        self.extra = extra


def _fsync_directory(where: Path) -> None:
    descriptor = os.open(where, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


@dataclass
class Repair:
    cut: int = 0
    completed: bool = False

    def __str__(self) -> str:
        if self.completed:
            return "the last line was a whole countersigned checkpoint without its newline; the newline was added"
        if self.cut:
            return f"cut the torn last line ({self.cut} bytes, not a countersigned checkpoint)"
        return "the log ends with a whole line: nothing to repair"


class Store:
    """The witness's log, held in memory as the latest line and each checkpoint seq's digest (a line
    a year every five minutes is ~105,000 digests: a few MB)."""

    def __init__(self, data: Path, project_keys: dict[str, Ed25519PublicKey]):
        self.data = Path(data)
        self.project_keys = project_keys
        self.lock = threading.Lock()
        self.data.mkdir(parents=True, exist_ok=True)
        self.key = self._key()
        self.public = self.key.public_key()
        self.fingerprint = fingerprint(self.public)
        self.path = self.data / LOG_FILE
        self._load()

    # --- the key -----------------------------------------------------------------------------

    def _key(self) -> Ed25519PrivateKey:
        path = self.data / KEY_FILE
        if not path.is_file():
            key = Ed25519PrivateKey.generate()
            pem = key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
            try:
                descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(descriptor, "wb") as out:
                    out.write(pem)
                    out.flush()
                    os.fsync(out.fileno())
                _fsync_directory(self.data)
            except FileExistsError:
                pass
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError(f"{path} is not an Ed25519 private key")
        public = self.data / PUBLIC_FILE
        if not public.is_file():
            partial = public.with_name(public.name + ".partial")
            partial.write_bytes(public_pem(key.public_key()))
            os.replace(partial, public)
        return key

    # --- reading -----------------------------------------------------------------------------

    def _lines(self):
        if not self.path.exists():
            return
        with open(self.path, "rb") as stream:
            for raw in stream:
                if raw.strip():
                    yield raw

    def _load(self) -> None:
        """Read the whole log: each line's countersignature, numbering and chaining. A problem stops
        appends (`self.problem`); reads go on."""
        self.latest: dict | None = None
        self.latest_digest = ""
        self.digests: dict[int, str] = {}
        self.problem: str | None = None
        mine = {self.fingerprint: self.public}
        number = 0
        for raw in self._lines():
            number += 1
            if not raw.endswith(b"\n"):
                self.problem = (
                    f"line {number} of {LOG_FILE} is torn (a write stopped part-way: a full disk?); "
                    f"appends stop until `{REPAIR}` removes it"
                )
                break
            try:
                line = json.loads(raw)
                wrong = verify(line, mine, key_field="key", sig_field="countersig")
            except (ValueError, AttributeError):
                wrong = "it is not a countersigned checkpoint"
            if wrong is None and (line.get("n") != number or line.get("prev") != self.latest_digest):
                wrong = "it does not follow the line before it (a line was removed)"
            if wrong is not None:
                self.problem = f"line {number} of {LOG_FILE}: {wrong}"
                break
            self.digests[int(line["checkpoint"]["seq"])] = line["digest"]
            self.latest, self.latest_digest = line, digest(raw)

    def after(self, seq: int, limit: int = 1000) -> list[dict]:
        found = []
        for raw in self._lines():
            try:
                line = json.loads(raw)
            except ValueError:
                continue
            if int(line["checkpoint"]["seq"]) > seq:
                found.append(line)
                if len(found) >= limit:
                    break
        return found

    def _held(self, seq: int) -> dict | None:
        for raw in self._lines():
            line = json.loads(raw)
            if int(line["checkpoint"]["seq"]) == seq:
                return line
        return None

    # --- countersigning ----------------------------------------------------------------------

    def countersign(self, checkpoint: object) -> tuple[dict, bool]:
        """Countersign and append the project's checkpoint line; (the witness's line, whether it is
        new). A checkpoint already held is answered with its line again (a backlog sent twice).
        Raises Refused."""
        if not isinstance(checkpoint, dict):
            raise Refused(400, "the body must be a checkpoint: a JSON object")
        try:
            seq = int(checkpoint["seq"])
            heads = checkpoint["heads"]
            if isinstance(checkpoint["seq"], bool) or seq < 1 or not isinstance(heads, dict):
                raise ValueError
            for head in heads.values():
                int(head["count"]), str(head["head"])
        except (KeyError, ValueError, TypeError):
            raise Refused(400, "the checkpoint needs a whole positive 'seq' and 'heads' of {count, head}") from None
        wrong = verify(checkpoint, self.project_keys, key_field="key", sig_field="sig")
        if wrong is not None:
            raise Refused(403, f"checkpoint {seq} is not the project's: {wrong}")
        his = hashlib.sha256(canonical_json(checkpoint).encode()).hexdigest()
        with self.lock, open(self.data / LOCK_FILE, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            held = self.digests.get(seq)
            if held is not None:
                if held != his:
                    raise Refused(
                        409,
                        f"checkpoint {seq} differs from the checkpoint {seq} countersigned before "
                        "(the project's log was rolled back or rewritten)",
                        latest=self._latest_seq(),
                    )
                return self._held(seq), False
            if self.problem is not None:
                raise Refused(503, self.problem)
            latest = self.latest
            if latest is not None:
                last = int(latest["checkpoint"]["seq"])
                if seq < last:
                    raise Refused(
                        409,
                        f"checkpoint {seq} goes backwards: checkpoint {last} was countersigned already",
                        latest=last,
                    )
                if seq > last + 1:
                    raise Refused(409, f"checkpoints {last + 1}–{seq - 1} come first", expected=last + 1, latest=last)
                if checkpoint.get("prev") != latest["digest"]:
                    raise Refused(
                        409,
                        f"checkpoint {seq} does not follow checkpoint {last} as countersigned "
                        "(the project's log was rewritten)",
                        latest=last,
                    )
                self._forward_only(latest["checkpoint"]["heads"], heads, seq)
            line = {
                "n": (latest or {}).get("n", 0) + 1,
                "prev": self.latest_digest,
                "received": datetime.now(UTC).isoformat(timespec="microseconds"),
                "digest": his,
                "checkpoint": checkpoint,
                "key": self.fingerprint,
            }
            line["countersig"] = base64.b64encode(self.key.sign(canonical_json(line).encode())).decode()
            raw = canonical_json(line).encode()
            self._write(raw)
            self.digests[seq] = his
            self.latest, self.latest_digest = line, digest(raw)
            return line, True

    @staticmethod
    def _forward_only(before: dict, now: dict, seq: int) -> None:
        for chain, then in before.items():
            head = now.get(chain)
            name = then.get("name", chain)
            if head is None:
                raise Refused(409, f"checkpoint {seq} drops chain {name}, countersigned at {then['count']} links")
            if int(head["count"]) < int(then["count"]):
                raise Refused(
                    409,
                    f"checkpoint {seq}: chain {name} has {head['count']} links, "
                    f"{then['count']} were countersigned (its newest links were removed)",
                )
            if int(head["count"]) == int(then["count"]) and head["head"] != then["head"]:
                raise Refused(
                    409,
                    f"checkpoint {seq}: chain {name}'s head at {then['count']} links is not the one countersigned "
                    "(the chain was rewritten)",
                )

    def _latest_seq(self) -> int | None:
        return None if self.latest is None else int(self.latest["checkpoint"]["seq"])

    def _write(self, raw: bytes) -> None:
        """Append `raw` and a newline, all of it on disk and read back, or nothing (Refused 507)."""
        new = not self.path.exists()
        try:
            descriptor = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise Refused(507, f"the witness's log cannot be opened: {exc.strerror}; nothing was recorded") from None
        try:
            start = os.fstat(descriptor).st_size
            try:
                data = memoryview(raw + b"\n")
                while data:
                    data = data[os.write(descriptor, data) :]
                os.fsync(descriptor)
                if os.pread(descriptor, len(raw) + 2, start) != raw + b"\n":
                    raise OSError(0, "the line does not read back as written")
            except OSError as exc:
                try:
                    os.ftruncate(descriptor, start)
                    os.fsync(descriptor)
                except OSError:
                    self.problem = f"a write stopped part-way and could not be taken back; run `{REPAIR}`"
                raise Refused(
                    507, f"the witness's log cannot be written: {exc.strerror or exc}; nothing was recorded"
                ) from None
        finally:
            os.close(descriptor)
        if new:
            _fsync_directory(self.data)

    def repair_tail(self) -> Repair:
        """Remove the bytes after the log's last newline unless they are a whole line countersigned by
        this witness (which only lost its newline: it gets it back)."""
        with self.lock, open(self.data / LOCK_FILE, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not self.path.exists():
                return Repair()
            data = self.path.read_bytes()
            if not data or data.endswith(b"\n"):
                return Repair()
            keep = data.rfind(b"\n") + 1
            tail = data[keep:]
            try:
                whole = (
                    verify(json.loads(tail), {self.fingerprint: self.public}, key_field="key", sig_field="countersig")
                    is None
                )
            except (ValueError, AttributeError):
                whole = False
            descriptor = os.open(self.path, os.O_RDWR)
            try:
                if whole:
                    os.lseek(descriptor, 0, os.SEEK_END)
                    os.write(descriptor, b"\n")
                else:
                    os.ftruncate(descriptor, keep)
                os.fsync(descriptor)
            finally:
                os.close(descriptor)
        self._load()
        return Repair(cut=0 if whole else len(tail), completed=whole)
