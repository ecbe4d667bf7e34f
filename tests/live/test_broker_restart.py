"""The broker restart drill, with a real Redis really stopped and started again (a private
redis-server on a free port, not the machine's shared one, which other processes use): a stream
open when Redis goes away says it is not live and ends; what is written meanwhile is stored
(notifications and events are rows first); the client that reconnects with Last-Event-ID reads
what it missed and is live again. Skipped when redis-server is not installed."""

import time

import pytest

from casino.roles import PIT_BOSS
from live import services
from live.models import LiveEvent
from notifications import services as notify_services
from notifications.kinds import Kind
from notifications.models import Notification
from tests.live.streams import live_events, read_stream, status

pytestmark = pytest.mark.django_db(transaction=True)


def tell(user, key):
    return notify_services.notify(
        kind=Kind.INCIDENT_APPROVAL,
        recipients=[user],
        params={"table": "R-1", "card": key, "by": "inspector1", "dealer": "dealer1"},
        url="/queue/",
        key=key,
    )


def test_a_restarted_broker_loses_nothing_and_the_client_catches_up(private_redis, make_user, floor):
    boss = make_user(PIT_BOSS, pits=[floor.pit_a])
    cursor = LiveEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0

    def told_then_broker_stops():
        tell(boss, "before")
        time.sleep(0.3)  # delivered before the broker goes
        private_redis.stop()

    code, first = read_stream(boss, query=f"?after={cursor}", during=told_then_broker_stops, wait_for=99, timeout=8)
    assert code == 200
    assert [e["data"]["text"] for e in live_events(first)] == ["before reported by inspector1, dealer dealer1."]
    assert status(first) is False  # the stream said it is not live, and ended: the browser reconnects
    last_id = live_events(first)[-1]["id"]

    # With the broker down: the writes go on, nothing pushed, everything stored.
    tell(boss, "while down")
    services.event_record("incident", pit_id=floor.pit_a.pk, table_id=floor.table_a.pk, payload={"n": "while down"})
    assert Notification.objects.filter(recipient=boss).count() == 2

    private_redis.start()  # empty, as after a crash
    code, second = read_stream(boss, last_id=last_id, during=lambda: tell(boss, "after"), wait_for=1, timeout=5)
    assert code == 200 and status(second) is True  # live again
    got = [(e["kind"], e["data"].get("url") or e["data"].get("n")) for e in live_events(second)]
    # The catch-up (what was missed, in order), then the push of what came after the restart.
    assert got == [("notification", "/queue/"), ("incident", "while down"), ("notification", "/queue/")]
    assert [e["data"]["text"].split(" ")[0] for e in live_events(second) if e["kind"] == "notification"] == [
        "while",
        "after",
    ]
    assert set(Notification.objects.filter(recipient=boss).values_list("key", flat=True)) == {
        "before",
        "while down",
        "after",
    }


@pytest.fixture
def asgi_bus(private_redis):
    """The browser drill's server publishes and subscribes on the private Redis, as the test does."""
    return private_redis.url


@pytest.mark.browser
def test_a_page_says_it_is_not_live_and_recovers_by_itself_after_the_restart(private_redis, browser, make_user, floor):
    boss = make_user(PIT_BOSS, pits=[floor.pit_a], username="bossa")
    other = make_user(PIT_BOSS, pits=[floor.pit_b])
    page = browser("bossa")
    page.goto("/notifications/")
    page.locator("body[data-live=on]").wait_for(state="attached")

    private_redis.stop()
    page.locator("body[data-live=off]").wait_for(state="attached", timeout=5000)
    assert page.locator("#live-stream").is_visible()  # the banner: not live
    tell(other, "someone else's")  # never on this page
    tell(boss, "while down")

    private_redis.start()
    # Nobody reloads: EventSource reconnects after `retry` with its last id and reads what it missed.
    page.locator("body[data-live=on]").wait_for(state="attached", timeout=15_000)
    page.locator(".toast", has_text="while down").wait_for(timeout=5000)
    assert page.locator("[data-bell-count]").inner_text() == "1"
    assert page.locator(".toast", has_text="someone else").count() == 0
    assert not page.locator("#live-stream").is_visible()
