"""The game-math command line (shared/analytics-format.md, CLI):

    ev ochko --cards 10S 6H --dealer 9C --bet 10 [--removed 6S 7D …] [--rule dark_win_bet=take]
    ev ochko --cards AS                                      # fold / bet:1 … bet:10
    edge ochko [--rule dark_win_bet=take] [--rule dark_double_bust_bet=take] [--all]
    strategy ochko --bet k [--rule …]
    ev blackjack --preset salon|online --cards TS 6H --dealer TC [--removed …] [--rule hit_soft_17=true]
    edge blackjack --preset salon|online [--strategy optimal|basic] [--rule …]
    strategy blackjack --preset salon|online [--rule …]
    edge veintiuno [--rule suited_twelve_pays=3] [--threshold 12 --bank-stands 18] [--all]
    specials veintiuno [--rule packs=2]

Each prints one JSON document on standard output (`edge --all`: a JSON list, one `edge/1` per
combination of the dark-card house rules; for veintiuno, the bank's edge for each pair of fixed
drawing counts). A question that cannot be asked exits 2 with one
line on standard error. `python -m dealing.engine ev|edge|strategy …` hands its arguments here.
"""

import argparse
import json
import sys

from .. import games
from .questions import QuestionError, Refused


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad command line is one line on standard error and exit 2."""

    def error(self, message):
        raise Refused(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m dealing.engine", add_help=True)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    ev = sub.add_parser("ev", help="every option's EV for a hand")
    ev.add_argument("variant")
    ev.add_argument("--cards", nargs="+", required=True)
    ev.add_argument("--dealer")
    ev.add_argument("--bet", type=int)
    ev.add_argument("--removed", nargs="*", default=[])
    ev.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    ev.add_argument("--preset")
    edge = sub.add_parser("edge", help="the house edge under optimal play")
    edge.add_argument("variant")
    edge.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    edge.add_argument("--all", action="store_true", help="every combination of the dark-card house rules")
    edge.add_argument("--preset")
    edge.add_argument("--strategy", default=None)
    edge.add_argument("--threshold", type=int, help="veintiuno: the player draws while under this count")
    edge.add_argument("--bank-stands", type=int, help="veintiuno: the bank stands from this count")
    strategy = sub.add_parser("strategy", help="the optimal chart")
    strategy.add_argument("variant")
    strategy.add_argument("--bet", type=int, default=1)
    strategy.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    strategy.add_argument("--preset")
    specials = sub.add_parser("specials", help="the chance of each special hand (veintiuno)")
    specials.add_argument("variant")
    specials.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    return parser


def _rules(pairs: list[str]) -> dict:
    rules = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise QuestionError("rules", f"--rule {pair!r}: write it as name=value, e.g. dark_win_bet=take.")
        rules[name] = value
    return rules


def _with_math() -> list[str]:
    """The registered games that have game math, in the registry's order."""
    return [name for name in games.names() if getattr(games.get(name), "math", None) is not None]


def _taking(extra: str) -> str:
    """The games whose math takes one of the command line's game-specific parts (CLI_EXTRAS)."""
    return " and ".join(name for name in _with_math() if extra in getattr(games.math(name), "CLI_EXTRAS", ()))


def run(argv: list[str]):
    """The JSON-able answer to a command line; raises QuestionError or Refused. The game's math
    module (games.py's `math`) answers it: `cli(args, rules)`."""
    args = _parser().parse_args(argv)
    if args.variant not in _with_math():
        raise Refused(f"no game math for {args.variant!r} here (known: {', '.join(_with_math())})")
    module = games.math(args.variant)
    rules = _rules(args.rule)
    extras = getattr(module, "CLI_EXTRAS", ())
    if args.command == "specials" and "specials" not in extras:
        raise Refused(f"specials: only {_taking('specials')} has a table of special hands, not {args.variant}")
    if "counts" not in extras and (
        getattr(args, "threshold", None) is not None or getattr(args, "bank_stands", None) is not None
    ):
        raise Refused(f"--threshold and --bank-stands apply to {_taking('counts')} only")
    return module.cli(args, rules)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        answer = run(argv)
    except (QuestionError, Refused) as error:
        sys.stderr.write(" ".join(str(error).split()) + "\n")
        return 2
    sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
