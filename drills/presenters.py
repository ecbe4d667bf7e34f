"""What pages and the API show of a drill: the table to draw, the step in play, the graded answer.

Kept in one place so the tablet (API) and the pages show the same thing.
"""

from dataclasses import asdict

from dealing import games
from dealing.engine.money import fmt

from . import scoring
from . import table as tbl
from .choices import Kind
from .models import Drill, DrillRound, DrillStep
from .payout import is_settlement


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
    view = tbl.build(drill_round.doc, log[:upto if upto is not None else len(log)], name=drill.table_name)
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


def next_json(drill: Drill, current: DrillRound | None) -> dict:
    out = {"drill": drill.pk, "finished": current is None, "round": None, "rounds_planned": drill.rounds_planned,
           "kind": drill.kind, "table": None}
    if current is None:
        return out
    out["round"] = current.number
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
    return {"correct": not graded["findings"], "accuracy": _accuracy(drill), "round_done": True,
            "finished": not drill.is_active,
            "graded": {"round": done.number, "decisions": done.decisions, "correct_decisions": done.correct,
                       "answers": graded["answers"], "missing": graded["missing"], "findings": graded["findings"],
                       "owed": graded["owed"]}}


def procedure_answer_json(drill: Drill, step: DrillStep) -> dict:
    done = step.drill_round
    return {"correct": step.correct, "accuracy": _accuracy(drill), "round_done": done.done,
            "finished": not drill.is_active,
            "graded": {"round": done.number, "step": step.index, "chosen": step.given, "right": step.expected,
                       "codes": step.codes, "explanation": step.messages[0] if step.messages else ""}}


def results_json(results) -> dict:
    band = results.band
    return {"rounds": results.rounds, "decisions": results.decisions, "correct": results.correct,
            "accuracy": results.accuracy_display, "band": band.key if band else None,
            "streak_current": results.streak_current, "streak_best": results.streak_best,
            "per_decision_ms": results.per_decision_ms, "pace_rounds_per_hour": results.pace,
            "mistakes": [{"code": m.code, "label": m.label, "count": m.count} for m in results.mistakes]}


def rounds_json(drill: Drill) -> list[dict]:
    return [{"round": r.number, "decisions": r.decisions, "correct": r.correct,
             "accuracy": None if r.accuracy is None else fmt(scoring.rounded(r.accuracy)), "time_ms": r.time_ms}
            for r in drill.rounds.filter(answered_at__isnull=False).order_by("number")]
