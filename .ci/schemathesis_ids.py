"""Seed the Schemathesis run's floor with objects to write to, and name them in its config.

    PYTHONPATH=. DEBUG=1 DATABASE_URL=... .venv/bin/python .ci/schemathesis_ids.py OUT.toml

After `demo_floor` (one closed shift, no transfer, no ledger night, no drill of the superuser's),
the writes of the books, the ledger and the drills would only ever answer 404 or 409. This opens
shifts on the tables that use 100 chips (the denomination of the schema's examples), requests a
fill on two of them, starts a veintiuno night and three drills of `admin` (the caller), then writes
OUT.toml: .ci/schemathesis.toml, and Schemathesis dictionaries of the ids that exist bound to the
path parameters of those operations (drawn in most generated cases; the rest explore), and of the
tables free for an opening count to `table` in the opening's body.
"""

import json
import os
import sys
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402

from books import services as books  # noqa: E402
from books.models import FloatEvent, IntegritySignal, TableShift  # noqa: E402
from casino.models import Table  # noqa: E402
from casino.roles import has_role  # noqa: E402
from dealing.access import staff_of  # noqa: E402
from drills import services as drills  # noqa: E402
from drills.models import Drill  # noqa: E402
from ledger import services as ledger  # noqa: E402
from ledger.models import GameSession  # noqa: E402

CI = Path(__file__).resolve().parent
PROBABILITY = 0.8  # the share of generated cases that take an id that exists


def seed(admin) -> None:
    tables = [t for t in Table.objects.filter(is_active=True).order_by("pk") if "100" in (t.chips or [])]
    busy = set(TableShift.objects.exclude(status="closed").values_list("table_id", flat=True))
    free = [t for t in tables if t.pk not in busy]
    # Counted by a dealer and signed by a pit boss (not the caller: four eyes); the first one left
    # for the caller to sign, the next two with a fill the caller may approve.
    for n, table in enumerate(free[: max(len(free) - 2, 0)]):  # two stay free for the run's openings
        dealer = _staff(table, "dealer") or admin
        shift = books.shift_open(table=table, counted_by=dealer, counts={"100": 20, "500": 4})
        if n == 0:
            continue
        books.shift_open_sign(shift=shift, signed_by=_staff(table, "pit_boss") or admin)
        if n < 3:
            books.transfer_request(shift=shift, kind="fill", counts={"100": 10}, requested_by=dealer)
    # A night in play on a second veintiuno table (a copy of the first): the first stays free for the
    # nights the run starts (one night at a time on a table).
    veintiuno = Table.objects.filter(is_active=True, variant="veintiuno").order_by("pk").first()
    if veintiuno is not None:
        second = Table.objects.get(pk=veintiuno.pk)
        second.pk, second.name = None, f"{veintiuno.name}-B"
        second.save()
        ledger.session_start(table=second, players=["Ana", "Luis", "Marta"], unit="5", created_by=admin)
    for variant, preset, kind in (
        ("blackjack", "salon", "payout"),
        ("ochko", "", "procedure"),
        ("blackjack", "salon", "strategy"),
    ):
        drills.drill_start(trainee=admin, variant=variant, preset=preset, kind=kind, seed=7)


def _staff(table, role):
    """A demo user of `role` who works the table's pit (not the superuser)."""
    for user in get_user_model().objects.filter(is_active=True, is_superuser=False).order_by("pk"):
        if has_role(user, role) and staff_of(user, table, role):
            return user
    return None


def dictionaries(admin) -> dict[str, list]:
    open_shifts = TableShift.objects.exclude(status="closed")
    pending = FloatEvent.objects.filter(kind__in=["fill", "credit"]).exclude(status="received")
    busy = set(open_shifts.values_list("table_id", flat=True))
    return {
        "shifts": list(open_shifts.values_list("pk", flat=True)),
        "events": list(pending.values_list("pk", flat=True)),
        "event_shifts": sorted(set(pending.values_list("shift_id", flat=True))),
        "sessions": list(GameSession.objects.exclude(status="ended").values_list("pk", flat=True)),
        "drills": list(Drill.objects.filter(trainee=admin).values_list("pk", flat=True)),
        "signals": list(IntegritySignal.objects.values_list("pk", flat=True)),
        "free_tables": [
            t.name for t in Table.objects.filter(is_active=True).exclude(pk__in=busy) if "100" in (t.chips or [])
        ],
        "veintiuno_tables": list(
            Table.objects.filter(is_active=True, variant="veintiuno")
            .exclude(pk__in=GameSession.objects.exclude(status="ended").values("table"))
            .values_list("name", flat=True)
        ),
    }


# (path regex, {parameter: dictionary}); the first entry that matches an operation is its own
BINDINGS = [
    (r"^/api/v1/books/shifts/\{id\}/transfers/\{event\}/", {"path.id": "event_shifts", "path.event": "events"}),
    (r"^/api/v1/books/shifts/\{id\}/", {"path.id": "shifts"}),
    (r"^/api/v1/books/reports/shifts/\{id\}/", {"path.id": "shifts"}),
    (r"^/api/v1/books/shifts/open/", {"body.table": "free_tables"}),
    (r"^/api/v1/books/signals/\{id\}/", {"path.id": "signals"}),
    (r"^/api/v1/ledger/sessions/\{id\}/", {"path.id": "sessions"}),
    (r"^/api/v1/ledger/sessions/create/", {"body.table": "veintiuno_tables"}),
    (r"^/api/v1/drills/\{id\}/", {"path.id": "drills"}),
]


def config(values: dict[str, list]) -> str:
    out = [(CI / "schemathesis.toml").read_text(encoding="utf-8"), "", "# Generated by .ci/schemathesis_ids.py"]
    for name, items in values.items():
        if items:
            out += [f"[dictionaries.{name}]", f"values = {json.dumps(items, ensure_ascii=False)}", ""]
    for regex, parameters in BINDINGS:
        bound = {k: v for k, v in parameters.items() if values.get(v)}
        if not bound:
            continue
        inline = ", ".join(f'"{k}" = {{ dictionary = "{v}", probability = {PROBABILITY} }}' for k, v in bound.items())
        out += ["[[operations]]", f"include-path-regex = {json.dumps(regex)}", f"parameters = {{ {inline} }}", ""]
    return "\n".join(out)


def main(path: str) -> None:
    admin = get_user_model().objects.get(username="admin")
    seed(admin)
    values = dictionaries(admin)
    Path(path).write_text(config(values), encoding="utf-8")
    print(", ".join(f"{name} {len(items)}" for name, items in values.items()))


if __name__ == "__main__":
    main(sys.argv[1])
