"""A witness run as its own process (`python -m witness`), as in production, for the tests and drills:
started, stopped and started again on the same port, its data in a directory of the test's."""

import base64
import hashlib
import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from witness.store import canonical_json, fingerprint

ROOT = Path(__file__).resolve().parents[2]


class WitnessProcess:
    def __init__(self, data: Path, project_public_pem: Path):
        self.data, self.key_path, self.port, self.process = data, project_public_pem, 0, None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "WitnessProcess":
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "witness",
                "--port",
                str(self.port),
                "--data",
                str(self.data),
                "--project-key",
                str(self.key_path),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        line = self.process.stdout.readline()
        if not line.startswith("witness listening on"):
            self.process.kill()
            raise RuntimeError(f"the witness did not start: {line}{self.process.stderr.read()}")
        self.port = int(line.split()[3].rsplit(":", 1)[1])
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None

    def repair_tail(self) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "witness", "--data", str(self.data), "--repair-tail"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout


class Project:
    """Signs checkpoints as the project does (dealing.checkpoint_log), for the witness's own tests."""

    def __init__(self, where: Path):
        self.key = Ed25519PrivateKey.generate()
        self.pem = where / "project-public.pem"
        self.pem.write_bytes(
            self.key.public_key().public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
            )
        )
        self.lines: list[bytes] = []

    def checkpoint(self, heads: dict, *, seq: int | None = None, prev: str | None = None) -> bytes:
        seq = len(self.lines) + 1 if seq is None else seq
        if prev is None:
            prev = hashlib.sha256(self.lines[-1]).hexdigest() if self.lines else ""
        body = {
            "seq": seq,
            "prev": prev,
            "at": datetime.now(UTC).isoformat(timespec="microseconds"),
            "key": fingerprint(self.key.public_key()),
            "heads": heads,
        }
        body["sig"] = base64.b64encode(self.key.sign(canonical_json(body).encode())).decode()
        raw = canonical_json(body).encode()
        self.lines.append(raw)
        return raw


def heads(**chains: tuple[int, str]) -> dict:
    return {name: {"name": name, "count": count, "head": head} for name, (count, head) in chains.items()}


def body(raw: bytes) -> dict:
    return json.loads(raw)
