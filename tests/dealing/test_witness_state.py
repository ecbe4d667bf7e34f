"""The witness's state as the floor sees it (issue #36 item 3): who sees "witness unreachable" on the
audit dashboard, a witness that never answers costs a checkpoint at most WITNESS_TIMEOUT, /metrics
without a witness, and the system check that asks for its key to be pinned."""

import json
import socket
import threading
import time
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from django.core.checks import run_checks
from django.urls import reverse

from dealing import chain_selectors, checkpoint_log, services, witness_mirror
from dealing.models import ChainCheck

pytestmark = pytest.mark.django_db


@pytest.fixture
def silent_witness(settings):
    """A port that accepts connections and never answers: the worst outage, a hung witness."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    settings.WITNESS_URL = f"http://127.0.0.1:{listener.getsockname()[1]}"
    settings.WITNESS_PUBLIC_KEY = ""
    settings.WITNESS_TIMEOUT = 0.5
    yield settings.WITNESS_URL
    listener.close()


@pytest.fixture
def rounds(staff, tables, logged):
    services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    return [logged(tables.ochko, staff.dealer, seed=k) for k in range(2)]


def test_a_hung_witness_costs_a_checkpoint_no_more_than_its_timeout(rounds, silent_witness):
    started = time.monotonic()
    check = services.checkpoint_write_all()
    took = time.monotonic() - started
    assert check.ok and check.seq == 1 and "the witness is unreachable (" in check.message
    assert took < 5  # the walk and the write, plus one 0.5 s timeout (GET /key, unpinned)
    state = witness_mirror.state()
    assert state["reachable"] is False and state["failures"] == 1 and state["since"]
    since = state["since"]
    services.checkpoint_write_all()
    assert witness_mirror.state()["since"] == since  # the outage began at its first failure
    assert witness_mirror.state()["failures"] == 2


class NotAWitness(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_error(404)

    do_POST = do_GET

    def log_message(self, *args):
        pass


def test_a_wrong_url_is_an_outage_not_a_refusal(rounds, settings):
    """A 404 (WITNESS_URL pointing at another service) says nothing about the log: degraded, not critical."""
    server = HTTPServer(("127.0.0.1", 0), NotAWitness)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        settings.WITNESS_URL = f"http://127.0.0.1:{server.server_port}"
        settings.WITNESS_PUBLIC_KEY = ""
        check = services.checkpoint_write_all()
    finally:
        server.shutdown()
        server.server_close()
    assert check.ok and "the witness is unreachable (" in check.message
    state = witness_mirror.state()
    assert state["reachable"] is False and state["refused"] is None
    assert chain_selectors.chain_health()["critical"] == []


ROLES = [
    ("dealer", "a", False),
    ("inspector", "a", False),
    ("pit_boss", "a", True),
    ("pit_boss", "b", True),  # the chains are the whole floor's: every pit boss sees their state
    ("auditor", "a", True),
    ("trainee", "a", False),
    (None, None, False),
]


@pytest.mark.parametrize(("role", "pit", "sees"), ROLES)
def test_who_sees_that_the_witness_is_unreachable(rounds, silent_witness, pits, client_for, role, pit, sees):
    services.checkpoint_write_all()
    client = client_for(role, pits=[getattr(pits, pit)] if pit else [])
    response = client.get(reverse("audit:dashboard"))
    if sees:
        page = response.content.decode()
        assert response.status_code == 200 and 'data-testid="witness-unreachable"' in page
        assert "1 checkpoint waits to be countersigned" in page
    else:
        assert response.status_code in (302, 403)
        assert "witness" not in response.content.decode().lower()


def test_without_a_witness_nothing_is_sent_and_metrics_leave_it_out(rounds, settings, client):
    settings.WITNESS_URL = ""
    check = services.checkpoint_write_all()
    assert check.ok and "witness" not in check.message
    assert not (checkpoint_log.directory() / witness_mirror.STATE_FILE).exists()
    assert "casino_witness" not in client.get("/metrics").content.decode()
    assert ChainCheck.objects.filter(kind="checkpoint", ok=True).count() == 1


def test_an_unpinned_witness_key_is_a_warning_in_production(settings):
    settings.DEBUG = False
    settings.WITNESS_URL = "http://witness.internal:8765"
    settings.WITNESS_PUBLIC_KEY = ""
    assert "dealing.W001" in [m.id for m in run_checks()]
    settings.WITNESS_PUBLIC_KEY = "/etc/casino/keys/witness-public.pem"
    assert "dealing.W001" not in [m.id for m in run_checks()]


def test_the_backlog_is_read_from_the_newest_files_across_days(settings):
    """A checkpoint log of several daily files: what follows a seq, whole and in order, also when
    an empty file lies between (the lines before a file that starts later are still read)."""
    day = datetime(2026, 12, 1, 8, tzinfo=UTC)
    for k in range(6):
        checkpoint_log.append(
            {"approvals": {"name": "approvals", "count": k, "head": f"{k:064x}"}}, at=day + timedelta(days=k // 2)
        )
    (settings.CHECKPOINT_DIR / "checkpoints-2026-12-04.jsonl").write_bytes(b"")
    assert [seq for seq, _raw in checkpoint_log.lines_after(2)] == [3, 4, 5, 6]
    assert [seq for seq, _raw in checkpoint_log.lines_after(5)] == [6]
    assert [seq for seq, _raw in checkpoint_log.lines_after(0)] == [1, 2, 3, 4, 5, 6]
    assert list(checkpoint_log.lines_after(6)) == []
    seq, raw = next(checkpoint_log.lines_after(3))
    assert checkpoint_log.signature_problem(json.loads(raw)) is None and not raw.endswith(b"\n")
