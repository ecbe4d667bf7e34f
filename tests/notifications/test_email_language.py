"""Each e-mail in its recipient's language: his choice on the settings page, else the language he
last used (at a sign-in, on the settings page), else the site's. One send reaches readers of different languages."""

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from notifications import services
from notifications.kinds import Kind
from notifications.models import Notification, Preference
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def halt(users, key="k1"):
    return services.notify(
        kind=Kind.HALT,
        recipients=users,
        params={"table": "R-1", "event": 3, "code": "WRONG_AMOUNT"},
        key=key,
        url="/tables/R-1/terminal/",
    )


def mail_to(username):
    return next(m for m in mail.outbox if m.to == [f"{username}@casino.example"])


def test_one_send_writes_each_email_in_its_readers_language(staff, eager, django_capture_on_commit_callbacks):
    Preference.objects.create(user=staff.pitboss, language="ru")
    Preference.objects.create(user=staff.pitboss2, language="en", last_language="ru")  # the choice wins
    with django_capture_on_commit_callbacks(execute=True):
        halt([staff.pitboss, staff.pitboss2, staff.admin])
    russian, english = mail_to("pitboss1"), mail_to("pitboss2")
    assert russian.subject == "HALT за столом R-1" and "Открыть:" in russian.body
    assert english.subject == "HALT at table R-1" and "Open it:" in english.body
    assert mail_to("admin1").subject == "HALT at table R-1"  # nothing stored: the site's language


def test_the_language_of_the_last_sign_in_is_the_default(staff, eager, django_capture_on_commit_callbacks):
    browser = Client(headers={"accept-language": "ru"})
    assert browser.post(reverse("login"), {"username": "pitboss1", "password": PASSWORD}).status_code == 302
    assert Preference.objects.get(user=staff.pitboss).last_language == "ru"
    with django_capture_on_commit_callbacks(execute=True):
        halt([staff.pitboss, staff.pitboss2])
    assert mail_to("pitboss1").subject == "HALT за столом R-1"
    assert mail_to("pitboss2").subject == "HALT at table R-1"
    # The settings page read in Spanish (the switcher's cookie): Spanish is now the last used.
    browser.cookies["django_language"] = "es"
    page = browser.get(reverse("notifications:preferences")).content.decode()
    assert 'name="language"' in page and "El idioma que usé por última vez (" in page
    assert Preference.objects.get(user=staff.pitboss).last_language == "es"


def test_the_settings_page_stores_the_chosen_language(staff):
    page = Client()
    page.force_login(staff.pitboss)
    data = {f"kind_{k.value}": "both" for k in Kind} | {"language": "pt-br"}
    assert page.post(reverse("notifications:preferences"), data).status_code == 302
    assert Preference.objects.get(user=staff.pitboss).language == "pt-br"
    assert page.post(reverse("notifications:preferences"), data | {"language": "xx"}).status_code == 400


def test_the_digest_is_in_each_readers_language(staff):
    Preference.objects.create(user=staff.pitboss, digest=True, last_language="ru", channels={"halt": "page"})
    Preference.objects.create(user=staff.pitboss2, digest=True, channels={"halt": "page"})
    halt([staff.pitboss, staff.pitboss2])
    assert Notification.objects.count() == 2
    call_command("notification_digest", stdout=open("/dev/null", "w"))
    assert mail_to("pitboss1").subject == "Ваши уведомления за день (1)"
    assert "HALT за столом R-1" in mail_to("pitboss1").body
    assert mail_to("pitboss2").subject == "Your notifications of the day (1)"
