"""What pages and the API show of a drill: the table to draw, the step in play, the graded answer.

Kept in one place so the tablet (API) and the pages show the same thing.
"""

from dataclasses import asdict
from decimal import Decimal

from django.utils.translation import gettext as _gettext
from django.utils.translation import gettext_lazy as _

from dealing import games
from dealing.engine.money import fmt
from dealing.games.layout.live import LiveCard

from . import scoring, strategy
from . import table as tbl
from .choices import Kind
from .models import Drill, DrillRound, DrillStep
from .payout import is_settlement
from .table import total_of

OPTION_LABELS = {
    "hit": _("Hit"),
    "stand": _("Stand"),
    "double": _("Double"),
    "split": _("Split"),
    "dark": _("Dark card"),
    "fold": _("Fold"),
    "insurance": _("Take insurance"),
    "no_insurance": _("No insurance"),
    "even_money": _("Even money"),
    "tapo": _("Tapo y quedo"),
    "withdraw": _("Withdraw"),
}


def table_view(drill_round: DrillRound, *, upto: int | None = None, settled: bool = False) -> tbl.TableView:
    """The table of a round: finished (payout: every card up, no settlement shown unless `settled`)
    or, for a procedure step, after the first `upto` events of the script's log."""
    drill = drill_round.drill
    if drill.kind == Kind.PAYOUT:
        doc = drill_round.doc
        if settled and drill_round.graded:
            events = drill_round.graded["log"]["events"]
        else:
            events = [ev for ev in doc["events"] if not is_settlement(ev)]
        return tbl.build(doc, events, reveal_all=True, name=drill.table_name)
    log = drill_round.script["log"]
    view = tbl.build(drill_round.doc, log[: upto if upto is not None else len(log)], name=drill.table_name)
    if upto is not None and upto < len(log) and log[upto].get("kind") == "dealer_card_exposed" and view.dealer.cards:
        view.dealer.cards[-1].face_up = True  # the incident in play: the dealer's card has flipped
        view.dealer.refresh(games.layout_for(view.variant).total)
    return view


def table_json(view: tbl.TableView) -> dict:
    out = asdict(view)
    for spot in out["spots"]:
        for hand in spot["hands"]:
            for card in hand["cards"]:
                if not card["face_up"]:
                    card["code"] = None  # a face-down card is not told to the client
    for card in out["dealer"]["cards"]:
        if not card["face_up"]:
            card["code"] = None
    return out


def current_step(drill_round: DrillRound) -> dict | None:
    steps = drill_round.script.get("steps") or []
    if drill_round.step >= len(steps):
        return None
    return steps[drill_round.step]


def step_upto(drill_round: DrillRound, step: dict | None) -> int:
    if step is None:
        return len(drill_round.script.get("log", []))
    return step["at"]


def option_label(option: str) -> str:
    if option.startswith("bet:"):
        return _gettext("Bet %(k)s") % {"k": option.split(":")[1]}
    return str(OPTION_LABELS.get(option, option))


def strategy_view(drill_round: DrillRound) -> dict:
    """The strategy hand as pages and the API draw it: the box's cards, the dealer's up card (face
    down while an ochko box chooses its Bet), the decision in play (without its values) and the end."""
    from .services import strategy_decision

    doc, state = drill_round.doc, drill_round.script["state"]
    decision = strategy_decision(drill_round)
    dealer_open = state["phase"] != strategy.PHASE_BET
    variant = doc["variant"]
    hands = state.get("hands") or []
    return {
        "variant": variant,
        "wager": doc["wager"],
        "bet": state["bet"],
        "phase": state["phase"],
        "end": state["end"],
        "cards": [LiveCard(c) for c in state["cards"]],
        # after a split: every hand of the box, the one in play marked
        "hands": [
            {
                "number": k + 1,
                "cards": [LiveCard(c) for c in h["cards"]],
                "total": total_of(variant, h["cards"]),
                "end": h["end"],
                "current": k == state.get("hand") and state["phase"] != strategy.PHASE_DONE,
            }
            for k, h in enumerate(hands)
        ]
        if len(hands) > 1
        else [],
        "insured": state.get("insured"),
        "hand_number": state.get("hand", 0) + 1,
        "total": total_of(variant, state["cards"]),
        "dealer": LiveCard(doc["dealer"], face_up=dealer_open),
        "situation": decision.situation if decision else "",
        "options": [{"option": o, "key": k, "label": option_label(o)} for o, k in decision.keys.items()]
        if decision
        else [],
    }


def strategy_feedback(step: DrillStep | None) -> dict | None:
    """A graded strategy decision: every option's EV and the money it is worth at the stakes."""
    if step is None or step.kind != "play":
        return None
    exp = step.expected
    wager = Decimal(exp["wager"])
    best = Decimal(exp["options"][exp["choice"]])
    rows = [
        {
            "option": o,
            "label": option_label(o),
            "key": exp["keys"].get(o, ""),
            "ev": v,
            "money": fmt((Decimal(v) * wager).quantize(strategy.CENT)),
            "cost": fmt(((best - Decimal(v)) * wager).quantize(strategy.CENT)),
            "best": o == exp["choice"],
            "chosen": o == step.given["choice"],
            "chart": o == exp["chart"],
        }
        for o, v in sorted(exp["options"].items(), key=lambda item: -Decimal(item[1]))
    ]
    return {
        "correct": step.correct,
        "situation": exp["situation"],
        "chosen": step.given["choice"],
        "chosen_label": option_label(step.given["choice"]),
        "best": exp["choice"],
        "best_label": option_label(exp["choice"]),
        "chart": exp["chart"],
        "chart_label": option_label(exp["chart"]) if exp["chart"] else "",
        "chart_differs": bool(exp["chart"]) and exp["chart"] != exp["choice"],
        "cost": exp["cost"],
        "wager": exp["wager"],
        "options": rows,
        "cards": exp["cards"],
        "dealer": exp["dealer"],
        "bet": exp["bet"],
    }


def _card_json(card: LiveCard) -> dict:
    return {"code": card.code if card.face_up else None, "face_up": card.face_up}


def strategy_json(drill_round: DrillRound) -> dict:
    view = strategy_view(drill_round)
    return {
        **view,
        "cards": [_card_json(c) for c in view["cards"]],
        "dealer": _card_json(view["dealer"]),
        "hands": [{**h, "cards": [_card_json(c) for c in h["cards"]]} for h in view["hands"]],
    }


def next_json(drill: Drill, current: DrillRound | None) -> dict:
    out = {
        "drill": drill.pk,
        "finished": current is None,
        "round": None,
        "rounds_planned": drill.rounds_planned,
        "kind": drill.kind,
        "table": None,
    }
    if current is None:
        return out
    out["round"] = current.number
    if drill.kind == Kind.STRATEGY:
        out["step"] = current.step
        out["hand"] = strategy_json(current)
        return out
    if drill.kind == Kind.PAYOUT:
        out["table"] = table_json(table_view(current))
        out["sheet"] = current.script["sheet"]
        out["chips"] = drill.chips
        return out
    step = current_step(current)
    out["table"] = table_json(table_view(current, upto=step_upto(current, step)))
    out["step"] = current.step
    out["steps"] = len(current.script["steps"])
    if step is not None:
        out["narration"] = step["narration"]
        out["prompt"] = step["prompt"]
        out["choices"] = [{"key": c["key"], "label": c["label"]} for c in step["choices"]]
    return out


def _accuracy(drill: Drill):
    return scoring.rounded(drill.accuracy)


def payout_answer_json(drill: Drill, done: DrillRound) -> dict:
    graded = done.graded
    return {
        "correct": not graded["findings"],
        "accuracy": _accuracy(drill),
        "round_done": True,
        "finished": not drill.is_active,
        "graded": {
            "round": done.number,
            "decisions": done.decisions,
            "correct_decisions": done.correct,
            "answers": graded["answers"],
            "missing": graded["missing"],
            "findings": graded["findings"],
            "owed": graded["owed"],
        },
    }


def procedure_answer_json(drill: Drill, step: DrillStep) -> dict:
    done = step.drill_round
    return {
        "correct": step.correct,
        "accuracy": _accuracy(drill),
        "round_done": done.done,
        "finished": not drill.is_active,
        "graded": {
            "round": done.number,
            "step": step.index,
            "chosen": step.given,
            "right": step.expected,
            "codes": step.codes,
            "explanation": step.messages[0] if step.messages else "",
        },
    }


def strategy_answer_json(drill: Drill, step: DrillStep) -> dict:
    done = step.drill_round
    feedback = strategy_feedback(step)
    feedback["options"] = [
        {k: row[k] for k in ("option", "key", "ev", "cost", "best", "chosen")} for row in feedback["options"]
    ]
    return {
        "correct": step.correct,
        "accuracy": _accuracy(drill),
        "round_done": done.done,
        "finished": not drill.is_active,
        "graded": {
            "round": done.number,
            "step": step.index,
            **{
                k: feedback[k]
                for k in ("situation", "chosen", "best", "chart", "cost", "wager", "options", "cards", "dealer", "bet")
            },
            "end": done.script["state"]["end"],
            "hand_cards": done.script["state"]["cards"],
        },
    }


def results_json(results) -> dict:
    band = results.band
    return {
        "rounds": results.rounds,
        "decisions": results.decisions,
        "correct": results.correct,
        "accuracy": results.accuracy_display,
        "band": band.key if band else None,
        "streak_current": results.streak_current,
        "streak_best": results.streak_best,
        "per_decision_ms": results.per_decision_ms,
        "pace_rounds_per_hour": results.pace,
        "mistakes": [{"code": m.code, "label": m.label, "count": m.count} for m in results.mistakes],
        "situations": [
            {"situation": s.situation, "count": s.count, "cost": fmt(s.cost), "best": s.best}
            for s in results.situations
        ],
    }


def rounds_json(drill: Drill) -> list[dict]:
    return [
        {
            "round": r.number,
            "decisions": r.decisions,
            "correct": r.correct,
            "accuracy": None if r.accuracy is None else fmt(scoring.rounded(r.accuracy)),
            "time_ms": r.time_ms,
        }
        for r in drill.rounds.filter(answered_at__isnull=False).order_by("number")
    ]
