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

from . import blackjack, ochko, veintiuno

VARIANTS = {"ochko": ochko, "blackjack": blackjack, "veintiuno": veintiuno}


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad command line is one line on standard error and exit 2."""

    def error(self, message):
        raise _Refused(message)


class _Refused(Exception):
    pass


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
            raise ochko.QuestionError("rules", f"--rule {pair!r}: write it as name=value, e.g. dark_win_bet=take.")
        rules[name] = value
    return rules


def run(argv: list[str]):
    """The JSON-able answer to a command line; raises QuestionError or _Refused."""
    args = _parser().parse_args(argv)
    module = VARIANTS.get(args.variant)
    if module is None:
        raise _Refused(f"no game math for {args.variant!r} here (known: {', '.join(VARIANTS)})")
    rules = _rules(args.rule)
    if module is veintiuno:
        return _veintiuno(args, rules)
    if args.command == "specials":
        raise _Refused(f"specials: only veintiuno has a table of special hands, not {args.variant}")
    if getattr(args, "threshold", None) is not None or getattr(args, "bank_stands", None) is not None:
        raise _Refused("--threshold and --bank-stands apply to veintiuno only")
    if module is blackjack:
        return _blackjack(args, rules)
    if args.preset is not None:
        raise _Refused(f"--preset does not apply to {args.variant}")
    if args.command == "ev":
        return module.ev(args.cards, dealer=args.dealer, bet=args.bet, removed=args.removed, rules=rules)
    if args.command == "edge":
        if args.strategy not in (None, "optimal"):
            raise _Refused(f"--strategy {args.strategy}: {args.variant} has the optimal strategy only")
        if args.all:
            if rules:
                raise _Refused("--all gives every combination of the dark-card rules; drop --rule")
            return module.edge_table()
        return module.edge(rules)
    return module.strategy(bet=args.bet, rules=rules)


def _blackjack(args, rules: dict):
    if args.command == "ev":
        if args.bet is not None:
            raise _Refused("--bet does not apply to blackjack (every EV is per unit of the bet)")
        return blackjack.ev(args.cards, dealer=args.dealer, removed=args.removed, rules=rules, preset=args.preset)
    if args.command == "edge":
        if args.all:
            raise _Refused("--all applies to ochko only")
        return blackjack.edge(rules, preset=args.preset, strategy=args.strategy or "optimal")
    if args.bet != 1:
        raise _Refused("--bet does not apply to blackjack")
    return blackjack.strategy(rules, preset=args.preset)


def _veintiuno(args, rules: dict):
    if args.command == "specials":
        packs = rules.pop("packs", "1")
        if rules:
            raise _Refused(f"specials veintiuno: only --rule packs=N applies, not {', '.join(rules)}")
        if not str(packs).isdigit():
            raise _Refused(f"--rule packs={packs}: a whole number of packs")
        return veintiuno.specials_document(int(packs))
    if args.command != "edge":
        raise _Refused(f"{args.command} veintiuno: veintiuno's math is `edge` and `specials`; its player's "
                       "strategy is documented in docs/veintiuno-math.md")
    if args.preset is not None:
        raise _Refused("--preset does not apply to veintiuno")
    if args.strategy not in (None, "documented"):
        raise _Refused(f"--strategy {args.strategy}: veintiuno's edge is for the documented strategies")
    if args.all:
        return veintiuno.grid(rules)
    counts = {k: v for k, v in (("threshold", args.threshold), ("bank_stands", args.bank_stands)) if v is not None}
    return veintiuno.edge(rules, **counts)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        answer = run(argv)
    except (ochko.QuestionError, _Refused) as error:
        sys.stderr.write(" ".join(str(error).split()) + "\n")
        return 2
    sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
