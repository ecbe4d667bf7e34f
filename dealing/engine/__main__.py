"""The engine's command line; runs without Django.

python -m dealing.engine settle [FILE|-] [--jobs N]   one JSON round, or JSON Lines (a round per line)
python -m dealing.engine next [FILE|-]             legal next events for a round in progress
python -m dealing.engine shoe [FILE|-]             shoe/1 checks
python -m dealing.engine simulate N --seed S [--variant ochko] [--preset salon|online] [--mistakes RATE]
python -m dealing.engine odds ochko | blackjack --preset salon|online
python -m dealing.engine native build|status|clean   the mypyc-compiled engine (see native.py)
"""

import argparse
import codecs
import contextlib
import io
import json
import os
import re
import sys
import time
from decimal import Decimal
from typing import Any, Final

from . import VARIANTS, RoundError, check_shoe, games, load, next_events, settle, variant
from .document import load_json


def to_json(value) -> str:
    return json.dumps(value, ensure_ascii=False, default=_default, separators=(",", ":"))


def _default(value):
    if isinstance(value, Decimal):
        # Amounts leave as JSON numbers when whole and as decimal strings otherwise ("7.50").
        return int(value) if value == value.to_integral_value() else f"{value:.2f}"
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


# --- settle -----------------------------------------------------------------------------------------
#
# `settle` streams: it reads the input in chunks and settles each line as it comes, so its memory
# stays flat at any number of rounds, and it writes the answers through one buffer. What it prints
# is what reading the whole text gave (text.strip() read as one document if it is one, else each
# non-blank line of text.splitlines()): the same lines, numbered the same, answered byte for byte
# the same.
#
# With msgspec installed a line is decoded and its answer encoded by msgspec: floats are decoded
# as Decimal from their own text and Decimals encoded by _default, the values the standard library
# gives. A line msgspec refuses, or one it could read otherwise (not an object, nested near the
# recursion limit), goes the standard library's way - engine.settle on its text - so its error is
# word for word the one it always was. The answers are made of text, whole numbers, null, true and
# false, lists and objects (amounts are decimal strings), which msgspec writes as json.dumps does;
# only a float would print otherwise ("1e16", not "1e+16"), and the engine answers with none.
# --jobs N hands chunks of lines to N forked workers and writes their answers in order.

CHUNK: Final = 1 << 20  # bytes read at a time (a longer line is joined from several reads)
# str.splitlines() ends a line at these too: \r \v \f \x1c \x1d \x1e, and U+0085, U+2028 and
# U+2029, whose UTF-8 ends in \x85, \xa8, \xa9. A block holding none of these bytes (one memchr
# each) splits on b"\n" alone; a line holding one is cut as splitlines() cuts it.
_OTHER_BREAKS: Final = (b"\r", b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e", b"\x85", b"\xa8", b"\xa9")
# The standard library refuses JSON nested about 990 deep (Python's recursion limit) and msgspec
# a little deeper: a line with this many brackets, which a shorter line cannot hold, is read the
# standard library's way.
_DEEP: Final = 900
_LONG: Final = 2 * _DEEP
# msgspec keeps the last of a key given twice; the engine refuses it (document.load_json). A line
# whose key count (each unescaped quote before a colon ends a key) differs from the keys decoded,
# or that holds a backslash (an escaped quote could hide one), is read the standard library's way.
_KEY_END: Final = re.compile(rb'"[ \t\r\n]*:')


def _keys(value) -> int:
    """Every key of every object in value (a stack, not recursion: lines may nest ~900 deep)."""
    count, stack = 0, [value]
    while stack:
        item = stack.pop()
        if type(item) is dict:
            count += len(item)
            stack.extend(item.values())
        elif type(item) is list:
            stack.extend(item)
    return count


# Reads a prefix of the input to tell one JSON document from JSON Lines (see _one_document).
_SCANNER: Final = json.JSONDecoder(parse_float=Decimal)


def _fast_codec():
    """msgspec's decode and encode-into for the lines, or None without msgspec."""
    try:
        import msgspec
    except ImportError:  # requirements.txt installs it; the CLI is only slower without it
        return None
    decoder = msgspec.json.Decoder(float_hook=Decimal)
    encoder = msgspec.json.Encoder(decimal_format=_default)
    return decoder.decode, encoder.encode_into, (msgspec.DecodeError, UnicodeDecodeError)


def _split(pieces: list[bytes], block: bytes, *, ends: bool) -> list[bytes]:
    """The lines str.splitlines() cuts the pieces of block.split(b"\n") into; `ends`: each piece
    was followed by a b"\n"."""
    if not any(brk in block for brk in _OTHER_BREAKS):
        return pieces
    end = "\n" if ends else ""  # the b"\n" after a piece: "\x0c\n" is two line breaks, "\r\n" one
    lines = []
    for piece in pieces:
        if any(brk in piece for brk in _OTHER_BREAKS):
            # surrogateescape keeps bytes that are not UTF-8 as they were, for the line's own error;
            # a line whose \x85, \xa8 or \xa9 is part of another character comes back whole
            lines += [
                part.encode("utf-8", "surrogateescape")
                for part in (piece.decode("utf-8", "surrogateescape") + end).splitlines()
            ]
        else:
            lines.append(piece)
    return lines


def _batches(source, head: bytes):
    """(lines before it, its lines) for each chunk of `head` and then of the rest of `source`."""
    before = 0
    rest = b""
    chunk = head or source.read(CHUNK)
    while chunk:
        data = rest + chunk if rest else chunk
        pieces = data.split(b"\n")
        rest = pieces.pop()  # after the last b"\n": a line the next chunk goes on with
        if pieces:
            lines = _split(pieces, data, ends=True)
            yield before, lines
            before += len(lines)
        chunk = source.read(CHUNK)
    if rest:
        yield before, _split([rest], rest, ends=False)


def _one_document(head: bytes | bytearray) -> bool | None:
    """False once the start of the input shows the whole cannot be one JSON document; None while
    it may still be. Only the complete lines are read: a JSON token never spans a b"\\n", so an
    error with more than whitespace after it is an error in any text that begins so."""
    cut = head.rfind(b"\n") + 1
    try:
        text = head[:cut].decode("utf-8").lstrip()
    except UnicodeDecodeError:
        return False
    if not text:
        return None
    try:
        _SCANNER.decode(text)
    except json.JSONDecodeError as exc:
        return None if not text[exc.pos :].strip() else False
    except (ValueError, RecursionError):  # NaN, Infinity or a number too long, or nested too deep
        return False
    return None  # one whole document so far: more than whitespace after it makes JSON Lines


def _read_head(source) -> tuple[bytes, str | None]:
    """Read until it is known whether the input is one JSON document. (b"", its text.strip()) if
    it is ("" for a blank input), else (what was read, None) for JSON Lines."""
    head = bytearray()
    checked = 0
    while chunk := source.read(CHUNK):
        head += chunk
        if len(head) >= 2 * checked:  # a long document is looked at as it doubles, not every chunk
            checked = len(head)
            if _one_document(head) is False:
                return bytes(head), None
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        return bytes(head), None
    # The text as a text-mode read gives it (universal newlines), as the CLI always read it.
    stripped = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not stripped:
        return b"", ""
    try:
        load_json(stripped)
    except RoundError:
        return bytes(head), None
    return b"", stripped


class _Writer:
    """The answers, kept in one block and written when it is full: bytes to stdout's binary buffer
    when stdout is UTF-8 (else text). Without a stream it only collects, for a worker's batch."""

    def __init__(self, stream=None, errors: str = "strict"):
        self.stream = stream
        sink = getattr(stream, "buffer", None) if stream is not None else None
        encoding = getattr(stream, "encoding", None) or "utf-8"
        if sink is not None and codecs.lookup(encoding).name != "utf-8":
            sink = None  # the answers go through the stream's own encoding, as text
        self.sink = sink
        self.utf8 = stream is None or sink is not None
        self.errors = getattr(stream, "errors", None) or errors
        self.block = bytearray()
        self.texts: list[str] = []
        if stream is not None:
            stream.flush()

    def exact(self, result) -> None:
        """One answer encoded by the standard library, as the CLI always wrote it."""
        if self.utf8:
            self.block += (to_json(result) + "\n").encode("utf-8", self.errors)
        else:
            self.texts.append(to_json(result) + "\n")

    def flush(self) -> None:
        if self.stream is None:
            return
        if self.sink is not None:  # and so UTF-8
            self.sink.write(self.block)
            self.block.clear()
            self.sink.flush()
        else:
            self.stream.write("".join(self.texts))
            self.texts.clear()
            self.stream.flush()


def _settle_text(doc, number: int | None) -> tuple[dict, bool]:
    try:
        return settle(doc), True
    except RoundError as exc:
        result = exc.to_dict()
        if number is not None:
            result["line"] = number
        return result, False


def _settle_batches(batches, out: _Writer) -> bool:
    ok = True
    fast = _fast_codec() if out.utf8 else None
    for before, lines in batches:
        ok = _settle_batch(before, lines, out, fast) and ok
        out.flush()
    return ok


def _settle_batch(before: int, lines: list[bytes], out: _Writer, fast) -> bool:
    """Settle lines numbered from before + 1 into out's block."""
    ok = True
    if fast is None:
        for number, line in enumerate(lines, start=before + 1):
            ok = _settle_exact(number, line, out) and ok
        return ok
    decode, encode_into, refused = fast
    block = out.block
    for number, line in enumerate(lines, start=before + 1):
        doc = None
        if len(line) < _LONG or line.count(b"[") + line.count(b"{") < _DEEP:
            try:
                doc = decode(line)
            except refused:
                pass
            if type(doc) is dict and (b"\\" in line or len(_KEY_END.findall(line)) != _keys(doc)):
                doc = None  # perhaps a key given twice: the standard library's way names it
        if type(doc) is dict:
            try:
                result = settle(doc)
            except RoundError as exc:
                ok = False
                result = exc.to_dict()
                result["line"] = number
            encode_into(result, block, -1)
            block += b"\n"
        else:
            ok = _settle_exact(number, line, out) and ok
    return ok


def _settle_exact(number: int, line: bytes, out: _Writer) -> bool:
    """A line the standard library's way, as the CLI read lines before msgspec."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        doc: bytes | str = line  # engine.settle names the bad bytes
    else:
        if not text.strip():
            return True  # a blank line: skipped, still counted
        doc = text
    result, good = _settle_text(doc, number)
    out.exact(result)
    return good


# --jobs: batches settled by worker processes, written in their order ----------------------------


def _worker_batch(before: int, lines: list[bytes], errors: str) -> tuple[bytes, bool]:
    out = _Writer(errors=errors)
    ok = _settle_batch(before, lines, out, _Worker.fast)
    return bytes(out.block), ok


class _Worker:
    fast = None

    @staticmethod
    def start() -> None:
        _Worker.fast = _fast_codec()


def _settle_in_workers(batches, out: _Writer, jobs: int) -> bool:
    """Each batch (a chunk of lines) to the next free worker; at most two a worker in flight, so
    memory stays flat, and the answers written in the input's order."""
    import multiprocessing
    from collections import deque

    ok = True
    out.flush()  # nothing buffered for a forked worker to write again
    waiting: deque = deque()
    with multiprocessing.get_context("fork").Pool(jobs, initializer=_Worker.start) as pool:
        for before, lines in batches:
            waiting.append(pool.apply_async(_worker_batch, (before, lines, out.errors)))
            if len(waiting) >= 2 * jobs:
                ok = _write_batch(waiting.popleft().get(), out) and ok
        while waiting:
            ok = _write_batch(waiting.popleft().get(), out) and ok
    return ok


def _write_batch(done: tuple[bytes, bool], out: _Writer) -> bool:
    block, ok = done
    out.block += block
    out.flush()
    return ok


def cmd_settle(args) -> int:
    opened: Any
    if args.file == "-":
        source = getattr(sys.stdin, "buffer", None) or io.BytesIO(sys.stdin.read().encode("utf-8"))
        opened = contextlib.nullcontext()  # stdin stays open
    else:
        opened = source = open(args.file, "rb")
    jobs = args.jobs or (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
    with opened:
        head, one = _read_head(source)
        out = _Writer(sys.stdout)
        try:
            if one is None and jobs > 1 and out.utf8 and _fast_codec() is not None:
                ok = _settle_in_workers(_batches(source, head), out, jobs)
            elif one is None:
                ok = _settle_batches(_batches(source, head), out)
            elif one:
                result, ok = _settle_text(one, None)
                out.exact(result)
            else:
                ok = True  # a blank input: nothing to settle
        finally:
            out.flush()
    return 0 if ok else 1


def cmd_next(args) -> int:
    try:
        result = next_events(_read(args.file))
    except RoundError as exc:
        sys.stdout.write(to_json(exc.to_dict()) + "\n")
        return 1
    sys.stdout.write(to_json(result) + "\n")
    return 0


def cmd_shoe(args) -> int:
    try:
        findings = check_shoe(load(_read(args.file)))
    except RoundError as exc:
        sys.stdout.write(to_json(exc.to_dict()) + "\n")
        return 1
    sys.stdout.write(to_json({"format": "shoe-findings/1", "findings": [f.to_dict() for f in findings]}) + "\n")
    return 0


def cmd_simulate(args) -> int:
    from .simulators import simulate

    out = sys.stdout
    options = {"preset": args.preset} if args.preset else {}
    if _preset_refused(args):
        return 2
    for sim in simulate(args.variant, args.n, seed=args.seed, mistake_rate=args.mistakes, **options):
        out.write(to_json(sim.doc) + "\n")
    return 0


def cmd_odds(args) -> int:
    from .odds import dealer_odds

    if _preset_refused(args):
        return 2
    sys.stdout.write(json.dumps(dealer_odds(args.variant, preset=args.preset), indent=2) + "\n")
    return 0


def _preset_refused(args) -> bool:
    """A --preset the game does not have (its rules module's PRESETS): said on stderr."""
    if not args.preset:
        return False
    presets = tuple(getattr(variant(args.variant), "PRESETS", None) or ())
    if args.preset in presets:
        return False
    offered = f"its presets are {', '.join(presets)}" if presets else "it has none"
    sys.stderr.write(f"--preset {args.preset} is not a preset of {args.variant}: {offered}\n")
    return True


def cmd_native(args) -> int:
    from . import native

    if args.action == "build":
        started = time.perf_counter()
        native.build()
        print(
            f"built: {len(native.MODULES)} engine modules compiled with mypyc in "
            f"{time.perf_counter() - started:.0f} s ({', '.join(native.MODULES)})"
        )
    elif args.action == "clean":
        native.clean()
        print("removed the compiled engine")
    compiled, why = native.check()
    print(("compiled with mypyc" if compiled else "pure Python") + f" ({why})")
    return 0


# The game-math questions (ev/1, edge/1, the charts) have their own command line (math/cli.py).
MATH_COMMANDS = ("ev", "edge", "strategy", "specials")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in MATH_COMMANDS:
        from .math import cli as math_cli

        return math_cli.main(argv)
    parser = argparse.ArgumentParser(prog="python -m dealing.engine", description="The 21 rules engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("settle", help="settlement/1 for each round (JSON or JSON Lines)")
    p.add_argument("file", nargs="?", default="-")
    p.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=1,
        metavar="N",
        help="worker processes settling JSON Lines (0: one a processor); the output is the same",
    )
    p.set_defaults(func=cmd_settle)
    p = sub.add_parser("next", help="legal next events for a round in progress")
    p.add_argument("file", nargs="?", default="-")
    p.set_defaults(func=cmd_next)
    p = sub.add_parser("shoe", help="shoe checks for a shoe/1 document")
    p.add_argument("file", nargs="?", default="-")
    p.set_defaults(func=cmd_shoe)
    p = sub.add_parser("simulate", help="N simulated round logs as JSON Lines")
    p.add_argument("n", type=int)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--variant", choices=VARIANTS, default="ochko")
    p.add_argument("--mistakes", type=float, default=0.0, help="share of rounds with one injected mistake (0–1)")
    p.add_argument("--preset", default=None, help="the game's preset (blackjack: salon, online)")
    p.set_defaults(func=cmd_simulate)
    p = sub.add_parser("odds", help="exact dealer result probabilities by first / up card")
    p.add_argument("variant", choices=[name for name in games.names() if games.get(name).odds is not None])
    p.add_argument("--preset", default=None, help="the game's preset (blackjack: salon, online)")
    p.set_defaults(func=cmd_odds)
    p = sub.add_parser("native", help="build, check or remove the engine compiled with mypyc")
    p.add_argument("action", nargs="?", choices=("build", "status", "clean"), default="status")
    p.set_defaults(func=cmd_native)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return 0


if __name__ == "__main__":
    sys.exit(main())
