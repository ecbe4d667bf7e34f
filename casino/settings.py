"""Settings, read from the environment (django-environ). Every variable is listed in README.md.

The embedded default needs no server: a SQLite file next to manage.py and Celery tasks run
eagerly in-process. Setting DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis) switches to
the real services; nothing else changes.

DEBUG is off unless the environment turns it on, so a forgotten variable fails safe:
production-like behaviour (secure cookies, HTTPS redirect, HSTS) and a refusal to start
without a real SECRET_KEY. `make run` exports DEBUG=1 for the local demo.
"""

from datetime import timedelta
from pathlib import Path

import environ
from celery.schedules import crontab
from django.utils.translation import gettext_lazy as _

from casino import email_settings, media_settings, schema_settings, sso_settings
from casino.config import (
    celery_settings_from,
    chain_key_from,
    chain_key_id_from,
    old_chain_keys_from,
    otp_required_roles_from,
    secret_key_from,
)

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = secret_key_from(env.str("SECRET_KEY", default=""), debug=DEBUG)
# The key of the round chain's HMAC, outside the database (docs/chain.md): required with DEBUG off.
# Rotation: a new CHAIN_KEY under a new CHAIN_KEY_ID, the old one moved to CHAIN_KEYS_OLD
# ("id=key,id=key"), so the links written under it still verify.
CHAIN_KEY = chain_key_from(env.str("CHAIN_KEY", default=""), debug=DEBUG)
CHAIN_KEY_ID = chain_key_id_from(env.str("CHAIN_KEY_ID", default="1"))
CHAIN_KEYS_OLD = old_chain_keys_from(env.str("CHAIN_KEYS_OLD", default=""), current_id=CHAIN_KEY_ID)
# Signed checkpoints of every chain's head (Ed25519), appended to a log in CHECKPOINT_DIR — put it on
# other storage than the database's. CHECKPOINT_SIGNING_KEY: a PEM file's path or the base64 of the raw
# 32-byte private key (required with DEBUG off: `manage.py check`); CHECKPOINT_PUBLIC_KEY: the public
# key verifiers trust (default: the one written next to the log). With CHECKPOINT_DEV_KEY (DEBUG, tests)
# a missing signing key is generated in the directory.
CHECKPOINT_DIR = Path(env.str("CHECKPOINT_DIR", default=str(BASE_DIR / "var" / "checkpoints")))
# The game math's figures kept on disk, read by every process instead of solved by each
# (dealing/games/figures.py): a restart or a second worker starts warm. Empty: each solves its own.
GAMEMATH_FIGURES_DIR = env.str("GAMEMATH_FIGURES_DIR", default=str(BASE_DIR / "var" / "figures") if DEBUG else "")
CHECKPOINT_SIGNING_KEY = env.str("CHECKPOINT_SIGNING_KEY", default="")
CHECKPOINT_PUBLIC_KEY = env.str("CHECKPOINT_PUBLIC_KEY", default="")
CHECKPOINT_DEV_KEY = env.bool("CHECKPOINT_DEV_KEY", default=DEBUG)
# How often beat takes a checkpoint; with a signing (or public) key configured, a record logged more
# than CHECKPOINT_GRACE_S ago that no checkpoint signs fails verification: the log (or its tail) was
# removed, or checkpoints are failing (docs/chain.md).
CHECKPOINT_INTERVAL_S = env.int("CHECKPOINT_INTERVAL_S", default=5 * 60)
CHECKPOINT_GRACE_S = env.int("CHECKPOINT_GRACE_S", default=2 * CHECKPOINT_INTERVAL_S + 60)
# The witness (`python -m witness`, on another host): every checkpoint is posted to WITNESS_URL and
# countersigned there, so cutting or rolling back the local log is seen (docs/chain.md). Its outage
# only degrades: the next checkpoint sends the backlog. WITNESS_PUBLIC_KEY pins its key (a PEM path,
# or the base64 of the raw 32 bytes; GET /key); WITNESS_TIMEOUT: seconds per request, kept short.
WITNESS_URL = env.str("WITNESS_URL", default="").rstrip("/")
WITNESS_PUBLIC_KEY = env.str("WITNESS_PUBLIC_KEY", default="")
WITNESS_TIMEOUT = env.float("WITNESS_TIMEOUT", default=2.0)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles so that runserver serves static files the way production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    # API tokens that expire and can be revoked, stored as digests (knox); login lockout (axes).
    "knox",
    "axes",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "casino",
    "dealing",
    "drills",
    "ledger",
    "audit",
    "gamemath",
    "books",
    "bench",
    "notifications",
    "live",
]

# Sessions, authentication and messages are Django's, stepping aside for API calls made with a
# token, which never use them (casino/middleware.py); LocaleMiddleware stays for every request, so
# the API answers in the language of Accept-Language.
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A path under /api/ that matches no endpoint: 404 in the API's JSON error shape.
    "casino.middleware.ApiNotFoundMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "casino.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "casino.middleware.AuthenticationMiddleware",
    "casino.middleware.MessageMiddleware",
    # A NUL character in a query parameter or a form field: 400 naming it, before any view reads it.
    "casino.middleware.NulCharacterMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Each refusal (403) also goes to the security log (casino/security.py).
    "casino.middleware.SecurityRefusalMiddleware",
    # Last, as axes asks: turns the answer to a locked-out login into the lockout answer.
    "axes.middleware.AxesMiddleware",
]
# (The staff identity block below inserts its middleware after the authentication's.)

ROOT_URLCONF = "casino.urls"
WSGI_APPLICATION = "casino.wsgi.application"
ASGI_APPLICATION = "casino.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "casino.context_processors.navigation",
                "notifications.context_processors.bell",
            ],
        },
    },
]

# --- Content-Security-Policy (django-csp) -------------------------------------------------------
# Scripts and styles come only from our own static files: no inline <script>, no style="..."
# attribute, no <style> block (a value known only at render time, such as a bar's width, is a data
# attribute that casino/static/casino/styles.js sets through the CSSOM, which the policy allows).
# Nothing may frame the pages, forms post only here.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    },
}

# A database or broker that cannot be reached answers 503 with this Retry-After (casino/faults.py).
RETRY_AFTER_SECONDS = env.int("RETRY_AFTER_SECONDS", default=10)

# --- database ------------------------------------------------------------------------------
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# PostgreSQL: statements a connection runs again and again (every round logged runs the same
# dozen) are prepared on the server once and then only executed, which spares PostgreSQL planning
# each of them anew — most of its CPU per round. Needs server-side parameter binding. Turn it off
# (DB_PREPARED_STATEMENTS=0) behind a pooler in transaction mode (PgBouncer before 1.21), which
# cannot keep a connection's prepared statements.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env.bool(
    "DB_PREPARED_STATEMENTS", default=True
):
    DATABASES["default"].setdefault("OPTIONS", {}).update(server_side_binding=True, prepare_threshold=2)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Celery (casino/celery.py reads every CELERY_* name here) --------------------------------
_celery = celery_settings_from(env.str("CELERY_BROKER_URL", default=""))
CELERY_BROKER_URL = _celery["CELERY_BROKER_URL"]
CELERY_RESULT_BACKEND = _celery["CELERY_RESULT_BACKEND"]
CELERY_TASK_ALWAYS_EAGER = _celery["CELERY_TASK_ALWAYS_EAGER"]
# Redis: kombu's transport with one client per channel rather than one per message (casino/broker.py).
if CELERY_BROKER_URL.startswith("redis://"):
    CELERY_BROKER_TRANSPORT = "casino.broker:Transport"
# Eager tasks raise like the code that called them, so a failing task fails its request or test.
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 24 * 3600
# Audit tasks acknowledge late: a task of a worker that dies is delivered again. With Redis that
# happens after the visibility timeout (seconds; keep it above the longest task — an audit chunk
# takes a second or two). One message reserved at a time keeps unstarted work with the broker.
_visibility = env.int("CELERY_VISIBILITY_TIMEOUT", default=3600)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": _visibility,
    # Look for abandoned messages every min(10 s, timeout / 5) rather than about every 100 s.
    "unacked_restore_interval": max(1, min(10, _visibility // 5)),
    "unacked_restore_throttle": 1,
}
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A worker's database connection lives CONN_MAX_AGE seconds across tasks (casino/celery.py closes
# old and failed ones after each task); without this Celery's Django fixup closes it after every task.
CELERY_DB_REUSE_MAX = 1_000_000
# A chunk of an audit run is leased to the worker that takes it for AUDIT_CHUNK_LEASE_S; every
# AUDIT_CHUNK_CHECK_S beat queues again the chunks whose lease ran out with no worker holding them
# (it died): a run resumes by itself within lease + check (90 s by default; docs/audit.md).
AUDIT_CHUNK_LEASE_S = env.int("AUDIT_CHUNK_LEASE_S", default=60)
AUDIT_CHUNK_CHECK_S = env.int("AUDIT_CHUNK_CHECK_S", default=30)
# Celery beat (`make beat`, or a worker with -B): the nightly audit of whatever is not audited yet
# and of the shoes that ended, a watchdog that re-queues runs whose tasks were lost, and one that
# re-queues the audits of rounds logged 10 minutes ago and still not audited.
CELERY_BEAT_SCHEDULE = {
    "audit-nightly": {
        "task": "audit.tasks.audit_nightly",
        "schedule": crontab(hour=env.int("AUDIT_NIGHTLY_HOUR", default=4), minute=0),
    },
    "audit-resume-stalled": {"task": "audit.tasks.audit_resume_stalled", "schedule": 15 * 60},
    # Chunks whose worker died mid-chunk (their lease ran out, nobody holds them), queued again.
    "audit-chunks-expired": {"task": "audit.tasks.audit_chunks_expired", "schedule": AUDIT_CHUNK_CHECK_S},
    # Rounds whose audit message never arrived (a web process killed before sending it).
    "audit-overdue-rounds": {"task": "audit.tasks.audit_overdue_rounds", "schedule": 5 * 60},
    # A signed checkpoint of every chain's head, and a full verification of the chains every night.
    "chain-checkpoint": {
        "task": "dealing.tasks.chain_checkpoint",
        "schedule": CHECKPOINT_INTERVAL_S,
    },
    "chain-verify": {
        "task": "dealing.tasks.chain_verify",
        "schedule": crontab(hour=env.int("CHAIN_VERIFY_HOUR", default=3), minute=30),
    },
    # The integrity signals of the last SIGNALS_WINDOW_DAYS days, once the nightly audit is done.
    "signals-scan": {
        "task": "books.tasks.signals_scan_daily",
        "schedule": crontab(hour=env.int("SIGNALS_SCAN_HOUR", default=5), minute=0),
    },
    # API tokens whose time is up (they are refused anyway; this keeps the table small).
    "tokens-purge-expired": {"task": "casino.tokens_purge_expired", "schedule": 60 * 60},
    # Notifications' e-mails whose task was lost (the broker down when they were made), and the
    # daily digest for the users who chose it (notifications/).
    "notifications-email-sweep": {"task": "notifications.tasks.email_sweep", "schedule": 5 * 60},
    "notifications-digest": {
        "task": "notifications.tasks.digest_daily",
        "schedule": crontab(hour=env.int("NOTIFICATION_DIGEST_HOUR", default=7), minute=0),
    },
    # The live pit's events older than LIVE_EVENT_MAX_AGE_H (the records they announce stay).
    "live-events-prune": {"task": "live.events_prune", "schedule": 60 * 60},
}
# --- the live pit (live/, docs/live.md) ------------------------------------------------------
# The bus between the processes that store events and those that stream them: Redis publish/subscribe
# at LIVE_REDIS_URL; by default the broker's Redis when CELERY_BROKER_URL is one (a channel is not
# bound to a database number), else in memory (one process: `make run`).
LIVE_REDIS_URL = env.str(
    "LIVE_REDIS_URL", default=CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else ""
)
# Empty: "casino-live:<database name>", so two sites (or test runs) on one Redis hear only their own.
LIVE_CHANNEL = env.str("LIVE_CHANNEL", default="")
LIVE_HEARTBEAT_S = env.float("LIVE_HEARTBEAT_S", default=15)
LIVE_RETRY_MS = env.int("LIVE_RETRY_MS", default=3000)
LIVE_BUS_TIMEOUT_S = env.float("LIVE_BUS_TIMEOUT_S", default=1)
LIVE_CATCHUP_LIMIT = env.int("LIVE_CATCHUP_LIMIT", default=500)
LIVE_EVENT_MAX_AGE_H = env.float("LIVE_EVENT_MAX_AGE_H", default=48)
# The audits of the rounds a web process logs within this many milliseconds of each other go to
# the broker in one message, sent by a thread of the process's own (audit/dispatch.py); 0: one
# message per round, sent by the request once its transaction commits.
AUDIT_QUEUE_LINGER_MS = env.int("AUDIT_QUEUE_LINGER_MS", default=100)
# Every Celery worker audits, every AUDIT_SWEEP_INTERVAL_S seconds (0: never), the rounds still not
# audited AUDIT_SWEEP_GRACE_S seconds after they were logged — their message lost with a broker
# restart, say — at most AUDIT_SWEEP_LIMIT a pass; one worker at a time (audit/sweep.py).
AUDIT_SWEEP_GRACE_S = env.int("AUDIT_SWEEP_GRACE_S", default=60)
AUDIT_SWEEP_INTERVAL_S = env.float("AUDIT_SWEEP_INTERVAL_S", default=30)
AUDIT_SWEEP_LIMIT = env.int("AUDIT_SWEEP_LIMIT", default=2000)
# The float variance (counted − expected) a table's shift may close with, unexplained (books/).
BOOKS_VARIANCE_TOLERANCE = env.str("BOOKS_VARIANCE_TOLERANCE", default="0")
# Dealer performance (docs/dealer-performance.md): a gap between a dealer's rounds longer than this is a
# break, not dealing; the level of the test that flags a dealer above the floor.
BOOKS_PACE_BREAK_MINUTES = env.float("BOOKS_PACE_BREAK_MINUTES", default=10)
# …and a gap shorter than this is rounds entered together (typed in from paper), not dealing.
BOOKS_PACE_SHORTEST_SECONDS = env.float("BOOKS_PACE_SHORTEST_SECONDS", default=5)
BOOKS_PERFORMANCE_ALPHA = env.float("BOOKS_PERFORMANCE_ALPHA", default=0.05)
# The demo floor's weeks (books/demo.py, manage.py demo_floor): days of shifts, rounds per dealer session.
DEMO_FLOOR_DAYS = env.int("DEMO_FLOOR_DAYS", default=14)
DEMO_FLOOR_SESSION_ROUNDS = env.int("DEMO_FLOOR_SESSION_ROUNDS", default=40)
# Integrity signals (books/integrity/detection.py, docs/signals.md): the family-wise level of one scan (Holm's
# correction across its tests), the data a subject needs before it is tested, the share of
# overpayments among an honest dealer's payment errors, and the daily scan's window and hour.
SIGNALS_ALPHA = env.float("SIGNALS_ALPHA", default=0.01)
SIGNALS_MIN_COUNT = env.int("SIGNALS_MIN_COUNT", default=10)
SIGNALS_MIN_STAKES = env.int("SIGNALS_MIN_STAKES", default=20)
SIGNALS_MIN_ROUNDS = env.int("SIGNALS_MIN_ROUNDS", default=100)
SIGNALS_MIN_PLAYER_STAKES = env.int("SIGNALS_MIN_PLAYER_STAKES", default=200)
# Rounds of the counted shoes a player sat in before his wager is tested against the count (advantage_play).
SIGNALS_MIN_COUNT_ROUNDS = env.int("SIGNALS_MIN_COUNT_ROUNDS", default=150)
# Empty: a dealer's share of overpayments is compared with the rest of the floor's.
_signals_lean_p0 = env.str("SIGNALS_LEAN_P0", default="")
SIGNALS_LEAN_P0 = float(_signals_lean_p0) if _signals_lean_p0 else None
SIGNALS_WINDOW_DAYS = env.int("SIGNALS_WINDOW_DAYS", default=30)
SIGNALS_SCAN_HOUR = env.int("SIGNALS_SCAN_HOUR", default=5)

# --- authentication ------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# AUTHENTICATION_BACKENDS: axes first, the site's passwords, LDAP and OIDC if set (casino/sso_settings.py).
# Login lockout (django-axes), for the login page and POST /api/v1/auth/token/: after
# LOGIN_FAILURE_LIMIT failures for one username, or from one address, that username or address is
# refused for LOGIN_COOLOFF_MINUTES (429: casino/security.py). A success resets the count.
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_COOLOFF_MINUTES", default=15))
# A login tried during a lockout is refused without being counted: the cool-off runs from the
# failure that locked, so a client retrying every few seconds is let in when it ends.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# Each name locks on its own ("username,ip_address": a username or an address); "username+ip_address"
# locks the pair (a username from that address only). Where the whole floor reaches the site through
# one address (NAT), LOGIN_LOCKOUT_BY=username,username+ip_address spares the others. An address
# never locks out a pit boss or an admin (casino.security.lockout_parameters).
LOGIN_LOCKOUT_BY = [
    part.split("+") if "+" in part else part
    for part in env.list("LOGIN_LOCKOUT_BY", default=["username", "ip_address"])
]
AXES_LOCKOUT_PARAMETERS = "casino.security.lockout_parameters"
AXES_RESET_ON_SUCCESS = True
# The caller's address behind TRUSTED_PROXY_COUNT reverse proxies, each appending to X-Forwarded-For
# (casino.security.client_ip); 0: REMOTE_ADDR, X-Forwarded-For ignored.
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
AXES_CLIENT_IP_CALLABLE = "casino.security.client_ip"
AXES_LOCKOUT_CALLABLE = "casino.security.lockout_response"
# A username typed longer than any user's is counted cut to 150 characters (axes' column holds 255).
AXES_USERNAME_CALLABLE = "casino.security.lockout_username"
# Tokens (django-rest-knox): people's tokens end after TOKEN_TTL_HOURS; device tokens (an electronic
# shoe, a table system) after DEVICE_TOKEN_TTL_DAYS (0: never). Only a digest of a token is stored.
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=env.float("TOKEN_TTL_HOURS", default=12)),
    "AUTH_HEADER_PREFIX": "Token",
    "AUTO_REFRESH": False,
}
KNOX_TOKEN_MODEL = "knox.AuthToken"
DEVICE_TOKEN_TTL_DAYS = env.int("DEVICE_TOKEN_TTL_DAYS", default=0)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "casino:home"
LOGOUT_REDIRECT_URL = "login"

# --- staff identity: second factor, idle timeout, change history (issues 37 item 7, 35 item 5) ---
# Kept in one block: other changes to this file (metrics, throttling, logging) merge around it.
INSTALLED_APPS += ["django_otp", "django_otp.plugins.otp_totp", "simple_history"]
_after_auth = MIDDLEWARE.index("casino.middleware.AuthenticationMiddleware") + 1
MIDDLEWARE[_after_auth:_after_auth] = [
    # An idle session ends before anything reads its user's rights (casino/middleware.py).
    "casino.middleware.IdleTimeoutMiddleware",
    # request.user.is_verified(): the session passed the second factor (django-otp).
    "django_otp.middleware.OTPMiddleware",
    # Whoever must use a second factor and has not reaches only the enrol, verify and logout pages.
    "casino.middleware.SecondFactorMiddleware",
    # Who made each change the history records (django-simple-history).
    "simple_history.middleware.HistoryRequestMiddleware",
]
# The roles that sign in with a TOTP code after the password: role names, "admin" for superusers;
# empty (OTP_REQUIRED_ROLES=) requires none, which is how a development machine may switch it off.
OTP_REQUIRED_ROLES = otp_required_roles_from(env.str("OTP_REQUIRED_ROLES", default="pit_boss,auditor,admin"))
# The name an authenticator app shows beside the account.
OTP_TOTP_ISSUER = env.str("OTP_TOTP_ISSUER", default="Casino pit desk")
# A wrong code makes the next try wait 1, 2, 4, 8 … seconds (doubling, kept on the device across
# sessions and logins), so guessing six digits is out of reach even with the password.
OTP_TOTP_THROTTLE_FACTOR = 1
# Minutes without a request after which a signed-in session ends (sliding; 0: never). API tokens
# have their own lifetime (TOKEN_TTL_HOURS).
SESSION_IDLE_TIMEOUT = env.int("SESSION_IDLE_TIMEOUT", default=30)
# Django's database sessions, read without the ORM's query building (casino/sessions.py).
SESSION_ENGINE = "casino.sessions"

# --- language and time ---------------------------------------------------------------------
LANGUAGE_CODE = "en"
# The dealers' languages: the Spanish (veintiuno, blackjack salon) and Brazilian Portuguese (online
# blackjack) floors beside the English and Russian ones. The browser chooses (LocaleMiddleware), the
# switcher in the navigation overrides it (set_language's cookie).
LANGUAGES = [("en", _("English")), ("es", _("Spanish")), ("pt-br", _("Brazilian Portuguese")), ("ru", _("Russian"))]
# One date-and-time format per language, each with the time zone: casino/formats/<lang>/formats.py.
FORMAT_MODULE_PATH = "casino.formats"
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
# The casino's shifts: (name, start "HH:MM" in TIME_ZONE), in the order of the day; each runs to the
# next one's start, the last past midnight to the first's. The rollups (audit/rollups.py,
# docs/rollups.md) count each round in the shift it was logged in; changing them needs
# `manage.py rollups_rebuild`. Default: three 8-hour shifts from 06:00.
CASINO_SHIFTS = [("day", "06:00"), ("swing", "14:00"), ("night", "22:00")]
USE_I18N = True
USE_TZ = True
CELERY_TIMEZONE = TIME_ZONE

# --- static files (whitenoise serves them; `collectstatic` fills STATIC_ROOT for production) --
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# --- security: safe defaults whenever DEBUG is off, each one overridable --------------------
# Behind a TLS-terminating proxy set USE_X_FORWARDED_PROTO=1 so Django sees HTTPS requests.
if env.bool("USE_X_FORWARDED_PROTO", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
# Load balancers probe liveness and readiness over plain HTTP; Prometheus scrapes from loopback.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# --- REST API --------------------------------------------------------------------------------
REST_FRAMEWORK = {
    # Token first: an anonymous API call is answered 401 with a WWW-Authenticate header.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # knox's TokenAuthentication, with the user's roles and pits read in the same query.
        "casino.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # Bodies are JSON and nothing else: a form-encoded or text/plain body is refused with 415
    # (the endpoints that read the raw body check the same: dealing/apis/common.py raw_body). DRF's
    # parser, refusing a key given twice and a NUL character (casino/parsers.py).
    "DEFAULT_PARSER_CLASSES": ["casino.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "EXCEPTION_HANDLER": "casino.exception_handlers.exception_handler",
    # Amounts leave the system as decimal strings, never as binary floats.
    "COERCE_DECIMAL_TO_STRING": True,
}
# The OpenAPI schema's settings (drf-spectacular): casino/schema_settings.py.
SPECTACULAR_SETTINGS = schema_settings.SPECTACULAR_SETTINGS

# --- logging: everything to the console, where the process manager collects it --------------
LOG_LEVEL = env.str("LOG_LEVEL", default="INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    # A 403 is one line (who, what, why), not a traceback: casino/log_filters.py.
    "filters": {
        "one_line_refusal": {"()": "casino.log_filters.OneLineRefusal"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain"},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        # Filters of a logger see only what is logged on it: both loggers that record a 403.
        "django.request": {"filters": ["one_line_refusal"]},
        "django.security.csrf": {"filters": ["one_line_refusal"]},
        # WeasyPrint logs every layout step of every PDF at INFO; its warnings (a font or style it
        # could not use) are what an operator needs.
        "weasyprint": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
    },
}

# === operations (issue 37): metrics, the shared cache, throttling, Celery's queues and limits, =====
# === request ids and JSON logs, Sentry. Kept in one block, apart from the authentication settings. ==

# --- metrics (django-prometheus; casino/metrics.py, audit/metrics.py) -------------------------------
# Request counts and latency by view: the Before middleware first, the After one last. The database
# and cache wrappers of django-prometheus are not used: its PostgreSQL engine would replace the
# backend the prepared statements above are configured on.
INSTALLED_APPS += ["django_prometheus"]
MIDDLEWARE = [
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    # A request id for every request, before anything logs (casino/request_id.py).
    "casino.request_id.RequestIdMiddleware",
    *MIDDLEWARE,
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]
# /metrics answers loopback; any other caller needs `Authorization: Bearer <METRICS_TOKEN>` (empty:
# loopback only).
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")

# --- the shared cache: API throttles, the sweep's repair count -----------------------------------
# Production: Redis (CACHE_URL=redis://host:6379/2), shared by every web process and worker. The
# default, memory of each process, counts per process only.
CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}

# --- API throttling (casino/throttling.py) --------------------------------------------------------
# Requests per period (second, minute, hour, day) for each kind of caller; a caller over its budget
# gets 429 with Retry-After. "token": per API token (a device's, a person's); "user": a logged-in
# page's calls, per user; "anon": anonymous calls, per address.
REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] = [
    "casino.throttling.TokenRateThrottle",
    "casino.throttling.SessionUserRateThrottle",
    "casino.throttling.AnonRateThrottle",
]
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {
    "token": env.str("THROTTLE_TOKEN_RATE", default="3000/minute"),
    "user": env.str("THROTTLE_USER_RATE", default="600/minute"),
    "anon": env.str("THROTTLE_ANON_RATE", default="60/minute"),
}
# Proxies in front of the site that append to X-Forwarded-For (0: use REMOTE_ADDR), for "anon".
# One reading of the caller's address for lockouts, the security log and the throttles.
REST_FRAMEWORK["NUM_PROXIES"] = TRUSTED_PROXY_COUNT or None

# --- Celery: queues, routes, time limits, beat's schedule file ---------------------------------------
# Three queues, so that a long report never holds up the audits of the rounds being logged:
# "audit" (each round's audit, audit runs, checkpoints; also the default for anything unrouted),
# "reports" (the nightly verification of the chains, the integrity scan — reports and math),
# "notifications" (short housekeeping and notices). A worker started without -Q serves all three
# (CELERY_TASK_QUEUES); deploy/ runs one worker per queue. A run given its own queue
# (`audit_rounds --queue`) still goes there.
CELERY_QUEUE_NAMES = ["audit", "reports", "notifications"]
CELERY_TASK_DEFAULT_QUEUE = "audit"
CELERY_TASK_QUEUES = {name: {"exchange": name, "routing_key": name} for name in CELERY_QUEUE_NAMES}
CELERY_TASK_ROUTES = {
    "audit.tasks.*": {"queue": "audit"},
    "dealing.tasks.chain_checkpoint": {"queue": "audit"},
    "dealing.tasks.chain_verify": {"queue": "reports"},
    "books.tasks.*": {"queue": "reports"},
    "casino.*": {"queue": "notifications"},
    "notifications.*": {"queue": "notifications"},
    "live.*": {"queue": "reports"},  # the live floor's housekeeping, never ahead of an audit
}
# Every task: a soft limit (SoftTimeLimitExceeded raised in the task, which its transaction rolls
# back) and a hard one (the child process killed). Audit tasks take a second or two; the defaults
# leave room for a slow database. Keep CELERY_VISIBILITY_TIMEOUT above the longest hard limit.
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=300)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=360)
# The tasks that legitimately run long: the nightly verification reads every chain link, the
# integrity scan tests 30 days of a floor, the nightly audit plans everything not audited yet.
_long_soft = env.int("CELERY_LONG_TASK_SOFT_TIME_LIMIT", default=3 * 3600)
CELERY_TASK_ANNOTATIONS = {
    name: {"soft_time_limit": _long_soft, "time_limit": _long_soft + 600}
    for name in ("dealing.tasks.chain_verify", "books.tasks.signals_scan_daily", "audit.tasks.audit_nightly")
}
# Celery beat keeps when each entry last ran in this file (not /tmp, which a reboot empties: every
# schedule would run again at start).
CELERY_BEAT_SCHEDULE_FILENAME = env.str(
    "CELERY_BEAT_SCHEDULE_FILE", default=str(BASE_DIR / "var" / "celerybeat" / "schedule")
)
CELERY_BEAT_SCHEDULER = "casino.celery:Scheduler"

# --- request ids and JSON logs (casino/request_id.py, casino/log_format.py) -----------------------
# LOG_FORMAT=json: one JSON object per line (time, level, logger, message, request_id, exception),
# for a log collector; text (the default): one readable line per record.
LOG_FORMAT = env.str("LOG_FORMAT", default="text")
if LOG_FORMAT not in ("json", "text"):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(f"LOG_FORMAT must be json or text, not {LOG_FORMAT!r}.")
LOGGING["formatters"]["json"] = {"()": "casino.log_format.JsonFormatter"}
LOGGING["formatters"]["plain"]["format"] = "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"
LOGGING["filters"]["request_id"] = {"()": "casino.request_id.RequestIdFilter"}
LOGGING["handlers"]["console"]["formatter"] = "json" if LOG_FORMAT == "json" else "plain"
LOGGING["handlers"]["console"]["filters"] = ["request_id"]
# The id a request gets from a trusted proxy's X-Request-ID (letters, digits, - and _, at most 64),
# else a new one; it is echoed in the response's X-Request-ID.
REQUEST_ID_TRUST_HEADER = env.bool("REQUEST_ID_TRUST_HEADER", default=True)

# --- error tracking (optional): Sentry when SENTRY_DSN is set -----------------------------------------
SENTRY_DSN = env.str("SENTRY_DSN", default="")
if SENTRY_DSN:
    import sentry_sdk

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        environment=env.str("SENTRY_ENVIRONMENT", default="production"),
        traces_sample_rate=env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0),
        # No request bodies, cookies or users' details: rounds and names stay in the casino.
        send_default_pii=False,
    )

# --- e-mail, uploads (MEDIA_ROOT, limits), sign-in backends with OIDC / LDAP when configured: see each module --
globals().update(
    email_settings.email_settings(env, debug=DEBUG)
    | media_settings.media_settings(env, BASE_DIR)
    | sso_settings.sso_settings(env)
)
