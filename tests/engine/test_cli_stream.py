"""`settle` streams JSON Lines: the same answers as reading the whole text, in flat memory.

The reference below is the CLI as it was before it streamed (the whole input read, tried as one
document, else split with str.splitlines()): every input here must give its output byte for byte,
with msgspec decoding and encoding the lines and without it (the standard library alone).
"""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from dealing import engine
from dealing.engine.__main__ import to_json
from dealing.engine.simulators import simulate

from .ochko_logs import one_box_win

ROOT = Path(__file__).resolve().parents[2]
ENV = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
# The CLI with msgspec hidden: `import msgspec` fails, so every line goes the standard library's way.
WITHOUT_MSGSPEC = (
    "import sys; sys.modules['msgspec'] = None; from dealing.engine.__main__ import main; sys.exit(main())"
)


# The CLI's settle before it streamed, run in a child of its own (Python's recursion limit, which
# refuses JSON nested too deep, counts the frames below the reading).
REFERENCE = """
import sys
from dealing import engine
from dealing.engine.__main__ import to_json
from dealing.engine.document import load_json
text = sys.stdin.buffer.read().decode("utf-8").replace("\\r\\n", "\\n").replace("\\r", "\\n")  # a text-mode read
stripped = text.strip()
documents = []
if stripped:
    try:
        load_json(stripped)
        documents = [(None, stripped)]
    except engine.RoundError:
        documents = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
ok = True
for number, doc in documents:
    try:
        result = engine.settle(doc)
    except engine.RoundError as exc:
        ok = False
        result = exc.to_dict()
        if number is not None:
            result["line"] = number
    sys.stdout.write(to_json(result) + "\\n")
sys.exit(0 if ok else 1)
"""


def reference(data: bytes) -> tuple[bytes, int]:
    """What `settle` printed when it read the whole input as text, and its exit code."""
    done = subprocess.run(
        [sys.executable, "-c", REFERENCE], input=data, capture_output=True, cwd=ROOT, env=ENV, timeout=300
    )
    assert done.stderr == b""
    return done.stdout, done.returncode


def settle_cli(
    data: bytes, *, fast: bool = True, path: Path | None = None, jobs: int = 1
) -> subprocess.CompletedProcess:
    head = [sys.executable, "-m", "dealing.engine"] if fast else [sys.executable, "-c", WITHOUT_MSGSPEC]
    args = [*head, "settle", *(["--jobs", str(jobs)] if jobs != 1 else []), str(path) if path else "-"]
    return subprocess.run(args, input=None if path else data, capture_output=True, cwd=ROOT, env=ENV, timeout=300)


def assert_as_before(data: bytes, tmp_path: Path | None = None) -> None:
    expected, code = reference(data)
    for fast in (True, False):
        done = settle_cli(data, fast=fast)
        assert done.stderr == b""
        assert (done.stdout, done.returncode) == (expected, code), f"msgspec={fast}"
    if tmp_path is not None:  # a file is read as stdin is
        path = tmp_path / "rounds.jsonl"
        path.write_bytes(data)
        done = settle_cli(data, path=path)
        assert (done.stdout, done.returncode) == (expected, code)


def _corpus(per_variant: int, seed: int) -> list[str]:
    """Clean, mistaken and damaged logs of every variant, as JSON Lines."""
    rng = random.Random(seed)
    lines = []
    for variant in engine.VARIANTS:
        for sim in simulate(variant, per_variant, seed=seed, mistake_rate=0.5):
            lines.append(to_json(sim.doc))
            doc = json.loads(lines[-1])
            events = doc["events"]
            k = rng.randrange(len(events))
            how = rng.randrange(4)
            if how == 0:
                del events[k]
            elif how == 1:
                events[k]["amount"] = rng.choice(["7.5", 0, -100, "1e2", True, "12.345"])
            elif how == 2:
                events[k]["card"] = rng.choice(["XX", 7, "", "as"])
            else:
                events[k]["stray"] = 1
            lines.append(json.dumps(doc, ensure_ascii=False))
    return lines


def test_simulated_and_damaged_rounds_of_every_variant_settle_as_before(tmp_path):
    lines = _corpus(per_variant=60, seed=11)
    data = ("\n".join(lines) + "\n").encode("utf-8")
    expected, code = reference(data)
    assert code == 1 and expected.count(b"\n") == len(lines)
    assert b'"findings":[{' in expected and b'"error"' in expected  # both outcomes are exercised
    assert_as_before(data, tmp_path)


def test_worker_processes_answer_as_one_process_does():
    lines = _corpus(per_variant=30, seed=5) * 16  # several chunks of input, so several batches
    data = ("\n".join(lines) + "\n").encode("utf-8")
    assert len(data) > 3 * (1 << 20)
    expected, code = reference(data)
    for jobs in (2, 3):
        done = settle_cli(data, jobs=jobs)
        assert done.stderr == b""
        assert (done.stdout, done.returncode) == (expected, code), f"--jobs {jobs}"
    one = json.dumps(one_box_win(), indent=2).encode()  # one document: no workers needed
    assert settle_cli(one, jobs=2).stdout == reference(one)[0]


def test_each_line_is_the_engines_own_settlement_and_bad_lines_are_named_by_number():
    good = to_json(one_box_win())
    lines = [
        good,
        "{broken",
        "",
        "   ",
        good.replace('"amount":300', '"amount":"12.345"'),
        '"a text"',
        "null",
        "[1, 2]",
        '{"format": "round/1", "variant": "nope"}',
        good,
    ]
    done = settle_cli(("\n".join(lines) + "\n").encode("utf-8"))
    assert done.returncode == 1
    out = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert [o.get("line") for o in out] == [None, 2, 5, 6, 7, 8, 9, None]  # blank lines 3 and 4: no answer
    assert out[0] == out[-1] == engine.settle(good)
    assert [o["error"] for o in out[1:-1]] == [
        "not_json",
        "bad_amount",
        "wrong_type",
        "wrong_type",
        "wrong_type",
        "unknown_variant",
    ]


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"\n \n\t\n", id="blank-lines-only"),
        pytest.param(json.dumps(one_box_win(), indent=2).encode(), id="one-document-pretty"),
        pytest.param(json.dumps(one_box_win(), indent=2).replace("\n", "\r\n").encode(), id="one-document-crlf"),
        pytest.param(b"\n\n" + to_json({**one_box_win(), "stakes": 3}).encode() + b"\n\n", id="one-line-refused"),
        pytest.param(b'{"format": "round/1",\n "variant": "ochko"}\n', id="two-line-document-refused"),
        pytest.param(b"[\n" + to_json(one_box_win()).encode() + b"\n]", id="an-array-over-lines"),
        pytest.param(
            b"[\n" + to_json(one_box_win()).encode() + b"\n" + to_json(one_box_win()).encode(), id="broken-first-line"
        ),
        pytest.param(b"\xef\xbb\xbf" + to_json(one_box_win()).encode(), id="byte-order-mark"),
        pytest.param(b"\xc2\xa0" + to_json(one_box_win()).encode() + b"\xc2\xa0", id="unicode-spaces-around"),
    ],
)
def test_one_document_or_json_lines_is_decided_as_before(data, tmp_path):
    assert_as_before(data, tmp_path)


def test_line_breaks_blank_lines_and_odd_values_as_before(tmp_path):
    good = to_json(one_box_win())
    lines = [
        good + "\r",  # CRLF
        good.replace('"D-1"', '"D\u20281"'),  # a line break str.splitlines() cuts at, inside a string
        good.replace('"D-1"', '"\u0416\u0428-\u00e9\U0001f600"'),  # other characters, their bytes 0xa8, 0x85
        "\x1f",
        "\u3000",
        "\x0c",  # blank to str.strip()
        good.replace('"amount":300', '"amount":300.00'),  # a JSON number with decimals: a Decimal
        good.replace('"amount":300', '"amount":NaN'),
        good.replace('"amount":300', '"amount":1e999'),
        good.replace('"amount":300', '"amount":' + "9" * 5000),  # past int()'s digit limit
        good.replace('"player":"P-1"', '"player":"\\ud800"'),  # a lone surrogate escape
        good.replace('"player":"P-1"', '"player":"P-1","player":"P-2"'),  # a repeated key: the last wins
        good[:-1] + ',"x":' + "[" * 850 + "]" * 850 + "}",  # nested deep, and near the recursion limit
        good[:-1] + ',"x":' + "[" * 950 + "]" * 950 + "}",
        good[:-1] + ',"x":' + "[" * 1200 + "]" * 1200 + "}",  # too deep (how deep exactly, Python's stack says)
        good,
    ]
    data = "\n".join(lines).encode("utf-8")  # the last line has no line break
    assert_as_before(data, tmp_path)
    assert_as_before(data.replace(b"\n", b"\r\n"), tmp_path)


def test_a_line_that_is_not_utf8_is_refused_on_its_own():
    good = to_json(one_box_win()).encode()
    done = settle_cli(b"\n".join([good, b'{"format": "round/1", "dealer": "\xff"}', good]) + b"\n")
    assert done.returncode == 1
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert out[0] == out[2] == engine.settle(good)
    assert out[1]["error"] == "not_json" and out[1]["line"] == 2 and "UTF-8" in out[1]["message"]


# A child that settles stdin, then writes its peak resident set size (KiB) to stderr: VmHWM, the
# high-water mark of this program's own memory (getrusage's ru_maxrss would count the parent's
# pages the child had before it became Python).
MEASURED = (
    "import re, sys; from dealing.engine.__main__ import main; code = main(['settle', '-']); "
    "status = open('/proc/self/status').read(); "
    "sys.stderr.write(re.search(r'VmHWM:\\s*(\\d+) kB', status).group(1)); sys.exit(code)"
)
# A child that writes N rounds, a few lines repeated, as fast as a pipe takes them.
GENERATOR = (
    "import sys; lines = sys.argv[2:]; block = ('\\n'.join(lines * 1000) + '\\n').encode(); "
    "out = sys.stdout.buffer\nfor _ in range(int(sys.argv[1]) // (1000 * len(lines))): out.write(block)"
)


@pytest.mark.slow  # about 45 s compiled on a busy 2-core machine
def test_a_million_rounds_stream_through_in_flat_memory():
    rounds = 1_000_000
    good = to_json(one_box_win())
    lines = [
        good,
        good.replace('"P-1"', '"P-2"'),
        good.replace('"P-1"', '"P-3"'),
        good.replace('"amount":300', '"amount":-300'),
    ]
    feed = subprocess.Popen([sys.executable, "-c", GENERATOR, str(rounds), *lines], stdout=subprocess.PIPE)
    cli = subprocess.Popen(
        [sys.executable, "-c", MEASURED],
        stdin=feed.stdout,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=ENV,
    )
    feed.stdout.close()  # the CLI holds the pipe now
    answers = settled = 0
    rest = last = b""
    while chunk := cli.stdout.read(1 << 20):
        data = rest + chunk
        cut = data.rfind(b"\n") + 1
        lines, rest = data[:cut], data[cut:]  # counted by whole lines
        answers += lines.count(b"\n")
        settled += lines.count(b'"format":"settlement/1"')
        last = lines.rsplit(b"\n", 2)[-2] if lines else last
    peak_kib = int(cli.stderr.read() or 0)
    assert cli.wait(timeout=600) == 1  # every fourth round is refused
    assert feed.wait(timeout=60) == 0
    assert answers == rounds and settled == rounds // 4 * 3
    assert rest == b"" and last.endswith(b'"line":%d}' % rounds)
    fed_mib = rounds * (len(good) + 1) / 2**20
    assert fed_mib > 300
    # Flat: the whole input was several hundred MiB; the CLI held a few chunks of it at a time.
    assert peak_kib < 100 * 1024, f"peak {peak_kib / 1024:.0f} MiB for {fed_mib:.0f} MiB of rounds"
