"""The checkpoint log: signed heads of every chain, appended to files outside the database.

One JSON line per checkpoint, in `CHECKPOINT_DIR/checkpoints-YYYY-MM-DD.jsonl` (a file a day, UTC):

    {"seq": 41, "prev": "<sha256 of line 40>", "at": "2026-12-02T08:00:00.000000+00:00",
     "key": "<fingerprint of the signing key>",
     "heads": {"<table id>": {"name": "R-1", "count": 1200, "head": "<link 1199>"}, …,
               "approvals": {"name": "approvals", "count": 7, "head": "<approval link 6>"}},
     "verified": {"new": {"ok": true, "links": 12, "breaks": []},
                  "full": {"ok": true, "at": "…", "records": 1207, "breaks": []} or null},
     "sig": "<base64 Ed25519 signature of the line without sig, as canonical JSON>"}

Lines are numbered and chained (`seq`, `prev`), so a line removed or edited, or a file deleted,
shows; the signature (Ed25519, `cryptography`) needs the private key, which never is in the
database nor, outside development, in this directory. Appends are serialised by a lock file and
recorded only once they are on disk and read back: written whole, fsync'd (the directory too, for a
new file), re-read and their signature checked. A write that fails part-way (a full disk) is cut
back off at once; a tail torn anyway (the machine lost power mid-write) stops later appends until
`manage.py checkpoint --repair-tail` (`repair_tail`) removes it.

No Django model here (the layer of dealing.chain): the services write and the verifier reads.
"""

import base64
import fcntl
import hashlib
import json
import os
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from dealing.chain import CHECKPOINTS, Break, Head, canonical_json

FILE_GLOB = "checkpoints-*.jsonl"
PUBLIC_KEY_FILE = "checkpoint-public-{fingerprint}.pem"
DEV_KEY_FILE = "checkpoint-signing-dev.pem"
LOCK_FILE = ".checkpoint.lock"
LOG = "checkpoints"  # the name the log goes by in a report
REPAIR = "manage.py checkpoint --repair-tail"


class CheckpointError(Exception):
    """A checkpoint that cannot be written (or a signing key that cannot be read): the message says why."""


def _settings():
    from django.conf import settings

    return settings


def directory() -> Path:
    return Path(_settings().CHECKPOINT_DIR)


def expected() -> bool:
    """Whether checkpoints must exist: a signing or a public key is configured. A development key lives
    in the directory itself, so whoever deletes the log deletes it too: without a configured key,
    a missing log can only be noted."""
    settings = _settings()
    return bool((settings.CHECKPOINT_SIGNING_KEY or "").strip() or (settings.CHECKPOINT_PUBLIC_KEY or "").strip())


def fingerprint(public: Ed25519PublicKey) -> str:
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def public_pem(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


def signing_key(*, create: bool = True) -> Ed25519PrivateKey | None:
    """The private key checkpoints are signed with: CHECKPOINT_SIGNING_KEY (a PEM file's path or the
    base64 of the raw 32 bytes); unset, with CHECKPOINT_DEV_KEY, a key generated in the directory
    (`create`), else None."""
    settings = _settings()
    value = (settings.CHECKPOINT_SIGNING_KEY or "").strip()
    if value:
        path = Path(value)
        try:
            if path.is_file():
                key = serialization.load_pem_private_key(path.read_bytes(), password=None)
            else:
                key = Ed25519PrivateKey.from_private_bytes(base64.b64decode(value, validate=True))
        except (OSError, ValueError, TypeError) as exc:
            raise CheckpointError(
                f"CHECKPOINT_SIGNING_KEY is neither a readable Ed25519 PEM file nor the base64 "
                f"of a raw 32-byte Ed25519 key ({exc})."
            ) from None
        if not isinstance(key, Ed25519PrivateKey):
            raise CheckpointError("CHECKPOINT_SIGNING_KEY is not an Ed25519 private key.")
        return key
    if not settings.CHECKPOINT_DEV_KEY:
        return None
    path = directory() / DEV_KEY_FILE
    if path.is_file():
        return serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not create:
        return None
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as out:
            out.write(pem)
    except FileExistsError:
        return serialization.load_pem_private_key(path.read_bytes(), password=None)
    except OSError as exc:
        raise CheckpointError(f"The checkpoint directory {path.parent} cannot be written: {exc.strerror}.") from None
    return key


def trusted_keys() -> dict[str, Ed25519PublicKey]:
    """The public keys a verifier trusts, by fingerprint: CHECKPOINT_PUBLIC_KEY (PEM paths, comma-
    separated) and the signing key's own; only without either, the ones written next to the log."""
    settings = _settings()
    keys: dict[str, Ed25519PublicKey] = {}
    for item in (settings.CHECKPOINT_PUBLIC_KEY or "").split(","):
        if item.strip():
            try:
                key = serialization.load_pem_public_key(Path(item.strip()).read_bytes())
            except (OSError, ValueError) as exc:
                raise CheckpointError(f"CHECKPOINT_PUBLIC_KEY {item.strip()} cannot be read: {exc}.") from None
            if isinstance(key, Ed25519PublicKey):
                keys[fingerprint(key)] = key
    try:
        private = signing_key(create=False)
    except CheckpointError:
        private = None
    if private is not None:
        keys[fingerprint(private.public_key())] = private.public_key()
    if not keys:
        for path in sorted(directory().glob(PUBLIC_KEY_FILE.format(fingerprint="*"))):
            try:
                key = serialization.load_pem_public_key(path.read_bytes())
            except (OSError, ValueError):
                continue
            if isinstance(key, Ed25519PublicKey):
                keys[fingerprint(key)] = key
    return keys


def _files(where: Path) -> list[Path]:
    return sorted(where.glob(FILE_GLOB))


def _last_line(path: Path) -> bytes | None:
    last = None
    with open(path, "rb") as stream:
        for line in stream:
            if line.strip():
                last = line
    return last


def torn(raw: bytes) -> bool:
    """A line without its newline: only a write that stopped part-way leaves one (every append ends
    with the newline), so it can only be the last line of a file."""
    return not raw.endswith(b"\n")


def _parse(raw: bytes) -> dict:
    """A line of the log as a checkpoint (its `seq` a number, its `heads` a mapping), as signed;
    ValueError when it is not one."""
    try:
        body = json.loads(raw)
        int(body["seq"])
        body["heads"].items()
    except (ValueError, KeyError, TypeError, AttributeError):
        raise ValueError("not a checkpoint") from None
    return body


def line_digest(raw: bytes) -> str:
    return hashlib.sha256(raw.rstrip(b"\n")).hexdigest()


def _write_public(where: Path, public: Ed25519PublicKey) -> None:
    """The public key next to the log, written whole or not at all (a temporary file renamed): a key
    file cut short by a full disk would never be rewritten."""
    path = where / PUBLIC_KEY_FILE.format(fingerprint=fingerprint(public))
    if path.exists():
        return
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_bytes(public_pem(public))
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def _fsync_directory(where: Path) -> None:
    directory_fd = os.open(where, os.O_RDONLY)
    try:
        os.fsync(directory_fd)
    finally:
        os.close(directory_fd)


def _write_line(path: Path, raw: bytes, public: Ed25519PublicKey) -> None:
    """Append `raw` and a newline to `path`, all of it on disk and read back as the signed line it is,
    or nothing: the file is cut back to its size before (OSError, CheckpointError)."""
    new = not path.exists()
    descriptor = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        start = os.fstat(descriptor).st_size
        try:
            data = memoryview(raw + b"\n")
            while data:  # a write may store fewer bytes than asked (a disk filling up)
                data = data[os.write(descriptor, data) :]
            os.fsync(descriptor)
            back = os.pread(descriptor, len(raw) + 2, start)
            if back != raw + b"\n" or _signed(_parse(back), {fingerprint(public): public}) is not None:
                raise CheckpointError(f"The checkpoint written to {path} does not read back as written.")
        except (OSError, ValueError, CheckpointError):
            _cut(descriptor, start)
            raise
    finally:
        os.close(descriptor)
    if new:
        _fsync_directory(path.parent)


def _cut(descriptor: int, size: int) -> None:
    """Take a failed append back off its file; if even that fails, the torn tail is left for
    `repair_tail`, and appends stop until then."""
    try:
        os.ftruncate(descriptor, size)
        os.fsync(descriptor)
    except OSError:
        pass


def append(heads: dict[str, dict], *, at, verified: dict | None = None) -> tuple[int, str, Path]:
    """Sign `heads` (by chain: {"name", "count", "head"}) — and `verified`, what the verification of
    the chains found, when given — and append them as the next line of the log; returns (seq, the
    line's sha256, the file). Raises CheckpointError when it cannot — and then nothing was appended."""
    where = directory()
    key = signing_key()
    if key is None:
        raise CheckpointError("CHECKPOINT_SIGNING_KEY is not set: no checkpoint can be signed.")
    try:
        where.mkdir(parents=True, exist_ok=True)
        public = key.public_key()
        _write_public(where, public)
        with open(where / LOCK_FILE, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            seq, prev = 1, ""
            for path in reversed(_files(where)):
                raw = _last_line(path)
                if raw is not None:
                    if torn(raw):
                        raise CheckpointError(
                            f"The last line of {path} was torn by a write that stopped part-way "
                            f"(a full disk?): repair it with `{REPAIR}` before it is appended to."
                        )
                    try:
                        seq = int(_parse(raw)["seq"]) + 1
                    except ValueError:
                        raise CheckpointError(
                            f"The last line of {path} is not a checkpoint: "
                            "the log must be repaired before it is appended to."
                        ) from None
                    prev = line_digest(raw)
                    break
            body = {
                "seq": seq,
                "prev": prev,
                "at": at.isoformat(timespec="microseconds"),
                "key": fingerprint(public),
                "heads": heads,
            }
            if verified is not None:
                body["verified"] = verified
            body["sig"] = base64.b64encode(key.sign(canonical_json(body).encode("utf-8"))).decode("ascii")
            raw = canonical_json(body).encode("utf-8")
            path = where / f"checkpoints-{at.strftime('%Y-%m-%d')}.jsonl"
            _write_line(path, raw, public)
    except OSError as exc:
        raise CheckpointError(
            f"The checkpoint directory {where} cannot be written: {exc.strerror or exc}. Nothing was recorded."
        ) from None
    return seq, line_digest(raw), path


@dataclass
class Repair:
    """What `repair_tail` did: the file, how many bytes it cut (0: none), whether the tail was a whole
    signed checkpoint that only lacked its newline (then it is kept and the newline added)."""

    path: Path | None = None
    cut: int = 0
    completed: bool = False

    def __str__(self) -> str:
        if self.path is None or (not self.cut and not self.completed):
            return "the checkpoint log ends with a whole line: nothing to repair"
        if self.completed:
            return f"{self.path.name}: the last line was a whole signed checkpoint without its newline; the newline was added"
        return f"{self.path.name}: cut the torn last line ({self.cut} bytes, not a signed checkpoint)"


def repair_tail() -> Repair:
    """Remove the torn end of the log's newest file — the bytes after its last newline — once it is
    confirmed not to be a whole checkpoint signed by a trusted key (one that only lost its newline
    gets it back). A checkpoint that verifies is never removed; an ordinary line is never touched."""
    where = directory()
    keys = trusted_keys()
    try:
        with open(where / LOCK_FILE, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            for path in reversed(_files(where)):
                data = path.read_bytes()
                if not data.strip():
                    continue
                if data.endswith(b"\n"):
                    return Repair(path)
                keep = data.rfind(b"\n") + 1
                tail = data[keep:]
                try:
                    whole = _signed(_parse(tail), keys) is None
                except ValueError:
                    whole = False
                descriptor = os.open(path, os.O_RDWR)
                try:
                    if whole:
                        os.lseek(descriptor, 0, os.SEEK_END)
                        os.write(descriptor, b"\n")
                    else:
                        os.ftruncate(descriptor, keep)
                    os.fsync(descriptor)
                finally:
                    os.close(descriptor)
                return Repair(path, cut=0 if whole else len(tail), completed=whole)
    except OSError as exc:
        raise CheckpointError(f"The checkpoint log in {where} cannot be repaired: {exc.strerror or exc}.") from None
    return Repair()


def _signed(body: dict, keys: dict[str, Ed25519PublicKey]) -> str | None:
    """None when the line's signature verifies, else what is wrong."""
    key = keys.get(body.get("key"))
    if key is None:
        return f"it is signed by key {body.get('key')!r}, which is not a trusted checkpoint key"
    unsigned = {name: value for name, value in body.items() if name != "sig"}
    try:
        key.verify(base64.b64decode(body.get("sig") or "", validate=True), canonical_json(unsigned).encode("utf-8"))
    except (InvalidSignature, ValueError):
        return "its signature does not verify (the line was edited)"
    return None


@dataclass
class LogState:
    """What reading the whole log found: its first problem, the last line whose signature verifies
    (its heads), how many lines, the digest of each seq asked for (`want`)."""

    problem: Break | None = None
    last: dict | None = None
    last_seq: int = 0
    lines: int = 0
    files: int = 0
    digests: dict[int, str] = field(default_factory=dict)

    def heads(self) -> dict[str, Head]:
        if self.last is None:
            return {}
        return {chain: Head(int(h["count"]), h["head"], self.last["at"]) for chain, h in self.last["heads"].items()}


def _lines(where: Path) -> Iterator[tuple[Path, int, bytes]]:
    for path in _files(where):
        with open(path, "rb") as stream:
            for number, raw in enumerate(stream, 1):
                if raw.strip():
                    yield path, number, raw


def read(*, want: int | Collection[int] | None = None) -> LogState:
    """Read and check the whole log, line by line (memory stays flat): signatures, numbering, chaining;
    the digests of the lines of `want` (a seq, or several)."""
    wanted = {want} if isinstance(want, int) else set(want or ())
    where = directory()
    state = LogState(files=len(_files(where)))
    keys = trusted_keys()

    def fail(seq, problem):
        if state.problem is None:
            state.problem = Break(LOG, CHECKPOINTS, seq, None, problem)

    prev_seq, prev_digest = 0, ""
    for path, number, raw in _lines(where):
        state.lines += 1
        try:
            body = _parse(raw)
        except ValueError:
            if torn(raw):
                fail(
                    None,
                    f"line {number} of {path.name} is torn (a write stopped part-way: a full disk?); "
                    f"checkpoints stop until `{REPAIR}` removes it",
                )
            else:
                fail(None, f"line {number} of {path.name} is not a checkpoint")
            continue
        seq = int(body["seq"])
        wrong = _signed(body, keys)
        if wrong is not None:
            fail(seq, f"checkpoint {seq} ({path.name}, line {number}): {wrong}")
            continue
        if seq != prev_seq + 1:
            if seq <= prev_seq:
                fail(seq, f"checkpoint {seq} ({path.name}, line {number}) comes after checkpoint {prev_seq}")
            else:
                gap = prev_seq + 1 if seq == prev_seq + 2 else f"{prev_seq + 1}–{seq - 1}"
                fail(
                    prev_seq + 1,
                    f"checkpoint {gap} is missing before {path.name}, line {number} "
                    "(a line was removed or a file deleted)",
                )
        elif body.get("prev") != prev_digest:
            fail(seq, f"checkpoint {seq} ({path.name}, line {number}) does not follow the line before it")
        digest = line_digest(raw)
        if seq in wanted:
            state.digests[seq] = digest
        prev_seq, prev_digest = seq, digest
        state.last, state.last_seq = body, seq
    return state


def lines_after(seq: int) -> Iterator[tuple[int, bytes]]:
    """The log's lines of checkpoints after `seq`, as written (seq, the line without its newline), in
    order: what is sent on to the witness. A line that is not a checkpoint is left out. Only the
    newest files are read — from the one whose first line is at or before `seq` + 1 — not a year of
    them at every checkpoint."""
    files = []
    for path in reversed(_files(directory())):
        files.insert(0, path)
        first = _first_seq(path)
        if first is not None and first <= seq + 1:
            break
    for path in files:
        with open(path, "rb") as stream:
            for raw in stream:
                try:
                    body = _parse(raw)
                except ValueError:
                    continue
                if int(body["seq"]) > seq and not torn(raw):
                    yield int(body["seq"]), raw.rstrip(b"\n")


def _first_seq(path: Path) -> int | None:
    """The seq of a file's first checkpoint (None when it has none: the files before are read too)."""
    with open(path, "rb") as stream:
        for raw in stream:
            try:
                return int(_parse(raw)["seq"])
            except ValueError:
                continue
    return None


def signature_problem(body: dict) -> str | None:
    """None when a checkpoint (a line of this log, or the copy a witness holds) is signed by a
    trusted key, else what is wrong."""
    return _signed(body, trusted_keys())


def latest() -> tuple[dict | None, str | None]:
    """The newest line of the log and None, or (None, what is wrong with it): a cheap check for a
    page (its signature only; `read` checks the whole log)."""
    for path in reversed(_files(directory())):
        raw = _last_line(path)
        if raw is None:
            continue
        try:
            body = _parse(raw)
        except ValueError:
            return None, f"the last line of {path.name} is not a checkpoint"
        try:
            wrong = _signed(body, trusted_keys())
        except CheckpointError as exc:
            return None, str(exc)
        return (body, None) if wrong is None else (None, f"checkpoint {body.get('seq')}: {wrong}")
    return None, None
