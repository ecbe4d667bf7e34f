"""The game math's figures kept on disk beside each process's own cache, so that what one process
solved another reads instead of solving it again: a restarted server, each of gunicorn's workers
without `--preload`, each of the test suite's processes.

`kept(maxsize)` is `functools.lru_cache(maxsize)` over a look-up in GAMEMATH_FIGURES_DIR (off when
the setting is empty). A figure's file is named by the function, its arguments and digests of the
engine's source (`dealing/engine`, every .py file) and of the function's own module: an edit of
either makes the figure new. Written whole (a temporary file renamed over), signed with the
project's SECRET_KEY (a file that fails its signature is solved again, never unpickled), and solved
once however many processes ask at the same moment: the first takes the figure's lock file and
solves, the others wait on it and read.
"""

import fcntl
import functools
import hashlib
import hmac
import logging
import os
import pickle
import sys
import tempfile
from pathlib import Path

from django.conf import settings
from django.utils.crypto import salted_hmac

log = logging.getLogger(__name__)

ENGINE = Path(__file__).resolve().parent.parent / "engine"
_SALT = "dealing.games.figures"


@functools.cache
def engine_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(ENGINE.rglob("*.py")):
        digest.update(path.relative_to(ENGINE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _directory() -> Path | None:
    return Path(settings.GAMEMATH_FIGURES_DIR) if settings.GAMEMATH_FIGURES_DIR else None


@functools.cache
def _module_digest(module: str) -> str:
    return hashlib.sha256(Path(sys.modules[module].__file__).read_bytes()).hexdigest()


def _name(fn, args: tuple, kwargs: dict) -> str:
    asked = repr(
        (fn.__module__, fn.__qualname__, args, sorted(kwargs.items()), engine_digest(), _module_digest(fn.__module__))
    )
    return f"{fn.__qualname__.strip('_')}-{hashlib.sha256(asked.encode()).hexdigest()[:32]}"


def _signature(data: bytes) -> bytes:
    return salted_hmac(_SALT, data, algorithm="sha256").digest()


def _read(path: Path):
    """The figure stored at `path`, or a miss (None, False) when there is none or it is not ours."""
    try:
        blob = path.read_bytes()
    except OSError:  # none yet (or not readable): solved
        return None, False
    signature, data = blob[:32], blob[32:]
    if len(signature) != 32 or not hmac.compare_digest(signature, _signature(data)):
        log.warning("game math figure %s fails its signature: solved again", path.name)
        return None, False
    return pickle.loads(data), True  # noqa: S301 - signed above with SECRET_KEY: written by this project only


def _write(path: Path, value) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(_signature(data) + data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _stored(fn, args: tuple, kwargs: dict):
    directory = _directory()
    if directory is None:
        return fn(*args, **kwargs)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / (_name(fn, args, kwargs) + ".pickle")
        value, found = _read(path)
        if found:
            return value
        lock = open(path.with_suffix(".lock"), "a")  # noqa: SIM115 - held until the figure is written
    except OSError as error:  # a directory not ours, or none to be made: the figure is solved here
        log.warning("game math figures on disk unavailable (%s): solved in this process", error)
        return fn(*args, **kwargs)
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process solving it: wait, then read its figure
        value, found = _read(path)
        if found:
            return value
        value = fn(*args, **kwargs)
        try:
            _write(path, value)
        except OSError as error:  # a full disk: the figure stays in this process only
            log.warning("game math figure %s not written (%s)", path.name, error)
        return value


def kept(maxsize: int = 16):
    """`lru_cache(maxsize)` whose misses read the figure from disk before solving it (see above)."""

    def decorate(fn):
        @functools.wraps(fn)
        def on_disk(*args, **kwargs):
            return _stored(fn, args, kwargs)

        return functools.lru_cache(maxsize=maxsize)(on_disk)

    return decorate
