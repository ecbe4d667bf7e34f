"""Integrity signals: which dealer, player, box or table patterns look like more than chance.

Pure functions over plain records (no Django): `books.integrity.selectors` reads the records of a
period, `scan` runs every test below on them, and `books.integrity.services` stores what it flags.
docs/signals.md describes each kind, its test and its settings.

Every test is one-sided (only the direction that costs the house, or that points at a dealer, is
suspicious) and gives an exact or a normal-approximation p-value under a null hypothesis of an
honest floor. The p-values of one scan are adjusted together by Holm's step-down method, so the
chance that an honest floor raises any signal in a scan is at most `alpha`, however many dealers,
players, boxes and tables were tested. A test runs only when its subject has enough data
(`min_count`, `min_stakes`, `min_rounds`); those minimums look only at the exposure (errors made,
stakes played, rounds dealt), never at the counts the test is about, so the level holds.

The kinds:

- FAVOURED_PLAYER / FAVOURED_BOX: a dealer's errors in the player's favour go to one player (one
  box of one table) more often than that player's (box's) share of the dealer's stakes — binomial
  upper tail, X ~ Bin(errors in favour by the dealer, share).
- LEAN: a dealer's payment errors are overpayments more often than the rest of the floor's — the
  one-sided Fisher exact test (hypergeometric upper tail); or, with `lean_p0` set, more often than
  that share — binomial upper tail (sign test), X ~ Bin(errors, lean_p0).
- PLAYER_RESULTS: a player's result per unit wagered is above the floor's mean for the game
  beyond chance — z-test of the mean with the floor's standard deviation per unit wagered.
- INCIDENTS_DEALER / INCIDENTS_TABLE: exposed cards and misdraws fall on one dealer (table) more
  than its share of the rounds — binomial upper tail, X ~ Bin(incidents, share of the rounds).
- PROCEDURE: the audit's shoe findings on burns and reshuffles (BURN_COUNT, BURN_FEE,
  RESHUFFLE_POINT) fall on one dealer more than his share of the rounds — the same test.
"""

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from ..stats import binom_sf, holm, hypergeom_sf, norm_sf

FAVOURED_PLAYER = "favoured_player"
FAVOURED_BOX = "favoured_box"
LEAN = "lean"
PLAYER_RESULTS = "player_results"
INCIDENTS_DEALER = "incidents_dealer"
INCIDENTS_TABLE = "incidents_table"
PROCEDURE = "procedure"
KINDS = (FAVOURED_PLAYER, FAVOURED_BOX, LEAN, PLAYER_RESULTS, INCIDENTS_DEALER, INCIDENTS_TABLE, PROCEDURE)

# The audit's shoe findings that say a burn or a reshuffle was not done by the procedure.
PROCEDURE_CODES = ("BURN_COUNT", "BURN_FEE", "RESHUFFLE_POINT")

MAX_ROUND_IDS = 500  # the rounds a signal keeps as its evidence (the first, by id)


@dataclass(frozen=True)
class Thresholds:
    alpha: float = 0.01  # the family-wise level of one scan (Holm)
    min_count: int = 10  # errors of a dealer, incidents or procedure findings of the floor
    min_stakes: int = 20  # stakes of a player (box) with a dealer before his share is tested
    min_rounds: int = 100  # rounds of a dealer or table before its share of incidents is tested
    min_player_stakes: int = 200  # stakes of a player in a game before his results are tested
    # The share of overpayments among an honest dealer's payment errors; None: whatever the rest of
    # the floor's is (the games' honest mistakes are not symmetric: a settlement forgotten or made
    # twice favours the player more often than not).
    lean_p0: float | None = None


@dataclass(frozen=True)
class StakeRow:
    """One stake of a round in force: who played which box with which dealer, for how much, and
    what he got (`paid`: Σ pay − Σ take as logged) against what he was owed (`owed`)."""

    round_id: int
    dealer: int
    table: int
    box: int | None
    player: str
    game: str
    wagered: Decimal
    owed: Decimal | None
    paid: Decimal | None

    @property
    def error(self) -> Decimal:
        """What the player received beyond what he was owed (0 without both figures)."""
        if self.owed is None or self.paid is None:
            return Decimal("0")
        return self.paid - self.owed


@dataclass(frozen=True)
class EventRow:
    """An incident (exposed card, misdraw) or a procedure finding, and whose it is."""

    dealer: int | None
    table: int
    round_id: int | None


@dataclass
class Candidate:
    """One test of a scan: its subject, statistic, p-value and evidence; `p_adjusted` after Holm."""

    kind: str
    key: str  # the subject, stable across scans: "favoured_player:d12:alice"
    dealer: int | None = None
    player: str = ""
    box: int | None = None
    table: int | None = None
    statistic: float = 0.0
    p_value: float = 1.0
    p_adjusted: float = 1.0
    evidence: dict = field(default_factory=dict)
    round_ids: list = field(default_factory=list)


# --- the evidence (the distributions and Holm: books/stats.py) ------------------------------------


def _ids(rows) -> list[int]:
    return sorted({r.round_id for r in rows if r.round_id is not None})[:MAX_ROUND_IDS]


def _money(value: Decimal) -> str:
    return f"{value:.2f}"


# --- the tests ------------------------------------------------------------------------------------


def favoured(stakes: list[StakeRow], t: Thresholds) -> list[Candidate]:
    """Per dealer with at least `min_count` errors in the players' favour: for each player (and each
    box of a table) with at least `min_stakes` of his stakes, is his share of those errors above his
    share of the stakes?"""
    by_dealer: dict[int, list[StakeRow]] = defaultdict(list)
    for s in stakes:
        by_dealer[s.dealer].append(s)
    out = []
    for dealer, rows in sorted(by_dealer.items()):
        gifts = [s for s in rows if s.error > 0]
        n = len(gifts)
        if n < t.min_count:
            continue
        for kind, subject in ((FAVOURED_PLAYER, lambda s: s.player), (FAVOURED_BOX, lambda s: (s.table, s.box))):
            played = Counter(subject(s) for s in rows if kind == FAVOURED_PLAYER or s.box is not None)
            got = defaultdict(list)
            for s in gifts:
                got[subject(s)].append(s)
            for who, count in sorted(played.items(), key=lambda kv: str(kv[0])):
                if count < t.min_stakes or (kind == FAVOURED_PLAYER and not who):
                    continue
                share = count / len(rows)
                mine = got.get(who, [])
                x = len(mine)
                expected = n * share
                c = Candidate(
                    kind,
                    "",
                    dealer=dealer,
                    statistic=x / expected if expected else 0.0,
                    p_value=binom_sf(x, n, share),
                    round_ids=_ids(mine),
                )
                if kind == FAVOURED_PLAYER:
                    c.player, c.key = who, f"{kind}:d{dealer}:{who}"
                else:
                    c.table, c.box = who
                    c.key = f"{kind}:d{dealer}:t{who[0]}:b{who[1]}"
                c.evidence = {
                    "test": "binomial upper tail",
                    "errors_in_favour": n,
                    "to_subject": x,
                    "expected": round(expected, 3),
                    "share_of_stakes": round(share, 6),
                    "stakes_of_subject": count,
                    "stakes_of_dealer": len(rows),
                    "money_to_subject": _money(sum((s.error for s in mine), Decimal("0"))),
                }
                out.append(c)
    return out


def lean(stakes: list[StakeRow], t: Thresholds) -> list[Candidate]:
    """Per dealer with at least `min_count` payment errors: are more of them overpayments than an
    honest dealer's? Against the rest of the floor (`lean_p0` None): the one-sided Fisher exact
    test — under the null every dealer's errors are overpayments with one common probability, and
    given the floor's totals the dealer's overpayments are hypergeometric. Against a fixed share
    `lean_p0`: the binomial sign test."""
    by_dealer: dict[int, list[StakeRow]] = defaultdict(list)
    for s in stakes:
        if s.error != 0:
            by_dealer[s.dealer].append(s)
    errors_total = sum(len(e) for e in by_dealer.values())
    over_total = sum(1 for e in by_dealer.values() for s in e if s.error > 0)
    out = []
    for dealer, errors in sorted(by_dealer.items()):
        n = len(errors)
        if n < t.min_count:
            continue
        over = [s for s in errors if s.error > 0]
        under = [s for s in errors if s.error < 0]
        evidence = {
            "errors": n,
            "overpayments": len(over),
            "underpayments": len(under),
            "overpaid": _money(sum((s.error for s in over), Decimal("0"))),
            "underpaid": _money(-sum((s.error for s in under), Decimal("0"))),
        }
        if t.lean_p0 is None:
            rest_n, rest_over = errors_total - n, over_total - len(over)
            if rest_n < t.min_count:
                continue  # nobody to compare him with
            p = hypergeom_sf(len(over), errors_total, over_total, n)
            evidence.update(
                test="one-sided Fisher exact test against the rest of the floor",
                floor_errors=rest_n,
                floor_overpayments=rest_over,
                floor_share=round(rest_over / rest_n, 6),
            )
        else:
            p = binom_sf(len(over), n, t.lean_p0)
            evidence.update(test="binomial upper tail (sign test)", p0=t.lean_p0)
        out.append(
            Candidate(
                LEAN,
                f"{LEAN}:d{dealer}",
                dealer=dealer,
                statistic=len(over) / n,
                p_value=p,
                round_ids=_ids(over),
                evidence=evidence,
            )
        )
    return out


def player_results(stakes: list[StakeRow], t: Thresholds) -> list[Candidate]:
    """Per game and player with at least `min_player_stakes` stakes: is his mean result per unit
    wagered above the floor's for that game beyond chance? z = (mean − floor mean) / (sd / √n)."""
    by_game: dict[str, list[tuple[StakeRow, float]]] = defaultdict(list)
    for s in stakes:
        if s.paid is not None and s.wagered > 0 and s.player:
            by_game[s.game].append((s, float(s.paid / s.wagered)))
    out = []
    for game, rows in sorted(by_game.items()):
        if len(rows) < 2:
            continue
        values = [v for _s, v in rows]
        mean = math.fsum(values) / len(values)
        sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1))
        if sd == 0:
            continue
        players: dict[str, list] = defaultdict(list)
        for s, v in rows:
            players[s.player].append((s, v))
        for player, mine in sorted(players.items()):
            n = len(mine)
            if n < t.min_player_stakes:
                continue
            own = math.fsum(v for _s, v in mine) / n
            z = (own - mean) / (sd / math.sqrt(n))
            won = sum((s.paid for s, _v in mine), Decimal("0"))
            wagered = sum((s.wagered for s, _v in mine), Decimal("0"))
            out.append(
                Candidate(
                    PLAYER_RESULTS,
                    f"{PLAYER_RESULTS}:{game}:{player}",
                    player=player,
                    statistic=z,
                    p_value=norm_sf(z),
                    round_ids=_ids([s for s, _v in mine if s.paid > 0]),
                    evidence={
                        "test": "z-test of the mean result per unit wagered",
                        "game": game,
                        "stakes": n,
                        "mean_per_unit": round(own, 6),
                        "floor_mean_per_unit": round(mean, 6),
                        "floor_sd_per_unit": round(sd, 6),
                        "won": _money(won),
                        "wagered": _money(wagered),
                    },
                )
            )
    return out


def concentration(
    kind: str, events: list[EventRow], rounds_by: dict, by: str, t: Thresholds, what: str
) -> list[Candidate]:
    """Per dealer (`by="dealer"`) or table with at least `min_rounds` rounds, when the floor has at
    least `min_count` events: does it have more of them than its share of the floor's rounds?"""
    events = [e for e in events if getattr(e, by) in rounds_by]
    n = len(events)
    total = sum(rounds_by.values())
    if n < t.min_count or not total:
        return []
    mine: dict = defaultdict(list)
    for e in events:
        mine[getattr(e, by)].append(e)
    out = []
    for subject, rounds in sorted(rounds_by.items()):
        if rounds < t.min_rounds:
            continue
        share = rounds / total
        x = len(mine.get(subject, []))
        expected = n * share
        c = Candidate(
            kind,
            f"{kind}:{by[0]}{subject}",
            statistic=x / expected if expected else 0.0,
            p_value=binom_sf(x, n, share),
            round_ids=_ids(mine.get(subject, [])),
            evidence={
                "test": "binomial upper tail",
                "what": what,
                "events": n,
                "of_subject": x,
                "expected": round(expected, 3),
                "rounds_of_subject": rounds,
                "rounds": total,
                "share_of_rounds": round(share, 6),
            },
        )
        setattr(c, by, subject)
        out.append(c)
    return out


@dataclass
class Scan:
    """Every test of a scan with its Holm-adjusted p-value; `flagged` those at or below alpha."""

    candidates: list[Candidate]
    alpha: float

    @property
    def flagged(self) -> list[Candidate]:
        return [c for c in self.candidates if c.p_adjusted <= self.alpha]


def scan(
    *,
    stakes: list[StakeRow],
    incidents: list[EventRow],
    procedure: list[EventRow],
    rounds_by_dealer: dict,
    rounds_by_table: dict,
    thresholds: Thresholds,
    correct: bool = True,
) -> Scan:
    """All the tests of one period, adjusted together (`correct=False` leaves them unadjusted: for
    showing what the correction buys, never for storing)."""
    t = thresholds
    candidates = [
        *favoured(stakes, t),
        *lean(stakes, t),
        *player_results(stakes, t),
        *concentration(INCIDENTS_DEALER, incidents, rounds_by_dealer, "dealer", t, "incidents"),
        *concentration(INCIDENTS_TABLE, incidents, rounds_by_table, "table", t, "incidents"),
        *concentration(PROCEDURE, procedure, rounds_by_dealer, "dealer", t, "burn and reshuffle findings"),
    ]
    adjusted = holm([c.p_value for c in candidates]) if correct else [c.p_value for c in candidates]
    for c, p in zip(candidates, adjusted, strict=True):
        c.p_adjusted = p
        c.evidence["tests_in_scan"] = len(candidates)
    return Scan(candidates, t.alpha)
