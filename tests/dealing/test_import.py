"""`import_rounds FILE.jsonl`: many logs through round_log; bad lines reported by number, the import
goes on, a summary ends it, exit 1 when any line was refused."""

import io

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
        return exc.returncode, str(exc), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


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
    assert errors.splitlines() == [
        errors.splitlines()[0],
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
        ("R-1", "pitboss1", "dealer1")}


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
