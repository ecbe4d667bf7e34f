"""Settings for the test suite: the real settings (casino/settings.py), read from the same
environment, with the few changes a test run needs.

DEBUG stays off, as in production. DATABASE_URL and CELERY_BROKER_URL are honoured, so the same
suite runs embedded (SQLite, eager) or against PostgreSQL and Redis (.ci/run).
"""

import os

# A run without SECRET_KEY would stop at start-up (DEBUG is off); tests need no real secret.
os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-not-for-any-deployment-7d1e5b2a9c")
# The same for the chain's key: a fixed one, known to the tests (tests/dealing/test_chain.py).
os.environ.setdefault("CHAIN_KEY", "tests-only-chain-key-not-for-any-deployment-5c0d9e7a31")

from casino.settings import *  # noqa: E402,F401,F403

# The suite signs users in with force_login, which passes no second factor: none is required here.
# tests/casino/test_second_factor.py turns it on for the roles the production default names.
OTP_REQUIRED_ROLES = ()

# The test server speaks plain HTTP: no redirect to HTTPS, cookies sent without TLS.
SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
# {% static %} without a collectstatic manifest (tests never run collectstatic).
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Hashing a password properly takes a noticeable fraction of a second; tests create many users.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Serve static files from the apps' folders, as `runserver` does (no STATIC_ROOT in tests).
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# Checkpoints go to a directory of this run's own, signed with a key generated there.
import tempfile  # noqa: E402

CHECKPOINT_DIR = Path(tempfile.mkdtemp(prefix="casino-checkpoints-"))  # noqa: F405
CHECKPOINT_DEV_KEY = True
# The demo floor's weeks (books/demo.py) stay out of the suite's demo loads; tests/books/test_demo.py
# sets a tiny floor of its own.
DEMO_FLOOR_DAYS = 0
# No throttling by accident: the suite makes many calls from one address and user; the rates are
# read at each request, so tests/casino/test_throttling.py sets tiny ones where it proves the 429.
REST_FRAMEWORK = {  # noqa: F405
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {"token": None, "user": None, "anon": None},
}
