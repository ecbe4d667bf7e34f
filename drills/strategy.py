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

from dealing.engine.blackjack import math as bj_math
from dealing.engine.blackjack.simulator import cards as bj_cards
from dealing.engine.cards import RANK_NAMES
from dealing.engine.math.questions import QuestionError
from dealing.engine.ochko import math as ochko_math
from dealing.engine.ochko import rules as ochko_rules
from dealing.engine.ochko import simulator as ochko_cards
from dealing.engine.veintiuno import rules as veintiuno_rules
from dealing.engine.veintiuno.math import ev as veintiuno_ev

CANDIDATES = 6
DRAWS = 10  # cards kept in the round's order for the hits
CENT = Decimal("0.01")
NO_DECISION = Decimal("0.002")  # the weight of a tie or a hand with one option: rarely dealt
GAP_SCALE = Decimal("0.02")  # a gap of 0.02 wagers weighs half of a gap of 0

# The keys of the options (blackjack H S D P; ochko S H D, and the Bet: F, 1–9, 0 for 10).
BJ_KEYS = {"hit": "H", "stand": "S", "double": "D", "split": "P", "even_money": "E"}
BJ_PLAY = tuple(BJ_KEYS)  # insurance is a decision of its own, before the play
INSURANCE_KEYS = {"insurance": "I", "no_insurance": "N"}
INSURANCE_STAKE = Decimal("0.5")  # the insurance taken in full: half the bet (rules/blackjack.md)
OCHKO_KEYS = {"stand": "S", "hit": "H", "dark": "D"}
VEINTIUNO_KEYS = {"stand": "S", "hit": "H", "tapo": "T", "withdraw": "W"}
BET_KEYS = {"fold": "F", **{f"bet:{k}": str(k % 10) for k in range(1, 11)}}
OCHKO_RULES = ("dark_win_bet", "dark_double_bust_bet")  # the house rules that change the box's EVs
EXTRA_DRAWS = 20  # blackjack: more cards of the round's order, for split hands

PHASE_BET, PHASE_INSURANCE, PHASE_PLAY, PHASE_DONE = "bet", "insurance", "play", "done"


def weight(gap: Decimal | None) -> Decimal:
    """How likely a situation is kept: 1 / (GAP_SCALE + gap), almost nothing for a tie."""
    if gap is None or gap <= 0:
        return NO_DECISION
    return 1 / (GAP_SCALE + gap)


def _gap(options: dict[str, str]) -> Decimal | None:
    values = sorted((Decimal(v) for v in options.values()), reverse=True)
    return values[0] - values[1] if len(values) > 1 else None


# --- the engine's answers -------------------------------------------------------------------------

def _best(options: dict[str, str]) -> str:
    return max(options, key=lambda k: Decimal(options[k]))  # dicts keep the contract's tie order


def ask(variant: str, preset: str, cards: list[str], dealer: str | None, bet: int | None, *,
        hands: int = 1, removed: tuple = (), rules: dict | None = None) -> dict:
    """The engine's `ev/1` for the hand, with the options the trainer offers at the play (blackjack:
    insurance is asked apart, `ask_insurance`; `hands` > 1: a hand made by splitting, the other
    hands' cards `removed`). Ochko: the table's house `rules`."""
    if variant == "blackjack":
        doc = bj_math.ev(cards, dealer=dealer, preset=preset or "salon", hands=hands, removed=list(removed))
        options = {k: v for k, v in doc["options"].items() if k in BJ_PLAY}
    elif variant == "veintiuno":
        doc = veintiuno_ev.ev(cards, bank=dealer, rules=dict(rules or {}))
        options = dict(doc["options"])
    else:
        doc = ochko_math.ev(cards, dealer=dealer, bet=bet, rules=dict(rules or {}))
        options = dict(doc["options"])
    return {"options": options, "best": _best(options), "engine_best": doc["best"]}


def ask_insurance(preset: str, cards: list[str], dealer: str) -> dict | None:
    """Insurance against the dealer's ace, in initial wagers: the engine's EV per unit of insurance
    times the stake insured (half the bet), against 0 for declining. None when not offered."""
    doc = bj_math.ev(cards, dealer=dealer, preset=preset or "salon")
    if "insurance" not in doc["options"]:
        return None
    per_unit = Decimal(doc["options"]["insurance"])
    options = {"insurance": str(per_unit * INSURANCE_STAKE), "no_insurance": "0"}
    best = "insurance" if per_unit > 0 else "no_insurance"  # a tie declines: nothing to gain
    return {"options": options, "best": best, "per_unit": doc["options"]["insurance"]}


def house_rules(rules: dict | None) -> tuple:
    """The ochko house rules as a hashable key (the charts are cached by it)."""
    return tuple(sorted((rules or {}).items()))


@lru_cache(maxsize=4)
def _bj_chart(preset: str) -> dict:
    return bj_math.strategy(preset=preset)


@lru_cache(maxsize=64)
def _ochko_chart(bet: int, rules: tuple = ()) -> dict:
    return ochko_math.strategy(bet, rules=dict(rules))


def _up_name(code: str) -> str:
    """A blackjack card as the charts name it: every ten-valued card is T."""
    return "T" if code[0] in "TJQK" else code[0]


def chart_action(variant: str, preset: str, cards: list[str], dealer: str | None, bet: int | None,
                 offered: dict, rules: dict | None = None) -> str | None:
    """What the total-dependent chart (`strategy/1`) plays here, or None where it has no cell
    (ochko's Bet decision is the chart's `bet_decision`; insurance and even money have none)."""
    if "insurance" in offered or "even_money" in offered or variant == "veintiuno":
        return None  # no total-dependent chart of these
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
        return _ochko_chart(1, house_rules(rules))["bet_decision"][cards[0][0]]["action"]
    chart = _ochko_chart(bet, house_rules(rules))
    key = ("one_card", cards[0][0]) if len(cards) == 1 else ("total", str(ochko_cards.total(cards)))
    row = next((r for r in chart["rows"] if (r["kind"], r["hand"]) == key), None)
    cell = row["cells"].get(dealer[0]) if row else None
    return cell["action"] if cell else None


# --- situations -----------------------------------------------------------------------------------

def situation(variant: str, cards: list[str], dealer: str | None, bet: int | None, phase: str = PHASE_PLAY,
              split: bool = False) -> str:
    """The situation as a trainee's mistakes are listed: "soft 18 vs 9", "pair of 8s vs 10",
    "hard 11 vs 6 (split)", "insurance (hard 16)", "blackjack vs A: even money",
    "15 vs 9 (Bet 3)", "first card 8: fold/bet"."""
    if variant == "blackjack":
        up = _up_name(dealer)
        if bj_cards.natural(cards) and not split:
            return _("blackjack vs %(up)s: even money") % {"up": up}
        if phase == PHASE_INSURANCE:
            return _("insurance vs A (%(hand)s)") % {"hand": situation(variant, cards, dealer, bet).split(" vs ")[0]}
        if split:
            return _("%(situation)s (split)") % {"situation": situation(variant, cards, dealer, bet)}
        values = [bj_cards.VALUE[c[0]] for c in cards]
        if len(cards) == 2 and values[0] == values[1]:
            name = _up_name(cards[0])
            return _("pair of %(rank)ss vs %(up)s") % {"rank": name, "up": up}
        best, soft = bj_cards.total(cards)
        kind = _("soft") if soft else _("hard")
        return f"{kind} {best} vs {up}"
    if variant == "veintiuno":
        best, soft = veintiuno_total(cards)
        if len(cards) == 2 and best == 13:
            return _("13 in two cards vs %(up)s") % {"up": RANK_NAMES.get(dealer[0], dealer[0])}
        return f"{_('soft') if soft else _('hard')} {best} vs {RANK_NAMES.get(dealer[0], dealer[0])}"
    if dealer is None:
        return _("first card %(rank)s: fold/bet") % {"rank": RANK_NAMES.get(cards[0][0], cards[0][0])}
    return _("%(total)s vs %(up)s (Bet %(bet)s)") % {
        "total": ochko_cards.total(cards), "up": RANK_NAMES.get(dealer[0], dealer[0]), "bet": bet}


# --- dealing --------------------------------------------------------------------------------------

def veintiuno_total(cards: list[str]) -> tuple[int, bool]:
    """(count, soft) of a veintiuno hand counted card by card (J, Q, K are 10; an ace 1 or 11)."""
    hard = sum(10 if c[0] in "JQK" else 1 if c[0] == "A" else int(c[0]) for c in cards)
    if "A" in (c[0] for c in cards) and hard <= 11:
        return hard + 10, True
    return hard, False


def _veintiuno_natural(cards: list[str]) -> bool:
    return len(cards) == 2 and sorted(c[0] in "JQK" and "P" or c[0] for c in cards) == ["A", "P"]


def _pack(variant: str, preset: str) -> list[str]:
    if variant == "veintiuno":
        return list(veintiuno_rules.PACK)
    if variant == "blackjack":
        decks = bj_math.read_rules(preset or "salon", None)["decks"]
        return [r + s for r in bj_cards.RANKS for s in "SHDC"] * decks
    return [r + s for r in ochko_cards.RANKS for s in "SHDC"] * ochko_cards.DECKS


def _candidate(variant: str, preset: str, rng, rules: dict | None) -> tuple[dict, Decimal | None]:
    """One situation (the hand's first cards, the dealer's up card, the cards a hit will take) and
    the gap of its first decision played from the keyboard (blackjack: the play, or even money;
    insurance is almost always declined and would crowd the aces in)."""
    drawn = rng.sample(_pack(variant, preset), 3 + DRAWS)
    if variant == "veintiuno":
        hand = {"cards": drawn[:2], "dealer": drawn[2], "draws": drawn[3:]}
        if _veintiuno_natural(hand["cards"]):
            return hand, None
        return hand, _gap(ask(variant, preset, hand["cards"], hand["dealer"], None, rules=rules)["options"])
    if variant == "blackjack":
        hand = {"cards": drawn[:2], "dealer": drawn[2], "draws": drawn[3:]}
        if bj_cards.natural(hand["cards"]) and _up_name(hand["dealer"]) != "A":
            return hand, None
        return hand, _gap(ask(variant, preset, hand["cards"], hand["dealer"], None)["options"])
    hand = {"cards": drawn[:1], "dealer": drawn[1], "draws": drawn[2:]}
    first = ask(variant, preset, hand["cards"], None, None, rules=rules)
    gaps = [_gap(first["options"])]
    if first["best"] != "fold":
        bet = int(first["best"].split(":")[1])
        gaps.append(_gap(ask(variant, preset, hand["cards"], hand["dealer"], bet, rules=rules)["options"]))
    real = [g for g in gaps if g is not None and g > 0]
    return hand, min(real) if real else None


def _no_decision(variant: str, hand: dict) -> bool:
    """A blackjack against anything but an ace, a veintiuno natural: paid at once, nothing to decide,
    never dealt."""
    if variant == "veintiuno":
        return _veintiuno_natural(hand["cards"])
    return variant == "blackjack" and bj_cards.natural(hand["cards"]) and _up_name(hand["dealer"]) != "A"


def deal(variant: str, preset: str, rng, *, weighted: bool = True, rules: dict | None = None) -> dict:
    """The round's hand: one of CANDIDATES situations, kept by `weight` (uniform when not `weighted`).
    Blackjack: EXTRA_DRAWS more cards of the round's order follow, for the hands of a split."""
    candidates = [_candidate(variant, preset, rng, rules) for _k in range(CANDIDATES)]
    weights = [0.0 if _no_decision(variant, hand) else float(weight(gap)) if weighted else 1.0
               for hand, gap in candidates]
    if not any(weights):  # pragma: no cover - six blackjacks in a row
        weights = [1.0] * len(candidates)
    hand, gap = rng.choices(candidates, weights=weights)[0]
    if variant == "blackjack":
        rest = _pack(variant, preset)
        for card in [*hand["cards"], hand["dealer"], *hand["draws"]]:
            rest.remove(card)
        hand = {**hand, "draws": hand["draws"] + rng.sample(rest, EXTRA_DRAWS)}
    return {**hand, "gap": None if gap is None else str(gap)}


def start_state(variant: str, hand: dict) -> dict:
    """What the round's script keeps while the hand is played (blackjack: every hand of the box, the
    one in play; a split adds hands)."""
    if variant == "ochko":
        phase = PHASE_BET
    elif variant == "veintiuno":
        phase = PHASE_PLAY
    elif _up_name(hand["dealer"]) == "A" and not bj_cards.natural(hand["cards"]):
        phase = PHASE_INSURANCE
    else:
        phase = PHASE_PLAY
    state = {"phase": phase, "cards": list(hand["cards"]), "bet": None, "drawn": 0, "end": ""}
    if variant == "blackjack":
        state.update(hands=[{"cards": list(hand["cards"]), "end": ""}], hand=0, insured=None)
    return state


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
    phase: str = PHASE_PLAY
    hand: int = 0  # blackjack: the hand in play (0 until a split, then 0, 1, …)
    hands: int = 1


def _hands(state: dict) -> list[dict]:
    return state.get("hands") or [{"cards": state["cards"], "end": state["end"]}]


def _seen_elsewhere(state: dict) -> tuple:
    """The cards of the box's other hands: out of the shoe for the hand in play."""
    return tuple(c for k, h in enumerate(_hands(state)) if k != state.get("hand", 0) for c in h["cards"])


def _bj_ask(preset: str, doc: dict, state: dict) -> dict:
    hands = len(_hands(state))
    return ask("blackjack", preset, state["cards"], doc["dealer"], None, hands=hands,
               removed=_seen_elsewhere(state) if hands > 1 else ())


def decision(variant: str, preset: str, doc: dict, state: dict, *, with_chart: bool = False) -> Decision | None:
    """The decision in play; `with_chart` looks the chart's play up too (grading: a chart is solved
    once per rule set and Bet, seconds cold, so showing the hand does not wait for it)."""
    phase = state["phase"]
    if phase == PHASE_DONE:
        return None
    rules = doc.get("rules") or None
    if phase == PHASE_INSURANCE:
        asked = ask_insurance(preset, state["cards"], doc["dealer"])
        return Decision(situation(variant, state["cards"], doc["dealer"], None, phase), list(state["cards"]),
                        doc["dealer"], None, asked["options"], dict(INSURANCE_KEYS), asked["best"], None, phase)
    bet_phase = phase == PHASE_BET
    dealer = None if bet_phase else doc["dealer"]
    bet = None if variant == "blackjack" or bet_phase else state["bet"]
    hands = len(_hands(state)) if variant == "blackjack" else 1
    if variant == "blackjack":
        asked = _bj_ask(preset, doc, state)
    else:
        asked = ask(variant, preset, state["cards"], dealer, bet, rules=rules)
    keys = BET_KEYS if bet_phase else {"blackjack": BJ_KEYS, "veintiuno": VEINTIUNO_KEYS}.get(variant, OCHKO_KEYS)
    chart = None
    if with_chart and hands == 1:  # the chart has no cells for split hands' own rules
        chart = chart_action(variant, preset, state["cards"], dealer, bet, asked["options"], rules)
    return Decision(situation(variant, state["cards"], dealer, bet, phase, split=hands > 1), list(state["cards"]),
                    dealer, bet, asked["options"], {k: keys[k] for k in asked["options"]}, asked["best"], chart,
                    phase, state.get("hand", 0), hands)


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


def _draw(doc: dict, state: dict) -> str | None:
    if state["drawn"] >= len(doc["draws"]):  # pragma: no cover - thirty cards without an end
        return None
    card = doc["draws"][state["drawn"]]
    state["drawn"] += 1
    return card


def _bj_summary(state: dict) -> dict:
    """The state with the hand in play mirrored in `cards`, and `end` the ends of every hand."""
    hands = state["hands"]
    state["cards"] = list(hands[min(state["hand"], len(hands) - 1)]["cards"])
    state["end"] = " · ".join(h["end"] for h in hands if h["end"]) if state["phase"] == PHASE_DONE else ""
    return state


def _bj_play_on(preset: str, doc: dict, state: dict) -> dict:
    """From the hand in play on: a split hand takes its second card when its turn comes (rules/
    blackjack.md: a split hand is played to the end before the next); a hand with one legal option
    (21, split aces that take one card) plays it without asking; when every hand is over, the
    round is."""
    hands = state["hands"]
    while state["hand"] < len(hands):
        current = hands[state["hand"]]
        if not current["end"]:
            if len(current["cards"]) == 1:
                card = _draw(doc, state)
                if card is None:  # pragma: no cover
                    current["end"] = "stand"
                    continue
                current["cards"].append(card)
            state["cards"] = list(current["cards"])
            options = _bj_ask(preset, doc, state)["options"]
            if len(options) > 1:
                return _bj_summary(state)
            current["end"] = "21" if bj_cards.total(current["cards"])[0] == 21 else next(iter(options))
        state["hand"] += 1
    state["phase"] = PHASE_DONE
    state["hand"] = len(hands) - 1
    return _bj_summary(state)


def _bj_advance(preset: str, doc: dict, state: dict, chosen: str) -> dict:
    if state["phase"] == PHASE_INSURANCE:
        # the dealer peeks: the model's play values are those of no dealer blackjack, so the hand goes on
        return {**state, "phase": PHASE_PLAY, "insured": chosen == "insurance"}
    # a round dealt before splits were played on keeps its one hand in `cards` alone
    state = {"hand": 0, "insured": None, **state,
             "hands": [{"cards": list(h["cards"]), "end": h["end"]} for h in _hands(state)]}
    current = state["hands"][state["hand"]]
    if chosen == "split":
        first, second = current["cards"]
        current["cards"] = [first]
        state["hands"].insert(state["hand"] + 1, {"cards": [second], "end": ""})
    elif chosen in ("hit", "double"):
        card = _draw(doc, state)
        if card is not None:
            current["cards"].append(card)
        total, _soft = bj_cards.total(current["cards"])
        if total > 21:
            current["end"] = "bust"
        elif chosen == "double" or card is None:
            current["end"] = chosen if card is not None else "stand"
        elif total == 21:
            current["end"] = "21"
    else:
        current["end"] = chosen  # stand, even money
    return _bj_play_on(preset, doc, state)


def advance(variant: str, doc: dict, state: dict, chosen: str, preset: str = "") -> dict:
    """The state after the option chosen: a hit takes the next card of the round's order and the
    hand goes on; a blackjack hand ends on stand, double (one card), even money, a bust or 21, a
    split plays each hand in turn; ochko ends on a stand, a dark card, a fold, mnogo or ochko."""
    if variant == "blackjack":
        return _bj_advance(preset, doc, state, chosen)
    if variant == "veintiuno":
        return _veintiuno_advance(doc, state, chosen)
    state = {**state, "cards": list(state["cards"])}
    if state["phase"] == PHASE_BET:
        if chosen == "fold":
            return {**state, "phase": PHASE_DONE, "end": "fold"}
        return {**state, "phase": PHASE_PLAY, "bet": int(chosen.split(":")[1])}
    if chosen != "hit":
        return {**state, "phase": PHASE_DONE, "end": chosen}
    state["cards"].append(doc["draws"][state["drawn"]])
    state["drawn"] += 1
    score = ochko_cards.score(state["cards"])
    if score is None:
        return {**state, "phase": PHASE_DONE, "end": "mnogo"}
    if score == 21:
        return {**state, "phase": PHASE_DONE, "end": "ochko"}
    if state["drawn"] >= len(doc["draws"]):  # pragma: no cover - ten small cards in a row
        return {**state, "phase": PHASE_DONE, "end": "stand"}
    return state


def _veintiuno_advance(doc: dict, state: dict, chosen: str) -> dict:
    """A hit takes the next card and the hand goes on until it is over 21 or the engine offers only
    the stand (21, seven cards); tapo y quedo takes one card face down and stands."""
    state = {**state, "cards": list(state["cards"])}
    if chosen not in ("hit", "tapo"):
        return {**state, "phase": PHASE_DONE, "end": chosen}  # stand, withdraw
    card = _draw(doc, state)
    if card is None:  # pragma: no cover - thirty small cards
        return {**state, "phase": PHASE_DONE, "end": "stand"}
    state["cards"].append(card)
    if chosen == "tapo":
        return {**state, "phase": PHASE_DONE, "end": "tapo"}
    count, _soft = veintiuno_total(state["cards"])
    if count > 21:
        return {**state, "phase": PHASE_DONE, "end": "bust"}
    options = ask("veintiuno", "", state["cards"], doc["dealer"], None, rules=doc.get("rules"))["options"]
    if len(options) == 1:
        return {**state, "phase": PHASE_DONE, "end": "trillona" if len(state["cards"]) == 7 and count == 21 else "21"}
    return state


def clean_house_rules(raw) -> dict:
    """Ochko's house rules for the trainer (`OCHKO_RULES`, each leave or take), the defaults left out;
    ValueError for anything else."""
    if raw in (None, ""):
        return {}
    if not isinstance(raw, dict) or set(raw) - set(OCHKO_RULES):
        raise ValueError("house_rules")
    out = {}
    for name in OCHKO_RULES:
        if name in raw:
            option = ochko_rules.OPTIONS[name]
            if raw[name] not in option.choices:
                raise ValueError(name)
            if raw[name] != option.default:
                out[name] = raw[name]
    return out


def warm() -> None:
    """Solve the charts the trainer compares with (both blackjack presets, ochko's ten Bets)."""
    for preset in ("salon", "online"):
        _bj_chart(preset)
    for bet in range(1, 11):
        _ochko_chart(bet)


__all__ = ["QuestionError", "Decision", "advance", "choose", "cost", "deal", "decision", "situation", "weight"]
