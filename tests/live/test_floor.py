"""The live floor page and its tiles: who may see it (each role), what a tile shows from the
database (approvals waiting, the halt of a round in progress), the same queries however many tables,
and a page that still renders, saying it is not live, with the bus down."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, TRAINEE
from live import services
from live.models import LiveEvent
from tests.factories import IncidentFactory, ShoeFactory, TableFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def memory_bus(settings):
    settings.LIVE_REDIS_URL = ""


@pytest.mark.parametrize("role", [DEALER, INSPECTOR, TRAINEE])
def test_the_floor_and_its_tiles_refuse_the_roles_that_do_not_watch_the_pit(role, client_for, floor):
    client = client_for(role)
    assert client.get(reverse("live:floor")).status_code == 403
    assert client.get(reverse("live:floor_tiles")).status_code == 403


def test_anonymous_is_sent_to_log_in(client_for, floor):
    response = client_for(None).get(reverse("live:floor"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_pit_boss_sees_the_tiles_of_his_pit_only(client_for, floor):
    boss_a = client_for(PIT_BOSS, pits=[floor.pit_a])
    page = boss_a.get(reverse("live:floor")).content.decode()
    assert f'id="tile-{floor.table_a.pk}"' in page and f'id="tile-{floor.table_b.pk}"' not in page
    # Asking for another pit's tile by its id shows nothing of it.
    other = boss_a.get(reverse("live:floor_tiles") + f"?table={floor.table_b.pk}").content.decode()
    assert "live-tile" not in other


def test_the_pit_boss_of_the_other_pit_sees_his_and_not_the_first(client_for, floor):
    boss_b = client_for(PIT_BOSS, pits=[floor.pit_b])
    page = boss_b.get(reverse("live:floor")).content.decode()
    assert f'id="tile-{floor.table_b.pk}"' in page and f'id="tile-{floor.table_a.pk}"' not in page


def test_an_auditor_sees_every_pit(client_for, floor):
    page = client_for(AUDITOR, pits=[]).get(reverse("live:floor")).content.decode()
    assert f'id="tile-{floor.table_a.pk}"' in page and f'id="tile-{floor.table_b.pk}"' in page


def test_a_tile_shows_the_halt_with_what_was_paid_and_owed_and_the_approvals_waiting(client_for, floor):
    IncidentFactory(table=floor.table_a)
    IncidentFactory(table=floor.table_a)
    services.event_record(
        "table_progress",
        pit_id=floor.pit_a.pk,
        table_id=floor.table_a.pk,
        payload={
            "dealer": "dealer7",
            "entries": 12,
            "phase": "pay",
            "done": False,
            "halt": [{"code": "WRONG_AMOUNT", "text": "Box 1 paid short", "paid": "250", "owed": "500"}],
        },
    )
    boss = client_for(PIT_BOSS, pits=[floor.pit_a])
    tile = boss.get(reverse("live:floor_tiles") + f"?table={floor.table_a.pk}").content.decode()
    assert "is-halted" in tile and "Box 1 paid short" in tile and "250" in tile and "500" in tile
    assert "dealer7" in tile
    assert '<dt>Approvals waiting</dt><dd class="warn">2</dd>' in tile
    # Once the round is stored, the halt is over: the tile no longer shows it.
    services.event_record("rounds_logged", pit_id=floor.pit_a.pk, table_id=floor.table_a.pk, payload={"rounds": 1})
    tile = boss.get(reverse("live:floor_tiles") + f"?table={floor.table_a.pk}").content.decode()
    assert "is-halted" not in tile and "Box 1 paid short" not in tile


def test_the_floor_reads_the_same_queries_for_two_tables_as_for_twelve(client_for, floor):
    auditor = client_for(AUDITOR, pits=[])
    ShoeFactory(table=floor.table_a)
    auditor.get(reverse("live:floor_tiles"))  # warm the session and the user's roles
    with CaptureQueriesContext(connection) as few:
        auditor.get(reverse("live:floor_tiles"))
    for k in range(10):
        table = TableFactory(name=f"X-{k}", pit=floor.pit_a)
        ShoeFactory(table=table)
        IncidentFactory(table=table)
    with CaptureQueriesContext(connection) as many:
        page = auditor.get(reverse("live:floor_tiles")).content.decode()
    assert page.count('<article class="live-tile') == 12
    assert len(many) == len(few)


def test_with_the_bus_down_the_floor_renders_from_the_database_and_says_it_is_not_live(client_for, floor, settings):
    settings.LIVE_REDIS_URL = "redis://127.0.0.1:1/0"
    IncidentFactory(table=floor.table_a)
    response = client_for(PIT_BOSS, pits=[floor.pit_a]).get(reverse("live:floor"))
    page = response.content.decode()
    assert response.status_code == 200
    assert '<dt>Approvals waiting</dt><dd class="warn">1</dd>' in page
    banner = page[page.index('id="live-stream"') - 80 : page.index('id="live-stream"') + 400]
    assert "is-hidden" not in banner and "Not live" in banner


def test_with_the_bus_up_the_banner_waits_hidden(client_for, floor):
    page = client_for(PIT_BOSS, pits=[floor.pit_a]).get(reverse("live:floor")).content.decode()
    banner = page[page.index('<div id="live-stream"') : page.index('<div id="live-stream"') + 200]
    assert "is-hidden" in banner


def test_the_page_streams_from_the_newest_event_it_rendered(client_for, floor):
    newest = services.event_record("incident", pit_id=floor.pit_a.pk, table_id=floor.table_a.pk)
    page = client_for(PIT_BOSS, pits=[floor.pit_a]).get(reverse("live:floor")).content.decode()
    assert f'data-after="{newest.pk}"' in page


def test_the_stream_is_not_served_by_a_wsgi_worker(client_for, floor):
    # The WSGI test client: a gthread worker would hold a thread per stream, so it says no content.
    assert client_for(PIT_BOSS, pits=[floor.pit_a]).get(reverse("live:stream")).status_code == 204


def test_an_incident_reported_stores_an_event_of_its_pit(floor):
    incident = IncidentFactory(table=floor.table_b)
    event = LiveEvent.objects.get(kind="incident")
    assert (event.pit_id, event.table_id, event.payload["id"]) == (floor.pit_b.pk, floor.table_b.pk, incident.pk)


def test_old_events_are_pruned(floor, settings):
    from datetime import timedelta

    from django.core.management import call_command
    from django.utils import timezone

    settings.LIVE_EVENT_MAX_AGE_H = 1
    old = services.event_record("incident", pit_id=floor.pit_a.pk)
    LiveEvent.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=2))
    fresh = services.event_record("incident", pit_id=floor.pit_a.pk)
    call_command("live_prune")
    assert list(LiveEvent.objects.values_list("pk", flat=True)) == [fresh.pk]
