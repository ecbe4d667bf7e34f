"""The keyed chain, its checkpoints and `verify_chain`: intact chains pass; an edit, a deletion or a
chain recomputed without the key, made behind the application's back, is found and named.
(tests/dealing/test_tamper_battery.py tries twenty-odd kinds of tampering on PostgreSQL.)"""

import hashlib
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from audit.state import rounds_record_audit
from dealing import chain, chain_selectors, checkpoint_log, services, tasks
from dealing.models import Approval, ChainCheck, Round, RoundAudit, Stake

pytestmark = pytest.mark.django_db


def _verify(*args):
    out, err = [], []
    try:
        call_command("verify_chain", *args, stdout=_Sink(out), stderr=_Sink(err))
    except CommandError as exc:
        return exc.returncode, str(exc)
    return 0, "".join(out)


class _Sink:
    def __init__(self, out):
        self.out = out

    def write(self, text):
        self.out.append(text)

    def flush(self):
        pass


@pytest.fixture
def chained(staff, tables, logged):
    """Five rounds at R-1 (one of them corrected and approved) and two at R-9."""
    services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    rounds = [logged(tables.ochko, staff.dealer, seed=k) for k in range(4)]
    fixed = dict(logged(tables.ochko, staff.dealer, seed=4).document)
    original = Round.objects.get(chain_index=4, table=tables.ochko)
    fixed["events"] = fixed["events"][:-1]
    amendment = services.round_amend(round=original, document=fixed, amended_by=staff.dealer, reason="last pay")
    services.round_amendment_decide(round=amendment, decided_by=staff.pitboss, decision="approved")
    others = [logged(tables.ochko_b, staff.dealer, seed=10 + k) for k in range(2)]
    return rounds, amendment, others


def _sql(statement, params=()):
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def _json_cast():
    return "::jsonb" if connection.vendor == "postgresql" else ""


def test_an_untouched_chain_is_intact(chained):
    code, message = _verify()
    assert code == 0
    assert message.startswith("chain intact (8 records, ") and "6 tables, 1 approvals, no checkpoint yet" in message
    assert _verify("--table", "R-9")[1].startswith("chain intact (2 records, ")
    code, message = _verify("--table", "nowhere")
    assert code == 1 and "nowhere" in message


def test_every_link_is_an_hmac_of_the_current_version_under_the_key(chained, settings):
    rounds, amendment, _ = chained
    record = Round.objects.get(pk=rounds[0].pk)
    stakes = list(Stake.objects.filter(round=record))
    assert stakes and record.chain_key == settings.CHAIN_KEY_ID
    payload = chain.record_payload(
        key_id=record.chain_key,
        table_id=record.table_id,
        chain_index=0,
        uid=record.uid,
        revision=1,
        supersedes_sha256=None,
        amendment_reason="",
        shoe_id=record.shoe_id,
        position=record.position,
        number=record.number,
        dealer_id=record.dealer_id,
        logged_by_id=record.logged_by_id,
        logged_at=record.logged_at,
        variant=record.variant,
        house_rules=record.house_rules,
        table_min=record.table_min,
        table_max=record.table_max,
        float_owed=record.float_owed,
        float_logged=record.float_logged,
        document=record.document,
        stakes_hmac=chain.stakes_digest(stakes, settings.CHAIN_KEY.encode()),
        prev_sha256="",
    )
    assert payload["v"] == chain.CHAIN_VERSION == 2
    assert record.sha256 == chain.link_digest(payload, settings.CHAIN_KEY.encode())
    # A plain SHA-256 of the same payload (what anyone reading the code could compute) is not the link.
    assert record.sha256 != hashlib.sha256(chain.canonical_json(payload).encode()).hexdigest()
    approval = Approval.objects.get()
    assert approval.link == 0 and approval.prev_hmac == ""
    assert approval.hmac == chain.approval_hash(approval, round_sha256=Round.objects.get(pk=amendment.pk).sha256)


def test_status_and_audit_changes_leave_the_chain_intact(chained):
    # Through the audit's own writer, a verdict is a new link of the verdicts' chain (issue #36)…
    ids = list(RoundAudit.objects.values_list("round_id", flat=True))
    rounds_record_audit(by_status={"findings": ids}, engine_version="test")
    assert _verify()[0] == 0
    # …behind its back, an edit of a verdict is found and named.
    RoundAudit.objects.update(status="clean")
    code, message = _verify()
    assert code == 1 and "dealing_roundaudit" in message


def test_an_edited_document_is_found_at_its_link(chained):
    rounds, _, _ = chained
    victim = rounds[2]
    document = dict(victim.document)
    document["stakes"] = [{**document["stakes"][0], "player": "P-FRIEND"}, *document["stakes"][1:]]
    _sql(f"UPDATE dealing_round SET document = %s{_json_cast()} WHERE id = %s", [json.dumps(document), victim.pk])
    code, message = _verify()
    assert code == 1
    assert message.startswith(
        f"chain broken: R-1: dealing_round, link 2, row id {victim.pk}: its contents do not match its link"
    )
    assert _verify("--table", "R-9")[0] == 0


def test_an_edited_stake_amount_is_found_and_named(chained):
    rounds, _, _ = chained
    stake = Stake.objects.filter(round=rounds[1]).order_by("pk").first()
    _sql("UPDATE dealing_stake SET paid_net = paid_net + 100 WHERE id = %s", [stake.pk])
    code, message = _verify()
    assert code == 1
    assert f"R-1: dealing_stake, link 1, row id {rounds[1].pk}: its stake rows do not match the link" in message


def test_an_edited_float_is_found(chained):
    rounds, _, _ = chained
    _sql("UPDATE dealing_round SET float_logged = float_logged + 1 WHERE id = %s", [rounds[0].pk])
    code, message = _verify("--table", "R-1")
    assert code == 1 and f"dealing_round, link 0, row id {rounds[0].pk}" in message


def test_a_rehashed_edit_breaks_the_next_link(chained):
    """Whoever holds the key, edits a record and recomputes its link must rewrite every later link too."""
    rounds, _, _ = chained
    victim = Round.objects.get(pk=rounds[1].pk)
    victim.document = {**victim.document, "dealer": "someone-else"}
    new_hash = chain.round_hash(victim)
    _sql(
        f"UPDATE dealing_round SET document = %s{_json_cast()}, sha256 = %s WHERE id = %s",
        [json.dumps(victim.document), new_hash, victim.pk],
    )
    code, message = _verify()
    assert code == 1
    assert f"dealing_round, link 2, row id {rounds[2].pk}: its previous-hash does not match" in message


def _rechain(table, key: bytes | None):
    """Recompute a table's whole chain as an attacker would: under `key`, or (None) as plain SHA-256."""
    prev = ""
    for record in Round.objects.filter(table=table).order_by("chain_index").select_related("supersedes"):
        record.prev_sha256 = prev
        payload = chain.record_payload(
            key_id=record.chain_key,
            table_id=record.table_id,
            chain_index=record.chain_index,
            uid=record.uid,
            revision=record.revision,
            supersedes_sha256=None,
            amendment_reason=record.amendment_reason,
            shoe_id=record.shoe_id,
            position=record.position,
            number=record.number,
            dealer_id=record.dealer_id,
            logged_by_id=record.logged_by_id,
            logged_at=record.logged_at,
            variant=record.variant,
            house_rules=record.house_rules,
            table_min=record.table_min,
            table_max=record.table_max,
            float_owed=record.float_owed,
            float_logged=record.float_logged,
            document=record.document,
            stakes_hmac=record.stakes_hmac,
            prev_sha256=prev,
        )
        digest = (
            hashlib.sha256(chain.canonical_json(payload).encode()).hexdigest()
            if key is None
            else chain.link_digest(payload, key)
        )
        _sql("UPDATE dealing_round SET prev_sha256 = %s, sha256 = %s WHERE id = %s", [prev, digest, record.pk])
        prev = digest


def test_a_chain_recomputed_without_the_key_does_not_verify(chained, tables):
    _, _, others = chained
    _rechain(tables.ochko_b, None)
    code, message = _verify("--table", "R-9")
    assert code == 1 and f"R-9: dealing_round, link 0, row id {others[0].pk}: its contents do not match" in message
    _rechain(tables.ochko_b, b"a guess at the key")
    assert f"R-9: dealing_round, link 0, row id {others[0].pk}" in _verify("--table", "R-9")[1]


def test_a_version_1_link_does_not_verify_as_version_2(chained, tables):
    """The old chain (plain SHA-256 without stakes): a record still carrying such a link is a break."""
    _, _, others = chained
    record = Round.objects.get(pk=others[1].pk)
    old = chain.canonical_json({"v": 1, "table": record.table_id, "link": 1, "document": record.document})
    _sql("UPDATE dealing_round SET sha256 = %s WHERE id = %s", [hashlib.sha256(old.encode()).hexdigest(), record.pk])
    code, message = _verify("--table", "R-9")
    assert code == 1 and "link 1" in message and "its contents do not match its link" in message


def test_a_deleted_record_is_found(chained):
    rounds, _, _ = chained
    victim = rounds[1]
    _sql("DELETE FROM dealing_stake WHERE round_id = %s", [victim.pk])
    _sql("DELETE FROM dealing_roundaudit WHERE round_id = %s", [victim.pk])  # its audit row goes with it
    _sql("DELETE FROM dealing_round WHERE id = %s", [victim.pk])
    code, message = _verify()
    assert code == 1
    assert "chain broken: R-1: dealing_round, link 1: link 1 is missing (the next record is link 2)" in message


def test_the_newest_rounds_deleted_are_found_only_against_a_checkpoint(chained):
    _, _, others = chained
    head = others[1]
    _sql("DELETE FROM dealing_stake WHERE round_id = %s", [head.pk])
    _sql("DELETE FROM dealing_roundaudit WHERE round_id = %s", [head.pk])  # its audit row goes with it
    _sql("DELETE FROM dealing_round WHERE id = %s", [head.pk])
    assert _verify()[0] == 0  # nothing yet says where the chain ended…
    services.checkpoint_write_all()  # …a checkpoint does: the next deletion at the head is found
    victim = others[0]
    _sql("DELETE FROM dealing_stake WHERE round_id = %s", [victim.pk])
    _sql("DELETE FROM dealing_roundaudit WHERE round_id = %s", [victim.pk])  # its audit row goes with it
    _sql("DELETE FROM dealing_round WHERE id = %s", [victim.pk])
    code, message = _verify()
    assert code == 1
    assert (
        "R-9: dealing_round, link 0: the chain ends at 0 links but the checkpoint of " in message
        and "signed 1 (the newest records were deleted)" in message
    )


def test_an_edited_approval_is_found(chained):
    _sql("UPDATE dealing_approval SET decision = 'rejected', comment = 'no'")
    approval = Approval.objects.get()
    code, message = _verify()
    assert code == 1
    assert f"approvals: dealing_approval, link 0, row id {approval.pk}: its contents do not match" in message


def test_approvals_are_chained(chained, staff, tables, logged):
    record = logged(tables.ochko, staff.dealer, seed=30)
    fixed = dict(record.document)
    fixed["events"] = fixed["events"][:-1]
    amendment = services.round_amend(round=record, document=fixed, amended_by=staff.dealer, reason="pay")
    services.round_amendment_decide(round=amendment, decided_by=staff.pitboss, decision="rejected", comment="no")
    first, second = Approval.objects.order_by("link")
    assert (second.link, second.prev_hmac) == (1, first.hmac)
    assert _verify()[0] == 0
    _sql("DELETE FROM dealing_supersession WHERE approval_id = %s", [first.pk])  # its supersession goes with it
    _sql("DELETE FROM dealing_approval WHERE id = %s", [first.pk])
    code, message = _verify()
    assert code == 1 and "approvals: dealing_approval, link 0: link 0 is missing" in message


def test_links_under_a_retired_key_verify_while_it_is_configured(chained, settings):
    settings.CHAIN_KEYS_OLD = {"1": settings.CHAIN_KEY}
    settings.CHAIN_KEY, settings.CHAIN_KEY_ID = "a-new-key-for-the-rotation-test-000000", "2"
    rounds, _, _ = chained
    services.checkpoint_write_all()
    assert _verify()[0] == 0
    settings.CHAIN_KEYS_OLD = {}
    code, message = _verify()
    assert code == 1 and "its key id '1' is not a configured chain key" in message


def test_checkpoints_are_signed_lines_the_public_key_verifies(chained, settings):
    check = services.checkpoint_write_all()
    assert check.ok and check.seq == 1 and check.records == 8
    second = services.checkpoint_write_all()
    assert second.seq == 2
    (path,) = sorted(settings.CHECKPOINT_DIR.glob("checkpoints-*.jsonl"))
    first, last = (json.loads(line) for line in path.read_text().splitlines())
    assert last["prev"] == hashlib.sha256(path.read_text().splitlines()[0].encode()).hexdigest()
    r1 = chained[0][0].table_id
    assert last["heads"][str(r1)]["count"] == 6 and last["heads"]["approvals"]["count"] == 1
    assert last["heads"][str(r1)]["head"] == Round.objects.get(table_id=r1, chain_index=5).sha256
    (public,) = settings.CHECKPOINT_DIR.glob("checkpoint-public-*.pem")
    assert public.read_text().startswith("-----BEGIN PUBLIC KEY-----")
    code, message = _verify()
    assert code == 0 and "checkpoint 2 of " in message


def test_an_edited_removed_or_deleted_checkpoint_is_found(chained, settings):
    for _ in range(3):
        services.checkpoint_write_all()
    (path,) = sorted(settings.CHECKPOINT_DIR.glob("checkpoints-*.jsonl"))
    lines = path.read_text().splitlines()
    edited = json.loads(lines[1])
    edited["heads"]["approvals"]["count"] = 0
    path.write_text("\n".join([lines[0], chain.canonical_json(edited), lines[2]]) + "\n")
    assert "checkpoints: checkpoint log, link 2: checkpoint 2 (" in _verify()[1]
    assert "its signature does not verify (the line was edited)" in _verify()[1]
    path.write_text("\n".join([lines[0], lines[2]]) + "\n")
    assert "checkpoint 2 is missing before" in _verify()[1]
    path.write_text("\n".join(lines[:2]) + "\n")
    assert "the log ends at checkpoint 2, but checkpoint 3 was written" in _verify()[1]
    path.unlink()
    assert "the checkpoint log is gone" in _verify()[1]


def test_an_unwritable_checkpoint_directory_is_a_clear_error_and_rounds_keep_being_logged(
    chained, settings, tmp_path, staff, tables, logged, client_for
):
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("a file where the directory should be")
    settings.CHECKPOINT_DIR = blocked / "checkpoints"
    check = services.checkpoint_write_all()
    assert not check.ok and f"The checkpoint directory {blocked / 'checkpoints'} cannot be written" in check.message
    with pytest.raises(checkpoint_log.CheckpointError, match="cannot be written"):
        tasks.chain_checkpoint.apply(throw=True)
    logged(tables.ochko_b, staff.dealer, seed=40)  # logging does not depend on it
    health = chain_selectors.chain_health()
    # The failed attempt, and the directory as it is now: both critical on the dashboard.
    assert [c["what"] for c in health["critical"]] == ["checkpoint", "checkpoint_dir"]
    dashboard = client_for("auditor").get("/audit/").content.decode()
    assert "the checkpoint directory cannot be written" in dashboard


def test_the_periodic_verification_records_a_break_for_the_dashboard(chained):
    assert tasks.chain_verify.apply(throw=True).result.startswith("chain intact")
    assert chain_selectors.chain_health()["critical"] == []
    rounds, _, _ = chained
    _sql("UPDATE dealing_round SET table_min = 1 WHERE id = %s", [rounds[3].pk])
    with pytest.raises(tasks.ChainBroken, match="R-1: dealing_round, link 3"):
        tasks.chain_verify.apply(throw=True)
    check = ChainCheck.objects.filter(kind="verification").order_by("-id").first()
    assert not check.ok and check.breaks[0]["chain"] == "R-1" and check.breaks[0]["link"] == 3
    assert chain_selectors.chain_health()["critical"][0]["what"] == "verification"


def test_the_round_status_recomputes_one_link_and_reads_the_checkpoint(chained):
    rounds, _, _ = chained
    status = chain_selectors.round_chain_status(round=rounds[1])
    assert status.link_ok and status.checkpoint_ok is None  # no checkpoint yet
    services.checkpoint_write_all()
    status = chain_selectors.round_chain_status(round=rounds[1])
    assert status.link_ok and status.checkpoint_ok and status.covered and status.checkpoint_seq == 1
    stake = Stake.objects.filter(round=rounds[1]).first()
    _sql("UPDATE dealing_stake SET bet = 1 WHERE id = %s", [stake.pk])
    status = chain_selectors.round_chain_status(round=rounds[1])
    assert not status.link_ok and "stake" in status.link_problem
    _sql("UPDATE dealing_round SET prev_sha256 = %s WHERE id = %s", ["0" * 64, rounds[1].pk])
    assert "after it" in chain_selectors.round_chain_status(round=rounds[0]).link_problem


def test_the_command_streams_records(chained, monkeypatch):
    """Records come through `.iterator()` in chunks, not as one list."""
    from django.db.models.query import QuerySet

    seen = []
    real = QuerySet.iterator

    def iterator(self, chunk_size=None):
        seen.append((self.model, chunk_size))
        return real(self, chunk_size=chunk_size)

    monkeypatch.setattr(QuerySet, "iterator", iterator)
    assert _verify()[0] == 0
    assert (Round, 2000) in seen and (Stake, 8000) in seen and (Approval, 2000) in seen


def test_import_rounds_writes_a_checkpoint_at_its_end(staff, tables, deal, tmp_path, settings):
    path = tmp_path / "rounds.jsonl"
    path.write_text("\n".join(json.dumps(chain.json_safe(deal(tables.ochko_b, seed=k))) for k in range(3)) + "\n")
    call_command("import_rounds", str(path), "--as", staff.dealer.username, stdout=_Sink([]), stderr=_Sink([]))
    check = ChainCheck.objects.get(kind="checkpoint")
    assert check.ok and check.records == 3


def test_the_round_page_and_the_audit_pages_say_whether_the_link_and_the_checkpoint_verify(chained, client_for):
    rounds, _, _ = chained
    services.checkpoint_write_all()
    auditor = client_for("auditor")
    response = auditor.get(f"/rounds/{rounds[1].pk}/")
    assert response.status_code == 200, response.status_code
    page = response.content.decode()
    assert (
        'data-testid="chain-link">link verifies' in page
        and 'data-testid="chain-checkpoint">checkpoint verifies' in page
    )
    replay = auditor.get(f"/audit/rounds/{rounds[1].pk}/").content.decode()
    assert "link verifies" in replay and "checkpoint verifies" in replay
    _sql("UPDATE dealing_round SET float_owed = COALESCE(float_owed, 0) + 1 WHERE id = %s", [rounds[1].pk])
    page = auditor.get(f"/rounds/{rounds[1].pk}/").content.decode()
    assert 'data-testid="chain-link">link broken' in page
    with pytest.raises(tasks.ChainBroken):
        tasks.chain_verify.apply(throw=True)
    dashboard = auditor.get("/audit/").content.decode()
    assert 'data-testid="chain-critical"' in dashboard and "R-1: dealing_round, link 1" in dashboard


def test_a_supersession_removed_or_forged_is_found_at_its_approval(staff, tables, logged):
    """Which revision is in force is a fact beside the rounds (Supersession): covered through the
    approval that made it, so removing it — the old revision would read as in force again — or
    forging one is a break of the approvals' chain, named."""
    from dealing.models import Supersession

    record = logged(tables.ochko, staff.dealer, seed=40)
    fixed = dict(record.document)
    fixed["events"] = fixed["events"][:-1]
    amendment = services.round_amend(round=record, document=fixed, amended_by=staff.dealer, reason="pay")
    approval = services.round_amendment_decide(round=amendment, decided_by=staff.pitboss, decision="approved")
    other = logged(tables.ochko, staff.dealer, seed=41)
    assert Round.objects.get(pk=record.pk).status == "superseded" and _verify()[0] == 0
    _sql("DELETE FROM dealing_supersession WHERE approval_id = %s", [approval.pk])
    assert Round.objects.get(pk=record.pk).status == "recorded"
    code, message = _verify()
    assert code == 1 and f"approvals: dealing_supersession, link 0, row id {approval.pk}: its supersession" in message
    Supersession.objects.create(superseded=other, superseding=amendment, approval=approval, at=approval.decided_at)
    code, message = _verify()
    assert code == 1 and "approvals: dealing_supersession, link 0" in message
