"""Pure helpers that turn environment values into settings (casino/settings.py uses them).

They take plain values and return plain values, so tests check the parsing without reloading
Django's settings.
"""

from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

# A key anyone can read in this file: only ever acceptable on a developer's machine.
DEVELOPMENT_SECRET_KEY = "django-insecure-development-only-never-use-in-production-0f3c9a"


def secret_key_from(value: str | None, *, debug: bool) -> str:
    """The SECRET_KEY to use, or ImproperlyConfigured when production would run without one."""
    if value:
        return value
    if debug:
        return DEVELOPMENT_SECRET_KEY
    raise ImproperlyConfigured(
        "SECRET_KEY is not set. With DEBUG off the application refuses to start without one: "
        "set SECRET_KEY to a long random string (for example the output of "
        "`python -c \"import secrets; print(secrets.token_urlsafe(50))\"`), "
        "or set DEBUG=1 on a development machine."
    )


def redact_url(url: str | None) -> str | None:
    """A service URL without its credentials, fit for a health report or a log line."""
    if not url:
        return None
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 literal keeps its brackets
        host = f"[{host}]"
    if parts.port:
        host = f"{host}:{parts.port}"
    return f"{parts.scheme}://{host}{parts.path}"


def celery_settings_from(broker_url: str | None) -> dict:
    """Celery's settings for a broker URL: unset means eager, in-process execution."""
    if broker_url:
        return {
            "CELERY_BROKER_URL": broker_url,
            "CELERY_RESULT_BACKEND": broker_url,
            "CELERY_TASK_ALWAYS_EAGER": False,
        }
    return {
        # Nothing ever connects to the in-memory transport while tasks run eagerly; naming it
        # keeps Celery from falling back to its own default (an AMQP server on localhost).
        "CELERY_BROKER_URL": "memory://",
        "CELERY_RESULT_BACKEND": None,
        "CELERY_TASK_ALWAYS_EAGER": True,
    }
