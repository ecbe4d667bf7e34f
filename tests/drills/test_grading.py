"""A payout drill's grading *is* the engine's audit: for every answer, over many seeded rounds of
every game, the drill's verdict equals what `engine.replay` finds in the log carrying the answers."""

import random
from decimal import Decimal

import pytest

from dealing import engine
from dealing.engine.simulators import module as simulator
from drills import payout, setups

GAMES = [("ochko", ""), ("blackjack", "salon"), ("blackjack", "online"), ("veintiuno", "")]
SEEDS = range(60)


def _round(variant, preset, seed):
    setup = setups.tables_for(variant, preset)[0]
    options = setups.default_options(variant, preset)
    return setups.deal_round(
        variant=variant, preset=preset, options=options, setup=setup, rng=setups.round_rng(seed, 1)
    )


def _perturb(doc, rng):
    """A trainee's answers: mostly right, with wrong results, wrong amounts, omissions, repeats,
    swaps of order and answers for wagers the round does not have."""
    answers = payout.simulated_answers(doc)
    out = []
    for a in answers:
        roll = rng.random()
        if roll < 0.1:
            continue  # forgotten
        a = dict(a)
        if roll < 0.22:
            a["result"] = rng.choice([r for r in payout.SETTLE if r != a["result"]])
            a["amount"] = str(Decimal(str(a["amount"] or 1))) if a["result"] == "pay" else None
        elif roll < 0.32 and a["result"] == "pay":
            a["amount"] = str(Decimal(str(a["amount"])) * 2)
        out.append(a)
        if rng.random() < 0.04:
            out.append(dict(a))  # settled twice
    if len(out) > 2 and rng.random() < 0.3:
        i = rng.randrange(len(out) - 1)
        out[i], out[i + 1] = out[i + 1], out[i]
    if doc["variant"] == "ochko" and rng.random() < 0.1:
        stake = next((s for s in doc["stakes"] if s.get("dealer_bet") is None), None)
        if stake is not None:
            out.append({"stake": stake["id"], "hand": None, "wager": "dealer_bet", "result": "pay", "amount": "5"})
    return out or answers[:1]


@pytest.mark.parametrize("variant, preset", GAMES)
def test_the_simulated_dealers_settlement_rebuilds_the_simulated_log_and_grades_clean(variant, preset):
    for seed in SEEDS:
        doc = _round(variant, preset, seed)
        answers = payout.simulated_answers(doc)
        log, positions = payout.place(doc, answers)
        assert log["events"] == doc["events"], seed
        graded = payout.grade(doc, answers)
        assert graded.clean and graded.correct == graded.decisions == len(answers)
        assert len(payout.answer_sheet(doc)) == len(answers)


@pytest.mark.parametrize("variant, preset", GAMES)
def test_a_drills_grading_equals_the_engines_audit_for_every_answer(variant, preset):
    rng = random.Random(f"grading-{variant}-{preset}")
    wrong_seen = 0
    for seed in SEEDS:
        doc = _round(variant, preset, seed)
        answers = _perturb(doc, rng)
        graded = payout.grade(doc, answers)
        # The audit of the log with the answers in place, done here independently of the drill.
        log, positions = payout.place(doc, answers)
        audit = engine.replay(log)
        assert graded.findings == [f.to_dict() for f in audit.findings]
        owed = {(o.stake, o.hand, o.wager): o for o in audit.wagers}
        for k, (answer, at, verdict) in enumerate(zip(answers, positions, graded.answers)):
            at_event = [f for f in audit.findings if f.event == at]
            assert verdict["correct"] == (not at_event)
            assert [f["code"] for f in verdict["findings"]] == [f.code for f in at_event]
            key = payout.key_of(answer)
            right = owed.get(key)
            first = next(k for k, a in enumerate(answers) if payout.key_of(a) == key)
            if right is None or first != k:
                assert not verdict["correct"]  # an unknown wager, or one settled a second time
                continue
            # Independently of the engine's words: a result or amount unlike the owed one is wrong.
            owed_amount = right.amount if right.result == "pay" else right.size
            given = None if answer["amount"] is None else Decimal(str(answer["amount"]))
            if answer["result"] != right.result or (given is not None and given != owed_amount):
                assert not verdict["correct"]
                wrong_seen += 1
        missing = {(m["stake"], m["hand"], m["wager"]) for m in graded.missing}
        assert missing == set(owed) - {payout.key_of(a) for a in answers}
        assert graded.decisions == len(answers) + len(missing)
        assert graded.correct == sum(v["correct"] for v in graded.answers)
    assert wrong_seen > 10  # the property was exercised with real mistakes


@pytest.mark.parametrize("variant", ["ochko", "blackjack", "veintiuno"])
@pytest.mark.parametrize(
    "mistake", ["wrong_amount", "wrong_result", "missing_settlement", "unexpected_settlement", "payment_order"]
)
def test_a_simulated_dealers_mistake_graded_as_answers_is_the_audit_of_his_log(variant, mistake):
    """The simulator's own mistaken settlement, given as a trainee's answers, is graded exactly as
    the engine audits the simulator's log — with the finding code the simulator says it made."""
    sim = simulator(variant)
    if mistake not in sim.MISTAKES:
        pytest.skip(f"{variant} has no {mistake}")
    rng = random.Random(f"mistake-{variant}-{mistake}")
    found = 0
    for _k in range(25):
        made = sim.simulate_round(rng, mistake=mistake)
        if made.mistake is None:
            continue
        answers = payout.simulated_answers(made.doc)
        log, _positions = payout.place(made.doc, answers)
        assert log["events"] == made.doc["events"]
        graded = payout.grade(made.doc, answers)
        assert graded.findings == [f.to_dict() for f in engine.replay(made.doc).findings]
        codes = [f["code"] for f in graded.findings]
        assert made.code in codes
        found += 1
    assert found


def test_instant_settlements_are_placed_where_the_dealer_settled_them():
    """Answers for an instant ochko or mnogo go right after the card that made it: never late."""
    for seed in range(200):
        doc = _round("ochko", "", seed)
        outcome = engine.replay(doc)
        instants = [o for o in outcome.wagers if o.kind in ("instant", "instant_db")]
        if not instants:
            continue
        answers = list(reversed(payout.simulated_answers(doc)))  # the trainee starts at the end
        graded = payout.grade(doc, answers)
        assert "LATE_SETTLEMENT" not in [f["code"] for f in graded.findings]
        log, positions = payout.place(doc, answers)
        for answer, at in zip(answers, positions):
            if (answer["stake"], None, answer["wager"]) in {(o.stake, None, o.wager) for o in instants}:
                previous = log["events"][at - 1]
                assert previous["e"] in ("hit", "pay", "take", "leave", "incident")
        return
    pytest.fail("no instant in 200 rounds")


def test_payment_order_is_graded_by_the_engine():
    """Ochko: paying box 1 before box 6 is the engine's PAYMENT_ORDER, on the answer that broke it."""
    for seed in range(200):
        doc = _round("ochko", "", seed)
        outcome = engine.replay(doc)
        finals = sorted({int(o.stake[0]) for o in outcome.wagers if o.kind == "final"})
        if len(finals) < 2:
            continue
        answers = payout.simulated_answers(doc)
        final_keys = {(o.stake, o.wager) for o in outcome.wagers if o.kind == "final"}
        during = [a for a in answers if (a["stake"], a["wager"]) not in final_keys]
        final = [a for a in answers if (a["stake"], a["wager"]) in final_keys]
        final.sort(key=lambda a: int(a["stake"][0]))  # boxes 1 → 6: the wrong way round
        graded = payout.grade(doc, during + final)
        assert "PAYMENT_ORDER" in [f["code"] for f in graded.findings]
        assert not all(v["correct"] for v in graded.answers)
        return
    pytest.fail("no round with two boxes at the final settlement")


def test_an_empty_answer_set_is_not_a_clean_round():
    doc = _round("ochko", "", 3)
    sheet = payout.answer_sheet(doc)
    one = payout.simulated_answers(doc)[:1]
    graded = payout.grade(doc, one)
    assert graded.decisions == len(sheet)
    assert len(graded.missing) == len(sheet) - 1
