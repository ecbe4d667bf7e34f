"""Fixtures of the dealing tests: a floor with one person per role and pit, rounds dealt by the
engine's simulators, golden cases, API clients.

    def test_x(staff, tables, deal, api):
        doc = deal(tables.ochko, seed=3)                     # a correct ochko round/1 for R-1
        api(staff.dealer).post("/api/v1/rounds/", doc)      # logged in as that user
"""

import copy
import json
import random
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import pytest
from rest_framework.test import APIClient

from casino.models import Table
from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, TRAINEE
from dealing import chain, services
from dealing.engine.simulators import module as simulator
from tests.factories import PitFactory, StaffFactory, SuperuserFactory, TableFactory, UserFactory

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


@dataclass
class Tables:
    ochko: Table  # R-1, Pit A, 100–5,000
    ochko_b: Table  # R-9, Pit B
    salon: Table  # Escribas, Pit B
    online: Table  # Online-1, Pit B
    veintiuno: Table  # Casa-21, Pit B
    elsewhere: Table  # R-X, Pit C (nobody of Pits A/B works there)


@pytest.fixture
def pits(db):
    return SimpleNamespace(a=PitFactory(name="Pit A"), b=PitFactory(name="Pit B"), c=PitFactory(name="Pit C"))


@pytest.fixture
def tables(pits) -> Tables:
    return Tables(
        ochko=TableFactory(name="R-1", pit=pits.a),
        ochko_b=TableFactory(name="R-9", pit=pits.b),
        salon=TableFactory(name="Escribas", pit=pits.b, variant="blackjack", boxes=5, rules={"preset": "salon"}),
        online=TableFactory(
            name="Online-1",
            pit=pits.b,
            variant="blackjack",
            boxes=1,
            min_bet=Decimal(1),
            max_bet=Decimal(500),
            rules={"preset": "online"},
        ),
        veintiuno=TableFactory(
            name="Casa-21", pit=pits.b, variant="veintiuno", boxes=6, min_bet=Decimal(5), max_bet=Decimal(100)
        ),
        elsewhere=TableFactory(name="R-X", pit=pits.c),
    )


def _person(username, role, pits):
    user = SuperuserFactory(username=username) if role == "superuser" else UserFactory(username=username, role=role)
    StaffFactory(user=user, pits=list(pits))
    return user


@pytest.fixture
def staff(pits, tables):
    """One person per role in Pits A and B (and a second dealer and pit boss), plus people of Pit C."""
    ab = [pits.a, pits.b]
    return SimpleNamespace(
        dealer=_person("dealer1", DEALER, ab),
        dealer2=_person("dealer2", DEALER, ab),
        inspector=_person("inspector1", INSPECTOR, ab),
        pitboss=_person("pitboss1", PIT_BOSS, ab),
        pitboss2=_person("pitboss2", PIT_BOSS, ab),
        auditor=_person("auditor1", AUDITOR, []),
        trainee=_person("trainee1", TRAINEE, ab),
        admin=_person("admin1", "superuser", []),
        nobody=_person("norole1", None, ab),
        dealer_c=_person("dealer-c", DEALER, [pits.c]),
        pitboss_c=_person("pitboss-c", PIT_BOSS, [pits.c]),
        inspector_c=_person("inspector-c", INSPECTOR, [pits.c]),
    )


@pytest.fixture
def api():
    """api(user) → an APIClient logged in as `user` (None: anonymous)."""

    def client(user=None) -> APIClient:
        c = APIClient()
        if user is not None:
            c.force_login(user)
        return c

    return client


def post_json(client, url, doc, **extra):
    """POST a document as JSON text; Decimals are written as numbers, exactly."""
    return client.post(url, data=to_json(doc), content_type="application/json", **extra)


def to_json(doc) -> str:
    return json.dumps(chain.json_safe(doc))


def deal_round(
    table: Table, *, seed: int = 0, dealer: str | None = "dealer1", mistake: str | None = None, rng=None, **options
) -> dict:
    """A simulated round/1 document for `table` (its name, limits and rules), dealt by `dealer`."""
    rng = rng or random.Random(seed)
    sim = simulator(table.variant)
    kwargs = dict(table_min=table.min_bet, table_max=table.max_bet, **options)
    if table.variant == "blackjack":
        kwargs.update(preset=(table.rules or {}).get("preset", "salon"))
    if table.variant != "veintiuno":
        kwargs.update(dealer=dealer or "D-1", table_name=table.name)
    if table.variant == "ochko":  # an incident is approved by the staff fixture's pit boss (issue #35)
        kwargs.setdefault("approver", "pitboss1")
    doc = sim.simulate_round(rng, mistake=mistake, **kwargs).doc
    doc["table"] = {"name": table.name, **{k: v for k, v in doc["table"].items() if k != "name"}}
    if dealer is None:
        doc.pop("dealer", None)
    elif table.variant == "veintiuno":
        doc["dealer"] = dealer
    return doc


@pytest.fixture
def deal():
    return deal_round


def log(table, user, **options):
    """Deal and log one round at `table` as `user` (the dealer by default); returns the Round."""
    doc = deal_round(table, dealer=user.username, **options)
    record, created = services.round_log(document=doc, logged_by=user)
    assert created
    return record


@pytest.fixture
def logged():
    return log


def golden_cases(variant: str) -> list[Path]:
    return sorted((GOLDEN / variant).glob("*.json"))


def golden(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def golden_table(pits):
    """golden_table(round) → a Pit A table with that round's variant, limits and house rules."""
    made = {}

    def table_for(doc: dict) -> Table:
        rules = doc.get("rules") or {}
        key = (doc["variant"], str(doc["table"]["min"]), str(doc["table"]["max"]), json.dumps(rules, sort_keys=True))
        if key not in made:
            boxes = {"ochko": 6, "veintiuno": 8}.get(doc["variant"], 1 if rules.get("preset") == "online" else 7)
            made[key] = TableFactory(
                name=f"G-{len(made) + 1}",
                pit=pits.a,
                variant=doc["variant"],
                rules=rules,
                min_bet=Decimal(str(doc["table"]["min"])),
                max_bet=Decimal(str(doc["table"]["max"])),
                boxes=boxes,
            )
        return made[key]

    return table_for


def mutated(doc: dict, **changes) -> dict:
    out = copy.deepcopy(doc)
    out.update(changes)
    return out
