"""The migration to the chain's version 2 (dealing/0006_chain_v2) recomputes the links already
stored: afterwards the old rounds and approvals verify under the key, and nothing of version 1 remains."""

import hashlib
import io
import uuid
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from dealing import services
from dealing.models import Approval, Round
from tests.factories import PitFactory, TableFactory

BEFORE = [("dealing", "0005_round_list_indexes")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_relinks_version_1_links_under_the_key():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    OldRound, OldStake, OldApproval = (old.get_model("dealing", name) for name in ("Round", "Stake", "Approval"))
    table = TableFactory(name="R-1", pit=PitFactory(name="Pit A"))
    # The users of that state too: today's models chain every saved user in a table it lacks.
    OldUser = old.get_model("auth", "User")
    dealer, boss = (OldUser.objects.create(username=name) for name in ("dealer1", "pitboss1"))
    prev, rounds = "", []
    for k in range(3):
        sha = hashlib.sha256(f"version 1, link {k}".encode()).hexdigest()
        record = OldRound.objects.create(
            uid=uuid.uuid4(),
            table_id=table.pk,
            dealer_id=dealer.pk,
            variant="ochko",
            house_rules={},
            table_min=Decimal(100),
            table_max=Decimal(5000),
            document={"id": str(k)},
            chain_index=k,
            sha256=sha,
            prev_sha256=prev,
            revision=1,
            supersedes_id=rounds[0].pk if k == 2 else None,
            logged_by_id=dealer.pk,
            logged_at=timezone.now(),
            float_owed=Decimal("12.50"),
            float_logged=Decimal(10),
        )
        OldStake.objects.create(
            round_id=record.pk,
            stake_id="1a",
            box=1,
            player="P-1",
            ante=Decimal(100),
            owed_net=Decimal(-100),
            paid_net=Decimal(-100),
        )
        prev = sha
        rounds.append(record)
    OldApproval.objects.create(
        round_id=rounds[2].pk, decided_by_id=boss.pk, decision="approved", decided_at=timezone.now()
    )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    # The users stored before their relation was chained are linked as the upgrade says (docs/operations.md).
    call_command("link_records", stdout=io.StringIO())

    stored = list(Round.objects.order_by("chain_index"))
    assert all(r.chain_key == "1" and r.stakes_hmac for r in stored)
    assert {r.sha256 for r in stored}.isdisjoint(r.sha256 for r in rounds)  # every link recomputed
    assert [r.prev_sha256 for r in stored[1:]] == [r.sha256 for r in stored[:-1]]
    approval = Approval.objects.get()
    assert approval.link == 0 and approval.hmac
    report = services.chain_verify()
    assert report.breaks == [] and (report.records, report.stakes, report.approvals) == (3, 3, 1)
