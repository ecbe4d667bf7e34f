"""Fixtures of the audit tests: a floor with dealers, rounds logged through dealing.services,
simulated rounds with injected mistakes (tasks run in-process whatever the broker: `eager`, in
tests/conftest.py)."""

import pytest

from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, TRAINEE
from dealing.engine.simulators import simulate
from dealing.services import round_log


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
        for sim in simulate(
            variant,
            n,
            seed=seed,
            mistake_rate=mistake_rate,
            kinds=kinds,
            table_min=table.min_bet,
            table_max=table.max_bet,
            **options,
        ):
            with django_capture_on_commit_callbacks(execute=True):
                record, created = round_log(
                    document=sim_doc(sim, table=table, dealer=dealer), logged_by=dealer, table=table
                )
            assert created
            out.append((record, sim))
        return out

    return log


def expected_codes(sim) -> set[str]:
    """The finding codes the audit must report for a simulated round: its injected mistake's, or none."""
    return {sim.code} if sim.code else set()


GOLDEN = __import__("pathlib").Path(__file__).resolve().parent.parent / "golden"


@pytest.fixture
def golden_round(people, floor, django_capture_on_commit_callbacks):
    """golden_round("blackjack/08-…") → the golden case logged by `people.dealer` at a table of its
    game and limits in pit A (created on first use), audited when tasks run."""
    import json
    from decimal import Decimal

    from tests.factories import TableFactory

    made = {}

    def log(name: str):
        case = json.loads((GOLDEN / f"{name}.json").read_text())
        doc = case["round"]
        variant = doc["variant"]
        limits = (Decimal(str(doc["table"]["min"])), Decimal(str(doc["table"]["max"])))
        rules = doc.get("rules") or {}
        key = (variant, limits, json.dumps(rules, sort_keys=True))
        if key not in made:
            made[key] = TableFactory(
                name=f"G-{len(made) + 1}",
                pit=floor.pit_a,
                variant=variant,
                min_bet=limits[0],
                max_bet=limits[1],
                rules=rules,
                boxes=6 if variant != "blackjack" else 5,
            )
        table = made[key]
        doc = dict(doc, table=dict(doc["table"], name=table.name))
        if variant != "veintiuno":
            doc["dealer"] = people.dealer.get_username()
        with django_capture_on_commit_callbacks(execute=True):
            record, _created = round_log(document=doc, logged_by=people.dealer, table=table)
        return record

    return log
