"""How a player plays, from the log alone: every decision against the optimal one, the bet against
the count, entering and leaving shoes at counts, insurance at counts, and the player's edge with its
95 % interval (issue 38, docs/protection.md).

    from dealing.engine import evaluation
    report = evaluation.evaluate(shoes, player="P-23")

`shoes` is one `ShoeLog` per shoe the player sat at: every round of that shoe in order (the other
players' too: they take cards out of the shoe), the packs it was loaded with, and the player's
stakes' net results as the rules owed them (the caller's store has them; settling every round here
again would cost more than the whole evaluation). The game's part — which of a round's events are
the player's decisions and what each option was worth — is the wing's `evaluation` module
(`games.evaluation(variant)`); this module never names a game.

Pure Python, no Django: the figures are floats (statistics), the money the player gave up is Decimal.
"""

import gc
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from . import games

__all__ = ["ShoeLog", "Decision", "RoundPoint", "Session", "Evaluation", "evaluate", "bet_statistics", "edge_interval"]

Z95 = 1.959963984540054
CENT = Decimal("0.01")


@dataclass(frozen=True)
class ShoeLog:
    """One shoe: its rounds in the order dealt (round/1 documents), its packs, and the player's
    stakes' net results (stake key (round id, stake id) -> Σ pay − Σ take as owed)."""

    key: str
    variant: str
    decks: int
    rounds: Sequence[Mapping]
    results: Mapping[tuple, Decimal] = field(default_factory=dict)
    table: str = ""
    # The rounds' ids as the caller keys `results` and links them (its store's); the documents' own
    # ids where not given.
    ids: Sequence[str] | None = None
    # The cards burned between rounds (after loading, on a dealer change, paid), as shoe/1 items
    # ({"e": "burn", "card": …}), each with the index in `rounds` of the round it came before
    # (len(rounds): after the last): they leave the shoe too (protection.shoe_states).
    burns: Sequence[tuple[int, Mapping]] = ()

    def items(self) -> list[Mapping]:
        """The rounds with the burns among them, in the order dealt: what protection.shoe_states reads."""
        if not self.burns:
            return list(self.rounds)
        out: list[Mapping] = []
        burns = sorted(self.burns, key=lambda b: b[0])
        k = 0
        for i, doc in enumerate(self.rounds):
            while k < len(burns) and burns[k][0] <= i:
                out.append(burns[k][1])
                k += 1
            out.append(doc)
        out.extend(item for _i, item in burns[k:])
        return out


@dataclass(slots=True)
class Decision:
    """One decision of the player: what he did, what the optimal play was, and the EV of each in
    units of his wager; `given_up` is the money the deviation cost (negative: it gained)."""

    round_id: str
    stake: str
    hand: str
    situation: str
    chosen: str
    optimal: str
    ev_chosen: float
    ev_optimal: float
    wager: Decimal
    true_count: float

    @property
    def deviation(self) -> bool:
        return self.chosen != self.optimal

    @property
    def ev_lost(self) -> float:
        """EV given up, in units of the wager (0 for a right decision)."""
        return self.ev_optimal - self.ev_chosen

    @property
    def given_up(self) -> Decimal:
        return (self.wager * Decimal(repr(round(self.ev_lost, 6)))).quantize(CENT)


@dataclass(slots=True)
class RoundPoint:
    """One round the player played: the count before it, his wager and net result, his decisions."""

    round_id: str
    shoe: str
    number: int
    true_count: float
    edge: float  # % the composition gives the optimal player
    wager: Decimal
    net: Decimal
    decisions: int
    deviations: int
    ev_lost: Decimal


@dataclass
class Session:
    """The player's consecutive rounds in one shoe: where he came in and left, against the shoe's count."""

    shoe: str
    table: str
    variant: str
    rounds: int
    first_round: int
    last_round: int
    shoe_rounds: int
    entry_count: float
    exit_count: float | None  # the count when he left: None when he stayed to the shoe's end
    shoe_mean_count: float
    wagered: Decimal
    net: Decimal


@dataclass
class Evaluation:
    player: str
    rounds: list[RoundPoint]
    decisions: list[Decision]
    sessions: list[Session]
    insurance: list[Decision]

    def costliest_deviations(self) -> list[Decision]:
        """Every deviation from the optimal play, insurance included, the costliest first (the page's
        and the API's table)."""
        return sorted((d for d in self.decisions + self.insurance if d.deviation), key=lambda d: -d.ev_lost)

    # --- the summary ---------------------------------------------------------------------------

    def summary(self) -> dict:
        played = self.decisions
        deviations = [d for d in played if d.deviation]
        wagered = sum((r.wager for r in self.rounds), Decimal(0))
        net = sum((r.net for r in self.rounds), Decimal(0))
        # Each wager made a float once (a Decimal's float goes through its text): three figures read them.
        weights = [float(r.wager) for r in self.rounds]
        edge, low, high = edge_interval([float(r.net) for r in self.rounds], weights)
        total_w = sum(weights)
        expected = sum(w * r.edge for w, r in zip(weights, self.rounds)) / total_w if total_w else None
        lost = sum((d.given_up for d in deviations), Decimal(0))
        if expected is not None and total_w:
            expected -= 100 * float(lost) / total_w
        mid = [s for s in self.sessions if s.first_round > 1]
        left = [s for s in self.sessions if s.exit_count is not None]
        taken = [d for d in self.insurance if d.chosen != "decline"]
        return {
            "player": self.player,
            "rounds": len(self.rounds),
            "sessions": len(self.sessions),
            "wagered": wagered,
            "net": net,
            "decisions": len(played),
            "deviations": len(deviations),
            "accuracy": (1 - len(deviations) / len(played)) if played else None,
            "ev_given_up": lost,
            "ev_gained": sum((-d.given_up for d in deviations if d.given_up < 0), Decimal(0)),
            "edge": edge,
            "edge_low": low,
            "edge_high": high,
            "expected_edge": expected,
            "bets": bet_statistics([r.true_count for r in self.rounds], weights),
            "entries_mid_shoe": len(mid),
            "entry_count_mean": _mean([s.entry_count for s in mid]),
            "exits_before_end": len(left),
            "exit_count_mean": _mean([s.exit_count for s in left if s.exit_count is not None]),
            "shoe_count_mean": _mean([s.shoe_mean_count for s in self.sessions]),
            "insurance_offered": len(self.insurance),
            "insurance_taken": len(taken),
            "insurance_taken_count_mean": _mean([d.true_count for d in taken]),
            "insurance_declined_count_mean": _mean([d.true_count for d in self.insurance if d.chosen == "decline"]),
            "insurance_right": sum(1 for d in self.insurance if not d.deviation),
        }


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0–100), linear between the order statistics (numpy's default)."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    pos = (len(ordered) - 1) * q / 100
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def bet_statistics(counts: Sequence[float], bets: Sequence[float]) -> dict:
    """The bet against the true count: Pearson correlation, least-squares slope (money per unit of
    count), the intercept, and the bet spread — the 95th over the 5th percentile bet (1 for a flat
    bettor; a 1–8 counter shows near 8). None where the data cannot say (fewer than 2 rounds, or no
    spread in the count or the bet)."""
    n = len(bets)
    out: dict = {"n": n, "correlation": None, "slope": None, "intercept": None, "spread": None}
    if n == 0:
        return out
    low, high = percentile(bets, 5), percentile(bets, 95)
    out["spread"] = high / low if low > 0 else None
    out["bet_p5"], out["bet_p95"] = low, high
    if n < 2:
        return out
    mx, my = sum(counts) / n, sum(bets) / n
    sxx = sum((x - mx) ** 2 for x in counts)
    syy = sum((y - my) ** 2 for y in bets)
    sxy = sum((x - mx) * (y - my) for x, y in zip(counts, bets))
    if sxx > 0:
        out["slope"] = sxy / sxx
        out["intercept"] = my - out["slope"] * mx
    if sxx > 0 and syy > 0:
        out["correlation"] = sxy / math.sqrt(sxx * syy)
    return out


def edge_interval(nets: Sequence[float], wagers: Sequence[float]) -> tuple[float | None, float | None, float | None]:
    """The player's edge Σ net / Σ wagered (a ratio of means, in %) and its 95 % interval by the delta
    method: the rounds are independent draws of (net, wager), so the ratio's standard error is
    sqrt(Σ (net − e·wager)²) / Σ wager (with n/(n−1) for the estimated e). None with fewer than 2 rounds."""
    n = len(nets)
    total = sum(wagers)
    if n == 0 or total <= 0:
        return None, None, None
    e = sum(nets) / total
    if n < 2:
        return 100 * e, None, None
    resid = sum((x - e * w) ** 2 for x, w in zip(nets, wagers)) * n / (n - 1)
    se = math.sqrt(resid) / total
    return 100 * e, 100 * (e - Z95 * se), 100 * (e + Z95 * se)


# --- the walk --------------------------------------------------------------------------------------


def _states(shoe: ShoeLog) -> list:
    from . import protection

    return protection.shoe_states(shoe.variant, shoe.items(), decks=shoe.decks)


def _player_stakes(document: Mapping, player: str) -> list[Mapping]:
    return [s for s in document.get("stakes", ()) if s.get("player") == player]


def evaluate(shoes: Iterable[ShoeLog], *, player: str, states=None) -> Evaluation:
    """The evaluation of `player` over these shoes (see the module), read once in order: a generator
    of shoes is evaluated as it yields them, and nothing here keeps a shoe's rounds once it is done.
    `states`: the shoe states of each shoe (protection.shoe_states), computed here when not given."""
    # A year's walk allocates a hundred thousand objects (states, decisions, rounds) that form no
    # cycle, beside the caller's documents: the cyclic collector, run every few hundred allocations
    # over a heap that keeps growing, would cost more than the walk (docs/benchmarks.md).
    paused = gc.isenabled()
    gc.disable()
    try:
        return _evaluate(shoes, player, states)
    finally:
        if paused:
            gc.enable()


def _evaluate(shoes: Iterable[ShoeLog], player: str, states) -> Evaluation:
    rounds: list[RoundPoint] = []
    decisions: list[Decision] = []
    insurance: list[Decision] = []
    sessions: list[Session] = []
    for i, shoe in enumerate(shoes):
        wing = games.evaluation(shoe.variant)
        shoe_states = states[i] if states is not None else _states(shoe)
        counts = [s.true_count for s in shoe_states]
        session: Session | None = None
        for number, (document, state) in enumerate(zip(shoe.rounds, shoe_states), start=1):
            mine = _player_stakes(document, player)
            if not mine:
                if session is not None:
                    session.exit_count = state.true_count
                    sessions.append(session)
                    session = None
                continue
            round_id = shoe.ids[number - 1] if shoe.ids is not None else str(document.get("id", ""))
            looked = wing.decisions(document, [s["id"] for s in mine], state, round_id)
            plays = [d for d in looked if d.situation != "insurance"]
            insurance.extend(d for d in looked if d.situation == "insurance")
            decisions.extend(plays)
            wager = sum((wing.wager(document, s) for s in mine), Decimal(0))
            net = sum((shoe.results.get((round_id, s["id"]), Decimal(0)) for s in mine), Decimal(0))
            lost = sum((d.given_up for d in looked if d.chosen != d.optimal), Decimal(0))
            rounds.append(
                RoundPoint(
                    round_id,
                    shoe.key,
                    number,
                    state.true_count,
                    state.edge,
                    wager,
                    net,
                    len(plays),
                    sum(1 for d in looked if d.deviation),
                    lost,
                )
            )
            if session is None:
                session = Session(
                    shoe=shoe.key,
                    table=shoe.table,
                    variant=shoe.variant,
                    rounds=0,
                    first_round=number,
                    last_round=number,
                    shoe_rounds=len(shoe.rounds),
                    entry_count=state.true_count,
                    exit_count=None,
                    shoe_mean_count=sum(counts) / len(counts),
                    wagered=Decimal(0),
                    net=Decimal(0),
                )
            session.rounds += 1
            session.last_round = number
            session.wagered += wager
            session.net += net
        if session is not None:
            sessions.append(session)
    return Evaluation(player, rounds, decisions, sessions, insurance)
