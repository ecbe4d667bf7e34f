"""Settings come from the environment: each variable, read by a fresh process as production would."""

import base64
import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from casino.config import (
    DEVELOPMENT_CHAIN_KEY,
    DEVELOPMENT_SECRET_KEY,
    celery_settings_from,
    chain_key_from,
    old_chain_keys_from,
    redact_url,
    secret_key_from,
)

ROOT = Path(__file__).resolve().parents[2]
# Variables the settings read; a subprocess starts without any of them unless a test sets it.
SETTINGS_VARS = (
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "CONN_MAX_AGE",
    "CELERY_BROKER_URL",
    "TIME_ZONE",
    "LOG_LEVEL",
    "USE_X_FORWARDED_PROTO",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "LOGIN_FAILURE_LIMIT",
    "LOGIN_COOLOFF_MINUTES",
    "LOGIN_LOCKOUT_BY",
    "TOKEN_TTL_HOURS",
    "DEVICE_TOKEN_TTL_DAYS",
    "CHAIN_KEY",
    "CHAIN_KEY_ID",
    "CHAIN_KEYS_OLD",
    "CHECKPOINT_DIR",
    "CHECKPOINT_SIGNING_KEY",
    "CHECKPOINT_PUBLIC_KEY",
    "CACHE_URL",
    "THROTTLE_TOKEN_RATE",
    "THROTTLE_USER_RATE",
    "THROTTLE_ANON_RATE",
    "METRICS_TOKEN",
    "LOG_FORMAT",
    "SENTRY_DSN",
    "CELERY_BEAT_SCHEDULE_FILE",
    "CELERY_TASK_SOFT_TIME_LIMIT",
    "CELERY_TASK_TIME_LIMIT",
)
CHAIN_KEY = secrets.token_urlsafe(32)
# A raw Ed25519 private key is any 32 bytes.
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "casino.example.com",
    "CHAIN_KEY": CHAIN_KEY,
    "CHECKPOINT_SIGNING_KEY": base64.b64encode(secrets.token_bytes(32)).decode(),
}


def _env(**values) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARS}
    env["DJANGO_SETTINGS_MODULE"] = "casino.settings"
    env.update(values)
    return env


def settings_of(*names: str, **env) -> dict:
    """The named settings as a fresh process reads them from `env` (plus the machine's PATH etc.)."""
    code = (
        "import json, django; from django.conf import settings; django.setup(); "
        f"print(json.dumps({{n: getattr(settings, n, None) for n in {list(names)!r}}}, default=str))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=_env(**env), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- DEBUG and SECRET_KEY ---------------------------------------------------------------------


def test_debug_is_off_unless_the_environment_turns_it_on():
    assert settings_of("DEBUG", SECRET_KEY="k" * 50, CHAIN_KEY=CHAIN_KEY) == {"DEBUG": False}
    assert settings_of("DEBUG", DEBUG="1") == {"DEBUG": True}
    assert settings_of("DEBUG", DEBUG="true") == {"DEBUG": True}
    assert settings_of("DEBUG", DEBUG="0", SECRET_KEY="k" * 50, CHAIN_KEY=CHAIN_KEY) == {"DEBUG": False}


def test_without_secret_key_and_debug_off_the_process_refuses_to_start():
    done = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=_env(DEBUG="0"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    assert "SECRET_KEY is not set" in done.stderr


def test_secret_key_from_the_environment_is_used():
    assert settings_of("SECRET_KEY", SECRET_KEY="s3cret-" * 8, CHAIN_KEY=CHAIN_KEY) == {"SECRET_KEY": "s3cret-" * 8}


def test_development_key_only_while_debug_is_on():
    assert settings_of("SECRET_KEY", DEBUG="1") == {"SECRET_KEY": DEVELOPMENT_SECRET_KEY}
    assert secret_key_from("", debug=True) == DEVELOPMENT_SECRET_KEY
    assert secret_key_from("given", debug=False) == "given"
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is not set"):
        secret_key_from("", debug=False)
    with pytest.raises(ImproperlyConfigured):
        secret_key_from(None, debug=False)


# --- ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS, TIME_ZONE --------------------------------------------


def test_allowed_hosts_is_a_comma_separated_list():
    got = settings_of("ALLOWED_HOSTS", **PRODUCTION | {"ALLOWED_HOSTS": "casino.example.com,.floor.example"})
    assert got == {"ALLOWED_HOSTS": ["casino.example.com", ".floor.example"]}
    assert settings_of("ALLOWED_HOSTS", DEBUG="1") == {"ALLOWED_HOSTS": []}


def test_csrf_trusted_origins_and_time_zone():
    got = settings_of(
        "CSRF_TRUSTED_ORIGINS",
        "TIME_ZONE",
        "USE_TZ",
        DEBUG="1",
        CSRF_TRUSTED_ORIGINS="https://casino.example.com",
        TIME_ZONE="Europe/Moscow",
    )
    assert got == {"CSRF_TRUSTED_ORIGINS": ["https://casino.example.com"], "TIME_ZONE": "Europe/Moscow", "USE_TZ": True}
    assert settings_of("TIME_ZONE", DEBUG="1") == {"TIME_ZONE": "UTC"}


# --- DATABASE_URL --------------------------------------------------------------------------


def test_database_defaults_to_a_sqlite_file_in_the_project_folder():
    db = settings_of("DATABASES", DEBUG="1")["DATABASES"]["default"]
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert db["NAME"] == str(ROOT / "db.sqlite3")


def test_database_url_selects_postgresql():
    url = "postgres://casino:pw@db.example:5433/floor"
    db = settings_of("DATABASES", DEBUG="1", DATABASE_URL=url)["DATABASES"]["default"]
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "floor",
        "casino",
        "pw",
        "db.example",
        5433,
    )
    assert db["CONN_HEALTH_CHECKS"] is True


def test_conn_max_age_and_log_level():
    got = settings_of("DATABASES", "LOG_LEVEL", DEBUG="1", CONN_MAX_AGE="60", LOG_LEVEL="debug")
    assert got["DATABASES"]["default"]["CONN_MAX_AGE"] == 60
    assert got["LOG_LEVEL"] == "DEBUG"


# --- CELERY_BROKER_URL -----------------------------------------------------------------------


def test_without_broker_url_tasks_run_eagerly_in_process():
    got = settings_of("CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER", "CELERY_RESULT_BACKEND", DEBUG="1")
    assert got == {"CELERY_BROKER_URL": "memory://", "CELERY_TASK_ALWAYS_EAGER": True, "CELERY_RESULT_BACKEND": None}


def test_broker_url_switches_to_the_real_broker():
    url = "redis://127.0.0.1:6379/3"
    got = settings_of(
        "CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER", "CELERY_RESULT_BACKEND", DEBUG="1", CELERY_BROKER_URL=url
    )
    assert got == {"CELERY_BROKER_URL": url, "CELERY_TASK_ALWAYS_EAGER": False, "CELERY_RESULT_BACKEND": url}


def test_celery_app_reads_the_django_settings():
    code = (
        "import django; django.setup(); from casino.celery import app; "
        "print(app.conf.broker_url, app.conf.task_always_eager)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(DEBUG="1", CELERY_BROKER_URL="redis://127.0.0.1:6379/5"),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["redis://127.0.0.1:6379/5", "False"]


def test_celery_settings_from():
    assert celery_settings_from("")["CELERY_TASK_ALWAYS_EAGER"] is True
    assert celery_settings_from(None)["CELERY_BROKER_URL"] == "memory://"
    assert celery_settings_from("redis://h:6379/1")["CELERY_RESULT_BACKEND"] == "redis://h:6379/1"


def test_redact_url_drops_credentials():
    assert redact_url("redis://:hunter2@cache.example:6380/2") == "redis://cache.example:6380/2"
    assert redact_url("amqp://guest:guest@[::1]:5672/") == "amqp://[::1]:5672/"
    assert redact_url(None) is None


# --- production: secure by default, and `check --deploy` passes ---------------------------------


def test_security_defaults_follow_debug():
    names = ("SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS")
    assert settings_of(*names, **PRODUCTION) == {
        "SECURE_SSL_REDIRECT": True,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_HSTS_SECONDS": 31_536_000,
    }
    assert settings_of(*names, DEBUG="1") == {
        "SECURE_SSL_REDIRECT": False,
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
        "SECURE_HSTS_SECONDS": 0,
    }
    overridden = (
        "SECURE_SSL_REDIRECT",
        "SECURE_PROXY_SSL_HEADER",
        "SECURE_HSTS_SECONDS",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS",
        "SECURE_HSTS_PRELOAD",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
    )
    got = settings_of(
        *overridden,
        **PRODUCTION,
        SECURE_SSL_REDIRECT="0",
        USE_X_FORWARDED_PROTO="1",
        SECURE_HSTS_SECONDS="3600",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="0",
        SECURE_HSTS_PRELOAD="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
    )
    assert got == {
        "SECURE_SSL_REDIRECT": False,
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
        "SECURE_HSTS_SECONDS": 3600,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": False,
        "SECURE_HSTS_PRELOAD": False,
        "SESSION_COOKIE_SECURE": False,
        "CSRF_COOKIE_SECURE": False,
    }


def test_check_deploy_passes_with_production_settings():
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_env(**PRODUCTION),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


# --- the chain's key and the checkpoints' signing key ---------------------------------------------


def test_without_chain_key_and_debug_off_the_process_refuses_to_start():
    done = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=_env(DEBUG="0", SECRET_KEY="k" * 50),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "ImproperlyConfigured: CHAIN_KEY is not set" in done.stderr


def test_chain_keys_from_the_environment():
    got = settings_of(
        "CHAIN_KEY",
        "CHAIN_KEY_ID",
        "CHAIN_KEYS_OLD",
        **PRODUCTION,
        CHAIN_KEY_ID="2025-b",
        CHAIN_KEYS_OLD="2024=old-key-one, 2025-a=old=key=two",
    )
    assert got == {
        "CHAIN_KEY": CHAIN_KEY,
        "CHAIN_KEY_ID": "2025-b",
        "CHAIN_KEYS_OLD": {"2024": "old-key-one", "2025-a": "old=key=two"},
    }
    assert settings_of("CHAIN_KEY", "CHAIN_KEY_ID", DEBUG="1") == {
        "CHAIN_KEY": DEVELOPMENT_CHAIN_KEY,
        "CHAIN_KEY_ID": "1",
    }


def test_chain_key_from():
    assert chain_key_from("", debug=True) == DEVELOPMENT_CHAIN_KEY
    assert chain_key_from("x" * 32, debug=False) == "x" * 32
    with pytest.raises(ImproperlyConfigured, match="CHAIN_KEY is not set"):
        chain_key_from("", debug=False)
    with pytest.raises(ImproperlyConfigured, match="too short"):
        chain_key_from("short", debug=False)
    assert old_chain_keys_from("", current_id="1") == {}
    with pytest.raises(ImproperlyConfigured, match="given twice"):
        old_chain_keys_from("1=abc", current_id="1")
    with pytest.raises(ImproperlyConfigured, match="has no key"):
        old_chain_keys_from("old", current_id="1")


def test_check_without_the_checkpoint_signing_key_fails_in_production():
    env = {k: v for k, v in PRODUCTION.items() if k != "CHECKPOINT_SIGNING_KEY"}
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=_env(**env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "dealing.E001" in done.stderr and "CHECKPOINT_SIGNING_KEY is not set" in done.stderr


# --- operations (issue 37): cache, throttles, metrics token, logs, Sentry, beat ----------------


def test_operations_settings_from_the_environment():
    got = settings_of(
        "CACHES",
        "REST_FRAMEWORK",
        "METRICS_TOKEN",
        "LOGGING",
        "CELERY_BEAT_SCHEDULE_FILENAME",
        "CELERY_TASK_SOFT_TIME_LIMIT",
        DEBUG="1",
        CACHE_URL="redis://127.0.0.1:6379/5",
        THROTTLE_TOKEN_RATE="10/second",
        THROTTLE_ANON_RATE="5/minute",
        METRICS_TOKEN="scrape",
        LOG_FORMAT="json",
        CELERY_BEAT_SCHEDULE_FILE="/var/lib/casino/celerybeat/schedule",
        CELERY_TASK_SOFT_TIME_LIMIT="120",
    )
    assert got["CACHES"]["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert got["CACHES"]["default"]["LOCATION"] == "redis://127.0.0.1:6379/5"
    rates = got["REST_FRAMEWORK"]["DEFAULT_THROTTLE_RATES"]
    assert rates == {"token": "10/second", "user": "600/minute", "anon": "5/minute"}
    assert got["METRICS_TOKEN"] == "scrape"
    assert got["LOGGING"]["handlers"]["console"]["formatter"] == "json"
    assert got["CELERY_BEAT_SCHEDULE_FILENAME"] == "/var/lib/casino/celerybeat/schedule"
    assert got["CELERY_TASK_SOFT_TIME_LIMIT"] == 120


def test_operations_defaults():
    got = settings_of("CACHES", "LOGGING", "METRICS_TOKEN", "CELERY_BEAT_SCHEDULE_FILENAME", DEBUG="1")
    assert got["CACHES"]["default"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    assert got["LOGGING"]["handlers"]["console"]["formatter"] == "plain"
    assert got["METRICS_TOKEN"] == ""
    assert got["CELERY_BEAT_SCHEDULE_FILENAME"] == str(ROOT / "var" / "celerybeat" / "schedule")


def _sentry_active(**env) -> bool:
    code = "import django, sentry_sdk; django.setup(); print(sentry_sdk.get_client().is_active())"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_env(**env), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1] == "True"


def test_sentry_is_off_by_default_and_on_with_a_dsn():
    assert not _sentry_active(DEBUG="1")
    assert _sentry_active(DEBUG="1", SENTRY_DSN="https://public@sentry.example.com/1")
