"""The tamper battery (issue #16, item 5): what an insider with write access to PostgreSQL — and to
the checkpoint directory, but without the signing key — might do to the stored record, each kind
done with raw SQL (or on the log's files), and each found by `chain_verify` and named: the chain
(table, or "approvals", or "checkpoints"), the stored table, the link, what is wrong.

Plus: an untouched store of 10,000 rounds (with their stake rows) verifies without a false alarm.
PostgreSQL only: the point is the production database (.ci/run runs it)."""

import base64
import hashlib
import json
import uuid

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.db import connection

from dealing import chain, checkpoint_log, services
from dealing.models import Approval, Round, Stake

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _postgresql_only(db):
    if connection.vendor != "postgresql":
        pytest.skip("the tamper battery runs on PostgreSQL (the production database; .ci/run sets DATABASE_URL)")


def _sql(statement, params=()):
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


class Store:
    """R-1: links 0–4 logged, link 5 the approved correction of link 4; R-9: links 0–2. Approvals:
    0 the correction's, 1 and 2 two incidents'. A checkpoint signed the lot (twice: seq 1 and 2)."""

    def __init__(self, staff, tables, logged):
        self.tables = tables
        services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
        self.r1 = [logged(tables.ochko, staff.dealer, seed=k) for k in range(5)]
        fixed = dict(self.r1[4].document)
        fixed["events"] = fixed["events"][:-1]
        amendment = services.round_amend(round=self.r1[4], document=fixed, amended_by=staff.dealer, reason="pay")
        services.round_amendment_decide(round=amendment, decided_by=staff.pitboss, decision="approved")
        self.r1.append(amendment)
        self.r9 = [logged(tables.ochko_b, staff.dealer, seed=20 + k) for k in range(3)]
        self.incidents = []
        for card in ("KH", "7S"):
            incident = services.incident_report(
                table=tables.ochko,
                kind="dealer_card_exposed",
                card=card,
                exposed=True,
                resolution="burned",
                dealer=staff.dealer,
                reported_by=staff.inspector,
            )
            services.incident_decide(incident=incident, decided_by=staff.pitboss, decision="approved")
            self.incidents.append(incident)
        self.approvals = list(Approval.objects.order_by("link"))
        self.staff = staff
        assert services.checkpoint_write_all().ok and services.checkpoint_write_all().ok
        assert services.chain_verify().breaks == []

    def stake(self, record, n=0) -> Stake:
        return Stake.objects.filter(round=record).order_by("pk")[n]

    def log_lines(self):
        (path,) = sorted(checkpoint_log.directory().glob("checkpoints-*.jsonl"))
        return path, path.read_text().splitlines()


@pytest.fixture
def store(staff, tables, logged):
    return Store(staff, tables, logged)


def _rechain(table, key: bytes, start: int = 0):
    """Recompute a table's chain from `start` on, as someone holding `key` (and the code) would."""
    prev = Round.objects.get(table=table, chain_index=start - 1).sha256 if start else ""
    for record in Round.objects.filter(table=table, chain_index__gte=start).order_by("chain_index"):
        record.prev_sha256 = prev
        sup = record.supersedes.sha256 if record.supersedes_id else None
        digest = chain.link_digest(
            chain.record_payload(
                key_id=record.chain_key,
                table_id=record.table_id,
                chain_index=record.chain_index,
                uid=record.uid,
                revision=record.revision,
                supersedes_sha256=sup,
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
            ),
            key,
        )
        _sql("UPDATE dealing_round SET prev_sha256 = %s, sha256 = %s WHERE id = %s", [prev, digest, record.pk])
        prev = digest


def _round_update(column_sql, link=2):
    def tamper(s):
        _sql(f"UPDATE dealing_round SET {column_sql} WHERE id = %s", [s.r1[link].pk])
        return ("R-1", chain.ROUNDS, link)

    return tamper


def _stake_update(column_sql, link=1):
    def tamper(s):
        _sql(f"UPDATE dealing_stake SET {column_sql} WHERE id = %s", [s.stake(s.r1[link]).pk])
        return ("R-1", chain.STAKES, link)

    return tamper


def _approval_update(column_sql, link=1):
    def tamper(s):
        _sql(f"UPDATE dealing_approval SET {column_sql} WHERE id = %s", [s.approvals[link].pk])
        return ("approvals", chain.APPROVALS, link)

    return tamper


def _delete_round(s, record):
    _sql("DELETE FROM dealing_roundaudit WHERE round_id = %s", [record.pk])
    _sql("DELETE FROM dealing_stake WHERE round_id = %s", [record.pk])
    _sql("DELETE FROM dealing_round WHERE id = %s", [record.pk])


def t_delete_middle(s):
    _delete_round(s, s.r9[1])
    return ("R-9", chain.ROUNDS, 1)


def t_delete_head(s):
    _delete_round(s, s.r9[2])
    return ("R-9", chain.ROUNDS, 2)


def t_delete_two_newest(s):
    _delete_round(s, s.r9[2])
    _delete_round(s, s.r9[1])
    return ("R-9", chain.ROUNDS, 1)


def t_reorder(s):
    a, b = s.r9[0], s.r9[1]
    _sql("UPDATE dealing_round SET chain_index = 1000 WHERE id = %s", [a.pk])
    _sql("UPDATE dealing_round SET chain_index = 0 WHERE id = %s", [b.pk])
    _sql("UPDATE dealing_round SET chain_index = 1 WHERE id = %s", [a.pk])
    return ("R-9", chain.ROUNDS, 0)


def t_insert_at_end(s):
    """A forged round appended at the head, its link a plain SHA-256 (no key)."""
    last = s.r9[2]
    _sql(
        "INSERT INTO dealing_round (uid, table_id, shoe_id, position, number, dealer_id, variant, house_rules, "
        "table_min, table_max, document, chain_index, sha256, prev_sha256, revision, supersedes_id, "
        "amendment_reason, logged_by_id, logged_at, played_at, float_owed, "
        "float_logged, chain_key, stakes_hmac) "
        "SELECT %s, table_id, shoe_id, position, number, dealer_id, variant, house_rules, table_min, table_max, "
        "document, 3, %s, sha256, 1, NULL, '', logged_by_id, logged_at, played_at, "
        "float_owed, float_logged, chain_key, stakes_hmac FROM dealing_round WHERE id = %s",
        [uuid.uuid4(), hashlib.sha256(b"forged").hexdigest(), last.pk],
    )
    return ("R-9", chain.ROUNDS, 3)


def t_insert_in_the_middle(s):
    """Room made at link 1 (every later link moved up one) for a copy of link 0."""
    _sql(
        "UPDATE dealing_round SET chain_index = chain_index + 100 WHERE table_id = %s AND chain_index >= 1",
        [s.tables.ochko_b.pk],
    )
    _sql(
        "UPDATE dealing_round SET chain_index = chain_index - 99 WHERE table_id = %s AND chain_index >= 100",
        [s.tables.ochko_b.pk],
    )
    _sql(
        "INSERT INTO dealing_round (uid, table_id, shoe_id, position, number, dealer_id, variant, house_rules, "
        "table_min, table_max, document, chain_index, sha256, prev_sha256, revision, supersedes_id, "
        "amendment_reason, logged_by_id, logged_at, played_at, float_owed, "
        "float_logged, chain_key, stakes_hmac) "
        "SELECT %s, table_id, shoe_id, position, number, dealer_id, variant, house_rules, table_min, table_max, "
        "document, 1, %s, sha256, 1, NULL, '', logged_by_id, logged_at, played_at, "
        "float_owed, float_logged, chain_key, stakes_hmac FROM dealing_round WHERE id = %s",
        [uuid.uuid4(), "f" * 64, s.r9[0].pk],
    )
    return ("R-9", chain.ROUNDS, 1)


def t_move_to_another_table(s):
    _sql("UPDATE dealing_round SET table_id = %s WHERE id = %s", [s.tables.elsewhere.pk, s.r1[3].pk])
    return ("R-1", chain.ROUNDS, 3)


def t_rechain_with_a_wrong_key(s):
    _sql("UPDATE dealing_round SET float_logged = float_logged - 500 WHERE id = %s", [s.r9[1].pk])
    _rechain(s.tables.ochko_b, b"a-guess-at-the-key-0000000000000000")
    return ("R-9", chain.ROUNDS, 0)


def t_rechain_with_the_stolen_key(s):
    """The chain key stolen too: an edit rehashed through the head; the signed head gives it away."""
    from django.conf import settings

    _sql("UPDATE dealing_round SET float_logged = float_logged - 500 WHERE id = %s", [s.r9[1].pk])
    _rechain(s.tables.ochko_b, settings.CHAIN_KEY.encode(), start=1)
    return ("R-9", chain.ROUNDS, 2)


def t_rechain_after_deleting_the_head_with_the_stolen_key(s):
    from django.conf import settings

    _delete_round(s, s.r9[2])
    _rechain(s.tables.ochko_b, settings.CHAIN_KEY.encode())
    return ("R-9", chain.ROUNDS, 2)


def t_stake_moved(s):
    _sql(
        "UPDATE dealing_stake SET round_id = %s, stake_id = 'moved' WHERE id = %s", [s.r1[0].pk, s.stake(s.r1[1], 1).pk]
    )
    return ("R-1", chain.STAKES, 0)


def t_stake_deleted(s):
    _sql("DELETE FROM dealing_stake WHERE id = %s", [s.stake(s.r1[2]).pk])
    return ("R-1", chain.STAKES, 2)


def t_stake_inserted(s):
    _sql(
        "INSERT INTO dealing_stake (round_id, stake_id, box, player, ante, bet, dealer_bet, owed_net, paid_net) "
        "VALUES (%s, 'extra', 9, 'P-FRIEND', 100, NULL, NULL, 0, 900)",
        [s.r1[3].pk],
    )
    return ("R-1", chain.STAKES, 3)


def t_approval_deleted_in_the_middle(s):
    _sql("DELETE FROM dealing_approval WHERE id = %s", [s.approvals[1].pk])
    return ("approvals", chain.APPROVALS, 1)


def t_approval_deleted_at_the_head(s):
    _sql("DELETE FROM dealing_approval WHERE id = %s", [s.approvals[2].pk])
    return ("approvals", chain.APPROVALS, 2)


def t_approval_moved_to_another_round(s):
    _sql("UPDATE dealing_approval SET round_id = %s WHERE id = %s", [s.r1[1].pk, s.approvals[0].pk])
    return ("approvals", chain.APPROVALS, 0)


def t_approval_moved_to_another_incident(s):
    _sql("UPDATE dealing_approval SET incident_id = %s WHERE id = %s", [s.incidents[1].pk, s.approvals[1].pk])
    return ("approvals", chain.APPROVALS, 1)


def t_decided_round_rehashed(s):
    """The corrected round's link replaced (its content edited and rehashed with the stolen key): the
    approval covering the old link no longer matches, besides the table's own break."""
    from django.conf import settings

    _sql("UPDATE dealing_round SET amendment_reason = 'typo' WHERE id = %s", [s.r1[5].pk])
    _rechain(s.tables.ochko, settings.CHAIN_KEY.encode(), start=5)
    return ("approvals", chain.APPROVALS, 0)


def _supersession_update(column_sql):
    def tamper(s):
        _sql(f"UPDATE dealing_supersession SET {column_sql} WHERE approval_id = %s", [s.approvals[0].pk])
        return ("approvals", chain.SUPERSESSIONS, 0)

    return tamper


def t_supersession_deleted(s):
    """The correction's supersession removed: the corrected round would read as in force again."""
    _sql("DELETE FROM dealing_supersession WHERE approval_id = %s", [s.approvals[0].pk])
    return ("approvals", chain.SUPERSESSIONS, 0)


def t_supersession_inserted(s):
    """A forged supersession taking an R-9 round out of force, hung on an incident's approval."""
    _sql(
        "INSERT INTO dealing_supersession (superseded_id, superseding_id, approval_id, at) "
        "SELECT %s, %s, id, decided_at FROM dealing_approval WHERE id = %s",
        [s.r9[0].pk, s.r9[1].pk, s.approvals[1].pk],
    )
    return ("approvals", chain.SUPERSESSIONS, 1)


def t_checkpoint_line_edited(s):
    path, lines = s.log_lines()
    body = json.loads(lines[1])
    body["heads"][str(s.tables.ochko_b.pk)]["count"] = 2
    path.write_text("\n".join([lines[0], chain.canonical_json(body)]) + "\n")
    return ("checkpoints", chain.CHECKPOINTS, 2)


def t_checkpoint_line_removed(s):
    path, lines = s.log_lines()
    path.write_text(lines[0] + "\n")
    return ("checkpoints", chain.CHECKPOINTS, 2)


def t_checkpoint_first_line_removed(s):
    path, lines = s.log_lines()
    path.write_text(lines[1] + "\n")
    return ("checkpoints", chain.CHECKPOINTS, 1)


def t_checkpoint_file_deleted(s):
    path, _ = s.log_lines()
    path.unlink()
    return ("checkpoints", chain.CHECKPOINTS, 2)


def t_checkpoint_forged_with_another_key(s):
    """A line re-signed with a key of the attacker's own, its public key put next to the log."""
    path, lines = s.log_lines()
    forger = Ed25519PrivateKey.generate()
    body = {k: v for k, v in json.loads(lines[1]).items() if k != "sig"}
    body["heads"][str(s.tables.ochko_b.pk)]["count"] = 2
    body["key"] = checkpoint_log.fingerprint(forger.public_key())
    body["sig"] = base64.b64encode(forger.sign(chain.canonical_json(body).encode())).decode()
    (path.parent / checkpoint_log.PUBLIC_KEY_FILE.format(fingerprint=body["key"])).write_bytes(
        checkpoint_log.public_pem(forger.public_key())
    )
    path.write_text("\n".join([lines[0], chain.canonical_json(body)]) + "\n")
    return ("checkpoints", chain.CHECKPOINTS, 2)


UUID = "'00000000-0000-4000-8000-000000000001'"
KINDS = {
    # every covered column of dealing_round
    "round.document": _round_update("""document = jsonb_set(document, '{dealer}', '"someone-else"')"""),
    "round.table": t_move_to_another_table,
    "round.chain_index": _round_update("chain_index = 77"),
    "round.uid": _round_update(f"uid = {UUID}"),
    "round.revision": _round_update("revision = 9"),
    "round.supersedes": _round_update("supersedes_id = (SELECT min(id) FROM dealing_round)"),
    "round.amendment_reason": _round_update("amendment_reason = 'nothing to see'", link=5),
    "round.shoe": _round_update("shoe_id = NULL"),
    "round.position": _round_update("position = position + 1"),
    "round.number": _round_update("number = number + 1"),
    "round.dealer": _round_update("dealer_id = (SELECT id FROM auth_user WHERE username = 'dealer2')"),
    "round.logged_by": _round_update("logged_by_id = (SELECT id FROM auth_user WHERE username = 'dealer2')"),
    "round.logged_at": _round_update("logged_at = logged_at - interval '1 hour'"),
    "round.played_at": _round_update("played_at = played_at - interval '1 day'"),
    "round.variant": _round_update("variant = 'veintiuno'"),
    "round.house_rules": _round_update("house_rules = '{}'::jsonb"),
    "round.table_min": _round_update("table_min = table_min - 1"),
    "round.table_max": _round_update("table_max = table_max + 1"),
    "round.float_owed": _round_update("float_owed = COALESCE(float_owed, 0) + 1"),
    "round.float_logged": _round_update("float_logged = COALESCE(float_logged, 0) - 1"),
    "round.chain_key": _round_update("chain_key = 'stolen'"),
    "round.stakes_hmac": _round_update(f"stakes_hmac = '{'0' * 64}'"),
    "round.prev_sha256": _round_update(f"prev_sha256 = '{'0' * 64}'"),
    "round.sha256": _round_update(f"sha256 = '{'0' * 64}'"),
    # every column of dealing_stake
    "stake.stake_id": _stake_update("stake_id = 'renamed'"),
    "stake.box": _stake_update("box = COALESCE(box, 0) + 1"),
    "stake.player": _stake_update("player = 'P-FRIEND'"),
    "stake.ante": _stake_update("ante = COALESCE(ante, 0) + 5"),
    "stake.bet": _stake_update("bet = COALESCE(bet, 0) + 5"),
    "stake.dealer_bet": _stake_update("dealer_bet = COALESCE(dealer_bet, 0) + 5"),
    "stake.owed_net": _stake_update("owed_net = COALESCE(owed_net, 0) + 5"),
    "stake.paid_net": _stake_update("paid_net = COALESCE(paid_net, 0) + 5"),
    "stake.round (moved)": t_stake_moved,
    "stake deleted": t_stake_deleted,
    "stake inserted": t_stake_inserted,
    # every covered column of dealing_approval
    "approval.decision": _approval_update("decision = 'rejected'", link=0),
    "approval.comment": _approval_update("comment = 'fine by me'"),
    "approval.decided_by": _approval_update("decided_by_id = (SELECT id FROM auth_user WHERE username = 'pitboss2')"),
    "approval.decided_at": _approval_update("decided_at = decided_at + interval '1 day'"),
    "approval.round": t_approval_moved_to_another_round,
    "approval.incident": t_approval_moved_to_another_incident,
    "approval.link": _approval_update("link = 50"),
    "approval.prev_hmac": _approval_update(f"prev_hmac = '{'0' * 64}'"),
    "approval.hmac": _approval_update(f"hmac = '{'0' * 64}'"),
    "approval.chain_key": _approval_update("chain_key = 'stolen'"),
    "approval deleted in the middle": t_approval_deleted_in_the_middle,
    "approval deleted at the head": t_approval_deleted_at_the_head,
    "decided round rehashed": t_decided_round_rehashed,
    # every column of dealing_supersession (what is in force), and its rows removed or added
    "supersession.superseded": _supersession_update("superseded_id = (SELECT min(id) FROM dealing_round)"),
    "supersession.superseding": _supersession_update(
        "superseding_id = (SELECT id FROM dealing_round WHERE table_id = "
        "(SELECT table_id FROM dealing_round WHERE id = superseding_id) AND chain_index = 3)"
    ),
    "supersession.approval": _supersession_update("approval_id = (SELECT id FROM dealing_approval WHERE link = 2)"),
    "supersession.at": _supersession_update("at = at + interval '1 day'"),
    "supersession deleted": t_supersession_deleted,
    "supersession inserted": t_supersession_inserted,
    # rows removed, moved, added; chains recomputed
    "round deleted in the middle": t_delete_middle,
    "round deleted at the head": t_delete_head,
    "two newest rounds deleted": t_delete_two_newest,
    "two rounds reordered": t_reorder,
    "round inserted at the end": t_insert_at_end,
    "round inserted in the middle": t_insert_in_the_middle,
    "chain recomputed with a wrong key": t_rechain_with_a_wrong_key,
    "chain recomputed with the stolen key": t_rechain_with_the_stolen_key,
    "head deleted, chain recomputed with the stolen key": t_rechain_after_deleting_the_head_with_the_stolen_key,
    # the checkpoint log
    "checkpoint line edited": t_checkpoint_line_edited,
    "newest checkpoint line removed": t_checkpoint_line_removed,
    "first checkpoint line removed": t_checkpoint_first_line_removed,
    "checkpoint file deleted": t_checkpoint_file_deleted,
    "checkpoint forged with another key": t_checkpoint_forged_with_another_key,
}


def test_the_battery_has_at_least_twenty_kinds():
    assert len(KINDS) >= 20


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kind_of_tampering_is_detected_and_named(kind, store):
    expected_chain, expected_relation, expected_link = KINDS[kind](store)
    report = services.chain_verify()
    assert not report.ok, f"{kind}: not detected"
    named = [(b.chain, b.relation, b.link) for b in report.breaks]
    assert (expected_chain, expected_relation, expected_link) in named, f"{kind}: {[str(b) for b in report.breaks]}"
    found = next(
        b for b in report.breaks if (b.chain, b.relation, b.link) == (expected_chain, expected_relation, expected_link)
    )
    assert found.problem, kind


def test_an_untouched_store_of_ten_thousand_rounds_verifies_without_a_false_alarm(staff, tables):
    from bench.chain import load_chain

    assert load_chain(table=tables.ochko, dealer=staff.dealer, rounds=6000) == 6000
    assert load_chain(table=tables.ochko_b, dealer=staff.dealer, rounds=4000) == 4000
    assert services.checkpoint_write_all().ok
    report = services.chain_verify()
    assert report.breaks == [] and report.records == 10_000
    assert report.stakes == Stake.objects.count() > 10_000
