"""The demo floor's game night at Casa-21: finished, audited, loaded once however often the command runs."""

import pytest
from django.core.management import call_command

from dealing.choices import AuditStatus
from dealing.models import Round
from ledger import demo, selectors
from ledger.choices import SessionStatus
from ledger.models import GameSession

from .conftest import audited

pytestmark = pytest.mark.django_db


def test_the_demo_night_is_finished_audited_and_loaded_once(settings):
    settings.DEBUG = True
    call_command("demo_floor", stdout=open("/dev/null", "w"))
    session = GameSession.objects.get(name=demo.NAME)
    rounds = Round.objects.filter(ledger_entry__session=session).count()
    assert session.status == SessionStatus.ENDED and session.table.name == "Casa-21"
    assert rounds == demo.ROUNDS
    ledger = selectors.session_ledger(session)
    assert ledger.total == 0
    assert any(r.passes_bank for r in ledger.rounds)  # the bank passes by a declared natural
    assert [r.number for r in ledger.rounds if r.findings] == [demo.MISTAKE_AT]
    for r in ledger.rounds:
        audited(r.record)
    assert {r.record.audit_status for r in ledger.rounds} == {AuditStatus.CLEAN, AuditStatus.FINDINGS}
    ledger = selectors.session_ledger(session)
    assert [r.number for r in ledger.rounds if r.findings] == [demo.MISTAKE_AT]
    assert {r.findings_from for r in ledger.rounds} == {"audit"}
    assert ledger.payments and session.first_bank == "Dani"

    call_command("demo_floor", stdout=open("/dev/null", "w"))
    assert GameSession.objects.count() == 1
    assert Round.objects.filter(ledger_entry__session=session).count() == rounds
