"""The security log's sources and the lockout answer (issue 18).

What goes into the log (`SecurityEvent`, written by `services.security_event_record`):
logins, logouts and failed logins (Django's auth signals), lockouts (axes' `user_locked_out`),
tokens issued and revoked (the token services), unlocks, and refusals (every 403 answer:
`casino.middleware.SecurityRefusalMiddleware`). A lockout also writes a warning line on the
`casino.security` logger, beside axes' own "AXES: Locked out" line.

People's tokens end with a password change and with deactivation: `User` saves are watched here,
so the admin, `set_password` + `save()`, and any service all revoke them.

What axes counts and locks (issue #36, item 7): the caller's address read behind
TRUSTED_PROXY_COUNT proxies (`client_ip`), the username cut to the longest a username can be
(`lockout_username`), and LOGIN_LOCKOUT_BY but for a pit boss or an admin, whom an address never
locks out (`lockout_parameters`). A try during a lockout is not counted
(AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT off), so retrying does not extend it.
"""

import ipaddress
import logging

from axes.helpers import get_cool_off
from axes.models import AccessBase
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.db.models import Q
from django.db.models.signals import post_save, pre_save
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .middleware import API_PREFIX

log = logging.getLogger("casino.security")

_PREVIOUS = "_casino_security_previous"
# No username is longer (User.username, SecurityEvent.username): a longer one typed at a login is
# recorded cut to it, by axes (whose column would refuse more than 255: a 500) and by the log.
USERNAME_MAX = 150


def lockout_username(request, credentials=None) -> str | None:
    """AXES_USERNAME_CALLABLE: the username a failed login counts against, read as axes reads it
    (the credentials given to authenticate, else the request's data), cut to USERNAME_MAX."""
    if credentials:
        username = credentials.get(settings.AXES_USERNAME_FORM_FIELD)
    else:
        username = getattr(request, "data", request.POST).get(settings.AXES_USERNAME_FORM_FIELD)
    return username[:USERNAME_MAX] if isinstance(username, str) else username


def client_ip(request) -> str | None:
    """AXES_CLIENT_IP_CALLABLE: the caller's address, behind TRUSTED_PROXY_COUNT reverse proxies.

    Each proxy in front of the site appends the address it received the request from to
    X-Forwarded-For, so with N of them the caller is the N-th address from the right: what the
    outermost proxy saw. Everything left of it was written by the caller and proves nothing. With
    no proxy (0, the default) the caller is REMOTE_ADDR, and X-Forwarded-For is not read at all; a
    header with fewer addresses than proxies (a request that did not come through all of them), or
    an address that is no address, leaves REMOTE_ADDR too."""
    remote = request.META.get("REMOTE_ADDR")
    count = settings.TRUSTED_PROXY_COUNT
    if count <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    if len(forwarded) < count:
        return remote
    try:
        return str(ipaddress.ip_address(forwarded[-count]))
    except ValueError:
        return remote


def client_address(request) -> str | None:
    """The caller's address as axes sees it (`client_ip`: behind the trusted proxies)."""
    if request is None:
        return None
    request = getattr(request, "_request", request)  # DRF's Request wraps Django's
    return getattr(request, "axes_ip_address", None) or client_ip(request)


def may_unlock(username: str | None) -> bool:
    """Whether `username` is an active pit boss or admin: someone who lifts lockouts."""
    from .roles import PIT_BOSS

    if not username:
        return False
    users = get_user_model().objects.filter(username=username, is_active=True)
    return users.filter(Q(is_superuser=True) | Q(groups__name=PIT_BOSS)).exists()


def lockout_parameters(request_or_attempt, credentials=None) -> list:
    """AXES_LOCKOUT_PARAMETERS: what failed logins lock (LOGIN_LOCKOUT_BY) — but an address never
    locks out a pit boss or an admin. Five failures of others at the floor's one address would
    otherwise lock out the very person who lifts lockouts (and the pit boss at that address could
    not reach the unlock page). His own username still locks after failures of its own; then
    another pit boss or an admin unlocks him (/security/lockouts/), or `manage.py
    axes_reset_username <name>` (README, "Lockouts")."""
    configured = settings.LOGIN_LOCKOUT_BY
    if "ip_address" not in configured:
        return configured
    if isinstance(request_or_attempt, AccessBase):
        username = request_or_attempt.username
    else:
        username = lockout_username(request_or_attempt, credentials)
    cache = getattr(request_or_attempt, "_casino_may_unlock", None)
    if cache is None:
        cache = {}
        request_or_attempt._casino_may_unlock = cache
    if username not in cache:
        cache[username] = may_unlock(username)
    if not cache[username]:
        return configured
    return [parameter for parameter in configured if parameter != "ip_address"]


def _minutes(request) -> int:
    cool_off = get_cool_off(request)
    return max(1, round(cool_off.total_seconds() / 60)) if cool_off else 0


def lockout_response(request, original_response=None, credentials=None):
    """AXES_LOCKOUT_CALLABLE: a locked-out login is answered 429 — on the API in its one error
    shape with Retry-After, on the login page with a page that says so."""
    minutes = _minutes(request)
    message = ngettext(
        "Too many failed logins. Try again in %(minutes)d minute, or ask a pit boss to unlock the account.",
        "Too many failed logins. Try again in %(minutes)d minutes, or ask a pit boss to unlock the account.",
        minutes,
    ) % {"minutes": minutes}
    if request.path_info.startswith(API_PREFIX):
        response = JsonResponse(
            {"message": message, "extra": {"code": "locked_out", "retry_after": minutes * 60}}, status=429
        )
    else:
        response = render(request, "registration/locked_out.html", {"message": message}, status=429)
    if minutes:
        response["Retry-After"] = str(minutes * 60)
    return response


# --- receivers, connected in CasinoConfig.ready ----------------------------------------------


def on_logged_in(sender, request, user, **kwargs):
    from .models import SecurityEvent
    from .services import security_event_record

    security_event_record(kind=SecurityEvent.Kind.LOGIN, user=user, address=client_address(request))


def on_logged_out(sender, request, user, **kwargs):
    from .models import SecurityEvent
    from .services import security_event_record

    if user is not None:
        security_event_record(kind=SecurityEvent.Kind.LOGOUT, user=user, address=client_address(request))


def on_login_failed(sender, credentials, request=None, **kwargs):
    from .models import SecurityEvent
    from .services import security_event_record

    django_request = getattr(request, "_request", request)
    # Refused during a lockout, not counted (the failure that locks has its count: it was checked).
    locked = bool(getattr(django_request, "axes_locked_out", False)) and (
        getattr(django_request, "axes_failures_since_start", None) is None
    )
    security_event_record(
        kind=SecurityEvent.Kind.LOGIN_FAILED,
        username=str(credentials.get("username") or "")[:USERNAME_MAX],
        address=client_address(request),
        detail=_("refused: locked out") if locked else "",
    )


def on_locked_out(sender, request, username, ip_address, **kwargs):
    from .models import SecurityEvent
    from .services import security_event_record

    if getattr(request, "axes_failures_since_start", None) is None:
        # A login refused during a lockout (axes says so again, without counting it: the cool-off
        # is not extended). Its failed login is in the log; the lockout was logged when it began.
        return
    log.warning("Locked out: username %r from %s after too many failed logins", username, ip_address)
    security_event_record(
        kind=SecurityEvent.Kind.LOCKOUT,
        username=str(username or ""),
        address=ip_address,
        detail=f"locked out for {_minutes(request)} min",
    )


def remember_credentials(sender, instance, raw=False, update_fields=None, **kwargs):
    """Before a user is saved: his stored password and active flag, to see after the save whether
    either changed (one read, only for a user that exists and a save that may change them — not
    the `last_login` update of every login)."""
    if raw or instance.pk is None:
        return
    if update_fields is not None and not {"password", "is_active"} & set(update_fields):
        return
    previous = type(instance).objects.filter(pk=instance.pk).values("password", "is_active").first()
    setattr(instance, _PREVIOUS, previous)


def revoke_on_credentials_change(sender, instance, created=False, raw=False, **kwargs):
    from .services import tokens_revoke_all

    previous = instance.__dict__.pop(_PREVIOUS, None)
    if raw or created or previous is None:
        return
    if previous["is_active"] and not instance.is_active:
        tokens_revoke_all(user=instance, reason="deactivated", devices=True)
    elif previous["password"] != instance.password:
        tokens_revoke_all(user=instance, reason="password changed")


def connect() -> None:
    from axes.signals import user_locked_out

    user_logged_in.connect(on_logged_in, dispatch_uid="casino.security.logged_in")
    user_logged_out.connect(on_logged_out, dispatch_uid="casino.security.logged_out")
    user_login_failed.connect(on_login_failed, dispatch_uid="casino.security.login_failed")
    user_locked_out.connect(on_locked_out, dispatch_uid="casino.security.locked_out")
    user = get_user_model()
    pre_save.connect(remember_credentials, sender=user, dispatch_uid="casino.security.remember")
    post_save.connect(revoke_on_credentials_change, sender=user, dispatch_uid="casino.security.revoke")
