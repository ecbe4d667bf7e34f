"""Password reset by e-mail end to end, in every language, with no account enumeration, throttled."""

import re

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counts():
    """The requests are counted in the cache, which outlives a test."""
    cache.clear()
    yield
    cache.clear()


def test_a_reset_from_request_to_login_with_the_new_password(staff):
    client = Client()
    answer = client.post(reverse("password_reset"), {"email": "pitboss1@casino.example"})
    assert answer.status_code == 302 and answer["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["pitboss1@casino.example"]
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200 and 'name="new_password1"' in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": "Fresh-Pit-9!x", "new_password2": "Fresh-Pit-9!x"}, follow=True
    )
    assert done.redirect_chain[-1][0] == reverse("password_reset_complete")
    login = Client().post(reverse("login"), {"username": "pitboss1", "password": "Fresh-Pit-9!x"})
    assert login.status_code == 302 and login["Location"] == reverse("casino:home")
    # The link works once.
    assert "new_password1" not in client.get(link, follow=True).content.decode()


def test_an_unknown_address_gets_the_same_answer_and_no_email(staff):
    known = Client().post(reverse("password_reset"), {"email": "pitboss1@casino.example"})
    unknown = Client().post(reverse("password_reset"), {"email": "nobody@elsewhere.example"})
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert [m.to for m in mail.outbox] == [["pitboss1@casino.example"]]


def test_requests_are_throttled_like_the_login(staff, settings):
    settings.PASSWORD_RESET_LIMIT = 2
    client = Client()
    for _ in range(2):
        assert client.post(reverse("password_reset"), {"email": "dealer1@casino.example"}).status_code == 302
    refused = client.post(reverse("password_reset"), {"email": "dealer1@casino.example"})
    assert refused.status_code == 429 and "Too many" in refused.content.decode()
    assert len(mail.outbox) == 2


@pytest.mark.parametrize("language", ["ru", "es", "pt-br"])
def test_the_pages_and_the_email_speak_every_language(staff, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    page = client.get(reverse("password_reset")).content.decode()
    assert "Reset your password" not in page
    client.post(reverse("password_reset"), {"email": "dealer1@casino.example"})
    assert "Someone asked" not in mail.outbox[0].body
