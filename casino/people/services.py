"""Writes of the staff page. Each validates everything first and stores all or nothing; each change
goes to the security log (the admin who made it, the person named in the detail) and to the change
history (django-simple-history on users, their groups and their staff profile's pits)."""

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..errors import ServiceError
from ..models import SecurityEvent, Staff
from ..roles import ROLES, has_role
from ..services import security_event_record
from .selectors import ADMIN, person_pits, person_roles


def _admin_only(by) -> None:
    """Only an administrator changes people: the views check it, and so does every write."""
    if not has_role(by):
        raise ServiceError(_("Only an administrator manages staff."), extra={"code": "not_admin"}, status=403)


def _roles_checked(roles) -> list[str]:
    roles = list(dict.fromkeys(roles))
    unknown = sorted(set(roles) - {ADMIN, *ROLES})
    if unknown:
        raise ValidationError({"roles": _("Unknown role: %(roles)s.") % {"roles": ", ".join(unknown)}})
    return roles


def _in_words(roles, pits) -> str:
    """Roles and pits as the security log's detail writes them (English, like every detail)."""
    return f"roles {', '.join(roles) or '-'}; pits {', '.join(p.name for p in pits) or '-'}"


def _store_roles_and_pits(*, person, staff: Staff, roles: list[str], pits) -> None:
    person.groups.set(Group.objects.filter(name__in=[r for r in roles if r != ADMIN]))
    staff.pits.set(pits)


def _new_person(*, username: str, password: str, first_name="", last_name="", email="", badge="", roles=()):
    """The person and his staff profile as they would be stored, his roles, and what is wrong with
    them by field (every mistake at once)."""
    User = get_user_model()
    errors: dict[str, list] = {}
    try:
        roles = _roles_checked(roles)
    except ValidationError as error:
        errors.update(error.message_dict)
        roles = []
    admin = ADMIN in roles
    person = User(
        username=username,
        first_name=first_name,
        last_name=last_name,
        email=email,
        is_superuser=admin,
        is_staff=admin,
    )
    person.set_unusable_password()  # for full_clean; the real one is set when stored
    try:
        person.full_clean()
    except ValidationError as error:
        errors.update(error.message_dict)
    # "Dealer1" beside "dealer1" would be two people the floor cannot tell apart.
    if "username" not in errors and User.objects.filter(username__iexact=username).exists():
        errors["username"] = [_("A person with that username exists already.")]
    try:
        password_validation.validate_password(password, user=person)
    except ValidationError as error:
        errors["password"] = list(error.messages)
    staff = Staff(user=person, badge=badge)
    try:
        staff.full_clean(exclude=["user"])
    except ValidationError as error:
        errors.update(error.message_dict)
    return person, staff, roles, errors


def person_create_problems(**fields) -> dict[str, list[str]]:
    """What `person_create` would refuse in these fields, by field: a form shows them all at once."""
    return _new_person(**fields)[3]


def person_create(
    *,
    by,
    username: str,
    password: str,
    first_name: str = "",
    last_name: str = "",
    email: str = "",
    badge: str = "",
    roles=(),
    pits=(),
    address: str | None = None,
):
    """A new person with his roles (ADMIN: a superuser) and pits. The password must pass
    AUTH_PASSWORD_VALIDATORS; a ValidationError names each wrong field, and nothing is stored."""
    _admin_only(by)
    person, staff, roles, errors = _new_person(
        username=username,
        password=password,
        first_name=first_name,
        last_name=last_name,
        email=email,
        badge=badge,
        roles=roles,
    )
    if errors:
        raise ValidationError(errors)
    pits = list(pits)
    with transaction.atomic():
        person.set_password(password)
        person._history_user = by
        person.save()
        staff.user = person
        staff._history_user = by
        staff.save()
        _store_roles_and_pits(person=person, staff=staff, roles=roles, pits=pits)
        security_event_record(
            kind=SecurityEvent.Kind.STAFF_CREATED,
            user=by,
            address=address,
            detail=f"{person.username}: {_in_words(roles, pits)}",
        )
    return person


def person_update(
    *,
    by,
    person,
    first_name: str,
    last_name: str,
    email: str,
    badge: str,
    roles,
    pits,
    address: str | None = None,
) -> bool:
    """Changes a person's name, e-mail, badge, roles and pits; True when anything changed. An admin
    cannot take his own administrator role away (another admin must): he would lock himself out."""
    _admin_only(by)
    roles = _roles_checked(roles)
    if person.pk == by.pk and ADMIN not in roles:
        raise ValidationError({"roles": _("You cannot remove your own administrator role: ask another administrator.")})
    before_roles, before_pits = person_roles(person), person_pits(person)
    pits = list(pits)
    admin = ADMIN in roles
    details = {"first_name": first_name, "last_name": last_name, "email": email}
    changed_details = [name for name, value in details.items() if getattr(person, name) != value]
    for name, value in details.items():
        setattr(person, name, value)
    admin_changed = ADMIN in set(before_roles) ^ set(roles)
    if admin_changed:  # the admin site is the administrators'
        person.is_superuser = person.is_staff = admin
    person.full_clean(exclude=["username", "password"])
    staff = Staff.objects.filter(user=person).first() or Staff(user=person)
    badge_changed = staff.badge != badge
    staff.badge = badge
    staff.full_clean(exclude=["user"])
    roles_changed = set(before_roles) != set(roles)
    pits_changed = {p.pk for p in before_pits} != {p.pk for p in pits}
    if not (changed_details or badge_changed or roles_changed or pits_changed):
        return False
    with transaction.atomic():
        person._history_user = by
        staff._history_user = by
        if changed_details or admin_changed:
            person.save()
        if badge_changed or staff.pk is None:
            staff.save()
        _store_roles_and_pits(person=person, staff=staff, roles=roles, pits=pits)
        what = []
        if roles_changed:
            what.append(f"roles {', '.join(before_roles) or '-'} -> {', '.join(roles) or '-'}")
        if pits_changed:
            what.append(
                f"pits {', '.join(p.name for p in before_pits) or '-'} -> {', '.join(p.name for p in pits) or '-'}"
            )
        what += changed_details + (["badge"] if badge_changed else [])
        security_event_record(
            kind=SecurityEvent.Kind.STAFF_CHANGED,
            user=by,
            address=address,
            detail=f"{person.username}: {'; '.join(what)}",
        )
    return True


def person_active_set(*, by, person, active: bool, address: str | None = None) -> bool:
    """Deactivates a person (he can no longer sign in, his sessions end, his tokens are revoked:
    casino/security.py) or lets him in again; True when that changed something. A person is never
    deleted: the record chain keeps usernames. An admin cannot deactivate himself."""
    _admin_only(by)
    if person.pk == by.pk and not active:
        raise ServiceError(
            _("You cannot deactivate yourself: ask another administrator."), extra={"code": "self_deactivation"}
        )
    if person.is_active == active:
        return False
    with transaction.atomic():
        person.is_active = active
        person._history_user = by
        person.save(update_fields=["is_active"])
        security_event_record(
            kind=SecurityEvent.Kind.STAFF_REACTIVATED if active else SecurityEvent.Kind.STAFF_DEACTIVATED,
            user=by,
            address=address,
            detail=person.username,
        )
    return True


def person_second_factor_reset(*, by, person, address: str | None = None) -> int:
    """Removes every authenticator of the person (a lost phone): at his next sign-in, or his next
    page, he enrols a new one. How many were removed."""
    from django_otp import devices_for_user

    _admin_only(by)
    with transaction.atomic():
        devices = list(devices_for_user(person, confirmed=None))
        for device in devices:
            device.delete()
        security_event_record(
            kind=SecurityEvent.Kind.SECOND_FACTOR_RESET,
            user=by,
            address=address,
            detail=f"{person.username}: {len(devices)} device(s) removed",
        )
    return len(devices)
