"""Writes of the floor. Every function validates fully before it stores anything."""

import ipaddress
import math
from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from knox.models import AuthToken

from .errors import ServiceError
from .models import DeviceToken, Pit, SecurityEvent, Staff, Table
from .roles import check_known


def pit_create(*, name: str, description: str = "") -> Pit:
    pit = Pit(name=name, description=description)
    pit.full_clean()
    pit.save()
    return pit


def table_create(
    *,
    pit: Pit,
    name: str,
    variant: str,
    min_bet: Decimal,
    max_bet: Decimal,
    boxes: int,
    chips: list | None = None,
    rules: dict | None = None,
    is_active: bool = True,
) -> Table:
    """A new table; raises ValidationError (nothing stored) when a field or house rule is wrong."""
    table = Table(
        pit=pit,
        name=name,
        variant=variant,
        min_bet=min_bet,
        max_bet=max_bet,
        boxes=boxes,
        chips=chips or [],
        rules=rules or {},
        is_active=is_active,
    )
    table.full_clean()
    table.save()
    return table


@transaction.atomic
def staff_enrol(*, user, roles: tuple[str, ...] = (), pits=(), badge: str = "") -> Staff:
    """Give a user a staff profile (or update it): add roles (groups) and pits, set the badge."""
    check_known(roles)
    staff, _created = Staff.objects.get_or_create(user=user)
    if badge and staff.badge != badge:
        staff.badge = badge
        staff.full_clean()
        staff.save(update_fields=["badge"])
    if pits:
        staff.pits.add(*pits)
    if roles:
        user.groups.add(*Group.objects.filter(name__in=roles))
    return staff


def user_create(
    *,
    username: str,
    password: str,
    email: str = "",
    first_name: str = "",
    last_name: str = "",
    is_superuser: bool = False,
):
    """A new login. Superusers are also `is_staff`, so they reach the admin site."""
    User = get_user_model()
    user = User(
        username=username,
        email=email,
        first_name=first_name,
        last_name=last_name,
        is_superuser=is_superuser,
        is_staff=is_superuser,
    )
    user.set_password(password)
    user.full_clean()
    user.save()
    return user


# --- the security log, tokens and lockouts (issue 18) ----------------------------------------


def security_event_record(
    *, kind: str, user=None, username: str = "", address: str | None = None, detail: str = ""
) -> SecurityEvent:
    """Appends one line to the security log. `username` defaults to the user's; an address that is
    not an IP address (a test client's "testserver", a proxy's garbage) is left out."""
    if user is not None and not getattr(user, "is_authenticated", False):
        user = None
    if not username and user is not None:
        username = user.get_username()
    try:
        address = str(ipaddress.ip_address(address)) if address else None
    except ValueError:
        address = None
    return SecurityEvent.objects.create(
        kind=kind, user=user, username=username[:150], address=address, detail=detail[:500]
    )


def token_issue(*, user, address: str | None = None) -> tuple[AuthToken, str]:
    """A new person's API token (knox: expires after REST_KNOX["TOKEN_TTL"]) and its key, which is
    shown once (only its digest is stored)."""
    token, key = AuthToken.objects.create(user=user)
    security_event_record(kind=SecurityEvent.Kind.TOKEN_ISSUED, user=user, address=address, detail="person")
    return token, key


def token_revoke(*, token, address: str | None = None, detail: str = "logout") -> None:
    """Revokes one token (logout of that token)."""
    user = token.user
    AuthToken.objects.filter(pk=token.pk).delete()
    security_event_record(kind=SecurityEvent.Kind.TOKEN_REVOKED, user=user, address=address, detail=detail)


def tokens_revoke_all(
    *, user, address: str | None = None, reason: str = "logout of all tokens", devices: bool = False
) -> int:
    """Revokes every person's token of the user (with `devices`, his device tokens too); how many."""
    tokens = AuthToken.objects.filter(user=user)
    if not devices:
        tokens = tokens.filter(device__isnull=True)
    else:
        DeviceToken.objects.filter(user=user, revoked_at=None).update(revoked_at=timezone.now())
    _total, by_model = tokens.delete()
    count = by_model.get(AuthToken._meta.label, 0)
    if count:
        security_event_record(
            kind=SecurityEvent.Kind.TOKEN_REVOKED, user=user, address=address, detail=f"{reason}: {count} token(s)"
        )
    return count


def device_token_issue(*, name: str, user, issued_by=None) -> tuple[DeviceToken, str]:
    """A named token for a machine, acting as `user`; no expiry unless DEVICE_TOKEN_TTL_DAYS is set.
    Returns the record and the key (shown once: only its digest is stored)."""
    days = settings.DEVICE_TOKEN_TTL_DAYS
    with transaction.atomic():
        token, key = AuthToken.objects.create(user=user, expiry=timedelta(days=days) if days else None)
        device = DeviceToken.objects.create(name=name, token=token, user=user, issued_by=issued_by)
        security_event_record(
            kind=SecurityEvent.Kind.TOKEN_ISSUED,
            user=issued_by,
            detail=f"device {name!r} acting as {user.get_username()}",
        )
    return device, key


def device_token_revoke(*, device: DeviceToken, revoked_by=None) -> None:
    with transaction.atomic():
        if device.token_id is not None:
            AuthToken.objects.filter(pk=device.token_id).delete()
        device.token = None
        device.revoked_at = device.revoked_at or timezone.now()
        device.save(update_fields=["token", "revoked_at"])
        security_event_record(kind=SecurityEvent.Kind.TOKEN_REVOKED, user=revoked_by, detail=f"device {device.name!r}")


def lockout_unlock(*, by, username: str, address: str | None = None) -> None:
    """Lifts the lockout of a username. A pit boss may unlock the staff of his pits (selectors.
    locked_out_usernames says whom); an admin anyone (or by address, in axes' admin pages)."""
    from axes.utils import reset

    from .selectors import locked_out_usernames

    if username not in locked_out_usernames(user=by):
        raise ServiceError(
            _("%(username)s is not locked out, or not on your staff.") % {"username": username},
            extra={"code": "not_locked_out"},
            status=404,
        )
    reset(username=username)
    security_event_record(kind=SecurityEvent.Kind.UNLOCK, user=by, address=address, detail=f"unlocked {username}")


def tokens_purge_expired() -> int:
    """Deletes every expired token (people's and devices'); a device keeps its record, no longer live."""
    _total, by_model = AuthToken.objects.filter(expiry__lt=timezone.now()).delete()
    return by_model.get(AuthToken._meta.label, 0)


# --- the second factor (issue 37, item 7) ----------------------------------------------------

TOTP_DEVICE_NAME = "authenticator"


def totp_device_start(*, user):
    """The authenticator the user is enrolling: a new secret, or the one already shown to him (a
    reload keeps the QR code he may have scanned). Refused once he has one: its secret is never
    shown again (a lost phone: an admin resets it on the staff page, casino/people)."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from .selectors import totp_device_confirmed, totp_device_pending

    if totp_device_confirmed(user=user) is not None:
        raise ServiceError(_("You already have an authenticator."), extra={"code": "already_enrolled"}, status=409)
    return totp_device_pending(user=user) or TOTPDevice.objects.create(
        user=user, name=TOTP_DEVICE_NAME, confirmed=False
    )


def totp_device_create(*, user, key: str):
    """An enrolled authenticator with a secret given in hex (the demo floor's known one)."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    return TOTPDevice.objects.create(user=user, name=TOTP_DEVICE_NAME, key=key, confirmed=True)


def _code_checked(code) -> str:
    code = "".join(str(code or "").split())  # "123 456" as apps show it
    if not code:
        raise ServiceError(_("Enter the 6-digit code your authenticator app shows."), extra={"code": "otp_required"})
    if len(code) != 6 or not code.isascii() or not code.isdigit():
        raise ServiceError(_("The code is the 6 digits your authenticator app shows."), extra={"code": "bad_otp"})
    return code


def _code_verified(*, device, user, code: str, address: str | None) -> None:
    """Checks the code against the device; a refusal says why and goes to the security log. django-otp
    counts the failures on the device and makes each next try wait twice as long."""
    allowed, detail = device.verify_is_allowed()
    if not allowed:
        until = (detail or {}).get("locked_until") or timezone.now()
        wait = math.ceil((until - timezone.now()).total_seconds())
        security_event_record(
            kind=SecurityEvent.Kind.SECOND_FACTOR_FAILED, user=user, address=address, detail="throttled"
        )
        raise ServiceError(
            _("Too many wrong codes. Try again in %(seconds)d s.") % {"seconds": max(1, wait)},
            extra={"code": "otp_throttled", "retry_after": max(1, wait)},
            status=429,
        )
    if not device.verify_token(code):
        security_event_record(
            kind=SecurityEvent.Kind.SECOND_FACTOR_FAILED, user=user, address=address, detail="wrong code"
        )
        raise ServiceError(
            _("That code is not right (or was used already). Enter the code your authenticator shows now."),
            extra={"code": "bad_otp"},
        )


def totp_enrol_confirm(*, user, code, address: str | None = None):
    """Confirms the authenticator being enrolled with a code it shows; returns the device."""
    from .selectors import totp_device_pending

    code = _code_checked(code)
    device = totp_device_pending(user=user)
    if device is None:
        raise ServiceError(
            _("Start the enrolment again: no authenticator is waiting to be confirmed."),
            extra={"code": "not_enrolling"},
        )
    _code_verified(device=device, user=user, code=code, address=address)
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    security_event_record(kind=SecurityEvent.Kind.SECOND_FACTOR_ENROLLED, user=user, address=address)
    return device


def second_factor_check(*, user, code, address: str | None = None):
    """The user's authenticator when `code` is its current code (each code is taken once); else a
    ServiceError saying why (no code, not six digits, none enrolled, wrong, too many wrong)."""
    from .selectors import totp_device_confirmed

    device = totp_device_confirmed(user=user)
    if device is None:
        raise ServiceError(
            _("You have no authenticator yet. Sign in on the web page and enrol one first."),
            extra={"code": "otp_not_enrolled"},
        )
    code = _code_checked(code)
    _code_verified(device=device, user=user, code=code, address=address)
    security_event_record(kind=SecurityEvent.Kind.SECOND_FACTOR, user=user, address=address)
    return device
