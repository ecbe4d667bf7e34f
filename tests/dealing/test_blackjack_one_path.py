"""One code path: blackjack rounds of both presets go through the API, `import_rounds`, the per-round
audit task, audit runs (`audit_rounds`) and the dashboards exactly as ochko rounds do — the variant
decides only inside the engine. Simulated rounds with injected dealer mistakes must come out of the
audit with exactly the injected finding codes and money."""

import io
import json
from collections import Counter

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from audit.models import Finding
from dealing import engine
from dealing.choices import AuditStatus
from dealing.engine.blackjack import simulator as bj_simulator
from dealing.engine.simulators import simulate
from dealing.models import Round
from tests.dealing.conftest import deal_round, golden, golden_cases, post_json, to_json
from tests.factories import audit_pending

pytestmark = pytest.mark.django_db


def simulated(table, n, *, seed, mistake_rate=0.0):
    """Simulated rounds for `table` (its name, limits and preset), dealt by dealer1."""
    preset = table.rules["preset"]
    out = []
    for sim in simulate(
        "blackjack",
        n,
        seed=seed,
        mistake_rate=mistake_rate,
        kinds=list(bj_simulator.MISTAKES),
        preset=preset,
        table_min=table.min_bet,
        table_max=table.max_bet,
        dealer="dealer1",
        table_name=table.name,
    ):
        out.append(sim)
    return out


def codes_of(record) -> Counter:
    return Counter(Finding.objects.filter(round=record).values_list("code", flat=True))


@pytest.mark.parametrize("preset", ["salon", "online"])
def test_the_api_stores_a_blackjack_round_and_answers_with_its_settlement(
    staff, tables, api, preset, eager, django_capture_on_commit_callbacks
):
    table = tables.salon if preset == "salon" else tables.online
    doc = deal_round(table, seed=21)
    client = api(staff.dealer)
    with django_capture_on_commit_callbacks(execute=True):
        response = post_json(client, "/api/v1/rounds/", doc)
    assert response.status_code == 201, response.json()
    body = response.json()
    record = Round.objects.get(pk=body["id"])
    assert (record.variant, record.table, record.dealer) == ("blackjack", table, staff.dealer)
    assert record.house_rules["preset"] == preset
    record.refresh_from_db()
    assert record.audit_status == AuditStatus.CLEAN  # audited by the per-round task on commit
    detail = client.get(f"/api/v1/rounds/{record.pk}/").json()
    settlement = engine.settle(record.document)
    assert detail["settlement"]["wagers"] == settlement["wagers"] and all("hand" in w for w in settlement["wagers"])
    assert post_json(client, "/api/v1/rounds/", doc).status_code == 200  # idempotent on its id
    changed = json.loads(to_json(doc))
    changed["stakes"][0]["player"] = "someone else"
    assert post_json(client, "/api/v1/rounds/", changed).status_code == 409
    # The stakes endpoint lists the box's bet like any stake.
    stakes = client.get(f"/api/v1/stakes/?round={record.pk}").json()
    rows = stakes["results"] if isinstance(stakes, dict) else stakes
    assert {str(row["stake_id"]) for row in rows} == {s["id"] for s in doc["stakes"]}


def test_a_blackjack_round_with_a_mistake_is_stored_with_its_findings_through_the_api(staff, tables, api):
    doc = deal_round(tables.salon, seed=22, mistake="blackjack_paid_even")
    response = post_json(api(staff.dealer), "/api/v1/rounds/", doc)
    assert response.status_code == 201
    detail = api(staff.auditor).get(f"/api/v1/rounds/{response.json()['id']}/").json()
    assert [f["code"] for f in detail["settlement"]["findings"]] == ["WRONG_AMOUNT"]
    # An unreadable one is refused with the event index, never half-stored.
    bad = json.loads(to_json(doc))
    bad["events"][3]["card"] = 7
    bad["id"] = "7c5e4a9e-21b6-4b5c-9a43-1f2d3e4a5b6c"
    refused = post_json(api(staff.dealer), "/api/v1/rounds/", bad)
    assert refused.status_code == 400 and refused.json()["extra"]["event"] == 3
    assert Round.objects.count() == 1


def test_import_rounds_of_both_presets_is_audited_with_exactly_the_injected_mistakes(
    tmp_path, staff, tables, eager, django_capture_on_commit_callbacks
):
    sims = simulated(tables.salon, 40, seed=31, mistake_rate=0.6) + simulated(
        tables.online, 25, seed=32, mistake_rate=0.6
    )
    assert len({sim.code for sim in sims if sim.code}) >= 6  # money, dealer-rule and procedure mistakes
    path = tmp_path / "blackjack.jsonl"
    path.write_text("\n".join(to_json(sim.doc) for sim in sims) + "\n", encoding="utf-8")
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_rounds", str(path), stdout=out, stderr=io.StringIO())
    assert out.getvalue().strip() == f"{len(sims)} stored, 0 already stored, 0 refused"
    for sim in sims:
        record = Round.objects.get(uid=sim.doc["id"])
        record.refresh_from_db()
        assert set(codes_of(record)) == ({sim.code} if sim.code else set()), (sim.mistake, record.document)
        assert record.audit_status == (AuditStatus.FINDINGS if sim.code else AuditStatus.CLEAN)
        if sim.code and sim.player_delta is not None:
            assert sum(Finding.objects.filter(round=record).values_list("player_delta", flat=True)) == sim.player_delta


def test_every_golden_blackjack_round_imports_and_audits_as_its_case_says(
    tmp_path, staff, golden_table, eager, django_capture_on_commit_callbacks
):
    lines, cases = [], []
    for path in golden_cases("blackjack"):
        case = golden(path)
        doc = case["round"]
        table = golden_table(doc)
        lines.append(to_json({**doc, "table": {"name": table.name, **doc["table"]}, "dealer": "dealer1"}))
        cases.append(case)
    path = tmp_path / "golden.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_rounds", str(path), "--as", "pitboss1", stdout=io.StringIO())
    records = list(Round.objects.filter(variant="blackjack").order_by("pk"))  # stored in the file's order
    assert len(records) == len(cases)
    for record, case in zip(records, cases):
        assert set(codes_of(record)) == set(case["expected"]["finding_codes"]), case["why"]
        assert record.audit_status == (AuditStatus.FINDINGS if case["expected"]["finding_codes"] else AuditStatus.CLEAN)


@pytest.mark.django_db(transaction=True)
def test_an_audit_run_over_blackjack_tables_adds_up_as_for_ochko(staff, tables, eager):
    from dealing import services

    sims = simulated(tables.salon, 20, seed=41, mistake_rate=0.5) + simulated(
        tables.online, 10, seed=42, mistake_rate=0.5
    )
    sims += [
        s
        for s in simulate(
            "ochko",
            10,
            seed=43,
            mistake_rate=0.5,
            table_min=tables.ochko.min_bet,
            table_max=tables.ochko.max_bet,
            dealer="dealer1",
            table_name="R-1",
        )
    ]
    for sim in sims:
        services.round_log(document=sim.doc, logged_by=staff.dealer)
    audit_pending(Round.objects.all())
    Finding.objects.all().delete()
    out = io.StringIO()
    call_command("audit_rounds", "--all", "--table", "Escribas", "--table", "Online-1", "--json", stdout=out)
    summary = json.loads(out.getvalue().splitlines()[-1])
    blackjack = sims[:30]
    with_findings = sum(1 for s in blackjack if s.code)
    assert (summary["rounds"], summary["with_findings"], summary["clean"], summary["errors"]) == (
        30,
        with_findings,
        30 - with_findings,
        0,
    )
    assert summary["findings"] == dict(Counter(s.code for s in blackjack if s.code))
    assert not Round.objects.filter(variant="blackjack", audit_status=AuditStatus.PENDING).exists()
    assert Round.objects.filter(variant="ochko", audit_status=AuditStatus.PENDING).count() == 10  # not selected


def test_the_dashboards_and_findings_count_blackjack_rounds(staff, tables, eager, django_capture_on_commit_callbacks):
    from dealing import services

    sims = simulated(tables.salon, 12, seed=51, mistake_rate=1.0) + simulated(
        tables.online, 6, seed=52, mistake_rate=1.0
    )
    for sim in sims:
        with django_capture_on_commit_callbacks(execute=True):
            services.round_log(document=sim.doc, logged_by=staff.dealer)
    client = Client()
    client.force_login(staff.auditor)
    page = client.get(reverse("audit:dashboard"))
    assert page.status_code == 200
    d = page.context["d"]
    assert d["rounds"] == 18 and d["with_findings"] == 18 and d["findings"] == Finding.objects.count() >= 18
    assert {row["label"] for row in d["by_table"]} <= {"Escribas", "Online-1"} and d["by_table"]
    assert {row["code"]: row["n"] for row in d["by_code"]} == dict(
        Counter(Finding.objects.values_list("code", flat=True))
    )
    assert {row["code"] for row in d["by_code"]} == {s.code for s in sims}
    (rate,) = page.context["rates"]
    assert (rate["dealer"], rate["rounds"], rate["with_findings"], rate["findings"]) == (
        "dealer1",
        18,
        18,
        Finding.objects.count(),
    )
    listed = client.get(reverse("audit:finding_list"), {"variant": "blackjack"})
    assert listed.status_code == 200
    api = client.get("/api/v1/findings/", {"table": tables.online.pk}).json()
    results = api["results"] if isinstance(api, dict) else api
    assert len(results) == Finding.objects.filter(table=tables.online).count() >= 6
    replay = client.get(reverse("audit:round_replay", args=[Round.objects.filter(table=tables.salon).first().pk]))
    assert replay.status_code == 200 and replay.context["layout"].variant == "blackjack"
