"""The payout drill: the trainee settles a finished round, and the engine's audit grades it.

How an answer is graded
-----------------------
The simulator deals a correct round *with* the dealer's settlement events. To grade the trainee,
those settlement events are taken out and the trainee's answers are put in their place; the
engine replays the resulting log exactly as it audits a logged casino round, and its findings
*are* the grade — nothing here re-implements a rule.

Where each answer goes in the log (the decision the drill makes): an answer is placed where the
simulated dealer settled that same wager — a fold's Ante right after the fold, an instant ochko or
mnogo right after the card that made it, even money right after it was taken, the final settlement
at the end (veintiuno: before the bank passes). Answers for the same place keep the order the
trainee gave them; an answer for a wager the round does not have goes with the final settlement.
So:
  * the trainee is never marked late for an instant: the drill shows the finished table and asks
    what each wager gets and in what order (when an instant is settled is drilled in the procedure
    drill);
  * the order the trainee pays in is graded by the engine's own check (ochko: boxes 6 → 1, each
    box's Bet and Ante before its dealer bets — PAYMENT_ORDER);
  * given the simulated dealer's own settlement as answers, the placement rebuilds the simulated
    log event for event (tests/drills prove it for every variant), so grading a trainee *is*
    auditing the log that trainee would have written.
"""

from dataclasses import dataclass, field
from decimal import Decimal

from dealing import engine
from dealing.engine.money import fmt

from .setups import game

SETTLE = ("pay", "take", "leave")


def wagers_of(variant: str) -> tuple[str, ...]:
    """What a settlement of a game may name (its drill set-ups' `wagers`)."""
    return game(variant).wagers


# The order a wager's settlement is written in the sheet (within a stake).
_WAGER_ORDER = {"bet": 0, "ante": 1, "double": 2, "dealer_bet": 3, "insurance": 4, "jackpot": 5}
END = "end"


def key_of(item: dict) -> tuple:
    """(stake, hand, wager) of a settlement event, an answer or an owed wager."""
    return (str(item["stake"]), item.get("hand"), item["wager"])


def is_settlement(ev: dict) -> bool:
    return ev.get("e") in SETTLE


@dataclass
class SheetLine:
    """One wager the trainee must settle, as the answer sheet lists it."""

    stake: str
    hand: str | None
    wager: str
    spot: int  # box (or seat) number
    player: str
    size: str  # the wager itself, as a decimal string
    during: bool  # settled during the round (fold, instant, even money) rather than at the end

    @property
    def key(self) -> tuple:
        return (self.stake, self.hand, self.wager)

    def as_dict(self) -> dict:
        return {
            "stake": self.stake,
            "hand": self.hand,
            "wager": self.wager,
            "spot": self.spot,
            "player": self.player,
            "size": self.size,
            "during": self.during,
        }


def base_log(doc: dict) -> tuple[dict, dict[tuple, int], int]:
    """The round without its settlement events, where each wager was settled, and where the end is.

    Returns (base document, {wager key: position in the base events}, end position). A position is
    the number of base events before the settlement; `end` is where the final settlement starts.
    """
    events = []
    anchors: dict[tuple, int] = {}
    last_settle_at = None
    for ev in doc["events"]:
        if is_settlement(ev):
            anchors.setdefault(key_of(ev), len(events))
            last_settle_at = len(events)
        else:
            events.append(ev)
    end = last_settle_at if last_settle_at is not None else len(events)
    return {**doc, "events": events}, anchors, end


def answer_sheet(doc: dict) -> list[SheetLine]:
    """Every wager of the round, box by box (1 → 6), as the trainee sees them to settle."""
    base, anchors, end = base_log(doc)
    outcome = engine.replay(base)
    stakes = {s["id"]: s for s in doc["stakes"]}
    lines = []
    for owed in outcome.wagers or []:
        stake = stakes[owed.stake]
        spot = stake.get("box", stake.get("seat"))
        during = anchors.get((owed.stake, owed.hand, owed.wager), end) < end or owed.kind != "final"
        lines.append(
            SheetLine(owed.stake, owed.hand, owed.wager, spot, stake.get("player", ""), fmt(owed.size), during)
        )
    lines.sort(key=lambda line: (line.spot, line.hand or "", line.stake, _WAGER_ORDER.get(line.wager, 9)))
    return lines


def settlement_event(doc: dict, answer: dict) -> dict:
    """The log event an answer stands for."""
    ev = {"e": answer["result"], "stake": answer["stake"]}
    if game(doc["variant"]).hands:
        ev["hand"] = answer.get("hand")
    ev["wager"] = answer["wager"]
    if answer.get("amount") is not None:
        ev["amount"] = answer["amount"]
    return ev


def place(doc: dict, answers: list[dict]) -> tuple[dict, list[int]]:
    """The log with the trainee's answers where the dealer's settlement was (module docstring).

    Returns the document to audit and, for each answer, the index of its event in that log.
    """
    base, anchors, end = base_log(doc)
    groups: dict[int, list[int]] = {}
    for k, answer in enumerate(answers):
        at = anchors.get(key_of(answer), end)
        groups.setdefault(at, []).append(k)
    events: list[dict] = []
    positions = [0] * len(answers)
    base_events = base["events"]
    for at in range(len(base_events) + 1):
        for k in groups.get(at, ()):
            positions[k] = len(events)
            events.append(settlement_event(doc, answers[k]))
        if at < len(base_events):
            events.append(base_events[at])
    return {**doc, "events": events}, positions


@dataclass
class Graded:
    """The engine's audit of the trainee's settlement, attributed answer by answer."""

    log: dict
    findings: list[dict]
    answers: list[dict]  # each answer with its event, correct flag, and findings
    missing: list[dict]  # owed wagers the trainee never settled, with the finding
    owed: list[dict]  # the right settlement of every wager, with why
    float_owed: str | None
    decisions: int = 0
    correct: int = 0
    codes: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.findings


def owed_dict(o) -> dict:
    return {
        "stake": o.stake,
        "hand": o.hand,
        "wager": o.wager,
        "result": o.result,
        "amount": fmt(o.amount),
        "size": fmt(o.size),
        "why": o.why,
        "verdict": o.verdict,
        "kind": o.kind,
    }


def grade(doc: dict, answers: list[dict]) -> Graded:
    """Audit the round as the trainee settled it.

    `answers` are {stake, hand, wager, result, amount} in the order the trainee settled them. An
    answer is correct when the engine finds nothing at its event; a wager with no answer is a
    wrong decision (MISSING_SETTLEMENT). The findings are the engine's, untouched.
    """
    log, positions = place(doc, answers)
    outcome = engine.replay(log)
    findings = [f.to_dict() for f in outcome.findings]
    by_event: dict[int, list[dict]] = {}
    loose: list[dict] = []
    for f in findings:
        if f["event"] is None:
            loose.append(f)
        else:
            by_event.setdefault(f["event"], []).append(f)
    owed = {(o.stake, o.hand, o.wager): o for o in outcome.wagers or []}
    graded_answers = []
    correct = 0
    codes = []
    for answer, at in zip(answers, positions):
        found = by_event.get(at, [])
        ok = not found
        correct += ok
        codes.extend(f["code"] for f in found)
        right = owed.get(key_of(answer))
        graded_answers.append(
            {
                **_answer_out(answer),
                "event": at,
                "correct": ok,
                "findings": found,
                "right": owed_dict(right) if right is not None else None,
            }
        )
    missing = []
    for f in loose:
        codes.append(f["code"])
        if f["code"] == "MISSING_SETTLEMENT":
            right = owed.get((f["stake"], f.get("hand"), f["wager"]))
            missing.append(
                {
                    "stake": f["stake"],
                    "hand": f.get("hand"),
                    "wager": f["wager"],
                    "finding": f,
                    "right": owed_dict(right) if right is not None else None,
                }
            )
    decisions = len(answers) + len(missing)
    return Graded(
        log=log,
        findings=findings,
        answers=graded_answers,
        missing=missing,
        owed=[owed_dict(o) for o in outcome.wagers or []],
        float_owed=None if outcome.float is None else fmt(outcome.float),
        decisions=decisions,
        correct=correct,
        codes=codes,
    )


def _answer_out(answer: dict) -> dict:
    amount = answer.get("amount")
    return {
        "stake": answer["stake"],
        "hand": answer.get("hand"),
        "wager": answer["wager"],
        "result": answer["result"],
        "amount": None if amount is None else fmt(Decimal(str(amount))),
    }


def simulated_answers(doc: dict) -> list[dict]:
    """The simulated dealer's own settlement, as answers (what a perfect trainee would give)."""
    out = []
    for ev in doc["events"]:
        if is_settlement(ev):
            out.append(
                {
                    "stake": ev["stake"],
                    "hand": ev.get("hand"),
                    "wager": ev["wager"],
                    "result": ev["e"],
                    "amount": ev.get("amount"),
                }
            )
    return out
