"""The live stream: who receives what (each role on the server), catching up after Last-Event-ID,
and the bus down (the page says it is not live, nothing is lost from the database)."""

import pytest

from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, TRAINEE
from live import services
from live.models import LiveEvent
from tests.live.streams import live_events, read_stream, status

pytestmark = pytest.mark.django_db(transaction=True)

DOWN_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def an_event(table, kind="incident", **payload):
    return services.event_record(kind, pit_id=table.pit_id, table_id=table.pk, payload=payload or {"n": 1})


@pytest.mark.parametrize("role", [DEALER, INSPECTOR, TRAINEE])
def test_roles_that_do_not_watch_the_pit_are_refused(role, make_user, floor):
    user = make_user(role, pits=floor.pits)
    code, blocks = read_stream(user)
    assert code == 403 and blocks == []


def test_anonymous_is_sent_to_log_in(floor):
    code, blocks = read_stream(None)
    assert code == 302 and blocks == []


def test_a_pit_boss_receives_his_pit_and_nothing_of_another(bus_kind, make_user, floor):
    boss_a = make_user(PIT_BOSS, pits=[floor.pit_a])

    def both_pits():
        an_event(floor.table_b, n="b")
        an_event(floor.table_a, n="a")

    code, blocks = read_stream(boss_a, during=both_pits, wait_for=1)
    assert code == 200 and status(blocks) is True
    assert [(e["table"], e["data"]["n"]) for e in live_events(blocks)] == [(floor.table_a.pk, "a")]


def test_the_pit_boss_of_another_pit_receives_nothing(bus_kind, make_user, floor):
    boss_b = make_user(PIT_BOSS, pits=[floor.pit_b])
    code, blocks = read_stream(boss_b, during=lambda: an_event(floor.table_a), wait_for=1, timeout=1.5)
    assert code == 200 and live_events(blocks) == []


def test_an_auditor_receives_every_pit_and_the_events_of_no_pit(bus_kind, make_user, floor):
    auditor = make_user(AUDITOR)

    def three():
        an_event(floor.table_a, n="a")
        an_event(floor.table_b, n="b")
        services.event_record("audit_run", pit_id=None, payload={"n": "run"})

    code, blocks = read_stream(auditor, during=three, wait_for=3)
    assert sorted(e["data"]["n"] for e in live_events(blocks)) == ["a", "b", "run"]


def test_a_reconnect_catches_up_after_last_event_id(make_user, floor, settings):
    settings.LIVE_REDIS_URL = ""
    boss = make_user(PIT_BOSS, pits=[floor.pit_a])
    seen = an_event(floor.table_a, n=1)
    missed = [an_event(floor.table_a, n=2), an_event(floor.table_b, n="other pit"), an_event(floor.table_a, n=3)]
    code, blocks = read_stream(boss, last_id=seen.pk, timeout=1)
    assert [e["data"]["n"] for e in live_events(blocks)] == [2, 3]
    assert [e["id"] for e in live_events(blocks)] == [missed[0].pk, missed[2].pk]
    # The page's cursor (?after=) gives the same; Last-Event-ID, sent on a reconnect, wins over it.
    _, by_cursor = read_stream(boss, query=f"?after={seen.pk}", timeout=1)
    assert [e["data"]["n"] for e in live_events(by_cursor)] == [2, 3]
    _, both = read_stream(boss, query="?after=0", last_id=missed[0].pk, timeout=1)
    assert [e["data"]["n"] for e in live_events(both)] == [3]


def test_a_bad_cursor_is_refused_naming_it(make_user, floor):
    boss = make_user(PIT_BOSS, pits=[floor.pit_a])
    code, _ = read_stream(boss, query="?after=abc")
    assert code == 400


def test_with_the_bus_down_events_are_stored_and_the_stream_says_not_live(make_user, floor, settings):
    settings.LIVE_REDIS_URL = DOWN_URL
    settings.LIVE_BUS_TIMEOUT_S = 0.3
    boss = make_user(PIT_BOSS, pits=[floor.pit_a])
    stored = an_event(floor.table_a, n="while down")  # publishing fails quietly: the row is there
    assert LiveEvent.objects.filter(pk=stored.pk).exists()
    code, blocks = read_stream(boss, query=f"?after={stored.pk - 1}")
    assert code == 200 and status(blocks) is False
    assert [e["data"]["n"] for e in live_events(blocks)] == ["while down"]


def test_a_rolled_back_event_is_neither_stored_nor_pushed(make_user, floor, settings):
    from django.db import transaction

    settings.LIVE_REDIS_URL = ""
    boss = make_user(PIT_BOSS, pits=[floor.pit_a])

    def rolled_back():
        try:
            with transaction.atomic():
                an_event(floor.table_a, n="rolled back")
                raise RuntimeError
        except RuntimeError:
            pass
        an_event(floor.table_a, n="kept")

    _, blocks = read_stream(boss, during=rolled_back, wait_for=1)
    assert [e["data"]["n"] for e in live_events(blocks)] == ["kept"]
