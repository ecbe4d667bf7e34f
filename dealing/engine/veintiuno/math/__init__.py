"""Veintiuno's game math (rules/veintiuno.md), exact in fractions.

Two questions have exact answers here:

- **How often each special hand comes**: the two-card hands (a natural, a moñona, a two-card 12
  suited or not, a relancina, a 13 in two cards) from the pack, counted over every ordered pair of
  cards and classified by the engine's own `veintiuno.rules.Hand`; and the trillona (21 in
  seven cards), which depends on how the hand is played: for the documented strategy below and
  for a player who chases it (draws while under 21).
- **What the bank keeps** from one player heads up, off the top of a full 40-card pack, when the
  player and the bank play the documented strategies:

  - the player declares a natural at once, stands on a moñona or a suited 12, withdraws a 13 in two
    cards (the bet comes back), never opens a pair, never takes a tapo y quedo card, never voids
    the hand, and otherwise draws while the hand counts under `threshold`;
  - the bank draws while it counts under `bank_stands` and stands from there (a two-card 20
    stands: no puje).

  The defaults are the pair found by `grid` over fixed counts: the bank standing on 18 leaves
  the best fixed threshold of the player (standing on 12 or more) the least, and any other
  standing count of the bank leaves some threshold more. The bank plays "by its own choice" (the
  rules), so this is the edge between *these* strategies, not a game-theoretic value;
  `docs/veintiuno-math.md` says so and gives the grid.

The deal is the rules' order: the player's first card, the bank's first, the player's second, the
bank's second; then the player draws from what is left, then the bank. Suits matter in one place
only: whether a two-card 12 (5 + 7, or a picture + 2) is of one suit. For the bank that depends on the
player's two cards, so the deal (four cards) is counted card by card, by value class and suit;
after it only the values matter.
"""

from collections import Counter
from fractions import Fraction
from functools import cache

from ...errors import RoundError
from ...math.questions import QuestionError, Refused
from .. import rules as R

ACE, PICTURE = 0, 7
# The pack by value class: A, 2, 3, 4, 5, 6, 7 and the pictures (J, Q, K count 10).
CLASS_VALUE = (1, 2, 3, 4, 5, 6, 7, 10)
FULL = (4, 4, 4, 4, 4, 4, 4, 12)
BUST = 22
THRESHOLD = 12
BANK_STANDS = 18

# A round's net result for the player, per unit bet.
WIN, LOSE, PUSH = Fraction(1), Fraction(-1), Fraction(0)


def read_rules(rules) -> dict:
    try:
        return R.house_rules(rules or {})
    except RoundError as error:
        raise QuestionError("rules", str(error)) from None


def best_total(hard: int, aces: int) -> int:
    return hard + 10 if aces and hard <= 11 else hard


# --- the special hands -----------------------------------------------------------------------


def specials(packs: int = 1, threshold: int = THRESHOLD) -> dict:
    """The chance of each special hand: the two-card ones counted over every ordered pair of cards
    from `packs` 40-card packs, classified by the engine's `Hand`; the trillona for the documented
    strategy (one pack) and for a player who draws while under 21."""
    if not 1 <= packs <= R.OPTIONS["packs"].maximum:
        raise QuestionError("packs", f"packs must be 1 to {R.OPTIONS['packs'].maximum}")
    cards = list(R.PACK) * packs
    kinds: Counter = Counter()
    pairs = 0
    for i, a in enumerate(cards):
        for j, b in enumerate(cards):
            if i == j:
                continue
            hand = R.Hand("1", 1, None)
            hand.add(R.CARD[a])
            hand.add(R.CARD[b])
            pairs += 1
            kind = hand.kind
            if kind is not None:
                kinds[kind] += 1
            if hand.thirteen:
                kinds["thirteen"] += 1
    chance = {
        "natural": Fraction(kinds[R.NATURAL], pairs),
        "monona": Fraction(kinds[R.MONONA], pairs),
        "suited_twelve": Fraction(kinds[R.SUITED_TWELVE], pairs),
        "twelve": Fraction(kinds[R.TWELVE], pairs),
        "relancina": Fraction(kinds[R.RELANCINA], pairs),
        "thirteen": Fraction(kinds["thirteen"], pairs),
    }
    chance["trillona"] = trillona_played(threshold, packs)
    chance["trillona_chasing"] = _trillona_chasing(packs)
    return chance


def _trillona_chasing(packs: int = 1) -> Fraction:
    """A player who draws while under 21 (a two-card 21 stops; a two-card 20 draws on): the chance
    that the hand ends on 21 with exactly seven cards."""
    full = tuple(n * packs for n in FULL)
    copies: Counter = Counter()
    for code in R.PACK:
        copies[(class_of(code), code[1])] += packs
    total = 0
    for (a, b, suited), orderings in _pairs(copies).items():
        if two_card_value(a, b, suited) == 21:
            continue
        rem = take(take(full, a), b)
        total += orderings * _chase(rem, CLASS_VALUE[a] + CLASS_VALUE[b], (a == ACE) + (b == ACE), 2)
    return Fraction(total, _factorial(sum(full)))


def trillona_played(threshold: int, packs: int = 1) -> Fraction:
    """The chance that a player of the documented strategy (drawing while under `threshold`) ends
    on a trillona. Only the player's own cards matter: the bank's two face-down cards dealt between
    are exchangeable with the rest of the pack, so the player draws as if from the pack less his
    two cards, without solving the bank (the round's solve gives the same tally)."""
    full = tuple(n * packs for n in FULL)
    copies: Counter = Counter()
    for code in R.PACK:
        copies[(class_of(code), code[1])] += packs
    total = 0
    for (a, b, suited), orderings in _pairs(copies).items():
        hard, aces = CLASS_VALUE[a] + CLASS_VALUE[b], (a == ACE) + (b == ACE)
        if (
            two_card_kind(a, b, suited) is not None
            or best_total(hard, aces) == 13
            or two_card_value(a, b, suited) >= threshold
        ):
            continue  # a two-card special, a withdrawn 13 or a standing hand: two cards, no trillona
        for (count, n, left), w in _player(take(take(full, a), b), hard, aces, 2, threshold):
            if count == 21 and n == R.TRILLONA_CARDS:
                total += orderings * w * _factorial(sum(left))
    return Fraction(total, _factorial(sum(full)))


@cache
def _chase(rem: tuple, hard: int, aces: int, n: int) -> int:
    """The orderings of `rem` in which the chasing hand ends on 21 with its seventh card."""
    best = best_total(hard, aces)
    if best >= 21 or n >= R.TRILLONA_CARDS:
        return _factorial(sum(rem)) if best == 21 and n == R.TRILLONA_CARDS else 0
    return sum(
        k * _chase(take(rem, c), hard + CLASS_VALUE[c], aces + (c == ACE), n + 1) for c, k in enumerate(rem) if k
    )


# --- the round, heads up -----------------------------------------------------------------------
#
# Exact in integers: every chance is a count of orderings of the pack. A path of the round that
# draws cards with k1, k2, … copies left of each is weighted k1·k2·…·r! where r cards are left at
# its end (the orderings of the rest complete it), so the paths of any length share the one
# denominator (n)! of the whole pack, and no fraction is reduced on the way.


def take(rem: tuple, c: int) -> tuple:
    return rem[:c] + (rem[c] - 1,) + rem[c + 1 :]


def class_of(code: str) -> int:
    return "A234567".find(code[0]) if code[0] in "A234567" else PICTURE


def is_twelve(a: int, b: int) -> bool:
    """A two-card 12 of the rules (the suit decides whether it counts 20 or 21)."""
    return ACE not in (a, b) and not (a == PICTURE and b == PICTURE) and CLASS_VALUE[a] + CLASS_VALUE[b] == 12


def two_card_value(a: int, b: int, suited: bool) -> int:
    if a == ACE and b == ACE:
        return 21  # moñona
    if {a, b} == {ACE, PICTURE}:
        return 21  # natural
    if a == PICTURE and b == PICTURE:
        return 20  # relancina, or two of one picture
    if is_twelve(a, b):
        return 21 if suited else 20
    return best_total(CLASS_VALUE[a] + CLASS_VALUE[b], (a == ACE) + (b == ACE))


def two_card_kind(a: int, b: int, suited: bool) -> str | None:
    if a == ACE and b == ACE:
        return "monona"
    if {a, b} == {ACE, PICTURE}:
        return "natural"
    if suited and is_twelve(a, b):
        return "suited_twelve"
    return None


def _pairs(copies: dict) -> dict:
    """Ordered pairs of cards from `copies` ({(class, suit): n}) by (class, class, suited): counts."""
    out: Counter = Counter()
    for (a, sa), na in copies.items():
        for (b, sb), nb in copies.items():
            n = na * (nb - 1) if (a, sa) == (b, sb) else na * nb
            if n:
                out[(a, b, sa == sb and is_twelve(a, b))] += n
    return out


@cache
def _deals(packs: int) -> tuple:
    """The deal (the player's two cards, the bank's two) by value class and suitedness:
    ((player a, b, suited), (bank c, d, suited), orderings), summing to n·(n−1)·(n−2)·(n−3)."""
    copies: Counter = Counter()
    for code in R.PACK:
        copies[(class_of(code), code[1])] += packs
    deals: Counter = Counter()
    for (a, sa), na in list(copies.items()):
        for (b, sb), nb in list(copies.items()):
            n = na * (nb - 1) if (a, sa) == (b, sb) else na * nb
            if not n:
                continue
            copies[(a, sa)] -= 1
            copies[(b, sb)] -= 1
            suited = sa == sb and is_twelve(a, b)
            for bank, m in _pairs(copies).items():
                deals[((a, b, suited), bank)] += n * m
            copies[(a, sa)] += 1
            copies[(b, sb)] += 1
    return tuple(deals.items())


@cache
def _factorial(n: int) -> int:
    return 1 if n < 2 else n * _factorial(n - 1)


@cache
def _bank(rem: tuple, hard: int, aces: int, value: int, stands: int) -> tuple:
    """The bank's final count as ((count, weight), …), 22 for over 21, drawing from `rem` while it
    counts under `stands`; the weights sum to (cards in rem)!. `value` is its count now (a
    two-card special counts as the rules say)."""
    if value >= stands:
        return ((min(value, BUST), _factorial(sum(rem))),)
    final: dict[int, int] = {}
    for c, k in enumerate(rem):
        if not k:
            continue
        h, x = hard + CLASS_VALUE[c], aces + (c == ACE)
        best = best_total(h, x)
        for count, w in _bank(take(rem, c), h, x, BUST if best > 21 else best, stands):
            final[count] = final.get(count, 0) + k * w
    return tuple(final.items())


@cache
def _player(rem: tuple, hard: int, aces: int, n: int, threshold: int) -> tuple:
    """The player's drawn hand as ((count, cards, what is left), weight) pairs, weight the product
    of the copies drawn: it draws while under `threshold`; 22 is over 21."""
    best = best_total(hard, aces)
    if best > 21:
        return (((BUST, n, rem), 1),)
    if best >= threshold:
        return (((best, n, rem), 1),)
    out: dict[tuple, int] = {}
    for c, k in enumerate(rem):
        if not k:
            continue
        for end, w in _player(take(rem, c), hard + CLASS_VALUE[c], aces + (c == ACE), n + 1, threshold):
            out[end] = out.get(end, 0) + k * w
    return tuple(out.items())


@cache
def round_distribution(threshold: int, bank_stands: int, suited_pays: int, packs: int = 1) -> dict:
    """The distribution of one round's net result (per unit bet) and two tallies, as Fractions."""
    full = tuple(n * packs for n in FULL)
    results: Counter = Counter()
    tally: Counter = Counter()
    rest_factorial = _factorial(sum(full) - 4)
    for ((a, b, p_suited), (c, d, b_suited)), orderings in _deals(packs):
        rest = take(take(take(take(full, a), b), c), d)
        player_kind = two_card_kind(a, b, p_suited)
        player_value = two_card_value(a, b, p_suited)
        player_hard, player_aces = CLASS_VALUE[a] + CLASS_VALUE[b], (a == ACE) + (b == ACE)
        if player_kind == "natural":
            results[2] += orderings * rest_factorial
            continue
        if best_total(player_hard, player_aces) == 13:
            tally["withdrawn"] += orderings * rest_factorial
            results[0] += orderings * rest_factorial
            continue
        bank_kind = two_card_kind(c, d, b_suited)
        bank_value = two_card_value(c, d, b_suited)
        bank_hard, bank_aces = CLASS_VALUE[c] + CLASS_VALUE[d], (c == ACE) + (d == ACE)
        if player_kind is not None or player_value >= threshold:
            ends = (((player_value, 2, rest), 1),)
        else:
            ends = _player(rest, player_hard, player_aces, 2, threshold)
        special = {"monona": 3, "suited_twelve": suited_pays}.get(player_kind)
        for (count, n, left), w in ends:
            weight = orderings * w
            trillona = count == 21 and n == R.TRILLONA_CARDS
            whole = weight * _factorial(sum(left))
            if trillona:
                tally["trillona"] += whole
            if count == BUST or bank_kind == "natural":
                results[-1] += whole
            elif trillona or special is not None:
                results[7 if trillona else special] += whole
            else:
                wins = sum(
                    bw
                    for bank_count, bw in _bank(left, bank_hard, bank_aces, bank_value, bank_stands)
                    if bank_count == BUST or count > bank_count
                )
                results[1] += weight * wins
                results[-1] += whole - weight * wins
    total = _factorial(sum(full))
    return {
        "results": {Fraction(net): Fraction(w, total) for net, w in results.items()},
        "trillona": Fraction(tally["trillona"], total),
        "withdrawn": Fraction(tally["withdrawn"], total),
    }


def decimal(x: Fraction, digits: int = 16) -> str:
    sign = "-" if x < 0 else ""
    x = abs(x)
    whole, rest = divmod(x.numerator, x.denominator)
    frac = ""
    for _ in range(digits):
        rest *= 10
        d, rest = divmod(rest, x.denominator)
        frac += str(d)
    return f"{sign}{whole}.{frac}"


def edge(rules=None, *, threshold: int = THRESHOLD, bank_stands: int = BANK_STANDS) -> dict:
    """The bank's edge over one player heads up (an `edge/1` document, strategy "documented")."""
    rules = read_rules(rules)
    if not 4 <= threshold <= 21:
        raise QuestionError("threshold", "the player's drawing threshold is a count from 4 to 21")
    if not 4 <= bank_stands <= 21:
        raise QuestionError("bank_stands", "the bank's standing count is from 4 to 21")
    solved = round_distribution(threshold, bank_stands, rules["suited_twelve_pays"], rules["packs"])
    results = solved["results"]
    mean = sum(net * p for net, p in results.items())
    square = sum(net * net * p for net, p in results.items())
    variance = square - mean * mean
    sd = _sqrt(variance)
    return {
        "format": "edge/1",
        "variant": "veintiuno",
        "preset": None,
        "strategy": "documented",
        "house_edge": decimal(-mean),
        "expected_return": decimal(mean),
        "wagered": "1",
        "edge_per_wagered": decimal(-mean),
        "sd": sd,
        "rules": rules,
        "player": {
            "threshold": threshold,
            "declares_naturals": True,
            "withdraws_thirteen": True,
            "opens_pairs": False,
            "tapo_y_quedo": False,
            "voids": False,
        },
        "bank": {"stands_on": bank_stands, "puje": False},
        "probabilities": {
            "total": decimal(sum(results.values())),
            "withdrawn": decimal(solved["withdrawn"]),
            "trillona": decimal(solved["trillona"]),
        },
    }


def grid(rules=None, thresholds=range(12, 21), banks=range(15, 21)) -> list[dict]:
    """The bank's edge for each pair of fixed counts: the player's drawing threshold and the
    count the bank stands on (about a second a pair, cached)."""
    rules = read_rules(rules)
    return [
        {
            "threshold": t,
            "bank_stands": b,
            "house_edge": decimal(-expected_return(t, b, rules["suited_twelve_pays"], rules["packs"])),
        }
        for b in banks
        for t in thresholds
    ]


def forget_solves(*, players_only: bool = False) -> None:
    """Drop the memos of the orderings (the bank's and the player's draws, the chase): the round
    distributions solved with them stay cached, so only a rule set not solved yet pays for them
    again. They hold big integers for every composition of the pack — kept after a warm-up they
    held some 900 MB of a web process for figures already in its caches. `players_only`: the
    player's draws alone, which are kept per drawing threshold and never asked again at another
    (the bank's serve every threshold)."""
    for memo in (_player,) if players_only else (_bank, _player, _chase):
        memo.cache_clear()


def expected_return(
    threshold: int = THRESHOLD, bank_stands: int = BANK_STANDS, suited_pays: int = 2, packs: int = 1
) -> Fraction:
    """The player's exact expected net per unit bet (tests compare a simulation with it)."""
    results = round_distribution(threshold, bank_stands, suited_pays, packs)["results"]
    return sum(net * p for net, p in results.items())


def _sqrt(x: Fraction, digits: int = 16) -> str:
    """√x to `digits` decimal places, rounded down (integer square root: exact digits)."""
    from math import isqrt

    scale = 10**digits
    root = isqrt(x.numerator * scale * scale // x.denominator)
    whole, frac = divmod(root, scale)
    return f"{whole}.{frac:0{digits}d}"


def specials_document(packs: int = 1, threshold: int = THRESHOLD) -> dict:
    """The chances of the special hands as a JSON-able document (decimal strings)."""
    return {
        "format": "specials/1",
        "variant": "veintiuno",
        "packs": packs,
        "player_threshold": threshold,
        "chances": {name: decimal(p) for name, p in specials(packs, threshold).items()},
    }


# --- the command line (math/cli.py) ----------------------------------------------------------------

# The command line's game-specific parts this game takes: the `specials` command, --threshold and --bank-stands.
CLI_EXTRAS = ("specials", "counts")


def cli(args, rules: dict):
    """The answer to `edge|specials veintiuno …` (math/cli.py has parsed it and read its rules)."""
    if args.command == "specials":
        packs = rules.pop("packs", "1")
        if rules:
            raise Refused(f"specials veintiuno: only --rule packs=N applies, not {', '.join(rules)}")
        if not str(packs).isdigit():
            raise Refused(f"--rule packs={packs}: a whole number of packs")
        return specials_document(int(packs))
    if args.command != "edge":
        raise Refused(
            f"{args.command} veintiuno: veintiuno's math is `edge` and `specials`; its player's "
            "strategy is documented in docs/veintiuno-math.md"
        )
    if args.preset is not None:
        raise Refused("--preset does not apply to veintiuno")
    if args.strategy not in (None, "documented"):
        raise Refused(f"--strategy {args.strategy}: veintiuno's edge is for the documented strategies")
    if args.all:
        return grid(rules)
    counts = {k: v for k, v in (("threshold", args.threshold), ("bank_stands", args.bank_stands)) if v is not None}
    return edge(rules, **counts)
