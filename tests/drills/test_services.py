"""Drill services: starting, dealing (a seed replays), grading payouts and moves, progress,
certification."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from casino.errors import ServiceError
from casino.roles import AUDITOR, DEALER, PIT_BOSS, TRAINEE
from drills import payout, selectors, services
from drills.models import Certificate, DrillRound, DrillStep
from tests.factories import CertificationStandardFactory, DrillFactory

pytestmark = pytest.mark.django_db


def _answer_right(drill, trainee, *, spoil: int | None = None):
    """Deal the next payout round and settle it as the simulated dealer did (`spoil`: that answer
    paid double, or taken where it was paid)."""
    current = services.drill_next(drill=drill, user=trainee)
    answers = payout.simulated_answers(current.doc)
    if spoil is not None:
        a = answers[spoil]
        if a["result"] == "pay":
            answers[spoil] = {**a, "amount": str(Decimal(str(a["amount"])) * 2)}
        else:
            answers[spoil] = {**a, "result": "pay", "amount": "1"}
    return services.payout_answer(drill=drill, user=trainee, answers=answers)


def _trainee(make_user):
    return make_user(TRAINEE)


# --- starting and dealing -------------------------------------------------------------------------


def test_start_checks_the_game_the_preset_the_table_and_the_role(make_user):
    trainee = _trainee(make_user)
    drill = services.drill_start(
        trainee=trainee,
        variant="blackjack",
        preset="salon",
        kind="payout",
        table="sacerdotes",
        rounds=4,
        seed=42,
        options={"boxes": 9, "insurance": False},
    )
    assert (drill.table_min, drill.table_max, drill.rounds_planned, drill.seed) == (
        Decimal(1000),
        Decimal(50000),
        4,
        42,
    )
    assert drill.options["boxes"] == 5 and drill.options["insurance"] is False  # clamped to the preset's boxes
    bad = [
        dict(variant="poker"),
        dict(variant="blackjack", preset=""),
        dict(variant="ochko", preset="salon"),
        dict(kind="exam"),
        dict(table="escribas"),
        dict(rounds=0),
        dict(rounds=101),
        dict(seed=-1),
    ]
    for change in bad:
        kwargs = dict(variant="ochko", preset="", kind="payout", table="", rounds=None, seed=None) | change
        with pytest.raises(ServiceError) as refused:
            services.drill_start(trainee=trainee, **kwargs)
        assert refused.value.status == 400 and refused.value.extra["field"]
    with pytest.raises(ServiceError) as refused:
        services.drill_start(trainee=make_user(DEALER), variant="ochko", kind="payout")
    assert refused.value.status == 403


@pytest.mark.parametrize("kind", ["payout", "procedure"])
def test_the_same_seed_deals_the_same_rounds(make_user, kind):
    """Two trainees, one seed: the same rounds and scripts, whatever they answer."""
    one, two = _trainee(make_user), _trainee(make_user)
    options = {"incidents": "every"} if kind == "procedure" else {}
    a = services.drill_start(trainee=one, variant="ochko", kind=kind, seed=2024, rounds=3, options=options)
    b = services.drill_start(trainee=two, variant="ochko", kind=kind, seed=2024, rounds=3, options=options)
    for _number in (1, 2, 3):
        ra, rb = services.drill_next(drill=a, user=one), services.drill_next(drill=b, user=two)
        assert ra.doc == rb.doc and ra.script == rb.script
        if kind == "payout":
            services.payout_answer(drill=a, user=one, answers=payout.simulated_answers(ra.doc))
            services.payout_answer(drill=b, user=two, answers=payout.simulated_answers(rb.doc)[:1])  # badly
        else:
            for step in ra.script["steps"]:
                keys = [c["key"] for c in step["choices"]]
                services.procedure_answer(drill=a, user=one, choice=keys[0])
                services.procedure_answer(drill=b, user=two, choice=keys[-1])
    c = DrillFactory(trainee=_trainee(make_user), seed=2024, kind=kind, options=a.options, rounds_planned=3)
    assert services.round_content(drill=c, number=2) == (a.rounds.get(number=2).doc, a.rounds.get(number=2).script)
    other = DrillFactory(trainee=_trainee(make_user), seed=2025, kind=kind, options=a.options)
    assert services.round_content(drill=other, number=1)[0] != a.rounds.get(number=1).doc


def test_next_keeps_the_round_in_play_until_it_is_answered(make_user):
    trainee = _trainee(make_user)
    drill = DrillFactory(trainee=trainee, rounds_planned=2)
    first = services.drill_next(drill=drill, user=trainee)
    assert services.drill_next(drill=drill, user=trainee).pk == first.pk
    assert first.presented_at is not None
    with pytest.raises(ServiceError) as refused:
        services.drill_next(drill=drill, user=_trainee(make_user))
    assert refused.value.status == 403
    services.payout_answer(drill=drill, user=trainee, answers=payout.simulated_answers(first.doc))
    second = services.drill_next(drill=drill, user=trainee)
    assert second.number == 2
    services.payout_answer(drill=drill, user=trainee, answers=payout.simulated_answers(second.doc))
    drill.refresh_from_db()
    assert drill.status == "finished" and drill.rounds_done == 2
    assert services.drill_next(drill=drill, user=trainee) is None


# --- payout answers -------------------------------------------------------------------------------


def test_a_payout_answer_is_recorded_decision_by_decision_as_the_engine_graded_it(make_user):
    trainee = _trainee(make_user)
    drill = DrillFactory(trainee=trainee, seed=77)
    done = _answer_right(drill, trainee, spoil=0)
    graded = payout.grade(
        done.doc,
        [
            {"stake": s.stake, "hand": s.hand or None, "wager": s.wager, **s.given}
            for s in done.steps.filter(kind="settle").order_by("index")
        ],
    )
    steps = list(done.steps.order_by("index"))
    assert [s.correct for s in steps if s.kind == "settle"] == [a["correct"] for a in graded.answers]
    assert [s.codes for s in steps if s.kind == "settle"] == [
        [f["code"] for f in a["findings"]] for a in graded.answers
    ]
    assert done.graded["findings"] == graded.findings
    assert not steps[0].correct and steps[0].messages  # the spoiled answer: the engine's words
    assert steps[0].expected["result"] in ("pay", "take", "leave")
    assert done.decisions == len(steps) and done.correct == sum(s.correct for s in steps)
    drill.refresh_from_db()
    assert drill.decisions == done.decisions and drill.correct == done.correct and drill.rounds_done == 1
    assert drill.accuracy < 100


def test_payout_answers_are_checked_before_grading(make_user):
    trainee = _trainee(make_user)
    drill = DrillFactory(trainee=trainee)
    current = services.drill_next(drill=drill, user=trainee)
    stake = current.doc["stakes"][0]["id"]
    for answers, field in [
        ([], "answers"),
        ([{"stake": "9z", "wager": "ante", "result": "take"}], "answers[0].stake"),
        ([{"stake": stake, "wager": "double", "result": "take"}], "answers[0].wager"),
        ([{"stake": stake, "wager": "ante", "result": "fold"}], "answers[0].result"),
        ([{"stake": stake, "wager": "ante", "result": "pay"}], "answers[0].amount"),
        ([{"stake": stake, "wager": "ante", "result": "pay", "amount": "1e3"}], "answers[0].amount"),
        ([{"stake": stake, "wager": "ante", "result": "pay", "amount": "1.005"}], "answers[0].amount"),
    ]:
        with pytest.raises(ServiceError) as refused:
            services.payout_answer(drill=drill, user=trainee, answers=answers)
        assert refused.value.extra["field"] == field
    assert not DrillStep.objects.exists()  # nothing half-stored
    current.refresh_from_db()
    assert current.answered_at is None
    with pytest.raises(ServiceError) as refused:
        services.payout_answer(drill=drill, user=trainee, answers=payout.simulated_answers(current.doc), round_number=2)
    assert refused.value.status == 409


def test_blackjack_answers_name_the_hand_when_a_stake_has_several(make_user):
    trainee = _trainee(make_user)
    drill = services.drill_start(trainee=trainee, variant="blackjack", preset="salon", kind="payout", seed=5)
    current = services.drill_next(drill=drill, user=trainee)
    answers = [{k: v for k, v in a.items() if k != "hand"} for a in payout.simulated_answers(current.doc)]
    split = {a["stake"] for a in payout.simulated_answers(current.doc) if "." in (a["hand"] or "")}
    if split:
        with pytest.raises(ServiceError):
            services.payout_answer(drill=drill, user=trainee, answers=answers)
    else:
        done = services.payout_answer(drill=drill, user=trainee, answers=answers)
        assert done.correct == done.decisions


# --- procedure answers ----------------------------------------------------------------------------


def test_a_procedure_round_goes_on_from_the_right_move_after_a_wrong_one(make_user):
    trainee = _trainee(make_user)
    drill = services.drill_start(
        trainee=trainee,
        variant="ochko",
        kind="procedure",
        rounds=1,
        seed=9,
        options={"incidents": "every", "incident_kinds": ["dealer_card_exposed"]},
    )
    current = services.drill_next(drill=drill, user=trainee)
    steps = current.script["steps"]
    assert steps[1]["kind"] == "incident"  # the deal, then the dealer's card flips
    made = []
    for k, step in enumerate(steps):
        right = next(c for c in step["choices"] if c["correct"])
        wrong = next(c for c in step["choices"] if not c["correct"])
        choice = wrong if k == 1 else right
        made.append(services.procedure_answer(drill=drill, user=trainee, choice=choice["key"], step=k))
        current.refresh_from_db()
        assert current.step == k + 1  # wrong or right, the round moves on to the next step
    assert not made[1].correct and made[1].codes and made[1].messages and made[1].expected["label"] == steps[1]["right"]
    assert all(m.correct for k, m in enumerate(made) if k != 1)
    current.refresh_from_db()
    assert current.done and current.decisions == len(steps) and current.correct == len(steps) - 1
    drill.refresh_from_db()
    assert drill.status == "finished" and drill.decisions == len(steps)
    results = selectors.drill_results(drill=drill)
    assert results.streak_best == len(steps) - 2 and results.streak_current == len(steps) - 2
    assert [m.code for m in results.mistakes] == [made[1].codes[0]]


def test_procedure_answers_are_checked(make_user):
    trainee = _trainee(make_user)
    drill = DrillFactory(trainee=trainee, kind="procedure", rounds_planned=1)
    services.drill_next(drill=drill, user=trainee)
    with pytest.raises(ServiceError) as refused:
        services.procedure_answer(drill=drill, user=trainee, choice="9")
    assert refused.value.extra["field"] == "choice"
    with pytest.raises(ServiceError) as refused:
        services.procedure_answer(drill=drill, user=trainee, choice="1", step=3)
    assert refused.value.status == 409
    with pytest.raises(ServiceError) as refused:
        services.payout_answer(drill=drill, user=trainee, answers=[{"stake": "x"}])
    assert refused.value.status == 409


# --- progress --------------------------------------------------------------------------------------


def test_results_count_accuracy_streaks_time_and_mistakes(make_user):
    trainee = _trainee(make_user)
    drill = DrillFactory(trainee=trainee, rounds_planned=3, seed=31)
    r1 = _answer_right(drill, trainee)
    r2 = _answer_right(drill, trainee, spoil=0)  # its first decision wrong, the rest right
    r3 = _answer_right(drill, trainee)
    assert r2.correct == r2.decisions - 1
    DrillRound.objects.filter(drill=drill).update(time_ms=30_000)
    results = selectors.drill_results(drill=drill)
    steps = DrillStep.objects.filter(drill_round__drill=drill)
    assert results.decisions == steps.count() and results.correct == steps.filter(correct=True).count()
    assert results.wrong == 1
    assert results.streak_current == r2.decisions - 1 + r3.decisions
    assert results.streak_best == max(r1.decisions, r2.decisions - 1 + r3.decisions)
    assert results.pace == Decimal("120.0")  # 30 s a round
    assert results.mistakes and results.mistakes[0].count >= 1
    assert results.band is not None


# --- certification ------------------------------------------------------------------------------------


def test_only_a_pit_boss_sets_a_standard_and_a_new_one_replaces_the_old(make_user):
    boss = make_user(PIT_BOSS)
    for user in (make_user(AUDITOR), make_user(TRAINEE), make_user(DEALER)):
        with pytest.raises(ServiceError) as refused:
            services.standard_set(user=user, variant="ochko", kind="payout", rounds_in_row=5, min_accuracy=90)
        assert refused.value.status == 403
    first = services.standard_set(user=boss, variant="ochko", kind="payout", rounds_in_row=5, min_accuracy=90)
    second = services.standard_set(
        user=boss, variant="ochko", kind="payout", rounds_in_row=50, min_accuracy="98.5", time_limit_s=60
    )
    first.refresh_from_db()
    assert not first.is_active and second.is_active
    assert selectors.standard_for(variant="ochko", preset="", kind="payout") == second
    for bad in [
        dict(min_accuracy="101"),
        dict(min_accuracy="98.555"),
        dict(rounds_in_row=0),
        dict(time_limit_s=0),
        dict(variant="blackjack"),
        dict(kind="exam"),
    ]:
        kwargs = dict(variant="ochko", kind="payout", rounds_in_row=5, min_accuracy=90) | bad
        with pytest.raises(ServiceError):
            services.standard_set(user=boss, **kwargs)


def test_a_certificate_is_issued_exactly_when_the_standard_is_met(make_user):
    trainee = _trainee(make_user)
    standard = CertificationStandardFactory(rounds_in_row=3, min_accuracy=Decimal("100"))
    drill = DrillFactory(trainee=trainee, rounds_planned=8, seed=500)
    _answer_right(drill, trainee)
    _answer_right(drill, trainee)
    assert not Certificate.objects.exists()  # two clean rounds: one short
    _answer_right(drill, trainee, spoil=0)
    assert not Certificate.objects.exists()  # three rounds, but not at 100 %
    _answer_right(drill, trainee)
    _answer_right(drill, trainee)
    assert not Certificate.objects.exists()  # the spoiled round is still among the latest three
    _answer_right(drill, trainee)
    cert = Certificate.objects.get()
    assert (cert.trainee, cert.standard, cert.drill, cert.rounds, cert.accuracy) == (
        trainee,
        standard,
        drill,
        3,
        Decimal("100.00"),
    )
    _answer_right(drill, trainee)
    assert Certificate.objects.count() == 1  # issued once


def test_the_time_limit_counts_every_round_of_the_run(make_user):
    trainee = _trainee(make_user)
    CertificationStandardFactory(rounds_in_row=2, min_accuracy=Decimal("50"), time_limit_s=20)
    drill = DrillFactory(trainee=trainee, rounds_planned=4, seed=600)
    first = services.drill_next(drill=drill, user=trainee)
    DrillRound.objects.filter(pk=first.pk).update(presented_at=timezone.now() - timedelta(seconds=45))
    _answer_right(drill, trainee)  # 45 s: over the limit
    _answer_right(drill, trainee)
    assert not Certificate.objects.exists()
    _answer_right(drill, trainee)
    assert Certificate.objects.count() == 1


def test_a_standard_of_another_game_or_kind_is_not_met_by_these_rounds(make_user):
    trainee = _trainee(make_user)
    CertificationStandardFactory(rounds_in_row=1, min_accuracy=Decimal("0"), kind="procedure")
    CertificationStandardFactory(rounds_in_row=1, min_accuracy=Decimal("0"), variant="veintiuno")
    drill = DrillFactory(trainee=trainee, rounds_planned=1)
    _answer_right(drill, trainee)
    assert not Certificate.objects.exists()


# --- who sees what ------------------------------------------------------------------------------------


def test_visibility_trainee_own_pit_boss_his_pits_auditor_all(make_user, floor):
    mine = make_user(TRAINEE, pits=[floor.pit_a])
    theirs = make_user(TRAINEE, pits=[floor.pit_b])
    a, b = DrillFactory(trainee=mine), DrillFactory(trainee=theirs)
    boss_a = make_user(PIT_BOSS, pits=[floor.pit_a])
    assert set(selectors.drills_visible(user=mine)) == {a}
    assert set(selectors.drills_visible(user=boss_a)) == {a}
    assert set(selectors.drills_visible(user=make_user(AUDITOR))) == {a, b}
    assert set(selectors.drills_visible(user=make_user(DEALER, pits=floor.pits))) == set()
    assert set(selectors.drills_visible(user=make_user("superuser"))) == {a, b}
    assert [row.trainee for row in selectors.trainees_overview(user=boss_a)] == [mine]
