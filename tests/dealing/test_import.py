"""`import_rounds FILE.jsonl`: many logs through round_log; bad lines reported by number, the import
goes on, a summary ends it, exit 1 when any line was refused."""

import io
import re

import pytest
from django.core.management import CommandError, call_command

from dealing import engine
from dealing.models import Round
from tests.dealing.conftest import deal_round, golden, golden_cases, to_json

pytestmark = pytest.mark.django_db


def _run(path, *args):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("import_rounds", str(path), *args, stdout=out, stderr=err)
    except CommandError as exc:
        return exc.returncode, str(exc), _refusals(err.getvalue())
    return 0, out.getvalue(), _refusals(err.getvalue())


def _refusals(err: str) -> str:
    """stderr without the progress lines ("N lines: …", one after each batch)."""
    return "".join(line for line in err.splitlines(keepends=True) if not re.match(r"\d+ lines: ", line))


def test_an_import_logs_every_line_and_reports_the_bad_ones(tmp_path, staff, tables):
    good = [deal_round(tables.ochko, seed=k) for k in range(5)]
    lines = [to_json(doc) for doc in good]
    lines.insert(2, "{not json")
    lines.insert(4, "")
    lines.insert(5, to_json({**good[0], "table": {"name": "R-404"}}))
    lines.append(to_json(good[1]))  # a repeat
    path = tmp_path / "night.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, summary, errors = _run(path)
    assert code == 1
    assert summary == "5 stored, 1 already stored, 2 refused"
    refusals = [line for line in errors.splitlines() if line.startswith("line ")]
    assert refusals == [
        refusals[0],
        'line 6: There is no table named "R-404". (code unknown_table, path $.table.name)',
    ]
    assert errors.startswith("line 3: The document is not valid JSON")
    assert Round.objects.count() == 5
    assert {r.logged_by.username for r in Round.objects.all()} == {"dealer1"}


def test_as_and_table_apply_to_every_line(tmp_path, staff, tables):
    docs = []
    for k in range(3):
        doc = deal_round(tables.ochko, seed=k)
        del doc["table"]["name"]
        docs.append(to_json(doc))
    path = tmp_path / "paper.jsonl"
    path.write_bytes(("\n".join(docs) + "\n").encode() + b"\xff\xfe\n")
    code, summary, errors = _run(path, "--as", "pitboss1", "--table", "R-1")
    assert code == 1 and summary == "3 stored, 0 already stored, 1 refused"
    assert errors.startswith("line 4: The document is not UTF-8")
    assert {(r.table.name, r.logged_by.username, r.dealer.username) for r in Round.objects.all()} == {
        ("R-1", "pitboss1", "dealer1")
    }


def test_a_clean_import_exits_0(tmp_path, staff, golden_table):
    lines = []
    for path in golden_cases("ochko"):
        if engine.IMPOSSIBLE & set(golden(path)["expected"]["finding_codes"]):
            continue  # a round that cannot have happened is refused (issue #20 item 3)
        doc = golden(path)["round"]
        table = golden_table(doc)
        lines.append(to_json({**doc, "table": {"name": table.name, **doc["table"]}, "dealer": "dealer1"}))
    path = tmp_path / "golden.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    code, summary, errors = _run(path, "--as", "pitboss1")
    assert (code, errors) == (0, "")
    assert summary == f"{len(lines)} stored, 0 already stored, 0 refused\n"


def test_unknown_user_table_or_file_stop_at_once(tmp_path, staff, tables):
    path = tmp_path / "x.jsonl"
    path.write_text("", encoding="utf-8")
    for args, words in [(("--as", "ghost"), "ghost"), (("--table", "R-404"), "R-404")]:
        with pytest.raises(CommandError, match=words):
            call_command("import_rounds", str(path), *args)
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_rounds", str(tmp_path / "missing.jsonl"))
    line = to_json({**deal_round(tables.ochko, seed=1), "dealer": "ghost"})
    path.write_text(line + "\n", encoding="utf-8")
    code, summary, errors = _run(path)
    assert code == 1 and "give --as" in errors


# --- the bulk writer (dealing.services.bulk): the API's rounds, written in batches -----------------

from dealing import hooks, services  # noqa: E402
from dealing.models import Stake  # noqa: E402

STAKE_COLUMNS = ("stake_id", "box", "player", "ante", "bet", "dealer_bet", "owed_net", "paid_net")


def _write(tmp_path, docs, name="rounds.jsonl"):
    path = tmp_path / name
    path.write_text("".join(to_json(doc) + "\n" for doc in docs), encoding="utf-8")
    return path


def _stakes(record):
    return sorted(Stake.objects.filter(round=record).values_list(*STAKE_COLUMNS))


@pytest.mark.parametrize(
    "batch, jobs", [("2", "1"), ("1000", "1"), pytest.param("3", "2", marks=pytest.mark.django_db(transaction=True))]
)
def test_imported_rounds_carry_the_stakes_floats_and_links_the_api_path_writes(tmp_path, staff, tables, batch, jobs):
    from django.db import connection

    if jobs != "1" and connection.vendor != "postgresql":
        pytest.skip("--jobs forks processes, each with its own connection to a database server")
    docs = [deal_round(tables.ochko, seed=k, mistake="wrong_amount" if k == 2 else None) for k in range(7)]
    code, summary, errors = _run(_write(tmp_path, docs), "--batch", batch, "--jobs", jobs)
    assert (code, errors, summary) == (0, "", "7 stored, 0 already stored, 0 refused\n")
    imported = list(Round.objects.filter(table=tables.ochko).order_by("chain_index"))
    assert [str(r.uid) for r in imported] == [d["id"] for d in docs]
    assert [r.chain_index for r in imported] == list(range(7))
    # The same rounds through round_log (the API's path) at another table, under other ids.
    for record, doc in zip(imported, docs):
        other = dict(doc, id=None, table={**doc["table"], "name": tables.ochko_b.name})
        logged, created = services.round_log(document=to_json(other), logged_by=staff.dealer)
        assert created
        assert _stakes(record) == _stakes(logged) and _stakes(record)
        assert (record.float_owed, record.float_logged) == (logged.float_owed, logged.float_logged)
        assert record.document == {**logged.document, "id": doc["id"], "table": record.document["table"]}
        assert (record.chain_key, record.logged_by_id, record.dealer_id) == (
            logged.chain_key,
            logged.logged_by_id,
            logged.dealer_id,
        )
    assert imported[2].float_owed != imported[2].float_logged  # the wrong amount is stored as the dealer paid it
    report = services.chain_verify()
    assert report.ok, [str(b) for b in report.breaks]
    assert report.records == 14 and report.stakes == 2 * Stake.objects.filter(round__in=imported).count()


def test_a_tampered_stake_of_an_imported_round_fails_the_chain(tmp_path, staff, tables):
    _run(_write(tmp_path, [deal_round(tables.ochko, seed=k) for k in range(3)]))
    assert services.chain_verify().ok
    Stake.objects.filter(round__chain_index=1).update(paid_net=12345)
    (broken,) = services.chain_verify().breaks
    assert (broken.chain, broken.relation, broken.link) == ("R-1", "dealing_stake", 1)


def test_a_reimport_stores_nothing_twice_and_a_changed_body_is_refused(tmp_path, staff, tables):
    docs = [deal_round(tables.ochko, seed=k) for k in range(4)]
    path = _write(tmp_path, docs)
    assert _run(path)[:2] == (0, "4 stored, 0 already stored, 0 refused\n")
    assert _run(path, "--batch", "3")[:2] == (0, "0 stored, 4 already stored, 0 refused\n")
    changed = deal_round(tables.ochko, seed=9)
    changed["id"] = docs[1]["id"]
    code, summary, errors = _run(_write(tmp_path, [changed, deal_round(tables.ochko, seed=5)], "changed.jsonl"))
    assert (code, summary) == (1, "1 stored, 0 already stored, 1 refused")
    assert errors.startswith(f"line 1: A different round with the id {docs[1]['id']} is already stored.")
    assert "id_conflict" in errors
    assert Round.objects.count() == 5 and services.chain_verify().ok


def test_rounds_take_their_places_in_the_open_shoe_between_rounds_logged_one_by_one(tmp_path, staff, tables):
    services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer, decks=1)
    first = services.round_log(document=to_json(deal_round(tables.ochko, seed=100)), logged_by=staff.dealer)[0]
    docs = [deal_round(tables.ochko, seed=k) for k in range(3)]
    assert _run(_write(tmp_path, docs), "--batch", "2")[0] == 0
    last = services.round_log(document=to_json(deal_round(tables.ochko, seed=101)), logged_by=staff.dealer)[0]
    rows = list(
        Round.objects.filter(table=tables.ochko)
        .order_by("chain_index")
        .values_list("pk", "shoe_id", "position", "number")
    )
    assert [r[0] for r in rows][0] == first.pk and rows[-1][0] == last.pk
    assert {r[1] for r in rows} == {first.shoe_id} and first.shoe_id is not None
    assert [r[2] for r in rows] == [first.position + k for k in range(5)]
    assert [r[3] for r in rows] == [1, 2, 3, 4, 5]
    assert services.chain_verify().ok


def test_a_round_naming_an_unknown_shoe_is_refused_and_the_rest_stored(tmp_path, staff, tables):
    bad = dict(deal_round(tables.ochko, seed=1), shoe="R-1/7")
    code, summary, errors = _run(
        _write(tmp_path, [deal_round(tables.ochko, seed=0), bad, deal_round(tables.ochko, seed=2)])
    )
    assert (code, summary) == (1, "2 stored, 0 already stored, 1 refused")
    assert errors.startswith('line 2: Table R-1 has no shoe "R-1/7"') and "unknown_shoe" in errors
    assert services.chain_verify().ok


def test_the_stored_rounds_are_announced_for_audit_once_per_batch_and_audited(
    tmp_path, staff, tables, eager, django_capture_on_commit_callbacks
):
    announced = []

    def spy(round_ids, *, bulk):
        announced.append((list(round_ids), bulk))

    hooks.subscribe(spy)
    try:
        docs = [deal_round(tables.ochko, seed=k, mistake="wrong_amount" if k == 3 else None) for k in range(5)]
        with django_capture_on_commit_callbacks(execute=True):
            assert _run(_write(tmp_path, docs + ["{bad"]), "--batch", "2")[0] == 1
    finally:
        hooks.unsubscribe(spy)
    ids = list(Round.objects.order_by("pk").values_list("pk", flat=True))
    assert [pk for batch, _bulk in announced for pk in batch] == ids and len(ids) == 5
    assert all(bulk for _batch, bulk in announced) and len(announced) == 3
    from audit.models import Finding

    short = Round.objects.get(uid=docs[3]["id"])
    assert Finding.objects.filter(round=short).exists()
    assert not Finding.objects.filter(round__uid=docs[0]["id"]).exists()


def test_rounds_of_several_tables_and_games_in_one_batch(tmp_path, staff, tables):
    docs = []
    for k in range(4):
        docs += [
            deal_round(table, seed=10 * k + j)
            for j, table in enumerate((tables.ochko, tables.salon, tables.veintiuno, tables.ochko_b))
        ]
    code, summary, errors = _run(_write(tmp_path, docs))
    assert (code, summary, errors) == (0, "16 stored, 0 already stored, 0 refused\n", "")
    assert [str(u) for u in Round.objects.order_by("pk").values_list("uid", flat=True)] == [d["id"] for d in docs]
    for table in (tables.ochko, tables.salon, tables.veintiuno, tables.ochko_b):
        assert list(Round.objects.filter(table=table).order_by("pk").values_list("chain_index", flat=True)) == [
            0,
            1,
            2,
            3,
        ]
    report = services.chain_verify()
    assert report.ok and report.records == 16


def test_a_line_at_a_table_of_another_pit_is_refused(tmp_path, staff, tables):
    docs = [deal_round(tables.ochko, seed=0), deal_round(tables.elsewhere, seed=1)]
    code, summary, errors = _run(_write(tmp_path, docs))
    assert (code, summary) == (1, "1 stored, 0 already stored, 1 refused")
    assert errors.startswith("line 2: You may not log rounds at table R-X") and "forbidden" in errors


@pytest.mark.django_db(transaction=True)
def test_lines_checked_in_several_processes_are_stored_as_in_one(tmp_path, staff, tables):
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("--jobs forks processes, each with its own connection to a database server")
    docs = [
        deal_round(table, seed=10 * k + j)
        for k in range(6)
        for j, table in enumerate((tables.ochko, tables.salon, tables.veintiuno))
    ]
    docs.insert(4, {**docs[0], "id": None, "table": {"name": "R-404"}})
    code, summary, errors = _run(_write(tmp_path, docs), "--jobs", "2", "--batch", "5")
    assert (code, summary) == (1, "18 stored, 0 already stored, 1 refused")
    assert errors.startswith('line 5: There is no table named "R-404". (code unknown_table, path $.table.name)')
    stored = [d for d in docs if d["table"]["name"] != "R-404"]
    assert [str(u) for u in Round.objects.order_by("pk").values_list("uid", flat=True)] == [d["id"] for d in stored]
    assert {r.dealer.username for r in Round.objects.select_related("dealer")} == {"dealer1"}
    report = services.chain_verify()
    assert [b for b in report.breaks if b.relation != "checkpoint log"] == [] and report.records == 18
    assert _run(_write(tmp_path, stored, "again.jsonl"), "--jobs", "2")[:2] == (
        0,
        "0 stored, 18 already stored, 0 refused\n",
    )


def test_the_permission_found_for_one_dealer_is_not_lent_to_another_in_the_batch(tmp_path, staff, tables):
    docs = [deal_round(tables.ochko, seed=k) for k in range(4)]
    docs[2] = {**docs[2], "dealer": "dealer-c"}  # a dealer of pit C, between two of pit A's
    code, summary, errors = _run(_write(tmp_path, docs), "--as", "pitboss1")
    assert (code, summary) == (1, "3 stored, 0 already stored, 1 refused")
    assert errors.startswith('line 3: "dealer-c" is not a dealer of pit')
    assert services.chain_verify().ok


def test_the_import_checks_in_one_process_inside_a_transaction(monkeypatch):
    from django.db import connection

    from dealing.management.commands import import_rounds

    monkeypatch.setattr(import_rounds.os, "sched_getaffinity", lambda pid: {0, 1, 2})
    assert connection.in_atomic_block  # this test's transaction: forked processes would not see its rows
    assert import_rounds.default_jobs() == 1


@pytest.mark.django_db(transaction=True)
def test_the_import_checks_in_one_process_per_processor_on_postgresql(monkeypatch):
    from django.db import connection

    from dealing.management.commands import import_rounds

    monkeypatch.setattr(import_rounds.os, "sched_getaffinity", lambda pid: {0, 1, 2})
    assert not connection.in_atomic_block
    assert import_rounds.default_jobs() == (3 if connection.vendor == "postgresql" else 1)
