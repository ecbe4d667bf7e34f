"""Audit services: per-round audits, findings replaced never duplicated, reviews that survive
re-audits, idempotent chunks, run totals, shoe checks."""

from collections import Counter
from datetime import timedelta
from decimal import Decimal

import pytest
from django.conf import settings
from django.utils import timezone

from audit import services
from audit.choices import ChunkStatus, FindingStatus, RunStatus
from audit.models import AuditRun, AuditRunChunk, Finding, Review, ShoeAudit
from casino.errors import ServiceError
from dealing import engine
from dealing import services as dealing_services
from dealing.choices import AuditStatus
from dealing.models import Round
from tests.audit.conftest import expected_codes
from tests.factories import audit_pending
from tests.factories import superseded as mark_superseded

pytestmark = pytest.mark.django_db


@pytest.fixture
def run_now(django_capture_on_commit_callbacks, eager):
    """run_now(**selection) → an audit run started and carried out in this process, refreshed."""

    def start(**kwargs):
        kwargs.setdefault("started_by", None)
        with django_capture_on_commit_callbacks(execute=True):
            run = services.audit_run_start(**kwargs)
        run.refresh_from_db()
        return run

    return start


def codes_of(record) -> Counter:
    return Counter(Finding.objects.filter(round=record).values_list("code", flat=True))


# --- the audit of one round -------------------------------------------------------------------------


def test_logging_a_round_audits_it_with_the_findings_the_simulator_injected(eager, people, floor, log_rounds):
    rows = log_rounds(floor.table_a, people.dealer, n=30, seed=5, mistake_rate=0.6)
    assert any(sim.code for _r, sim in rows) and any(not sim.code for _r, sim in rows)
    for record, sim in rows:
        record.refresh_from_db()
        assert set(codes_of(record)) == expected_codes(sim), record.document
        assert record.audit_status == (AuditStatus.FINDINGS if sim.code else AuditStatus.CLEAN)
        assert record.engine_version == engine.ENGINE_VERSION and record.audited_at is not None
        findings = list(Finding.objects.filter(round=record))
        for f in findings:
            assert (f.table, f.dealer, f.played_at) == (floor.table_a, people.dealer, record.played_at)
            assert f.severity == engine.SEVERITY[f.code] and f.engine_version == engine.ENGINE_VERSION
            assert f.status == FindingStatus.OPEN
        if sim.code and sim.player_delta is not None:
            assert sum(f.player_delta for f in findings) == sim.player_delta


def test_a_finding_carries_what_was_owed_and_what_was_logged(eager, people, floor, log_rounds):
    [(record, sim)] = log_rounds(floor.table_a, people.dealer, n=1, seed=8, mistake_rate=1.0, kinds=["wrong_amount"])
    finding = Finding.objects.get(round=record)
    assert finding.code == "WRONG_AMOUNT" and finding.severity == "critical"
    assert finding.expected["result"] == "pay" and finding.actual["result"] == "pay"
    assert Decimal(finding.actual["amount"]) - Decimal(finding.expected["amount"]) == finding.player_delta
    assert finding.player_delta == sim.player_delta
    event = record.document["events"][finding.event]
    assert event["e"] == "pay" and event["stake"] == finding.stake and event["wager"] == finding.wager


def test_re_auditing_replaces_findings_and_never_duplicates_them(eager, people, floor, log_rounds):
    rows = log_rounds(floor.table_a, people.dealer, n=20, seed=9, mistake_rate=0.7)
    before = {f.pk: (f.round_id, f.fingerprint) for f in Finding.objects.all()}
    assert before
    for _ in range(3):
        for record, _sim in rows:
            services.round_audit(round_id=record.pk)
    after = {f.pk: (f.round_id, f.fingerprint) for f in Finding.objects.all()}
    assert after == before  # the same rows: kept, not deleted and re-inserted


def test_a_re_audit_is_atomic(eager, people, floor, log_rounds, monkeypatch):
    [(record, _sim)] = log_rounds(floor.table_a, people.dealer, n=1, seed=8, mistake_rate=1.0, kinds=["wrong_amount"])
    audit_pending([record.pk])
    # The engine now reports nothing, but writing the status fails: the old finding must stay.
    monkeypatch.setattr(engine, "replay", lambda doc, **_: engine.base.Outcome("ochko", [], []))

    def broken(*args, **kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(services.rounds, "record_verdicts_one_by_one", broken)
    with pytest.raises(RuntimeError):
        services.round_audit(round_id=record.pk)
    assert list(Finding.objects.filter(round=record).values_list("code", flat=True)) == ["WRONG_AMOUNT"]
    assert Round.objects.get(pk=record.pk).audit_status == AuditStatus.PENDING


def test_a_review_survives_a_re_audit_when_the_finding_recurs(eager, people, floor, log_rounds):
    [(record, _sim)] = log_rounds(floor.table_a, people.dealer, n=1, seed=8, mistake_rate=1.0, kinds=["wrong_amount"])
    finding = Finding.objects.get(round=record)
    services.finding_review(
        finding_ids=[finding.pk],
        auditor=people.auditor,
        status=FindingStatus.CONFIRMED,
        classification="dealer_error",
        comment="paid twice the Bet",
    )
    services.round_audit(round_id=record.pk)
    again = Finding.objects.get(round=record)
    assert again.pk == finding.pk
    assert (again.status, again.classification, again.reviewed_by) == ("confirmed", "dealer_error", people.auditor)
    assert list(again.reviews.values_list("comment", flat=True)) == ["paid twice the Bet"]


def test_reviews_of_a_finding_that_goes_away_are_kept_and_come_back_with_it(
    eager, people, floor, log_rounds, monkeypatch
):
    [(record, _sim)] = log_rounds(floor.table_a, people.dealer, n=1, seed=8, mistake_rate=1.0, kinds=["wrong_amount"])
    finding = Finding.objects.get(round=record)
    services.finding_review(
        finding_ids=[finding.pk],
        auditor=people.auditor,
        status="dismissed",
        classification="player_dispute",
        comment="the player agreed",
    )
    real = engine.replay
    monkeypatch.setattr(engine, "replay", lambda doc, **_: engine.base.Outcome("ochko", [], []))
    assert services.round_audit(round_id=record.pk) == AuditStatus.CLEAN
    assert not Finding.objects.filter(round=record).exists()
    review = Review.objects.get()
    assert review.finding is None and review.round == record and review.fingerprint == finding.fingerprint
    monkeypatch.setattr(engine, "replay", real)
    assert services.round_audit(round_id=record.pk) == AuditStatus.FINDINGS
    back = Finding.objects.get(round=record)
    assert back.pk != finding.pk and back.fingerprint == finding.fingerprint
    assert (back.status, back.classification) == ("dismissed", "player_dispute")
    assert list(back.reviews.all()) == [review]


def test_a_new_engine_version_updates_the_findings_it_keeps(eager, people, floor, log_rounds, monkeypatch):
    [(record, _sim)] = log_rounds(floor.table_a, people.dealer, n=1, seed=8, mistake_rate=1.0, kinds=["wrong_amount"])
    finding = Finding.objects.get(round=record)
    monkeypatch.setattr(engine, "ENGINE_VERSION", "9.9.9")
    services.round_audit(round_id=record.pk)
    again = Finding.objects.get(round=record)
    assert again.pk == finding.pk and again.engine_version == "9.9.9"
    assert Round.objects.get(pk=record.pk).engine_version == "9.9.9"


def test_a_round_the_engine_cannot_read_is_an_error_and_keeps_no_findings(eager, people, floor, log_rounds):
    [(record, _sim)] = log_rounds(floor.table_a, people.dealer, n=1, seed=8, mistake_rate=1.0, kinds=["wrong_amount"])
    broken = dict(record.document, events=[{"e": "teleport"}])
    Round.objects.filter(pk=record.pk).update(document=broken)  # behind the application's back
    assert services.round_audit(round_id=record.pk) == AuditStatus.ERROR
    assert not Finding.objects.filter(round=record).exists()
    assert Round.objects.get(pk=record.pk).audit_status == AuditStatus.ERROR


def test_auditing_a_round_that_does_not_exist_does_nothing(eager, db):
    assert services.round_audit(round_id=987654) is None


def test_the_task_audits_through_the_service(eager, people, floor, log_rounds):
    from audit.tasks import audit_round

    [(record, _sim)] = log_rounds(floor.table_a, people.dealer, n=1, seed=8, mistake_rate=1.0, kinds=["wrong_amount"])
    assert audit_round.delay(record.pk).get() == AuditStatus.FINDINGS
    assert audit_round.delay(10**9).get() is None


def test_fingerprints_tell_repeated_findings_apart():
    f = engine.Finding("LATE_SETTLEMENT", "x", event=3, stake="1a", wager="bet")
    g = engine.Finding("LATE_SETTLEMENT", "y", event=3, stake="1a", wager="bet")
    h = engine.Finding("LATE_SETTLEMENT", "x", event=4, stake="1a", wager="bet")
    a, b, c = services.fingerprints([f, g, h])
    assert len({a, b, c}) == 3
    assert services.fingerprints([f]) == [a]  # stable: the same finding, the same print


# --- reviews --------------------------------------------------------------------------------------


@pytest.fixture
def two_findings(eager, people, floor, log_rounds):
    log_rounds(floor.table_a, people.dealer, n=2, seed=8, mistake_rate=1.0, kinds=["wrong_amount"])
    return list(Finding.objects.order_by("pk"))


def test_bulk_review_records_one_review_per_finding_and_keeps_history(people, two_findings):
    ids = [f.pk for f in two_findings]
    services.finding_review(
        finding_ids=ids, auditor=people.auditor, status="confirmed", classification="dealer_error", comment=""
    )
    services.finding_review(
        finding_ids=ids[:1],
        auditor=people.admin,
        status="dismissed",
        classification="no_error",
        comment="video shows a correct payout",
    )
    first, second = Finding.objects.order_by("pk")
    assert (first.status, first.classification, first.reviewed_by) == ("dismissed", "no_error", people.admin)
    assert (second.status, second.classification) == ("confirmed", "dealer_error")
    assert [r.status for r in first.reviews.order_by("at", "pk")] == ["confirmed", "dismissed"]
    services.finding_review(finding_ids=ids[:1], auditor=people.auditor, status="open")
    first.refresh_from_db()
    assert (first.status, first.classification) == ("open", "") and first.reviews.count() == 3


@pytest.mark.parametrize(
    "status, classification, comment, field",
    [
        ("confirmed", "no_error", "", "classification"),
        ("dismissed", "dealer_error", "why", "classification"),
        ("dismissed", "no_error", "  ", "comment"),
        ("open", "dealer_error", "", "classification"),
        ("maybe", "", "", "status"),
    ],
)
def test_a_review_that_does_not_fit_is_refused_and_changes_nothing(
    people, two_findings, status, classification, comment, field
):
    with pytest.raises(ServiceError) as err:
        services.finding_review(
            finding_ids=[two_findings[0].pk],
            auditor=people.auditor,
            status=status,
            classification=classification,
            comment=comment,
        )
    assert err.value.status == 400 and field in err.value.extra["fields"]
    assert not Review.objects.exists()


def test_only_auditors_review_and_never_their_own_rounds(people, two_findings, make_user, floor):
    ids = [two_findings[0].pk]
    for user in (people.dealer, people.pit_boss, people.inspector, people.trainee):
        with pytest.raises(ServiceError) as err:
            services.finding_review(finding_ids=ids, auditor=user, status="confirmed", classification="dealer_error")
        assert err.value.status == 403
    # A superuser who dealt the round may not judge it.
    Finding.objects.filter(pk=ids[0]).update(dealer=people.admin)
    with pytest.raises(ServiceError) as err:
        services.finding_review(
            finding_ids=ids, auditor=people.admin, status="confirmed", classification="dealer_error"
        )
    assert err.value.extra["code"] == "own_round"
    with pytest.raises(ServiceError) as err:
        services.finding_review(
            finding_ids=[ids[0], 99999], auditor=people.auditor, status="confirmed", classification="dealer_error"
        )
    assert err.value.status == 404 and err.value.extra["ids"] == [99999]
    with pytest.raises(ServiceError) as err:
        services.finding_review(
            finding_ids=[], auditor=people.auditor, status="confirmed", classification="dealer_error"
        )
    assert "ids" in err.value.extra["fields"]
    assert not Review.objects.exists()


# --- audit runs -----------------------------------------------------------------------------------


@pytest.fixture
def logged(people, floor, log_rounds, eager):
    """60 rounds on table A, 20 on table B (10 by the other dealer), about a third with mistakes; not audited."""
    rows = log_rounds(floor.table_a, people.dealer, n=60, seed=21, mistake_rate=0.35)
    rows += log_rounds(floor.table_b, people.other_dealer, n=20, seed=22, mistake_rate=0.35)
    return rows


def expected_totals(rows) -> dict:
    with_findings = sum(1 for _r, sim in rows if sim.code)
    return {"rounds": len(rows), "clean": len(rows) - with_findings, "with_findings": with_findings, "errors": 0}


def test_a_run_audits_its_selection_and_adds_up(people, logged, run_now):
    audit_pending(Round.objects.all())
    run = run_now(started_by=people.auditor, chunk_size=7)
    assert run.status == RunStatus.DONE and run.planned and run.finished_at and run.started_at
    summary = run.summary()
    assert {k: summary[k] for k in ("rounds", "clean", "with_findings", "errors")} == expected_totals(logged)
    stored = Counter(Finding.objects.values_list("code", flat=True))
    assert summary["findings"] == dict(stored) and run.findings_total == sum(stored.values())
    assert run.rounds_total == run.rounds_done == 80
    assert run.chunks.count() == 12 and not run.chunks.filter(status=ChunkStatus.PENDING).exists()
    assert not Round.objects.filter(audit_status=AuditStatus.PENDING).exists()


def test_a_run_again_gives_identical_results_and_only_unaudited_finds_nothing_left(people, logged, run_now):
    first = run_now(only_unaudited=False, chunk_size=9)
    findings = sorted(Finding.objects.values_list("pk", "fingerprint"))
    second = run_now(only_unaudited=False, chunk_size=4)
    assert second.summary() == first.summary() and second.rounds_done == 80
    assert sorted(Finding.objects.values_list("pk", "fingerprint")) == findings
    nothing = run_now(only_unaudited=True)
    assert nothing.status == RunStatus.DONE and nothing.summary() == {
        "rounds": 0,
        "clean": 0,
        "with_findings": 0,
        "errors": 0,
        "findings": {},
    }


def test_a_run_selects_by_table_dealer_and_days(people, floor, logged, run_now):
    assert run_now(only_unaudited=False, tables=[floor.table_b]).rounds_done == 20
    assert run_now(only_unaudited=False, dealers=[people.other_dealer]).rounds_done == 20
    old = list(Round.objects.filter(table=floor.table_a).order_by("pk")[:10].values_list("pk", flat=True))
    Round.objects.filter(pk__in=old).update(played_at=timezone.now() - timedelta(days=10))
    today = timezone.localdate()
    assert run_now(only_unaudited=False, date_from=today).rounds_done == 70
    assert run_now(only_unaudited=False, date_to=today - timedelta(days=1)).rounds_done == 10
    assert (
        run_now(
            only_unaudited=False,
            date_from=today - timedelta(days=10),
            date_to=today - timedelta(days=10),
            tables=[floor.table_a],
        ).rounds_done
        == 10
    )
    with pytest.raises(ServiceError):
        services.audit_run_start(date_from=today, date_to=today - timedelta(days=1))


def test_a_run_leaves_out_superseded_revisions_and_rounds_logged_after_it_started(people, logged, run_now):
    superseded = Round.objects.order_by("pk").first()
    mark_superseded(superseded, by=Round.objects.order_by("pk").last(), decided_by=people.pit_boss)
    assert run_now(only_unaudited=False).rounds_done == 79
    run = AuditRun.objects.create(max_round_id=Round.objects.order_by("pk")[10].pk, only_unaudited=False)
    assert services.run_selection(run).count() == 10  # 11 ids up to the cutoff, one superseded


def test_only_auditors_start_runs(people, db):
    for user in (people.dealer, people.pit_boss, people.inspector, people.trainee):
        with pytest.raises(ServiceError) as err:
            services.audit_run_start(started_by=user)
        assert err.value.status == 403
    assert not AuditRun.objects.exists()


@pytest.mark.parametrize("seconds", [0.0, 60.0], ids=["re-queued after each slice", "in one task"])
def test_planning_walks_the_ids_a_slice_at_a_time(people, logged, run_now, monkeypatch, seconds):
    monkeypatch.setattr(services.runs, "CHUNKS_PER_PLAN_SLICE", 2)
    monkeypatch.setattr(services.runs, "PLAN_SECONDS", seconds)
    run = run_now(only_unaudited=False, chunk_size=3)
    ids = [pk for chunk in run.chunks.order_by("number") for pk in chunk.round_ids]
    assert ids == sorted(Round.objects.values_list("pk", flat=True))  # every round once, in order
    assert run.chunks.count() == 27 and run.rounds_done == 80 and run.status == RunStatus.DONE
    assert run.rounds_expected == run.rounds_total == 80


def test_a_chunk_delivered_twice_is_counted_once(people, logged, django_capture_on_commit_callbacks, eager):
    with django_capture_on_commit_callbacks(execute=False):
        run = services.audit_run_start(only_unaudited=False, chunk_size=10)
    assert services.audit_run_plan(run_id=run.pk) is False  # planned in one slice; tasks not sent
    chunks = list(run.chunks.order_by("number"))
    assert len(chunks) == 8
    assert services.audit_run_chunk_process(chunk_id=chunks[0].pk) is True
    once = AuditRun.objects.get(pk=run.pk)
    assert services.audit_run_chunk_process(chunk_id=chunks[0].pk) is False  # redelivered: nothing added
    twice = AuditRun.objects.get(pk=run.pk)
    assert (
        (twice.rounds_done, twice.findings_total, twice.findings_by_code)
        == (once.rounds_done, once.findings_total, once.findings_by_code)
        == (10, once.findings_total, once.findings_by_code)
    )
    assert twice.status == RunStatus.RUNNING
    for chunk in chunks:
        services.audit_run_chunk_process(chunk_id=chunk.pk)
        services.audit_run_chunk_process(chunk_id=chunk.pk)
    done = AuditRun.objects.get(pk=run.pk)
    assert done.status == RunStatus.DONE and done.rounds_done == 80
    assert done.summary()["findings"] == dict(Counter(Finding.objects.values_list("code", flat=True)))


def test_a_chunk_that_fails_changes_nothing_and_a_later_delivery_counts(
    people, logged, monkeypatch, django_capture_on_commit_callbacks, eager
):
    Finding.objects.all().delete()  # as if the rounds had never been audited
    audit_pending(Round.objects.all())
    with django_capture_on_commit_callbacks(execute=False):
        run = services.audit_run_start(only_unaudited=False, chunk_size=80)
    services.audit_run_plan(run_id=run.pk)
    chunk = run.chunks.get()
    real = services.rounds.record_verdicts
    monkeypatch.setattr(services.rounds, "record_verdicts", lambda *a: (_ for _ in ()).throw(RuntimeError("killed")))
    with pytest.raises(RuntimeError):
        services.audit_run_chunk_process(chunk_id=chunk.pk)
    assert AuditRunChunk.objects.get(pk=chunk.pk).status == ChunkStatus.PENDING
    assert AuditRun.objects.get(pk=run.pk).rounds_done == 0
    assert not Finding.objects.exists() and not Round.objects.exclude(audit_status=AuditStatus.PENDING).exists()
    monkeypatch.setattr(services.rounds, "record_verdicts", real)
    assert services.audit_run_chunk_process(chunk_id=chunk.pk) is True
    assert AuditRun.objects.get(pk=run.pk).summary()["rounds"] == 80


def test_resume_queues_what_is_left_and_the_run_completes(people, logged, django_capture_on_commit_callbacks, eager):
    with django_capture_on_commit_callbacks(execute=False):
        run = services.audit_run_start(only_unaudited=False, chunk_size=25)
    with django_capture_on_commit_callbacks(execute=False):  # the planner ran, its chunk tasks were lost
        services.audit_run_plan(run_id=run.pk)
    first = run.chunks.order_by("number").first()
    services.audit_run_chunk_process(chunk_id=first.pk)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.audit_run_resume(run_id=run.pk) == 3
    run.refresh_from_db()
    assert run.status == RunStatus.DONE and run.rounds_done == 80
    assert services.audit_run_resume(run_id=run.pk) == 0


def test_stalled_runs_are_resumed_by_the_watchdog(people, logged, django_capture_on_commit_callbacks, eager):
    with django_capture_on_commit_callbacks(execute=False):
        run = services.audit_run_start(only_unaudited=False, chunk_size=40)
    AuditRun.objects.filter(pk=run.pk).update(created_at=timezone.now() - timedelta(hours=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert services.audit_runs_resume_stalled() == [run.pk]
    assert AuditRun.objects.get(pk=run.pk).status == RunStatus.DONE


class WorkerDied(BaseException):
    """A worker killed mid-chunk: nothing after this point of its task runs, its transaction rolls back."""


def test_a_chunk_in_hand_is_leased_and_its_lease_cleared_when_done(
    people, logged, monkeypatch, django_capture_on_commit_callbacks, eager
):
    with django_capture_on_commit_callbacks(execute=False):
        run = services.audit_run_start(only_unaudited=False, chunk_size=80)
        services.audit_run_plan(run_id=run.pk)
    chunk = run.chunks.get()
    seen = []
    real = services.runs.rounds_audit

    def audit(**kwargs):
        seen.append(AuditRunChunk.objects.values_list("leased_until", flat=True).get(pk=chunk.pk))
        return real(**kwargs)

    monkeypatch.setattr(services.runs, "rounds_audit", audit)
    before = timezone.now()
    assert services.audit_run_chunk_process(chunk_id=chunk.pk) is True
    (leased,) = seen
    assert before + timedelta(seconds=59) < leased <= timezone.now() + timedelta(seconds=60)
    chunk.refresh_from_db()
    assert chunk.status == ChunkStatus.DONE and chunk.leased_until is None


def test_a_chunk_whose_worker_died_is_queued_again_and_every_round_is_audited_once(
    people, logged, monkeypatch, django_capture_on_commit_callbacks, eager
):
    from audit.tasks import audit_chunks_expired

    with django_capture_on_commit_callbacks(execute=False):  # the chunks' messages wait in the broker
        run = services.audit_run_start(only_unaudited=False, chunk_size=20)
        services.audit_run_plan(run_id=run.pk)
    first, dying, *rest = run.chunks.order_by("number")
    audited = Counter()
    real = services.runs.rounds_audit

    def audit(**kwargs):
        totals = real(**kwargs)
        audited.update(kwargs["round_ids"])
        return totals

    monkeypatch.setattr(services.runs, "rounds_audit", audit)
    assert services.audit_run_chunk_process(chunk_id=first.pk) is True
    # A worker takes the next chunk and is killed in the middle of it; its lease runs out.
    monkeypatch.setattr(services.runs, "rounds_audit", lambda **kw: (_ for _ in ()).throw(WorkerDied()))
    with pytest.raises(WorkerDied):
        services.audit_run_chunk_process(chunk_id=dying.pk)
    monkeypatch.setattr(services.runs, "rounds_audit", audit)
    dying.refresh_from_db()
    assert dying.status == ChunkStatus.PENDING and dying.leased_until is not None
    assert services.audit_chunks_requeue_expired() == []  # the lease has not run out yet
    AuditRunChunk.objects.filter(pk=dying.pk).update(leased_until=timezone.now() - timedelta(seconds=1))
    # The periodic task queues it again — and only it: the chunks nobody took yet are still queued.
    with django_capture_on_commit_callbacks(execute=True):
        assert audit_chunks_expired.delay().get() == [dying.pk]
    dying.refresh_from_db()
    assert dying.status == ChunkStatus.DONE and dying.requeued == 1 and dying.leased_until is None
    assert services.audit_chunks_requeue_expired() == []
    for chunk in rest:  # their own messages
        assert services.audit_run_chunk_process(chunk_id=chunk.pk) is True
    # The dead worker's message comes back from the broker at last: the chunk is done, nothing is added.
    assert services.audit_run_chunk_process(chunk_id=dying.pk) is False
    run.refresh_from_db()
    assert run.status == RunStatus.DONE and run.rounds_done == run.rounds_total == 80
    assert audited == Counter({pk: 1 for pk in Round.objects.values_list("pk", flat=True)})
    assert run.findings_total == Finding.objects.count() == sum(run.findings_by_code.values())


def test_a_dead_workers_chunk_is_queued_again_within_two_minutes():
    assert settings.AUDIT_CHUNK_LEASE_S + settings.AUDIT_CHUNK_CHECK_S <= 120
    entry = settings.CELERY_BEAT_SCHEDULE["audit-chunks-expired"]
    assert entry == {"task": "audit.tasks.audit_chunks_expired", "schedule": settings.AUDIT_CHUNK_CHECK_S}


def test_the_nightly_task_audits_what_is_not_audited(people, logged, django_capture_on_commit_callbacks, eager):
    from audit.tasks import audit_nightly

    audit_pending(Round.objects.filter(table__name="R-1"))
    with django_capture_on_commit_callbacks(execute=True):
        result = audit_nightly.delay().get()
    run = AuditRun.objects.get(pk=result["run"])
    assert run.trigger == "nightly" and run.started_by is None and run.rounds_done == 60


def test_a_chunk_task_that_breaks_fails_its_run(people, logged, monkeypatch, django_capture_on_commit_callbacks, eager):
    monkeypatch.setattr(services.runs, "rounds_audit", lambda **kw: (_ for _ in ()).throw(ValueError("bug")))
    with pytest.raises(ValueError), django_capture_on_commit_callbacks(execute=True):
        services.audit_run_start(only_unaudited=False)
    run = AuditRun.objects.get()
    assert run.status == RunStatus.FAILED and "bug" in run.error


# --- shoes ----------------------------------------------------------------------------------------


@pytest.fixture
def shoe_with_rounds(people, floor, log_rounds, eager):
    """A shoe at table A: loaded with only 5 burns (6 are due), one paid burn with a wrong fee, 3 rounds."""
    shoe = dealing_services.shoe_start(table=floor.table_a, shuffled_by=people.dealer)
    for card in ("9H", "TD", "JS", "QC", "KH"):
        dealing_services.shoe_burn(shoe=shoe, card=card, reason="load", recorded_by=people.dealer)
    rows = log_rounds(floor.table_a, people.dealer, n=2, seed=31)
    dealing_services.shoe_burn(shoe=shoe, card="AS", reason="paid", fee=40, recorded_by=people.dealer)
    rows += log_rounds(floor.table_a, people.dealer, n=1, seed=32)
    return shoe, [r for r, _s in rows]


def test_a_shoe_check_finds_the_burn_count_and_fee(people, shoe_with_rounds):
    shoe, rounds = shoe_with_rounds
    assert {r.shoe_id for r in rounds} == {shoe.pk}
    audit = services.shoe_audit(shoe_id=shoe.pk)
    assert audit.status == "findings" and audit.rounds == 3
    found = {f.code: f for f in Finding.objects.filter(shoe=shoe, round__isnull=True)}
    assert set(found) == {"BURN_COUNT", "BURN_FEE"}
    assert found["BURN_FEE"].dealer == people.dealer and found["BURN_FEE"].table == shoe.table
    assert found["BURN_COUNT"].severity == "major" and found["BURN_FEE"].severity == "minor"
    # Checked again: the same rows; a review survives.
    services.finding_review(
        finding_ids=[found["BURN_FEE"].pk], auditor=people.auditor, status="confirmed", classification="dealer_error"
    )
    services.shoe_audit(shoe_id=shoe.pk)
    assert set(Finding.objects.filter(shoe=shoe, round__isnull=True).values_list("pk", flat=True)) == {
        f.pk for f in found.values()
    }
    assert Finding.objects.get(pk=found["BURN_FEE"].pk).status == "confirmed"
    assert ShoeAudit.objects.get(shoe=shoe).findings == 2


def test_a_correct_shoe_is_clean_and_ended_shoes_are_checked_by_the_nightly_task(
    people, floor, log_rounds, eager, django_capture_on_commit_callbacks
):
    from audit.tasks import audit_nightly

    shoe = dealing_services.shoe_start(table=floor.table_a, shuffled_by=people.dealer)
    for card in ("9H", "TD", "JS", "QC", "KH", "6S"):
        dealing_services.shoe_burn(shoe=shoe, card=card, reason="load", recorded_by=people.dealer)
    log_rounds(floor.table_a, people.dealer, n=3, seed=33)
    assert list(services.shoes_to_audit()) == []
    dealing_services.shoe_end(shoe=shoe, ended_by=people.dealer)
    assert list(services.shoes_to_audit()) == [shoe]
    with django_capture_on_commit_callbacks(execute=True):
        assert audit_nightly.delay().get()["shoes"] == 1
    assert ShoeAudit.objects.get(shoe=shoe).status == "clean"
    assert list(services.shoes_to_audit()) == []
    assert services.shoe_audit(shoe_id=10**9) is None


def test_only_auditors_request_a_shoe_check(people, shoe_with_rounds, django_capture_on_commit_callbacks):
    shoe, _rounds = shoe_with_rounds
    with pytest.raises(ServiceError):
        services.shoe_audit_request(shoe_id=shoe.pk, requested_by=people.pit_boss)
    with django_capture_on_commit_callbacks(execute=True):
        services.shoe_audit_request(shoe_id=shoe.pk, requested_by=people.auditor)
    assert ShoeAudit.objects.filter(shoe=shoe).exists()
