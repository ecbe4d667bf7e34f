"""The engine's command line; runs without Django.

    python -m dealing.engine settle [FILE|-]           one JSON round, or JSON Lines (a round per line)
    python -m dealing.engine next [FILE|-]             legal next events for a round in progress
    python -m dealing.engine shoe [FILE|-]             shoe/1 checks
    python -m dealing.engine simulate N --seed S [--variant ochko] [--preset salon|online] [--mistakes RATE]
    python -m dealing.engine odds ochko | blackjack --preset salon|online
    python -m dealing.engine native build|status|clean   the mypyc-compiled engine (see native.py)
"""

import argparse
import json
import sys
import time
from decimal import Decimal

from . import RoundError, VARIANTS, check_shoe, load, next_events, settle
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


def _documents(text: str):
    """One JSON document, or JSON Lines: yields (line number or None, text)."""
    stripped = text.strip()
    if not stripped:
        return
    try:
        load_json(stripped)
        yield None, stripped
        return
    except RoundError:
        pass
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield number, line


def cmd_settle(args) -> int:
    ok = True
    out = sys.stdout
    for line, text in _documents(_read(args.file)):
        try:
            result = settle(text)
        except RoundError as exc:
            ok = False
            result = exc.to_dict()
            if line is not None:
                result["line"] = line
        out.write(to_json(result) + "\n")
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
    if args.preset and args.variant != "blackjack":
        sys.stderr.write("--preset applies to blackjack only\n")
        return 2
    for sim in simulate(args.variant, args.n, seed=args.seed, mistake_rate=args.mistakes, **options):
        out.write(to_json(sim.doc) + "\n")
    return 0


def cmd_odds(args) -> int:
    from .odds import dealer_odds

    sys.stdout.write(json.dumps(dealer_odds(args.variant, preset=args.preset), indent=2) + "\n")
    return 0


def cmd_native(args) -> int:
    from . import native

    if args.action == "build":
        started = time.perf_counter()
        native.build()
        print(f"built: {len(native.MODULES)} engine modules compiled with mypyc in "
              f"{time.perf_counter() - started:.0f} s ({', '.join(native.MODULES)})")
    elif args.action == "clean":
        native.clean()
        print("removed the compiled engine")
    compiled, why = native.check()
    print(("compiled with mypyc" if compiled else "pure Python") + f" ({why})")
    return 0


# The game-math questions (ev/1, edge/1, the charts) have their own command line (math/cli.py).
MATH_COMMANDS = ("ev", "edge", "strategy")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in MATH_COMMANDS:
        from .math import cli as math_cli

        return math_cli.main(argv)
    parser = argparse.ArgumentParser(prog="python -m dealing.engine", description="The 21 rules engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("settle", help="settlement/1 for each round (JSON or JSON Lines)")
    p.add_argument("file", nargs="?", default="-")
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
    p.add_argument("--preset", choices=("salon", "online"), default=None, help="blackjack preset")
    p.set_defaults(func=cmd_simulate)
    p = sub.add_parser("odds", help="exact dealer result probabilities by first / up card")
    p.add_argument("variant", choices=("ochko", "blackjack"))
    p.add_argument("--preset", choices=("salon", "online"), default=None)
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
