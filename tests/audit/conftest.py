"""Fixtures of the audit tests: a floor with dealers, rounds logged through dealing.services,
simulated rounds with injected mistakes, and Celery tasks run in-process whatever the broker."""

import pytest
from celery import current_app

from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, TRAINEE
from dealing.engine.simulators import simulate
from dealing.services import round_log


@pytest.fixture
def eager(settings):
    """Tasks run in the calling process, also when CELERY_BROKER_URL is set (CI): these tests are
    about the services and tasks, not about the broker."""
    conf = current_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager, conf.task_eager_propagates = True, True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved


@pytest.fixture
def people(make_user, floor):
    """One user per role: dealers and the pit boss and inspector in pit A only, an auditor, a trainee."""

    class People:
        dealer = make_user(DEALER, pits=[floor.pit_a], username="dealer-a")
        other_dealer = make_user(DEALER, pits=[floor.pit_a, floor.pit_b], username="dealer-b")
        pit_boss = make_user(PIT_BOSS, pits=[floor.pit_a], username="boss-a")
        inspector = make_user(INSPECTOR, pits=[floor.pit_a], username="inspector-a")
        auditor = make_user(AUDITOR, username="auditor")
        trainee = make_user(TRAINEE, pits=floor.pits, username="trainee")
        admin = make_user("superuser", username="root")

    return People


def sim_doc(sim, *, table, dealer) -> dict:
    doc = dict(sim.doc)
    doc["table"] = {"name": table.name, "min": doc["table"]["min"], "max": doc["table"]["max"]}
    doc["dealer"] = dealer.get_username()
    return doc


@pytest.fixture
def log_rounds(django_capture_on_commit_callbacks):
    """log_rounds(table, dealer, n=…, seed=…, mistake_rate=…, kinds=…) → [(Round, Simulated)], each
    logged through dealing.services.round_log (and so audited on commit when tasks run)."""

    def log(table, dealer, *, n=10, seed=1, mistake_rate=0.0, kinds=None, variant="ochko", **options):
        out = []
        for sim in simulate(variant, n, seed=seed, mistake_rate=mistake_rate, kinds=kinds,
                            table_min=table.min_bet, table_max=table.max_bet, **options):
            with django_capture_on_commit_callbacks(execute=True):
                record, created = round_log(document=sim_doc(sim, table=table, dealer=dealer), logged_by=dealer,
                                            table=table)
            assert created
            out.append((record, sim))
        return out

    return log
