"""The rollups (audit/rollups.py) stay equal to a direct aggregate of the rounds and findings after
random logging, re-audits to the same and to other verdicts, reviews, shoe checks and corrections —
on SQLite, and on PostgreSQL with DATABASE_URL (where two audits in parallel, threads with their own
connections and real Celery workers, are tested too). And the dashboard and the error rates read
from them what the old queries over every round of the period gave."""

import datetime as dt
import random
import threading
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, connections
from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncDate
from django.test import override_settings
from django.utils import timezone

from audit import dashboard, rollups, services
from audit.dashboard import OVER, UNDER, Period
from audit.models import Finding, Rollup, RollupFinding
from audit.selectors import IN_FORCE
from bench.audit import load_rounds
from casino.scope import scope_q
from dealing import services as dealing_services
from dealing.choices import AuditStatus, Decision, RoundStatus
from dealing.engine.simulators import simulate
from dealing.models import Round
from tests.audit.conftest import sim_doc

pytestmark = pytest.mark.django_db


def agree():
    assert rollups.differences() == []


def period() -> Period:
    today = timezone.localdate()
    return Period(today - dt.timedelta(days=2), today + dt.timedelta(days=1))


# --- the direct aggregate: the dashboard and error rates as they were computed from every round --------


def direct_dashboard(user, p: Period) -> dict:
    rounds = Round.objects.filter(
        scope_q(Round, user), status=RoundStatus.RECORDED, played_at__gte=p.start, played_at__lt=p.end
    )
    by_status = {row["audit_status"]: row["n"] for row in rounds.values("audit_status").annotate(n=Count("pk"))}
    findings = (
        Finding.objects.filter(scope_q(Finding, user))
        .filter(IN_FORCE)
        .filter(played_at__gte=p.start, played_at__lt=p.end)
    )
    money = findings.exclude(status="dismissed")
    totals = money.aggregate(over=OVER, under=UNDER)
    zero = Decimal(0)
    return {
        "rounds": sum(by_status.values()),
        "pending": by_status.get(AuditStatus.PENDING, 0),
        "clean": by_status.get(AuditStatus.CLEAN, 0),
        "with_findings": by_status.get(AuditStatus.FINDINGS, 0),
        "errors": by_status.get(AuditStatus.ERROR, 0),
        "findings": findings.count(),
        "open": findings.filter(status="open").count(),
        "confirmed": findings.filter(status="confirmed").count(),
        "dismissed": findings.filter(status="dismissed").count(),
        "over": totals["over"] or zero,
        "under": totals["under"] or zero,
        "by_code": list(findings.values("code").annotate(n=Count("pk")).order_by("-n", "code")),
        "by_table": [
            {"label": r["table__name"], "over": r["over"] or zero, "under": r["under"] or zero, "n": r["n"]}
            for r in money.values("table__name").annotate(over=OVER, under=UNDER, n=Count("pk")).order_by("table__name")
        ],
        "by_day": {
            r["day"].isoformat(): r["n"]
            for r in money.annotate(day=TruncDate("played_at")).values("day").annotate(n=Count("pk"))
        },
    }


def direct_rates(user, p: Period) -> list[dict]:
    rounds = (
        Round.objects.filter(
            scope_q(Round, user), status=RoundStatus.RECORDED, played_at__gte=p.start, played_at__lt=p.end
        )
        .exclude(audit_status=AuditStatus.PENDING)
        .values("dealer__username")
        .annotate(rounds=Count("pk"), with_findings=Count("pk", filter=Q(audit_status=AuditStatus.FINDINGS)))
    )
    findings = {
        row["dealer__username"]: row
        for row in (
            Finding.objects.filter(scope_q(Finding, user))
            .filter(IN_FORCE, round__isnull=False)
            .filter(played_at__gte=p.start, played_at__lt=p.end)
            .exclude(status="dismissed")
            .values("dealer__username")
            .annotate(
                findings=Count("pk"),
                confirmed=Count("pk", filter=Q(status="confirmed", classification="dealer_error")),
                over=OVER,
                under=UNDER,
            )
        )
    }
    out = []
    for row in rounds:
        f = findings.get(row["dealer__username"], {})
        out.append(
            (
                row["dealer__username"],
                row["rounds"],
                row["with_findings"],
                f.get("findings", 0),
                f.get("confirmed", 0),
                f.get("over") or 0,
                f.get("under") or 0,
            )
        )
    return sorted(out)


def assert_pages_read_the_direct_aggregate(users):
    p = period()
    for user in users:
        want = direct_dashboard(user, p)
        got = dashboard.dashboard(user=user, period=p)
        for name, value in want.items():
            if name == "by_day":
                assert {d["label"]: d["n"] for d in got["by_day"] if d["n"]} == value, user
            else:
                assert got[name] == value, (user, name)
        rates = sorted(
            (r["dealer"], r["rounds"], r["with_findings"], r["findings"], r["confirmed"], r["over"], r["under"])
            for r in dashboard.dealer_error_rates(user=user, period=p)
        )
        assert rates == direct_rates(user, p), user


def direct_handle_and_win() -> tuple:
    """Σ float logged and owed of the audited rounds in force, straight from the rounds."""
    rounds = Round.objects.filter(status=RoundStatus.RECORDED).exclude(audit_status=AuditStatus.PENDING)
    sums = rounds.aggregate(logged=Sum("float_logged"), owed=Sum("float_owed"))
    return rounds.count(), sums["logged"] or 0, sums["owed"] or 0


# --- the shifts ------------------------------------------------------------------------------------


def local(text: str) -> dt.datetime:
    return timezone.make_aware(dt.datetime.fromisoformat(text))


@override_settings(TIME_ZONE="Europe/Moscow")
def test_a_round_counts_in_its_calendar_day_and_the_shift_it_was_logged_in():
    timezone.activate("Europe/Moscow")
    try:
        assert rollups.time_key(local("2026-03-10 06:00")) == (dt.date(2026, 3, 10), dt.date(2026, 3, 10), 0)
        assert rollups.time_key(local("2026-03-10 13:59:59")) == (dt.date(2026, 3, 10), dt.date(2026, 3, 10), 0)
        assert rollups.time_key(local("2026-03-10 14:00")) == (dt.date(2026, 3, 10), dt.date(2026, 3, 10), 1)
        assert rollups.time_key(local("2026-03-10 23:30")) == (dt.date(2026, 3, 10), dt.date(2026, 3, 10), 2)
        # The night shift runs past midnight: the next calendar day, the shift of the day before.
        assert rollups.time_key(local("2026-03-11 05:59")) == (dt.date(2026, 3, 11), dt.date(2026, 3, 10), 2)
        # The day is the casino's, not UTC's: 01:00 in Moscow is 22:00 UTC the day before.
        utc = dt.datetime(2026, 3, 10, 22, 0, tzinfo=dt.UTC)
        assert rollups.time_key(utc) == (dt.date(2026, 3, 11), dt.date(2026, 3, 10), 2)
    finally:
        timezone.deactivate()


@override_settings(TIME_ZONE="UTC", CASINO_SHIFTS=[("early", "00:00"), ("late", "12:00")])
def test_the_shifts_are_a_setting():
    assert [s.name for s in rollups.shifts()] == ["early", "late"]
    assert rollups.time_key(local("2026-03-10 00:00")) == (dt.date(2026, 3, 10), dt.date(2026, 3, 10), 0)
    assert rollups.time_key(local("2026-03-10 18:00")) == (dt.date(2026, 3, 10), dt.date(2026, 3, 10), 1)


def test_the_handle_is_the_initial_wagers_and_every_wager_settled():
    from dealing import engine

    sims = list(simulate("blackjack", 60, seed=8, table_min=Decimal(10), table_max=Decimal(500)))
    grew = False
    for sim in sims:
        outcome = engine.replay(sim.doc)
        initial, total = rollups.handle(sim.doc, outcome)
        assert initial == sum(Decimal(str(s["bet"])) + Decimal(str(s.get("jackpot") or 0)) for s in sim.doc["stakes"])
        assert (
            total
            == sum(w.size for w in outcome.wagers)
            >= initial - sum(Decimal(str(s.get("jackpot") or 0)) for s in sim.doc["stakes"])
        )
        grew |= total > initial
    assert grew  # a double or a split wagers more than the initial bet


# --- kept current ----------------------------------------------------------------------------------


def test_logging_auditing_reviewing_and_re_auditing_keep_the_rollups_equal_to_the_rounds(
    eager, people, floor, log_rounds, monkeypatch
):
    rows = log_rounds(floor.table_a, people.dealer, n=10, seed=3, mistake_rate=0.5)
    rows += log_rounds(floor.table_b, people.other_dealer, n=8, seed=4, mistake_rate=0.5)
    ids = [r.pk for r, _sim in rows]
    assert Finding.objects.exists() and Rollup.objects.exists() and RollupFinding.objects.exists()
    agree()
    count, logged, owed = direct_handle_and_win()
    totals = Rollup.objects.aggregate(n=Sum("rounds"), logged=Sum("win_logged"), owed=Sum("win_owed"))
    assert (totals["n"], totals["logged"], totals["owed"]) == (count, logged, owed) and count == 18
    assert logged != owed  # the mistakes moved money
    # What the pit's books stand on: per table and shift, the rounds' own figures.
    books = dashboard.handle_and_win(user=people.auditor, period=period(), by=("table__name", "shift_date", "shift"))
    for table in (floor.table_a, floor.table_b):
        rounds = Round.objects.filter(table=table)
        mine = [row for row in books if row["table__name"] == table.name]
        assert sum(row["rounds"] for row in mine) == rounds.count()
        assert sum(row["win_logged"] for row in mine) == rounds.aggregate(s=Sum("float_logged"))["s"]
        assert sum(row["win_owed"] for row in mine) == rounds.aggregate(s=Sum("float_owed"))["s"]
        assert 0 < sum(row["initial_wagers"] for row in mine) <= sum(row["total_wagered"] for row in mine)
    assert dashboard.handle_and_win(user=people.pit_boss, period=period()) == [
        row
        for row in dashboard.handle_and_win(user=people.auditor, period=period())
        if row["table__name"] == floor.table_a.name
    ]

    # A re-audit to the same verdicts adds nothing.
    stored = rollups.stored()
    services.rounds_audit(round_ids=ids)
    services.rounds_audit(round_ids=ids[:5])
    assert rollups.stored() == stored

    # Reviews move their findings between statuses.
    findings = list(Finding.objects.order_by("pk"))
    services.finding_review(
        finding_ids=[f.pk for f in findings[:2]],
        auditor=people.auditor,
        status="confirmed",
        classification="dealer_error",
    )
    services.finding_review(
        finding_ids=[findings[2].pk],
        auditor=people.auditor,
        status="dismissed",
        classification="no_error",
        comment="Seen on camera: paid right.",
    )
    agree()
    assert_pages_read_the_direct_aggregate([people.auditor, people.pit_boss, people.dealer, people.other_dealer])

    # A re-audit to other verdicts (a new engine, say): findings gone, rounds clean or unreadable.
    real = services.rounds.replay_findings

    def other_engine(document, handles=None, pk=None, approvers=None):
        if pk in ids[:4]:
            return [], None
        if pk in ids[4:6]:
            return None, "unreadable"
        return real(document, handles, pk, approvers)

    monkeypatch.setattr(services.rounds, "replay_findings", other_engine)
    services.rounds_audit(round_ids=ids)
    agree()
    assert Rollup.objects.aggregate(n=Sum("errors"))["n"] == 2
    monkeypatch.setattr(services.rounds, "replay_findings", real)
    services.rounds_audit(round_ids=ids)
    agree()
    assert_pages_read_the_direct_aggregate([people.auditor, people.pit_boss, people.dealer])


def test_a_correction_takes_the_superseded_round_out_and_puts_its_revision_in(
    eager, people, floor, log_rounds, django_capture_on_commit_callbacks
):
    rows = log_rounds(floor.table_a, people.dealer, n=6, seed=11, mistake_rate=0.6)
    agree()
    original = next(r for r, sim in rows if sim.code)
    fixed = sim_doc(
        next(iter(simulate("ochko", 1, seed=99, table_min=floor.table_a.min_bet, table_max=floor.table_a.max_bet))),
        table=floor.table_a,
        dealer=people.dealer,
    )
    fixed["id"] = str(original.uid)
    amendment = dealing_services.round_amend(
        round=original, document=fixed, amended_by=people.dealer, reason="The log was of another round."
    )
    agree()  # pending: the original is still the round in force
    with django_capture_on_commit_callbacks(execute=True):
        dealing_services.round_amendment_decide(
            round=amendment, decided_by=people.pit_boss, decision=Decision.APPROVED, comment="Seen on camera."
        )
    amendment.refresh_from_db()
    assert amendment.status == RoundStatus.RECORDED and amendment.audit_status != AuditStatus.PENDING
    agree()
    assert Rollup.objects.aggregate(n=Sum("rounds"))["n"] == 6
    assert (
        not RollupFinding.objects.filter(
            n__gt=0, code__in=Finding.objects.filter(round=original).values("code")
        ).exists()
        or Finding.objects.filter(round=amendment).exists()
    )
    assert_pages_read_the_direct_aggregate([people.auditor, people.pit_boss])


def test_a_correction_approved_before_the_original_was_audited(people, floor, log_rounds, request):
    """Nothing audited (no subscriber audits the rounds): the rollups count nothing, and the correction
    moves nothing; audited afterwards, only the revision in force counts."""
    from audit import subscribers
    from dealing import hooks

    hooks.unsubscribe(subscribers.rounds_committed)
    request.addfinalizer(lambda: hooks.subscribe(subscribers.rounds_committed))
    rows = log_rounds(floor.table_a, people.dealer, n=3, seed=12)
    original = rows[0][0]
    assert Round.objects.get(pk=original.pk).audit_status == AuditStatus.PENDING
    fixed = sim_doc(
        next(iter(simulate("ochko", 1, seed=98, table_min=floor.table_a.min_bet, table_max=floor.table_a.max_bet))),
        table=floor.table_a,
        dealer=people.dealer,
    )
    fixed["id"] = str(original.uid)
    amendment = dealing_services.round_amend(round=original, document=fixed, amended_by=people.dealer, reason="x")
    dealing_services.round_amendment_decide(round=amendment, decided_by=people.pit_boss, decision=Decision.APPROVED)
    agree()
    assert not Rollup.objects.filter(rounds__gt=0).exists()
    services.rounds_audit(round_ids=[r.pk for r, _s in rows] + [amendment.pk, original.pk])
    agree()
    assert Rollup.objects.aggregate(n=Sum("rounds"))["n"] == 3


def test_shoe_checks_and_their_reviews_are_counted(eager, people, floor, log_rounds):
    shoe = dealing_services.shoe_start(table=floor.table_a, shuffled_by=people.dealer)
    for card in ("9H", "TD", "JS", "QC", "KH"):
        dealing_services.shoe_burn(shoe=shoe, card=card, reason="load", recorded_by=people.dealer)
    log_rounds(floor.table_a, people.dealer, n=2, seed=31)
    dealing_services.shoe_burn(shoe=shoe, card="AS", reason="paid", fee=40, recorded_by=people.dealer)
    services.shoe_audit(shoe_id=shoe.pk)
    assert RollupFinding.objects.filter(of_shoe=True, n__gt=0).count() == 2
    agree()
    services.shoe_audit(shoe_id=shoe.pk)  # again: the same
    agree()
    fee = Finding.objects.get(shoe=shoe, round__isnull=True, code="BURN_FEE")
    services.finding_review(
        finding_ids=[fee.pk], auditor=people.auditor, status="confirmed", classification="dealer_error"
    )
    agree()
    assert_pages_read_the_direct_aggregate([people.auditor, people.pit_boss, people.dealer])


def test_random_logging_re_audits_reviews_and_corrections(
    eager, people, floor, log_rounds, monkeypatch, django_capture_on_commit_callbacks
):
    rng = random.Random(2026)
    tables = [
        (floor.table_a, people.dealer),
        (floor.table_b, people.other_dealer),
        (floor.table_a, people.other_dealer),
    ]
    real = services.rounds.replay_findings
    seed = 100
    for _step in range(14):
        action = rng.choice(["log", "log", "reaudit", "review", "engine", "correct"])
        ids = list(Round.objects.filter(status=RoundStatus.RECORDED).values_list("pk", flat=True))
        if action == "log" or not ids:
            table, dealer = rng.choice(tables)
            seed += 1
            log_rounds(table, dealer, n=rng.randint(1, 5), seed=seed, mistake_rate=0.5)
        elif action == "reaudit":
            services.rounds_audit(round_ids=rng.sample(ids, min(len(ids), rng.randint(1, 6))))
        elif action == "review":
            open_ids = list(Finding.objects.values_list("pk", flat=True))
            if open_ids:
                chosen = rng.sample(open_ids, min(len(open_ids), rng.randint(1, 3)))
                status = rng.choice(["confirmed", "dismissed", "open"])
                classification = {"confirmed": "dealer_error", "dismissed": "no_error", "open": ""}[status]
                services.finding_review(
                    finding_ids=chosen,
                    auditor=people.auditor,
                    status=status,
                    classification=classification,
                    comment="checked",
                )
        elif action == "engine":
            hit = set(rng.sample(ids, min(len(ids), 3)))

            def other_engine(document, handles=None, pk=None, approvers=None, hit=hit):
                if pk in hit:
                    return ([], None) if pk % 2 else (None, "unreadable")
                return real(document, handles, pk, approvers)

            monkeypatch.setattr(services.rounds, "replay_findings", other_engine)
            services.rounds_audit(round_ids=ids)
            monkeypatch.setattr(services.rounds, "replay_findings", real)
        elif action == "correct":
            in_pit_a = [pk for pk in ids if Round.objects.filter(pk=pk, table=floor.table_a).exists()]
            if not in_pit_a:
                continue
            record = Round.objects.select_related("table", "dealer").get(pk=rng.choice(in_pit_a))
            table = record.table
            seed += 1
            fixed = sim_doc(
                next(
                    iter(
                        simulate(
                            "ochko", 1, seed=seed, mistake_rate=0.5, table_min=table.min_bet, table_max=table.max_bet
                        )
                    )
                ),
                table=table,
                dealer=record.dealer,
            )
            fixed["id"] = str(record.uid)
            amendment = dealing_services.round_amend(
                round=record, document=fixed, amended_by=record.dealer, reason="corrected"
            )
            with django_capture_on_commit_callbacks(execute=True):
                dealing_services.round_amendment_decide(
                    round=amendment, decided_by=people.pit_boss, decision=Decision.APPROVED
                )
        agree()
    assert Round.objects.filter(status=RoundStatus.SUPERSEDED).exists()
    assert_pages_read_the_direct_aggregate([people.auditor, people.pit_boss, people.dealer, people.other_dealer])


# --- rebuilt ---------------------------------------------------------------------------------------


def test_rollups_rebuild_recomputes_them_from_the_rounds_and_is_idempotent(eager, people, floor, log_rounds, capsys):
    log_rounds(floor.table_a, people.dealer, n=8, seed=5, mistake_rate=0.5)
    stored = rollups.stored()
    Rollup.objects.all().delete()
    RollupFinding.objects.update(n=7)
    with pytest.raises(CommandError, match="rollup rows differ"):
        call_command("rollups_rebuild", "--check")
    call_command("rollups_rebuild", "--batch", "3")
    assert rollups.stored() == stored
    call_command("rollups_rebuild")
    assert rollups.stored() == stored
    call_command("rollups_rebuild", "--check")
    assert "agree" in capsys.readouterr().out


def test_the_data_migration_fills_the_rollups_of_rounds_already_stored(eager, people, floor, log_rounds):
    import importlib

    from django.apps import apps as live_apps

    log_rounds(floor.table_a, people.dealer, n=5, seed=6, mistake_rate=0.5)
    stored = rollups.stored()
    Rollup.objects.all().delete()
    RollupFinding.objects.all().delete()
    migration = importlib.import_module("audit.migrations.0005_rollups")
    migration.fill(live_apps, None)
    assert rollups.stored() == stored


# --- in parallel (PostgreSQL) ----------------------------------------------------------------------


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("parallel transactions need PostgreSQL (DATABASE_URL)")


@pytest.mark.django_db(transaction=True)
def test_two_audits_in_parallel_of_overlapping_rounds_leave_the_rollups_right(postgresql, people, floor):
    ids = []
    for batch in load_rounds(table=floor.table_a, dealer=people.dealer, n=400, seed=7, mistake_rate=0.3, pool=200):
        ids.extend(pk for pk, _code in batch)
    for batch in load_rounds(
        table=floor.table_b, dealer=people.other_dealer, n=200, seed=8, mistake_rate=0.3, pool=200
    ):
        ids.extend(pk for pk, _code in batch)
    ids.sort()
    errors = []
    start = threading.Barrier(2)

    def worker(part):
        try:
            start.wait(10)
            for k in range(0, len(part), 50):
                services.rounds_audit(round_ids=part[k : k + 50])
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    # Each thread audits every other slice of 50 and the middle third twice: the same keys, the
    # same rounds at the same time, from two connections.
    first = ids[:400]
    second = ids[200:]
    threads = [threading.Thread(target=worker, args=(part,)) for part in (first, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    assert not Round.objects.filter(audit_status=AuditStatus.PENDING).exists()
    agree()
    assert Rollup.objects.aggregate(n=Sum("rounds"))["n"] == 600


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_run_and_a_re_audit_by_two_real_workers_leave_the_rollups_equal_to_the_rounds(postgresql, people, floor):
    """Two Celery worker processes (Redis, PostgreSQL) audit 1,200 rounds of two tables in chunks of 40,
    then audit them all again: the rollups equal the direct aggregate after each."""
    from django.conf import settings

    from bench.audit import wait_for_run, workers_running
    from tests.audit.test_worker import queue_name, start_run

    if settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("needs CELERY_BROKER_URL (Redis) for real worker processes")
    from tests.conftest import current_database_url

    env = {
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": current_database_url(),
        "CELERY_VISIBILITY_TIMEOUT": "3",
        "CONN_MAX_AGE": "60",
        "AUDIT_SWEEP_INTERVAL_S": "0",
    }
    for table, dealer, seed in ((floor.table_a, people.dealer, 21), (floor.table_b, people.other_dealer, 22)):
        for _batch in load_rounds(table=table, dealer=dealer, n=600, seed=seed, mistake_rate=0.3, pool=300):
            pass
    queue = queue_name()
    with workers_running(2, queue, env=env):
        run = wait_for_run(start_run(queue, chunk_size=40).pk, timeout=180)
        assert run.status == "done", run.error
        agree()
        again = wait_for_run(start_run(queue, chunk_size=40).pk, timeout=180)
        assert again.status == "done", again.error
    agree()
    assert Rollup.objects.aggregate(n=Sum("rounds"))["n"] == 1200
    assert RollupFinding.objects.aggregate(n=Sum("n"))["n"] == Finding.objects.count() > 100
