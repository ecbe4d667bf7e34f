"""The dealing admin: every page shows, nothing can be added, changed or deleted there."""

import pytest
from django.urls import reverse

from dealing import services
from dealing.models import Approval, Incident, Round, Shoe, Stake

pytestmark = pytest.mark.django_db


@pytest.fixture
def stored(staff, tables, logged):
    shoe = services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    services.shoe_burn(shoe=shoe, card="AS", reason="load", recorded_by=staff.dealer)
    record = logged(tables.ochko, staff.dealer, seed=1)
    incident = services.incident_report(
        table=tables.ochko,
        kind="dealer_card_exposed",
        card="KH",
        exposed=True,
        resolution="burned",
        dealer=staff.dealer,
        reported_by=staff.inspector,
    )
    approval = services.incident_decide(incident=incident, decided_by=staff.pitboss, decision="approved")
    return {Shoe: shoe, Round: record, Stake: record.stakes.first(), Incident: incident, Approval: approval}


@pytest.mark.parametrize("model", [Shoe, Round, Stake, Incident, Approval], ids=lambda m: m.__name__)
def test_pages_show_and_refuse_edits(api, staff, stored, model):
    client = api(staff.admin)
    name = model._meta.model_name
    changelist = client.get(reverse(f"admin:dealing_{name}_changelist"))
    assert changelist.status_code == 200
    obj = stored[model]
    page = client.get(reverse(f"admin:dealing_{name}_change", args=[obj.pk]))
    assert page.status_code == 200
    assert b'name="_save"' not in page.content  # no save button: view only
    assert client.get(reverse(f"admin:dealing_{name}_add")).status_code == 403
    assert client.post(reverse(f"admin:dealing_{name}_delete", args=[obj.pk]), {"post": "yes"}).status_code == 403
    assert model.objects.filter(pk=obj.pk).exists()


def test_a_round_cannot_be_edited_through_the_admin(api, staff, stored):
    record = stored[Round]
    url = reverse("admin:dealing_round_change", args=[record.pk])
    page = api(staff.admin).get(url)
    assert record.document["id"].encode() in page.content
    response = api(staff.admin).post(url, {"table_max": "1", "document": "{}"})
    assert response.status_code == 403
    record.refresh_from_db()
    assert record.table_max == 5000


def test_the_round_list_filters(api, staff, stored):
    client = api(staff.admin)
    url = reverse("admin:dealing_round_changelist")
    for params in (
        {"table__id__exact": stored[Round].table_id},
        {"audit_status__exact": "clean"},
        {"status__exact": "recorded"},
        {"dealer__id__exact": staff.dealer.pk},
    ):
        assert client.get(url, params).status_code == 200


def test_staff_without_superuser_get_no_admin(api, staff, stored):
    assert api(staff.pitboss).get(reverse("admin:dealing_round_changelist")).status_code == 302
