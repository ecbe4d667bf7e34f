"""The security log's sources and the lockout answer (issue 18).

What goes into the log (`SecurityEvent`, written by `services.security_event_record`):
logins, logouts and failed logins (Django's auth signals), lockouts (axes' `user_locked_out`),
tokens issued and revoked (the token services), unlocks, and refusals (every 403 answer:
`casino.middleware.SecurityRefusalMiddleware`). A lockout also writes a warning line on the
`casino.security` logger, beside axes' own "AXES: Locked out" line.

People's tokens end with a password change and with deactivation: `User` saves are watched here,
so the admin, `set_password` + `save()`, and any service all revoke them.
"""

import logging

from axes.helpers import get_cool_off
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
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


def client_address(request) -> str | None:
    """The caller's address as axes sees it (REMOTE_ADDR unless axes is told of a proxy)."""
    if request is None:
        return None
    request = getattr(request, "_request", request)  # DRF's Request wraps Django's
    return getattr(request, "axes_ip_address", None) or request.META.get("REMOTE_ADDR")


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

    locked = bool(getattr(getattr(request, "_request", request), "axes_locked_out", False))
    security_event_record(
        kind=SecurityEvent.Kind.LOGIN_FAILED,
        username=str(credentials.get("username") or "")[:USERNAME_MAX],
        address=client_address(request),
        detail=_("refused: locked out") if locked else "",
    )


def on_locked_out(sender, request, username, ip_address, **kwargs):
    from .models import SecurityEvent
    from .services import security_event_record

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
