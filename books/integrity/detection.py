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
- ADVANTAGE_PLAY: a player's wager moves with the true count of the shoe before the round (the
  count reconstructed from the log, engine/protection.py) — Spearman's rank correlation of the
  round-to-round changes of his wager with those of the true count, over every round of the shoes
  he played in (0 for a round he sat out, so wonging in at high counts and out at low ones counts
  too), one-sided, its variance corrected for the autocorrelation of both series (Bartlett): the
  normal approximation z = r / √var.
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
ADVANTAGE_PLAY = "advantage_play"
KINDS = (
    FAVOURED_PLAYER,
    FAVOURED_BOX,
    LEAN,
    PLAYER_RESULTS,
    INCIDENTS_DEALER,
    INCIDENTS_TABLE,
    PROCEDURE,
    ADVANTAGE_PLAY,
)

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
    # Rounds of the counted shoes a player sat in (exposure: whether or not he bet in each) before his
    # wager is tested against the count.
    min_count_rounds: int = 150


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


@dataclass(frozen=True)
class CountedRound:
    """A round of a counted shoe (a game with a count: engine/protection.py), in the order dealt: the
    true count of the shoe before it and each player's wager in it (main wagers, doubles left out:
    what he chose before seeing a card)."""

    round_id: int
    table: int
    shoe: int
    game: str
    true_count: float
    wagers: tuple[tuple[str, Decimal], ...]


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


def _ranks(values: list[float]) -> list[float]:
    """Average ranks (ties share the mean of their places)."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        mean = (i + j) / 2 + 1
        for k in range(i, j + 1):
            ranks[order[k]] = mean
        i = j + 1
    return ranks


def _autocorrelations(centered: list[float], lags: int) -> list[float]:
    ss = math.fsum(v * v for v in centered)
    n = len(centered)
    return [math.fsum(centered[i] * centered[i + k] for i in range(n - k)) / ss for k in range(1, lags + 1)]


ADVANTAGE_TEST = "Spearman rank correlation of the changes of wager and true count, autocorrelation-corrected"
MAX_LAG = 40  # the count is autocorrelated across a shoe's rounds (a 6-deck shoe: 20 to 30 rounds)


def rank_correlation(x: list[float], y: list[float]) -> tuple[float, float, float]:
    """Spearman's r of two series in time order, the effective number of pairs once both series'
    autocorrelations are allowed for (Bartlett: var r ≈ (1 + 2 Σ ρx(k) ρy(k)) / n), and the one-sided
    p-value of r > 0 from the normal approximation. (0, n, 1) when either series is constant."""
    n = len(x)
    rx, ry = _ranks(x), _ranks(y)
    mx, my = math.fsum(rx) / n, math.fsum(ry) / n
    cx, cy = [v - mx for v in rx], [v - my for v in ry]
    sx, sy = math.fsum(v * v for v in cx), math.fsum(v * v for v in cy)
    if not sx or not sy:
        return 0.0, float(n), 1.0
    r = math.fsum(a * b for a, b in zip(cx, cy)) / math.sqrt(sx * sy)
    lags = min(MAX_LAG, n // 4)
    inflation = 1.0 + 2.0 * math.fsum(a * b for a, b in zip(_autocorrelations(cx, lags), _autocorrelations(cy, lags)))
    effective = (n - 1) / max(1.0, inflation) + 1
    return r, effective, norm_sf(r * math.sqrt(effective - 1))


def advantage_play(counted: list[CountedRound], t: Thresholds) -> list[Candidate]:
    """Per game and player with at least `min_count_rounds` rounds in the shoes he played: does his
    wager rise and fall with the true count? Every round of those shoes enters, his wager 0 where he
    sat out. The test correlates the changes from one round of a shoe to the next — of his wager
    with those of the count — not their levels: an honest player's wager that drifts over a session
    and a count that drifts over a shoe correlate by chance far more often than independent pairs
    would (the levels are autocorrelated; measured in docs/benchmarks.md), while the count's changes
    are close to independent. Bartlett's correction covers what autocorrelation is left."""
    shoes: dict[tuple[str, int], list[CountedRound]] = defaultdict(list)
    for c in counted:
        shoes[(c.game, c.shoe)].append(c)
    series: dict[tuple[str, str], list[tuple[CountedRound, Decimal]]] = defaultdict(list)
    # the changes from one round of a shoe to the next: (change of the true count, of his wager)
    changes: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    for (game, _shoe), rounds in sorted(shoes.items()):
        players = sorted({p for c in rounds for p, _w in c.wagers if p})
        for player in players:
            before: tuple[CountedRound, Decimal] | None = None
            for c in rounds:
                mine = sum((w for p, w in c.wagers if p == player), Decimal("0"))
                series[(game, player)].append((c, mine))
                if before is not None:
                    changes[(game, player)].append((c.true_count - before[0].true_count, float(mine - before[1])))
                before = (c, mine)
    out = []
    for (game, player), rows in sorted(series.items()):
        n = len(rows)
        if n < t.min_count_rounds:
            continue
        counts = [c.true_count for c, _w in rows]
        steps = changes[(game, player)]
        r, effective, p = rank_correlation([a for a, _b in steps], [b for _a, b in steps])
        if r == 0.0 and p == 1.0:
            continue  # one wager throughout, never sitting out: nothing to correlate
        played = [(c, w) for c, w in rows if w > 0]
        low = [w for c, w in played if c.true_count < 1]
        high = [w for c, w in played if c.true_count >= 2]
        out.append(
            Candidate(
                ADVANTAGE_PLAY,
                f"{ADVANTAGE_PLAY}:{game}:{player}",
                player=player,
                table=rows[0][0].table,
                statistic=r,
                p_value=p,
                round_ids=_ids([c for c, w in played if c.true_count >= 2]),
                evidence={
                    "test": ADVANTAGE_TEST,
                    "game": game,
                    "rounds_in_shoes": n,
                    "rounds_played": len(played),
                    "spearman": round(r, 6),
                    "effective_rounds": round(effective, 1),
                    "mean_true_count_played": round(math.fsum(c.true_count for c, _w in played) / len(played), 3)
                    if played
                    else None,
                    "mean_true_count_all": round(math.fsum(counts) / n, 3),
                    "mean_wager_low_count": _money(sum(low, Decimal("0")) / len(low)) if low else None,
                    "mean_wager_high_count": _money(sum(high, Decimal("0")) / len(high)) if high else None,
                },
            )
        )
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
    counted: list[CountedRound] | None = None,
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
        *advantage_play(counted or [], t),
    ]
    adjusted = holm([c.p_value for c in candidates]) if correct else [c.p_value for c in candidates]
    for c, p in zip(candidates, adjusted, strict=True):
        c.p_adjusted = p
        c.evidence["tests_in_scan"] = len(candidates)
    return Scan(candidates, t.alpha)
