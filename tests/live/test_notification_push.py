"""A notification reaches its recipient's open pages live (the bell's count and a toast), and only
his: the stream checks the user on the server, whatever his pits or his role. Rows first: what a
page missed, it reads when it reconnects."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from casino.roles import AUDITOR, DEALER, PIT_BOSS
from live.models import LiveEvent
from notifications import services
from notifications.kinds import Kind, title
from notifications.models import Notification, Preference
from tests.live.streams import live_events, read_stream, status

pytestmark = pytest.mark.django_db(transaction=True)


def tell(*users, key="i1", table="R-1"):
    return services.notify(
        kind=Kind.INCIDENT_APPROVAL,
        recipients=users,
        params={"table": table, "card": "Short pay", "by": "inspector1", "dealer": "dealer1"},
        url="/queue/",
        key=key,
    )


def notifications(blocks):
    return [e for e in live_events(blocks) if e["kind"] == "notification"]


def test_the_recipient_hears_of_it_with_his_unread_count(bus_kind, make_user, floor):
    boss = make_user(PIT_BOSS, pits=[floor.pit_a])
    tell(boss, key="before")  # on the page already (its cursor is after it): the count goes on from it
    cursor = LiveEvent.objects.order_by("-pk").values_list("pk", flat=True).first()

    code, blocks = read_stream(boss, query=f"?after={cursor}", during=lambda: tell(boss), wait_for=1)
    assert code == 200 and status(blocks) is True
    [pushed] = notifications(blocks)
    row = Notification.objects.get(recipient=boss, key="i1")
    assert pushed["user"] == boss.pk and pushed["pit"] is None
    assert pushed["data"] == {
        "id": row.pk,
        "kind": "incident_approval",
        "title": "Incident at table R-1 awaits your approval",
        "text": "Short pay reported by inspector1, dealer dealer1.",
        "url": "/queue/",
        "unread": 2,
    }


def test_nobody_else_hears_of_it_neither_a_boss_of_the_same_pit_nor_an_auditor(bus_kind, make_user, floor):
    boss, other_boss = make_user(PIT_BOSS, pits=[floor.pit_a]), make_user(PIT_BOSS, pits=[floor.pit_a])
    auditor = make_user(AUDITOR)
    for watcher in (other_boss, auditor):
        code, blocks = read_stream(watcher, during=lambda key=f"for-{watcher.pk}": tell(boss, key=key), timeout=1.2)
        assert code == 200 and notifications(blocks) == []
        # Nor on a reconnect: the catch-up reads the same rule from the database.
        _, again = read_stream(watcher, query="?after=0", timeout=0.5)
        assert notifications(again) == []
    assert LiveEvent.objects.filter(kind="notification", user=boss).count() == 2


def test_the_toast_is_in_the_recipients_language(make_user, floor, settings):
    settings.LIVE_REDIS_URL = ""
    boss = make_user(PIT_BOSS, pits=[floor.pit_a])
    Preference.objects.create(user=boss, language="ru")
    _, blocks = read_stream(boss, during=lambda: tell(boss), wait_for=1)
    assert notifications(blocks)[0]["data"]["title"] == "Инцидент за столом R-1 ждёт вашего утверждения"


def test_a_page_that_was_away_reads_what_it_missed(make_user, floor, settings):
    settings.LIVE_REDIS_URL = ""
    boss = make_user(PIT_BOSS, pits=[floor.pit_a])
    seen = LiveEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    tell(boss, key="missed")
    _, blocks = read_stream(boss, last_id=seen, timeout=0.5)
    assert [e["data"]["url"] for e in notifications(blocks)] == ["/queue/"]


def test_an_email_only_notification_is_not_pushed_and_a_rollback_pushes_nothing(make_user, floor, settings):
    from django.db import transaction

    settings.LIVE_REDIS_URL = ""
    boss = make_user(PIT_BOSS, pits=[floor.pit_a])
    Preference.objects.create(user=boss, channels={"incident_approval": "email"})
    tell(boss, key="by mail")
    try:
        with transaction.atomic():
            Preference.objects.filter(user=boss).update(channels={})
            tell(boss, key="rolled back")
            raise RuntimeError
    except RuntimeError:
        pass
    assert Notification.objects.filter(recipient=boss).count() == 1
    assert not LiveEvent.objects.filter(kind="notification").exists()


def test_every_page_of_a_pit_boss_streams_and_a_dealers_does_not(make_user, floor):
    boss, dealer = make_user(PIT_BOSS, pits=[floor.pit_a]), make_user(DEALER, pits=[floor.pit_a])
    for user, streams in ((boss, True), (dealer, False)):
        page = Client()
        page.force_login(user)
        html = page.get(reverse("notifications:list")).content.decode()
        assert ('id="live-stream"' in html) is streams
        assert "notifications/notifications.js" in html  # the bell of both


def test_a_checkpoint_that_failed_reaches_the_auditors_page_in_his_language(make_user, floor, settings):
    """Its title is a sentence without facts (no formatting made it a plain string): it is pushed
    as the recipient reads it, not lost to a lazy translation the stream cannot encode."""
    settings.LIVE_REDIS_URL = ""
    auditor = make_user(AUDITOR)
    Preference.objects.create(user=auditor, language="ru")

    def fail():
        services.notify(
            kind=Kind.CHAIN_FAILED,
            recipients=[auditor],
            params={"check": "checkpoint", "message": "disk full"},
            key="checkpoint-1",
        )

    _, blocks = read_stream(auditor, during=fail, wait_for=1)
    [pushed] = notifications(blocks)
    with translation.override("ru"):
        expected = str(title(Kind.CHAIN_FAILED, {"check": "checkpoint"}))
    assert pushed["data"]["title"] == expected and expected != "A checkpoint could not be written"
    assert pushed["data"]["text"] == "disk full"
