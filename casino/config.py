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
        '`python -c "import secrets; print(secrets.token_urlsafe(50))"`), '
        "or set DEBUG=1 on a development machine."
    )


# The chain's development key (dealing/chain.py): as public as the one above.
DEVELOPMENT_CHAIN_KEY = "development-only-chain-key-never-use-in-production-4b8e1f"
CHAIN_KEY_MIN_LENGTH = 32
CHAIN_KEY_ID_MAX = 20


def chain_key_from(value: str | None, *, debug: bool) -> str:
    """The key of the round chain's HMAC (CHAIN_KEY), or ImproperlyConfigured when production would
    run without one: a chain anyone can recompute proves nothing."""
    if value:
        if len(value) < CHAIN_KEY_MIN_LENGTH and not debug:
            raise ImproperlyConfigured(
                f"CHAIN_KEY is too short: give at least {CHAIN_KEY_MIN_LENGTH} characters (for example the output "
                'of `python -c "import secrets; print(secrets.token_urlsafe(32))"`).'
            )
        return value
    if debug:
        return DEVELOPMENT_CHAIN_KEY
    raise ImproperlyConfigured(
        "CHAIN_KEY is not set. With DEBUG off the application refuses to start without the key of the "
        "round chain: set CHAIN_KEY to a long random string kept outside the database (for example the "
        'output of `python -c "import secrets; print(secrets.token_urlsafe(32))"`), and CHAIN_KEY_ID to '
        'its id; or set DEBUG=1 on a development machine. See README, "Configuration".'
    )


def chain_key_id_from(value: str) -> str:
    if not value or len(value) > CHAIN_KEY_ID_MAX or any(c in value for c in "=, "):
        raise ImproperlyConfigured(
            f"CHAIN_KEY_ID must be 1 to {CHAIN_KEY_ID_MAX} characters without '=', ',' or spaces (got {value!r})."
        )
    return value


def old_chain_keys_from(value: str | None, *, current_id: str) -> dict[str, str]:
    """CHAIN_KEYS_OLD, "id=key,id=key": the retired keys whose links must still verify."""
    keys: dict[str, str] = {}
    for item in (value or "").split(","):
        item = item.strip()
        if not item:
            continue
        key_id, sep, key = item.partition("=")
        key_id = key_id.strip()
        if not sep or not key:
            raise ImproperlyConfigured(f"CHAIN_KEYS_OLD: {key_id!r} has no key; write id=key,id=key.")
        chain_key_id_from(key_id)
        if key_id == current_id or key_id in keys:
            raise ImproperlyConfigured(f"CHAIN_KEYS_OLD: the key id {key_id!r} is given twice (or is CHAIN_KEY_ID).")
        keys[key_id] = key
    return keys


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


# The names OTP_REQUIRED_ROLES may hold: the roles, and "admin" for superusers (who hold no group).
# Spelt out here because settings are read before casino.roles can be imported (it needs the apps);
# tests/casino/test_second_factor.py holds the two lists equal.
OTP_ADMIN = "admin"
OTP_ROLE_NAMES = ("dealer", "inspector", "pit_boss", "auditor", "trainee", OTP_ADMIN)


def otp_required_roles_from(value: str | None) -> tuple[str, ...]:
    """The roles that must sign in with a second factor (OTP_REQUIRED_ROLES, comma-separated), or
    ImproperlyConfigured for a misspelt one: a typo must not quietly drop the second factor."""
    names = tuple(name.strip() for name in (value or "").split(",") if name.strip())
    unknown = sorted(set(names) - set(OTP_ROLE_NAMES))
    if unknown:
        raise ImproperlyConfigured(
            f"OTP_REQUIRED_ROLES: unknown role(s) {', '.join(unknown)}; "
            f"choose among {', '.join(OTP_ROLE_NAMES)}, or leave it empty to require none."
        )
    return names
