"""Staff identity on the server: who must pass a second factor, the gate that holds them until they
do, and the idle timeout of a signed-in session (issue 37, item 7).

The second factor is a TOTP code (django-otp's otp_totp): after the password, a person whose role
is in OTP_REQUIRED_ROLES ("admin" for superusers) enrols an authenticator app once
(casino:otp_enrol, a QR code) and then gives its 6-digit code at every sign-in
(casino:otp_verify). Until then the session reaches only those pages, the QR code, the logout and
the language switcher: every other page redirects there, an API call made with the session is
refused 403. API tokens are issued for such a person only with a code too (POST
/api/v1/auth/token/ with "otp"), so a token call needs no gate; device tokens are issued by an
admin, who passed his own second factor to do so.

After a sign-in through OpenID Connect (casino/sso.py) the second factor is asked as after a
password, unless OIDC_SKIP_OTP says the provider asks its own.
"""

import time
from functools import lru_cache

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, SESSION_KEY, logout
from django.http import JsonResponse
from django.shortcuts import redirect
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from .config import OTP_ADMIN
from .roles import ROLES, has_role
from .sso_settings import OIDC_BACKEND

# The pages a person who still owes the second factor may open (URL names).
OPEN_URL_NAMES = (
    "casino:otp_enrol",
    "casino:otp_qr",
    "casino:otp_verify",
    "login",
    "logout",
    "set_language",
    # Probes and the scraper, which carry no session of a person.
    "healthz",
    "readyz",
    "metrics",
)
# The probes and the scraper: answered without reading a session (tests/casino/test_health_anonymous.py).
PROBES = ("healthz", "readyz", "metrics")
API_PREFIX = "/api/"
# When the session last saw a request (seconds since the epoch), for the idle timeout.
LAST_SEEN = "casino_last_seen"
# The last-seen time is written at most this often, not on every request (the session is saved
# whenever it changes): the timeout is then exact to within this many seconds.
LAST_SEEN_RESOLUTION_S = 60


def second_factor_required(user) -> bool:
    """Whether the user must pass a second factor: one of his roles is in OTP_REQUIRED_ROLES, or he
    is a superuser and "admin" is (a superuser holds every role, so any listed role takes him too)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    wanted = tuple(settings.OTP_REQUIRED_ROLES)
    if not wanted:
        return False
    if OTP_ADMIN in wanted and user.is_superuser:
        return True
    roles = tuple(name for name in wanted if name in ROLES)
    return bool(roles) and has_role(user, *roles)


def second_factor_passed(user, session=None) -> bool:
    """Whether the user may go on: no second factor is required of him, or this session passed it
    (here or, with OIDC_SKIP_OTP, at the OpenID Connect provider that signed it in)."""
    if not second_factor_required(user):
        return True
    if settings.OIDC_SKIP_OTP and session is not None and session.get(BACKEND_SESSION_KEY) == OIDC_BACKEND:
        return True
    is_verified = getattr(user, "is_verified", None)  # set by django-otp's middleware
    return bool(is_verified and is_verified())


def open_paths() -> frozenset[str]:
    return _paths(OPEN_URL_NAMES, *_url_context())


def _url_context() -> tuple:
    # What reverse() answers by: every request of a terminal asks for the same paths, and reversing
    # them each time cost a tenth of a millisecond of CPU per request.
    return get_urlconf() or settings.ROOT_URLCONF, get_script_prefix()


@lru_cache(maxsize=32)
def _paths(names: tuple[str, ...], urlconf, prefix: str) -> frozenset[str]:
    return frozenset(reverse(name, urlconf=urlconf) for name in names)


def second_factor_gate(request):
    """None when the request may go on; else where a person who owes the second factor is sent: the
    verify page (the enrol page when he has no authenticator yet), or 403 on the API."""
    if request.path_info in open_paths():  # first: the health probe must not read the session's user
        return None
    user = request.user
    if not user.is_authenticated or second_factor_passed(user, getattr(request, "session", None)):
        return None
    if request.path_info.startswith(API_PREFIX):
        return JsonResponse(
            {
                "message": _("Sign in with your second factor (an authenticator code) first."),
                "extra": {"code": "second_factor_required"},
            },
            status=403,
        )
    from .selectors import totp_device_confirmed

    target = "casino:otp_verify" if totp_device_confirmed(user=user) is not None else "casino:otp_enrol"
    return redirect(f"{reverse(target)}?{urlencode({'next': request.get_full_path()})}")


def session_idle_check(request) -> bool:
    """Ends a signed-in session idle for longer than SESSION_IDLE_TIMEOUT minutes (sliding: every
    request restarts the clock); True when it did. The request goes on as an anonymous one, so a
    page answers with the login page and an API call with 401/403 as for anyone signed out."""
    minutes = settings.SESSION_IDLE_TIMEOUT
    session = getattr(request, "session", None)
    if not minutes or session is None:
        return False
    if request.path_info in _paths(PROBES, *_url_context()):
        return False  # a probe answers without reading the session (the database may be down)
    if SESSION_KEY not in session:
        return False
    now = int(time.time())
    seen = session.get(LAST_SEEN)
    if isinstance(seen, int) and now - seen > minutes * 60:
        logout(request)
        return True
    if not isinstance(seen, int) or now - seen >= LAST_SEEN_RESOLUTION_S:
        session[LAST_SEEN] = now
    return False
