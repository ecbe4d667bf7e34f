"""The migration to append-only rounds (dealing/0008_append_only) moves what the round rows held:
each round's audit columns to its RoundAudit row, each approved correction to a Supersession; the
statuses the pages show are then derived, and are the ones stored before."""

import uuid
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from dealing.models import Round, RoundAudit, Supersession
from tests.factories import PitFactory, TableFactory

BEFORE = [("dealing", "0006_chain_v2")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_audit_verdicts_and_supersessions_beside_the_rounds():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    OldRound, OldApproval = (old.get_model("dealing", name) for name in ("Round", "Approval"))
    table = TableFactory(name="R-1", pit=PitFactory(name="Pit A"))
    # The users of that state too: today's models chain every saved user in a table 0006 lacks.
    OldUser = old.get_model("auth", "User")
    dealer, boss = (OldUser.objects.create(username=name) for name in ("dealer1", "pitboss1"))
    audited_at = timezone.now()
    # 0: superseded by 2 (approved); 1: in force, findings; 3: a rejected correction of 1; 4: pending of 1.
    stored = [
        ("superseded", "clean", None),
        ("recorded", "findings", None),
        ("recorded", "clean", 0),
        ("rejected", "pending", 1),
        ("pending", "pending", 1),
    ]
    rounds = []
    for k, (status, audit, supersedes) in enumerate(stored):
        rounds.append(
            OldRound.objects.create(
                uid=uuid.uuid4(),
                table_id=table.pk,
                dealer_id=dealer.pk,
                variant="ochko",
                house_rules={},
                table_min=Decimal(100),
                table_max=Decimal(5000),
                document={"id": str(k)},
                chain_index=k,
                sha256=f"{k:064d}",
                prev_sha256="",
                revision=1 if supersedes is None else 2,
                supersedes_id=None if supersedes is None else rounds[supersedes].pk,
                logged_by_id=dealer.pk,
                logged_at=timezone.now(),
                status=status,
                audit_status=audit,
                audited_at=audited_at if audit != "pending" else None,
                engine_version="1.2" if audit != "pending" else "",
            )
        )
    approved = OldApproval.objects.create(
        round_id=rounds[2].pk,
        decided_by_id=boss.pk,
        decision="approved",
        decided_at=timezone.now(),
        link=0,
        hmac="a" * 64,
        chain_key="1",
    )
    OldApproval.objects.create(
        round_id=rounds[3].pk,
        decided_by_id=boss.pk,
        decision="rejected",
        decided_at=timezone.now(),
        link=1,
        prev_hmac="a" * 64,
        hmac="b" * 64,
        chain_key="1",
    )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    now = {r.pk: r for r in Round.objects.all()}
    for record, (status, audit, _supersedes) in zip(rounds, stored):
        assert (now[record.pk].status, now[record.pk].audit_status) == (status, audit)
    assert RoundAudit.objects.count() == 5
    assert now[rounds[1].pk].engine_version == "1.2" and now[rounds[1].pk].audited_at == audited_at
    s = Supersession.objects.get()
    assert (s.superseded_id, s.superseding_id, s.approval_id) == (rounds[0].pk, rounds[2].pk, approved.pk)
    assert s.at == approved.decided_at
    assert sorted(Round.objects.in_force().values_list("pk", flat=True)) == [rounds[1].pk, rounds[2].pk]
