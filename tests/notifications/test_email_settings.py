"""E-mail is configured from the environment: EMAIL_URL or EMAIL_HOST and its fellows; the console
under DEBUG when neither is given."""

from tests.casino.test_settings import settings_of

NAMES = ("EMAIL_BACKEND", "EMAIL_HOST", "EMAIL_PORT", "EMAIL_HOST_USER", "EMAIL_USE_TLS", "DEFAULT_FROM_EMAIL")


def test_an_email_url_configures_smtp():
    got = settings_of(
        *NAMES,
        DEBUG="1",
        EMAIL_URL="smtp+tls://pit:secret@mail.casino.example:587",
        DEFAULT_FROM_EMAIL="floor@casino.example",
    )
    assert got["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (got["EMAIL_HOST"], got["EMAIL_PORT"], got["EMAIL_HOST_USER"], got["EMAIL_USE_TLS"]) == (
        "mail.casino.example",
        587,
        "pit",
        True,
    )
    assert got["DEFAULT_FROM_EMAIL"] == "floor@casino.example"


def test_email_host_and_its_fellows_configure_smtp():
    got = settings_of(*NAMES, DEBUG="1", EMAIL_HOST="relay.example", EMAIL_PORT="2525", EMAIL_USE_TLS="0")
    assert got["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (got["EMAIL_HOST"], got["EMAIL_PORT"], got["EMAIL_USE_TLS"]) == ("relay.example", 2525, False)


def test_development_without_smtp_prints_the_email():
    assert settings_of("EMAIL_BACKEND", DEBUG="1")["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
