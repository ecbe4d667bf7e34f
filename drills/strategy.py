"""The strategy trainer: a hand dealt from the drill's seeded shoe, each decision graded against the
engine's exact `ev/1` for that hand (composition-dependent, docs/analytics-format.md), with the cost
of a mistake in money at the table's stakes.

Every figure comes from the engine's game math (`dealing.engine.math`): the same `ev` functions the
gamemath selectors wrap. The drills may not import the gamemath app (the layers of pyproject.toml
keep the apps independent), so the charts are cached here, per rule set, as gamemath caches them.

Weighting (documented in docs/strategy-trainer.md): each round draws CANDIDATES situations from its
own generator and keeps one with probability proportional to `weight(gap)`, where `gap` is the EV
margin (in initial wagers) between the best and the second-best option of the first decision that
is played from the keyboard. A close but real decision weighs most; a tie (nothing to learn) or a
hand with no decision weighs almost nothing. Same seed, same candidates, same choice: same hands.
"""

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from django.utils.translation import gettext as _

from dealing.engine.cards import RANK_NAMES
from dealing.engine.math import blackjack as bj_math
from dealing.engine.math import ochko as ochko_math
from dealing.engine.math.questions import QuestionError
from dealing.engine.simulators import ochko as ochko_cards
from dealing.engine.simulators.blackjack import cards as bj_cards

CANDIDATES = 6
DRAWS = 10  # cards kept in the round's order for the hits
CENT = Decimal("0.01")
NO_DECISION = Decimal("0.002")  # the weight of a tie or a hand with one option: rarely dealt
GAP_SCALE = Decimal("0.02")  # a gap of 0.02 wagers weighs half of a gap of 0

# The keys of the options (blackjack H S D P; ochko S H D, and the Bet: F, 1–9, 0 for 10).
BJ_KEYS = {"hit": "H", "stand": "S", "double": "D", "split": "P"}
BJ_PLAY = tuple(BJ_KEYS)  # insurance and even money are not trained here
OCHKO_KEYS = {"stand": "S", "hit": "H", "dark": "D"}
BET_KEYS = {"fold": "F", **{f"bet:{k}": str(k % 10) for k in range(1, 11)}}

PHASE_BET, PHASE_PLAY, PHASE_DONE = "bet", "play", "done"


def weight(gap: Decimal | None) -> Decimal:
    """How likely a situation is kept: 1 / (GAP_SCALE + gap), almost nothing for a tie."""
    if gap is None or gap <= 0:
        return NO_DECISION
    return 1 / (GAP_SCALE + gap)


def _gap(options: dict[str, str]) -> Decimal | None:
    values = sorted((Decimal(v) for v in options.values()), reverse=True)
    return values[0] - values[1] if len(values) > 1 else None


# --- the engine's answers -------------------------------------------------------------------------

def ask(variant: str, preset: str, cards: list[str], dealer: str | None, bet: int | None) -> dict:
    """The engine's `ev/1` for the hand, with the options the trainer offers (blackjack: no insurance)."""
    if variant == "blackjack":
        doc = bj_math.ev(cards, dealer=dealer, preset=preset or "salon")
        options = {k: v for k, v in doc["options"].items() if k in BJ_PLAY}
    else:
        doc = ochko_math.ev(cards, dealer=dealer, bet=bet)
        options = dict(doc["options"])
    best = max(options, key=lambda k: Decimal(options[k]))  # dicts keep the contract's tie order
    return {"options": options, "best": best, "engine_best": doc["best"]}


@lru_cache(maxsize=4)
def _bj_chart(preset: str) -> dict:
    return bj_math.strategy(preset=preset)


@lru_cache(maxsize=16)
def _ochko_chart(bet: int) -> dict:
    return ochko_math.strategy(bet)


def _up_name(code: str) -> str:
    """A blackjack card as the charts name it: every ten-valued card is T."""
    return "T" if code[0] in "TJQK" else code[0]


def chart_action(variant: str, preset: str, cards: list[str], dealer: str | None, bet: int | None,
                 offered: dict) -> str | None:
    """What the total-dependent chart (`strategy/1`) plays here, or None where it has no cell
    (ochko's Bet decision is the chart's `bet_decision`)."""
    if variant == "blackjack":
        chart = _bj_chart(preset or "salon")
        column = chart["up_cards"].index(_up_name(dealer))
        values = [bj_cards.VALUE[c[0]] for c in cards]
        if len(cards) == 2 and values[0] == values[1]:
            name = _up_name(cards[0])
            row = next(r for r in chart["pairs"] if r["hand"] == f"{name},{name}")
            if row["cells"][column]["action"] == "split":
                return "split"
        best, soft = bj_cards.total(cards)
        row = next((r for r in chart["soft" if soft else "hard"] if r["total"] == best), None)
        if row is None:
            return None
        cell = row["cells"][column]
        return cell["action"] if cell["action"] in offered and cell["action"] != "split" else cell["fallback"]
    if dealer is None:
        return _ochko_chart(1)["bet_decision"][cards[0][0]]["action"]
    chart = _ochko_chart(bet)
    key = ("one_card", cards[0][0]) if len(cards) == 1 else ("total", str(ochko_cards.total(cards)))
    row = next((r for r in chart["rows"] if (r["kind"], r["hand"]) == key), None)
    cell = row["cells"].get(dealer[0]) if row else None
    return cell["action"] if cell else None


# --- situations -----------------------------------------------------------------------------------

def situation(variant: str, cards: list[str], dealer: str | None, bet: int | None) -> str:
    """The situation as a trainee's mistakes are listed: "soft 18 vs 9", "pair of 8s vs 10",
    "15 vs 9 (Bet 3)", "first card 8: fold/bet"."""
    if variant == "blackjack":
        up = _up_name(dealer)
        values = [bj_cards.VALUE[c[0]] for c in cards]
        if len(cards) == 2 and values[0] == values[1]:
            name = _up_name(cards[0])
            return _("pair of %(rank)ss vs %(up)s") % {"rank": name, "up": up}
        best, soft = bj_cards.total(cards)
        kind = _("soft") if soft else _("hard")
        return f"{kind} {best} vs {up}"
    if dealer is None:
        return _("first card %(rank)s: fold/bet") % {"rank": RANK_NAMES.get(cards[0][0], cards[0][0])}
    return _("%(total)s vs %(up)s (Bet %(bet)s)") % {
        "total": ochko_cards.total(cards), "up": RANK_NAMES.get(dealer[0], dealer[0]), "bet": bet}


# --- dealing --------------------------------------------------------------------------------------

def _pack(variant: str, preset: str) -> list[str]:
    if variant == "blackjack":
        decks = bj_math.read_rules(preset or "salon", None)["decks"]
        return [r + s for r in bj_cards.RANKS for s in "SHDC"] * decks
    return [r + s for r in ochko_cards.RANKS for s in "SHDC"] * ochko_cards.DECKS


def _candidate(variant: str, preset: str, rng) -> tuple[dict, Decimal | None]:
    """One situation (the hand's first cards, the dealer's up card, the cards a hit will take) and
    the gap of its first decision played from the keyboard."""
    drawn = rng.sample(_pack(variant, preset), 3 + DRAWS)
    if variant == "blackjack":
        hand = {"cards": drawn[:2], "dealer": drawn[2], "draws": drawn[3:]}
        if bj_cards.natural(hand["cards"]):
            return hand, None
        return hand, _gap(ask(variant, preset, hand["cards"], hand["dealer"], None)["options"])
    hand = {"cards": drawn[:1], "dealer": drawn[1], "draws": drawn[2:]}
    first = ask(variant, preset, hand["cards"], None, None)
    gaps = [_gap(first["options"])]
    if first["best"] != "fold":
        bet = int(first["best"].split(":")[1])
        gaps.append(_gap(ask(variant, preset, hand["cards"], hand["dealer"], bet)["options"]))
    real = [g for g in gaps if g is not None and g > 0]
    return hand, min(real) if real else None


def deal(variant: str, preset: str, rng, *, weighted: bool = True) -> dict:
    """The round's hand: one of CANDIDATES situations, kept by `weight` (uniform when not `weighted`)."""
    candidates = [_candidate(variant, preset, rng) for _k in range(CANDIDATES)]
    weights = [float(weight(gap)) if weighted else 1.0 for _hand, gap in candidates]
    hand, gap = rng.choices(candidates, weights=weights)[0]
    return {**hand, "gap": None if gap is None else str(gap)}


def start_state(variant: str, hand: dict) -> dict:
    """What the round's script keeps while the hand is played."""
    return {"phase": PHASE_BET if variant == "ochko" else PHASE_PLAY, "cards": list(hand["cards"]),
            "bet": None, "drawn": 0, "end": ""}


# --- the decision in play -------------------------------------------------------------------------

@dataclass
class Decision:
    situation: str
    cards: list[str]
    dealer: str | None  # ochko's Bet is chosen before the dealer opens his card
    bet: int | None
    options: dict[str, str]  # option → EV in initial wagers, as the engine writes it
    keys: dict[str, str]  # option → key letter
    best: str
    chart: str | None


def decision(variant: str, preset: str, doc: dict, state: dict, *, with_chart: bool = False) -> Decision | None:
    """The decision in play; `with_chart` looks the chart's play up too (grading: a chart is solved
    once per rule set and Bet, seconds cold, so showing the hand does not wait for it)."""
    if state["phase"] == PHASE_DONE:
        return None
    bet_phase = state["phase"] == PHASE_BET
    dealer = None if bet_phase else doc["dealer"]
    bet = None if variant == "blackjack" or bet_phase else state["bet"]
    asked = ask(variant, preset, state["cards"], dealer, bet)
    keys = BET_KEYS if bet_phase else (BJ_KEYS if variant == "blackjack" else OCHKO_KEYS)
    return Decision(situation(variant, state["cards"], dealer, bet), list(state["cards"]), dealer, bet,
                    asked["options"], {k: keys[k] for k in asked["options"]}, asked["best"],
                    chart_action(variant, preset, state["cards"], dealer, bet, asked["options"]) if with_chart else None)


def choose(d: Decision, choice: str) -> str | None:
    """The option named by `choice` (its key letter, case-insensitive, or its name), or None."""
    text = str(choice).strip()
    if text in d.options:
        return text
    return next((o for o, k in d.keys.items() if k.upper() == text.upper()), None)


def cost(d: Decision, chosen: str, wager: Decimal) -> Decimal:
    """(EV(best) − EV(chosen)) × the initial wager, to the cent."""
    gap = Decimal(d.options[d.best]) - Decimal(d.options[chosen])
    return (gap * wager).quantize(CENT, rounding=ROUND_HALF_UP)


def advance(variant: str, doc: dict, state: dict, chosen: str) -> dict:
    """The state after the option chosen: a hit takes the next card of the round's order; the hand
    ends on stand, double, split (its hands are not played on here), a dark card, a fold, a bust,
    21 or ochko."""
    state = {**state, "cards": list(state["cards"])}
    if state["phase"] == PHASE_BET:
        if chosen == "fold":
            return {**state, "phase": PHASE_DONE, "end": "fold"}
        return {**state, "phase": PHASE_PLAY, "bet": int(chosen.split(":")[1])}
    if chosen != "hit":
        return {**state, "phase": PHASE_DONE, "end": chosen}
    state["cards"].append(doc["draws"][state["drawn"]])
    state["drawn"] += 1
    if variant == "blackjack":
        total, _soft = bj_cards.total(state["cards"])
        if total > 21:
            return {**state, "phase": PHASE_DONE, "end": "bust"}
        if total == 21:
            return {**state, "phase": PHASE_DONE, "end": "21"}
        return state
    score = ochko_cards.score(state["cards"])
    if score is None:
        return {**state, "phase": PHASE_DONE, "end": "mnogo"}
    if score == 21:
        return {**state, "phase": PHASE_DONE, "end": "ochko"}
    if state["drawn"] >= len(doc["draws"]):  # pragma: no cover - ten small cards in a row
        return {**state, "phase": PHASE_DONE, "end": "stand"}
    return state


def warm() -> None:
    """Solve the charts the trainer compares with (both blackjack presets, ochko's ten Bets)."""
    for preset in ("salon", "online"):
        _bj_chart(preset)
    for bet in range(1, 11):
        _ochko_chart(bet)


__all__ = ["QuestionError", "Decision", "advance", "choose", "cost", "deal", "decision", "situation", "weight"]
