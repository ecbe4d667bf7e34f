"""E-mail by each user's choice per kind, sent by a task after commit; a broker that refuses the task
loses no notification (the row is stored, the sweep sends its e-mail later); the digest."""

from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from kombu.exceptions import OperationalError

from notifications import services, tasks
from notifications.kinds import Kind
from notifications.models import Notification, Preference

pytestmark = pytest.mark.django_db


def halt(users, key="k1"):
    return services.notify(
        kind=Kind.HALT,
        recipients=users,
        params={"table": "R-1", "event": 3, "code": "WRONG_AMOUNT"},
        key=key,
        url="/tables/R-1/terminal/",
    )


def choose(user, **channels):
    Preference.objects.update_or_create(user=user, defaults={"channels": channels})


def test_the_email_goes_to_who_chose_it_and_not_to_the_others(staff, eager, django_capture_on_commit_callbacks):
    choose(staff.pitboss2, halt="page")
    choose(staff.auditor, halt="none")
    choose(staff.admin, halt="email")
    with django_capture_on_commit_callbacks(execute=True):
        halt([staff.pitboss, staff.pitboss2, staff.auditor, staff.admin])
    assert sorted(m.to[0] for m in mail.outbox) == ["admin1@casino.example", "pitboss1@casino.example"]
    message = next(m for m in mail.outbox if m.to == ["pitboss1@casino.example"])
    assert message.subject == "HALT at table R-1" and "http://localhost:8000/tables/R-1/terminal/" in message.body
    # On the page: the default (both) and "page"; not "email" only, not "none" (no row at all).
    shown = set(Notification.objects.filter(on_page=True).values_list("recipient__username", flat=True))
    assert shown == {"pitboss1", "pitboss2"}
    assert not Notification.objects.filter(recipient=staff.auditor).exists()
    assert Notification.objects.get(recipient=staff.admin).emailed_at is not None


def test_no_email_before_the_commit_and_none_after_a_rollback(staff, eager, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        halt([staff.pitboss])
    # Two waiting for the commit: the push to the recipient's pages and the e-mail's task.
    assert mail.outbox == [] and len(callbacks) == 2


def test_a_broker_outage_loses_no_notification(staff, monkeypatch, django_capture_on_commit_callbacks):
    def refused(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.send_emails, "delay", refused)
    with django_capture_on_commit_callbacks(execute=True):
        rows = halt([staff.pitboss, staff.pitboss2])
    stored = Notification.objects.filter(pk__in=[r.pk for r in rows])
    assert stored.count() == 2 and all(r.email_due and r.emailed_at is None for r in stored)
    assert mail.outbox == []
    # The broker back, beat's sweep sends what was due (once).
    stored.update(created_at=timezone.now() - timedelta(minutes=5))
    assert tasks.email_sweep() == 2
    assert tasks.email_sweep() == 0
    assert sorted(m.to[0] for m in mail.outbox) == ["pitboss1@casino.example", "pitboss2@casino.example"]


def test_the_preferences_page_saves_each_choice(staff):
    page = Client()
    page.force_login(staff.inspector)
    html = page.get(reverse("notifications:preferences")).content.decode()
    assert 'name="kind_halt"' in html and 'value="both" selected' in html
    data = {f"kind_{k.value}": "page" for k in Kind} | {"kind_critical_finding": "email", "digest": "on"}
    assert page.post(reverse("notifications:preferences"), data).status_code == 302
    pref = Preference.objects.get(user=staff.inspector)
    assert pref.digest and pref.channels["critical_finding"] == "email" and pref.channels["halt"] == "page"
    bad = page.post(reverse("notifications:preferences"), data | {"kind_halt": "pigeon"})
    assert bad.status_code == 400 and "pigeon" in bad.content.decode()
    assert Preference.objects.get(user=staff.inspector).channels["halt"] == "page"  # nothing changed


def test_the_digest_goes_to_who_chose_it_with_what_he_has_not_read(staff):
    Preference.objects.create(user=staff.pitboss, digest=True)
    Preference.objects.create(user=staff.pitboss2, digest=False)
    choose(staff.pitboss, halt="page")
    choose(staff.pitboss2, halt="page")
    halt([staff.pitboss, staff.pitboss2], key="a")
    halt([staff.pitboss, staff.pitboss2], key="b")
    Notification.objects.filter(recipient=staff.pitboss, key="b").update(read_at=timezone.now())
    call_command("notification_digest", stdout=open("/dev/null", "w"))
    assert [m.to for m in mail.outbox] == [["pitboss1@casino.example"]]
    assert mail.outbox[0].body.count("HALT at table R-1") == 1  # the unread one only
    call_command("notification_digest", stdout=open("/dev/null", "w"))
    assert len(mail.outbox) == 1  # one a day
