"""One number per round (issue #20 item 2): each table's rounds are numbered 1, 2, 3, … as they are
logged (a correction keeps the number of the round it corrects), and 1, 2, … within a shoe; pages,
messages, the API and the queue show that number, never the database id."""

import pytest
from django.test import Client
from django.urls import reverse

from dealing import services
from dealing.choices import Decision
from dealing.models import Round
from tests.dealing.test_amend import wrong_payout

pytestmark = pytest.mark.django_db


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _log(table, user, deal, seed):
    record, created = services.round_log(document=deal(table, seed=seed, dealer=user.username), logged_by=user)
    assert created
    return record


def test_rounds_are_numbered_per_table_and_per_shoe(staff, tables, deal):
    shoe = services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    first = [_log(tables.ochko, staff.dealer, deal, seed) for seed in range(3)]
    other = _log(tables.ochko_b, staff.dealer, deal, 9)  # another table counts on its own
    services.shoe_end(shoe=shoe, ended_by=staff.dealer)
    services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    second = [_log(tables.ochko, staff.dealer, deal, seed) for seed in range(3, 5)]
    assert [r.table_round for r in first + second] == [1, 2, 3, 4, 5]
    assert [r.number for r in first + second] == [1, 2, 3, 1, 2]  # the shoe's count starts again
    assert other.table_round == 1
    assert [r.table_round for r in Round.objects.filter(table=tables.ochko).order_by("chain_index")] == [1, 2, 3, 4, 5]


def test_a_correction_keeps_the_number_and_the_next_round_takes_the_next_one(staff, tables, deal):
    _log(tables.ochko, staff.dealer, deal, 100)
    doc, fixed = wrong_payout(tables.ochko, deal)
    original, _ = services.round_log(document=doc, logged_by=staff.dealer)
    amendment = services.round_amend(round=original, document=fixed, amended_by=staff.dealer, reason="Paid short.")
    assert (original.table_round, amendment.table_round) == (2, 2)
    assert _log(tables.ochko, staff.dealer, deal, 101).table_round == 3  # after a correction's link
    services.round_amendment_decide(round=amendment, decided_by=staff.pitboss, decision=Decision.APPROVED)
    assert _log(tables.ochko, staff.dealer, deal, 102).table_round == 4


def test_pages_api_and_queue_show_the_tables_number_not_the_id(staff, tables, deal):
    for seed in range(3):
        _log(tables.ochko_b, staff.dealer, deal, 200 + seed)  # ids 1-3 go to another table
    doc, fixed = wrong_payout(tables.ochko, deal)
    record, _ = services.round_log(document=doc, logged_by=staff.dealer)
    assert record.table_round == 1 and record.pk != 1
    page = login(staff.pitboss).get(reverse("dealing:round_detail", args=[record.pk])).content.decode()
    assert "Round 1 at R-1" in page and f"Round {record.pk} " not in page
    api = login(staff.pitboss).get(f"/api/v1/rounds/{record.pk}/")
    assert api.status_code == 200 and api.json()["table_round"] == 1
    amendment = services.round_amend(round=record, document=fixed, amended_by=staff.dealer, reason="Paid short.")
    queue = login(staff.pitboss).get(reverse("dealing:pit_queue")).content.decode()
    assert "Correction of round 1 at R-1" in queue and f"round {record.pk} " not in queue
    correction = login(staff.pitboss).get(reverse("dealing:round_detail", args=[amendment.pk])).content.decode()
    assert "Round 1 at R-1" in correction
    replay = login(staff.auditor).get(reverse("audit:round_replay", args=[record.pk])).content.decode()
    assert "Round 1 at R-1" in replay and "#0" not in replay.split("<h1>")[1].split("</h1>")[0]


def test_the_form_says_which_round_was_saved(staff, tables, deal):
    from tests.dealing.test_pages import round_data

    client = login(staff.dealer)
    for seed in range(2):
        _log(tables.ochko_b, staff.dealer, deal, 300 + seed)
    url = reverse("dealing:round_new", kwargs={"name": tables.ochko.name})
    data = round_data()
    checked = client.post(url, {**data, "action": "check"}).context["result"]
    response = client.post(url, {**data, "checked": checked.token, "action": "save"}, follow=True)
    html = response.content.decode()
    assert "Round saved: R-1, round 1." in html and "Round 1 at R-1" in html


@pytest.mark.django_db(transaction=True)
def test_the_migration_numbers_the_rounds_already_stored():
    import uuid
    from decimal import Decimal

    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor
    from django.utils import timezone

    from tests.factories import PitFactory, TableFactory

    before = [("dealing", "0006_chain_v2")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    OldRound = old.get_model("dealing", "Round")
    pit = PitFactory(name="Pit A")
    tables = [TableFactory(name="R-1", pit=pit), TableFactory(name="R-2", pit=pit)]
    # The user of that state too: today's models chain every saved user in a table it lacks.
    dealer = old.get_model("auth", "User").objects.create(username="dealer1")
    made = []
    for k, (table, corrects) in enumerate([(0, None), (1, None), (0, None), (0, 0), (1, None), (0, None)]):
        made.append(
            OldRound.objects.create(
                uid=uuid.uuid4(),
                table_id=tables[table].pk,
                dealer_id=dealer.pk,
                variant="ochko",
                house_rules={},
                table_min=Decimal(100),
                table_max=Decimal(5000),
                document={"id": str(k)},
                chain_index=sum(1 for r in made if r.table_id == tables[table].pk),
                sha256=f"{k:064x}",
                revision=1 if corrects is None else 2,
                supersedes_id=None if corrects is None else made[corrects].pk,
                logged_by_id=dealer.pk,
                logged_at=timezone.now(),
            )
        )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    numbers = dict(Round.objects.values_list("pk", "table_round"))
    assert [numbers[r.pk] for r in made] == [1, 1, 2, 1, 2, 3]


def test_the_incident_form_names_the_round_by_its_number_at_the_table(staff, tables, deal):
    from dealing.models import Incident

    for seed in range(2):
        _log(tables.ochko_b, staff.dealer, deal, 400 + seed)  # ids 1-2 at another table
    record = _log(tables.ochko, staff.dealer, deal, 402)
    assert record.table_round == 1 and record.pk != 1
    boss = login(staff.pitboss)
    prefilled = boss.get(reverse("dealing:incident_new") + f"?round={record.pk}").content.decode()
    assert 'value="1"' in prefilled and f'name="round" value="{record.pk}"' not in prefilled
    response = boss.post(
        reverse("dealing:incident_new"),
        {
            "kind": "misdrawn_card",
            "table": "R-1",
            "card": "9D",
            "resolution": "burned",
            "dealer": "dealer1",
            "round": "1",
            "exposed": "on",
        },
    )
    assert response.status_code == 302, response.context["form"].errors
    assert Incident.objects.get().round == record
