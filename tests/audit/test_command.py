"""`manage.py audit_rounds`: a run from the shell, its progress, its summary as JSON on the last line."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from audit.models import AuditRun, Finding
from dealing.models import Round
from tests.audit.conftest import expected_codes
from tests.factories import audit_pending

pytestmark = pytest.mark.django_db(transaction=True)  # the run's tasks are sent when the command commits


def run_command(*args) -> list[str]:
    out = StringIO()
    call_command("audit_rounds", *args, stdout=out)
    return out.getvalue().splitlines()


def test_json_summary_on_the_last_line(people, floor, log_rounds, eager):
    rows = log_rounds(floor.table_a, people.dealer, n=25, seed=81, mistake_rate=0.5)
    rows += log_rounds(floor.table_b, people.other_dealer, n=5, seed=82, mistake_rate=0.5)
    audit_pending(Round.objects.all())
    lines = run_command("--json")
    summary = json.loads(lines[-1])
    with_findings = sum(1 for _r, sim in rows if expected_codes(sim))
    assert summary["rounds"] == 30 and summary["with_findings"] == with_findings
    assert summary["clean"] == 30 - with_findings and summary["errors"] == 0
    stored = {}
    for code in Finding.objects.values_list("code", flat=True):
        stored[code] = stored.get(code, 0) + 1
    assert summary["findings"] == stored
    assert list(summary) == ["rounds", "clean", "with_findings", "errors", "findings"]
    # Nothing is left unaudited; --all re-audits everything with the same result; --table narrows.
    assert json.loads(run_command("--json")[-1])["rounds"] == 0
    assert json.loads(run_command("--all", "--json")[-1]) == summary
    assert json.loads(run_command("--all", "--table", "R-2", "--json")[-1])["rounds"] == 5
    assert json.loads(run_command("--all", "--since", "2999-01-01", "--json")[-1])["rounds"] == 0
    run = AuditRun.objects.order_by("-pk").first()
    assert run.trigger == "command" and run.started_by is None


def test_wait_prints_progress_and_a_summary(people, floor, log_rounds, eager):
    log_rounds(floor.table_a, people.dealer, n=6, seed=83, mistake_rate=0.5)
    lines = run_command("--all", "--wait", "--chunk-size", "2")
    assert lines[0].startswith("audit run #") and "all rounds" in lines[0]
    assert any(line.startswith("audit run #") and " done in " in line and "6 rounds" in line for line in lines[1:])
    assert not lines[-1].startswith("{")


def test_bad_arguments(db):
    with pytest.raises(CommandError, match="no table named"):
        call_command("audit_rounds", "--table", "Nowhere")
    with pytest.raises(CommandError):
        call_command("audit_rounds", "--since", "yesterday")


def test_a_re_audit_fills_in_the_params_of_findings_stored_before_the_third_wave(people, floor, log_rounds, eager):
    """Findings stored before the engine gave `params` are shown by their code's label only; `--all`
    re-replays their rounds and fills the params in, so they read as sentences in every language."""
    from django.utils import translation

    from casino.finding_words import finding_text

    log_rounds(floor.table_a, people.dealer, n=12, seed=84, mistake_rate=0.6)
    audit_pending(Round.objects.all())
    run_command("--json")
    stored = {f.pk: f.params for f in Finding.objects.all()}
    assert stored and all(stored.values())
    Finding.objects.update(params={})  # as a store from before the third wave holds them
    old = Finding.objects.first()
    with translation.override("ru"):
        assert finding_text(old).endswith(".") and len(finding_text(old)) < 60  # the code's label only
    run_command("--all", "--json")
    assert {f.pk: f.params for f in Finding.objects.all()} == stored  # the same rows, params back
    with translation.override("ru"):
        assert finding_text(Finding.objects.get(pk=old.pk)) != finding_text(old)
