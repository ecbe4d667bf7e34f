"""Writes of the drills: start a drill, deal its next round, grade an answer, finish it; set a
certification standard and issue certificates. Plain functions with keyword-only arguments; pages
and the API call the same ones.

Every grade comes from the engine: a payout answer is audited as a round log (payout.py), a
procedure move was checked against the engine when the script was built (procedure.py).
"""

import secrets
from datetime import datetime
from decimal import Decimal

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.roles import TRAINEE, has_role
from dealing.engine.errors import RoundError
from dealing.engine.money import fmt, parse_amount

from . import payout, procedure, setups, strategy
from .certification import certificates_check, refuse, standard_met, standard_set  # noqa: F401 (the drills' writes, one module to call)
from .choices import Kind, Status, StepKind
from .models import Drill, DrillRound, DrillStep

DEFAULT_ROUNDS = {Kind.PAYOUT: 10, Kind.PROCEDURE: 3, Kind.STRATEGY: 10}
MAX_SEED = 2**63 - 1


def jsonable(value):
    """A round document with every amount as the decimal string the engine writes ("7.50")."""
    if isinstance(value, Decimal):
        return fmt(value)
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [jsonable(v) for v in value]
    return value


def _own(drill: Drill, user) -> None:
    if drill.trainee_id != getattr(user, "pk", None):
        refuse(_("Only the trainee who started this drill may play it."), status=403)


def _active(drill: Drill) -> None:
    if drill.status != Status.ACTIVE:
        refuse(_("This drill is finished."), status=409, drill=drill.pk)


def _ms(start: datetime | None, end: datetime) -> int:
    if start is None:
        return 0
    return max(0, int((end - start).total_seconds() * 1000))


# --- starting ----------------------------------------------------------------------------------------


def drill_start(
    *,
    trainee,
    variant: str,
    kind: str,
    preset: str = "",
    table: str = "",
    options: dict | None = None,
    rounds: int | None = None,
    seed: int | None = None,
) -> Drill:
    """Start a drill: the game and preset, payout or procedure, a practice table, the difficulty.

    Without a seed one is drawn at random; with the seed of another drill (and the same game,
    table and options) the same rounds are dealt again.
    """
    if not has_role(trainee, TRAINEE):
        refuse(_("Drills are for trainees."), status=403)
    if variant not in setups.features():
        refuse(_("Choose a game: ochko, blackjack or veintiuno."), field="variant")
    preset = preset or ""
    presets = setups.presets().get(variant, ())
    if presets and preset not in presets:
        refuse(_("Choose the blackjack preset: salon or online."), field="preset")
    if not presets and preset:
        refuse(_("This game has no presets."), field="preset")
    if kind not in Kind.values:
        refuse(_("Choose a payout drill, a procedure drill or the strategy trainer."), field="kind")
    if kind == Kind.STRATEGY and variant not in strategy.strategy_games():
        refuse(_("The strategy trainer deals blackjack, ochko or veintiuno."), field="variant")
    try:
        setup = setups.table_setup(variant, preset, table)
    except KeyError:
        refuse(_("There is no such practice table for this game."), field="table")
    try:
        cleaned = setups.clean_options(variant, preset, kind, options)
    except (TypeError, ValueError):
        refuse(_("The difficulty options are not valid."), field="options")
    if rounds is None:
        rounds = DEFAULT_ROUNDS[kind]
    if type(rounds) is not int or not 1 <= rounds <= setups.MAX_ROUNDS:
        refuse(_("A drill has 1 to %(n)d rounds.") % {"n": setups.MAX_ROUNDS}, field="rounds")
    if seed is None:
        seed = secrets.randbelow(2**53)
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        refuse(_("The seed is a whole number from 0 to %(n)d.") % {"n": MAX_SEED}, field="seed")
    return Drill.objects.create(
        trainee=trainee,
        variant=variant,
        preset=preset,
        kind=kind,
        seed=seed,
        options=cleaned,
        table_key=setup.key,
        table_name=setup.name,
        table_min=setup.min,
        table_max=setup.max,
        chips=[fmt(c) for c in setup.chips],
        rounds_planned=rounds,
    )


def _incident_for(drill: Drill, number: int) -> str | None:
    options = drill.options or {}
    rate = setups.INCIDENT_RATES.get(options.get("incidents", "none"), 0.0)
    kinds = options.get("incident_kinds") or []
    if not setups.weaves_incidents(drill.variant, drill.kind) or not rate or not kinds:
        return None
    rng = setups.round_rng(drill.seed, number, "incident")
    return rng.choice(sorted(kinds)) if rng.random() < rate else None


def round_content(*, drill: Drill, number: int) -> tuple[dict, dict]:
    """The round `number` of a drill and its script: a function of the seed and options alone."""
    setup = setups.Setup(
        drill.table_key, drill.table_name, drill.table_min, drill.table_max, tuple(Decimal(c) for c in drill.chips)
    )
    if drill.kind == Kind.STRATEGY:
        rules = (drill.options or {}).get("house_rules") or {}
        hand = strategy.deal(drill.variant, drill.preset, setups.round_rng(drill.seed, number, "strategy"), rules=rules)
        doc = {"variant": drill.variant, "preset": drill.preset, "wager": fmt(drill.table_min), **hand}
        if rules:
            doc["rules"] = rules
        return doc, {"state": strategy.start_state(drill.variant, hand)}
    incident = _incident_for(drill, number)
    for attempt in range(5):
        purpose = "deal" if attempt == 0 else f"deal-{attempt}"
        rng = setups.round_rng(drill.seed, number, purpose)
        doc = setups.deal_round(
            variant=drill.variant,
            preset=drill.preset,
            options=drill.options,
            setup=setup,
            rng=rng,
            incidents=1.0 if incident == "dealer_card_exposed" else 0.0,
        )
        doc = jsonable({**doc, "id": f"drill-{drill.seed}-{number}"})
        doc["table"]["name"] = drill.table_name
        if drill.kind == Kind.PAYOUT:
            return doc, {"sheet": [line.as_dict() for line in payout.answer_sheet(doc)]}
        script = jsonable(
            procedure.build_script(doc, setups.round_rng(drill.seed, number, "script"), incident=incident)
        )
        if script["steps"]:
            return doc, script
    return doc, script  # pragma: no cover - five rounds in a row with nothing to ask


def _deal(drill: Drill, number: int) -> DrillRound:
    doc, script = round_content(drill=drill, number=number)
    return DrillRound.objects.create(drill=drill, number=number, doc=doc, script=script)


@transaction.atomic
def drill_next(*, drill: Drill, user) -> DrillRound | None:
    """The round the trainee is on: the unanswered one, or the next one dealt. None when finished.

    The round's clock starts the first time it is shown.
    """
    _own(drill, user)
    drill = Drill.objects.select_for_update().get(pk=drill.pk)
    if drill.status != Status.ACTIVE:
        return None
    current = drill.rounds.filter(answered_at__isnull=True).order_by("number").first()
    if current is None:
        number = drill.rounds.count() + 1
        if number > drill.rounds_planned:
            _finish(drill)
            return None
        current = _deal(drill, number)
    if current.presented_at is None:
        now = timezone.now()
        current.presented_at = now
        current.step_started_at = now
        current.save(update_fields=["presented_at", "step_started_at"])
    return current


def _current_round(drill: Drill, number: int | None) -> DrillRound:
    current = drill.rounds.filter(answered_at__isnull=True).order_by("number").first()
    if current is None or current.presented_at is None:
        refuse(_("There is no round waiting for an answer: ask for the next round first."), status=409)
    if number is not None and number != current.number:
        refuse(
            _("Round %(n)s is not the round in play (round %(current)s is).")
            % {"n": number, "current": current.number},
            status=409,
            round=current.number,
        )
    return current


# --- payout answers ------------------------------------------------------------------------------------


def _clean_answers(doc: dict, sheet: list[dict], answers) -> list[dict]:
    """The answers as the engine reads them, or a ServiceError naming the answer and the field."""
    if not isinstance(answers, list) or not answers:
        refuse(_("Settle at least one wager."), field="answers")
    stakes = {s["id"] for s in doc["stakes"]}
    wagers = payout.wagers_of(doc["variant"])
    hands = {(line["stake"], line["hand"]) for line in sheet}
    cleaned = []
    for k, answer in enumerate(answers):

        def bad(message, field, k=k):
            refuse(message, field=f"answers[{k}].{field}", answer=k)

        if not isinstance(answer, dict):
            bad(_("Each answer names a stake, a wager and a result."), "stake")
        stake = answer.get("stake")
        if stake not in stakes:
            bad(_("There is no stake %(stake)r in this round.") % {"stake": stake}, "stake")
        wager = answer.get("wager")
        if wager not in wagers:
            bad(_("The wager is one of: %(wagers)s.") % {"wagers": ", ".join(wagers)}, "wager")
        hand = answer.get("hand") or None
        if setups.game(doc["variant"]).hands:
            own = [h for s, h in hands if s == stake]
            if hand is None and len(own) == 1:
                hand = own[0]  # a stake with one hand: naming it is optional
            if (stake, hand) not in hands:
                bad(_("Stake %(stake)s has no hand %(hand)r.") % {"stake": stake, "hand": hand}, "hand")
        else:
            hand = None
        result = answer.get("result")
        if result not in payout.SETTLE:
            bad(_("The result is pay, take or leave."), "result")
        amount = answer.get("amount")
        if amount in ("", None):
            if result == "pay":
                bad(_("Say how much you pay."), "amount")
            amount = None
        else:
            if isinstance(amount, float):
                amount = repr(amount)
            try:
                amount = fmt(parse_amount(amount, f"answers[{k}].amount"))
            except RoundError:
                bad(_("An amount is a positive number with at most 2 decimals, such as 150 or 7.50."), "amount")
        cleaned.append({"stake": stake, "hand": hand, "wager": wager, "result": result, "amount": amount})
    return cleaned


@transaction.atomic
def payout_answer(*, drill: Drill, user, answers: list[dict], round_number: int | None = None) -> DrillRound:
    """Grade the trainee's settlement of the round in play (the order of `answers` is the order
    the trainee settled in) and record every decision."""
    _own(drill, user)
    drill = Drill.objects.select_for_update().get(pk=drill.pk)
    _active(drill)
    if drill.kind != Kind.PAYOUT:
        refuse(_("This is a procedure drill: answer with the move you choose."), status=409)
    current = _current_round(drill, round_number)
    cleaned = _clean_answers(current.doc, current.script.get("sheet", []), answers)
    graded = payout.grade(current.doc, cleaned)
    now = timezone.now()
    time_ms = _ms(current.presented_at, now)
    steps = []
    for k, answer in enumerate(graded.answers):
        steps.append(
            DrillStep(
                drill_round=current,
                index=k,
                kind=StepKind.SETTLE,
                stake=answer["stake"],
                hand=answer["hand"] or "",
                wager=answer["wager"],
                given={"result": answer["result"], "amount": answer["amount"]},
                expected=_expected(answer["right"]),
                correct=answer["correct"],
                codes=[f["code"] for f in answer["findings"]],
                messages=[f["message"] for f in answer["findings"]],
                params=[f.get("params") or {} for f in answer["findings"]],
                answered_at=now,
            )
        )
    for k, miss in enumerate(graded.missing, start=len(graded.answers)):
        finding = miss["finding"]
        steps.append(
            DrillStep(
                drill_round=current,
                index=k,
                kind=StepKind.MISSING,
                stake=miss["stake"],
                hand=miss["hand"] or "",
                wager=miss["wager"],
                given={},
                expected=_expected(miss["right"]),
                correct=False,
                codes=[finding["code"]],
                messages=[finding["message"]],
                params=[finding.get("params") or {}],
                answered_at=now,
            )
        )
    DrillStep.objects.bulk_create(steps)
    current.graded = jsonable(
        {
            "log": graded.log,
            "findings": graded.findings,
            "answers": graded.answers,
            "missing": graded.missing,
            "owed": graded.owed,
            "float": graded.float_owed,
        }
    )
    current.answered_at = now
    current.time_ms = time_ms
    current.decisions = graded.decisions
    current.correct = graded.correct
    current.save(update_fields=["graded", "answered_at", "time_ms", "decisions", "correct"])
    _count_round(drill, current)
    return current


def _expected(right: dict | None) -> dict:
    if right is None:
        return {}
    return {
        "result": right["result"],
        "amount": right["amount"] if right["result"] == "pay" else right["size"],
        "why": right["why"],
    }


def _count_round(drill: Drill, done: DrillRound, decisions_counted: bool = False) -> None:
    counts = {"rounds_done": F("rounds_done") + 1, "time_ms": F("time_ms") + (done.time_ms or 0)}
    if not decisions_counted:
        counts.update(decisions=F("decisions") + done.decisions, correct=F("correct") + done.correct)
    Drill.objects.filter(pk=drill.pk).update(**counts)
    drill.refresh_from_db()
    if drill.rounds_done >= drill.rounds_planned:
        _finish(drill)
    certificates_check(trainee=drill.trainee, drill=drill)


# --- a graded step (procedure and strategy answers) ----------------------------------------------------


def _step_in_play(
    drill: Drill, user, kind: str, wrong_kind: str, *, step: int | None, round_number: int | None
) -> tuple[Drill, DrillRound]:
    """The drill, locked, and its round in play; refused unless it is the trainee's own active drill of
    `kind` and `step` (when given) is the step in play."""
    _own(drill, user)
    drill = Drill.objects.select_for_update().get(pk=drill.pk)
    _active(drill)
    if drill.kind != kind:
        refuse(wrong_kind, status=409)
    current = _current_round(drill, round_number)
    if step is not None and step != current.step:
        refuse(
            _("Step %(n)s is not the step in play (step %(current)s is).") % {"n": step, "current": current.step},
            status=409,
            step=current.step,
        )
    return drill, current


def _step_graded(drill: Drill, current: DrillRound, *, ok: bool, now, over: bool, fields=()) -> None:
    """Move the round past a graded step (saving `fields` too); the step counts in the drill's totals at
    once, the round (and its time) when it is `over`."""
    current.step += 1
    current.step_started_at = now
    current.decisions += 1
    current.correct += ok
    fields = [*fields, "step", "step_started_at", "decisions", "correct"]
    if over:
        current.answered_at = now
        current.time_ms = _ms(current.presented_at, now)
        fields += ["answered_at", "time_ms"]
    current.save(update_fields=fields)
    Drill.objects.filter(pk=drill.pk).update(decisions=F("decisions") + 1, correct=F("correct") + int(ok))
    if over:
        _count_round(drill, current, decisions_counted=True)


# --- procedure answers ---------------------------------------------------------------------------------


@transaction.atomic
def procedure_answer(
    *, drill: Drill, user, choice: str, step: int | None = None, round_number: int | None = None
) -> DrillStep:
    """Grade the move the trainee chose at the current step; the round goes on from the right move."""
    drill, current = _step_in_play(
        drill,
        user,
        Kind.PROCEDURE,
        _("This is a payout drill: answer with your settlement."),
        step=step,
        round_number=round_number,
    )
    steps = current.script["steps"]
    index = current.step
    script_step = steps[index]
    chosen = next((c for c in script_step["choices"] if c["key"] == str(choice)), None)
    if chosen is None:
        refuse(
            _("Choose one of the moves offered (%(keys)s).")
            % {"keys": ", ".join(c["key"] for c in script_step["choices"])},
            field="choice",
        )
    right = next(c for c in script_step["choices"] if c["correct"])
    now = timezone.now()
    ok = bool(chosen["correct"])
    made = DrillStep.objects.create(
        drill_round=current,
        index=index,
        kind=script_step["kind"],
        given={"choice": chosen["key"], "label": chosen["label"]},
        expected={"choice": right["key"], "label": right["label"]},
        correct=ok,
        codes=[] if ok else [chosen["code"]],
        messages=[] if ok else [chosen["explain"]],
        params=[] if ok else [chosen.get("params") or {}],
        time_ms=_ms(current.step_started_at, now),
        answered_at=now,
    )
    _step_graded(drill, current, ok=ok, now=now, over=index + 1 >= len(steps))
    return made


# --- strategy answers --------------------------------------------------------------------------------


def strategy_decision(drill_round: DrillRound, *, with_chart: bool = False) -> strategy.Decision | None:
    """The decision in play in a strategy round, with every option's EV (None when the hand is over)."""
    drill = drill_round.drill
    return strategy.decision(
        drill.variant, drill.preset, drill_round.doc, drill_round.script["state"], with_chart=with_chart
    )


@transaction.atomic
def strategy_answer(
    *, drill: Drill, user, choice: str, step: int | None = None, round_number: int | None = None
) -> DrillStep:
    """Grade the option the trainee chose against the engine's exact EVs of the hand; a hit deals
    the next card of the round and the hand goes on."""
    drill, current = _step_in_play(
        drill,
        user,
        Kind.STRATEGY,
        _("This is not a strategy drill: answer it as its kind asks."),
        step=step,
        round_number=round_number,
    )
    index = current.step
    decision = strategy_decision(current, with_chart=True)
    chosen = strategy.choose(decision, choice or "")
    if chosen is None:
        refuse(
            _("Choose one of the options offered (%(keys)s).")
            % {"keys": ", ".join(f"{k} {o}" for o, k in decision.keys.items())},
            field="choice",
        )
    wager = Decimal(current.doc["wager"])
    cost = strategy.cost(decision, chosen, wager)  # insurance: its options are already in initial wagers
    # An option worth exactly the best one is as good as the best: nothing is lost.
    ok = Decimal(decision.options[chosen]) == Decimal(decision.options[decision.best])
    code = "STRATEGY_BET" if decision.phase == strategy.PHASE_BET else "STRATEGY_PLAY"
    now = timezone.now()
    expected = {
        "choice": decision.best,
        "key": decision.keys[decision.best],
        "situation": decision.situation,
        "options": decision.options,
        "keys": decision.keys,
        "chart": decision.chart,
        "cost": fmt(cost),
        "wager": fmt(wager),
        "cards": decision.cards,
        "dealer": decision.dealer,
        "bet": decision.bet,
        "phase": decision.phase,
        "hand": decision.hand,
        "hands": decision.hands,
    }
    made = DrillStep.objects.create(
        drill_round=current,
        index=index,
        kind=StepKind.PLAY,
        hand=" ".join(decision.cards)[:20],
        given={"choice": chosen, "key": decision.keys[chosen]},
        expected=expected,
        correct=ok,
        codes=[] if ok else [code],
        messages=[]
        if ok
        else [
            _("%(situation)s: %(best)s is worth %(cost)s more than %(chosen)s.")
            % {"situation": decision.situation, "best": decision.best, "cost": fmt(cost), "chosen": chosen}
        ],
        time_ms=_ms(current.step_started_at, now),
        answered_at=now,
    )
    state = strategy.advance(drill.variant, current.doc, current.script["state"], chosen, drill.preset)
    current.script = {**current.script, "state": state}
    _step_graded(drill, current, ok=ok, now=now, over=state["phase"] == strategy.PHASE_DONE, fields=["script"])
    return made


# --- finishing ---------------------------------------------------------------------------------------


def _finish(drill: Drill) -> None:
    if drill.status == Status.FINISHED:
        return
    drill.status = Status.FINISHED
    drill.finished_at = timezone.now()
    drill.save(update_fields=["status", "finished_at"])


@transaction.atomic
def drill_finish(*, drill: Drill, user) -> Drill:
    """Stop a drill before its last round; the rounds answered so far keep their grades."""
    _own(drill, user)
    drill = Drill.objects.select_for_update().get(pk=drill.pk)
    _finish(drill)
    return drill
