"""Roles and pits from a directory's groups: the one mapping both single sign-on backends use
(casino/sso.py: OpenID Connect; casino/ldap_sso.py: LDAP).

The environment maps groups to roles and to pits, for each source in the same syntax:

    OIDC_GROUP_ROLES="casino-pit-bosses=pit_boss,casino-auditors=auditor"
    OIDC_GROUP_PITS="pit-a=Pit A,pit-b=Pit B"
    LDAP_GROUP_ROLES=…  LDAP_GROUP_PITS=…

A group may be named twice (two roles, two pits); group names are compared without case (an LDAP
group's cn is case-insensitive, and a typo of case must not lock a floor out). At every sign-in the
user's roles and pits become exactly what his groups map to: a group left in the directory is a role
lost at the next sign-in. Someone whose groups map to no role is refused, and not created.
"""

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.exceptions import ImproperlyConfigured

from .config import OTP_ADMIN, OTP_ROLE_NAMES

log = logging.getLogger("casino.security")

# casino.roles.ROLES without importing it: this module is read by the settings, before the apps load
# (tests/casino/test_sso.py checks that the two agree).
ROLE_NAMES = tuple(name for name in OTP_ROLE_NAMES if name != OTP_ADMIN)


class DirectoryRefusal(Exception):
    """The directory vouched for the person, and still he is not signed in; the argument is his username."""


class NoMappedGroup(DirectoryRefusal):
    """None of his groups maps to a role here."""


class SuperuserAccount(DirectoryRefusal):
    """His username is a superuser's account, which signs in with its own password only."""


def check_account(user) -> None:
    """SuperuserAccount for a superuser's account: a directory name that happens to match it (OIDC's
    preferred_username is often the person's own to choose) must not make its holder a superuser."""
    if user is not None and user.is_superuser:
        raise SuperuserAccount(user.get_username())


def group_map_from(variable: str, value: str | None, *, roles: bool) -> dict[str, list[str]]:
    """ "group=value,group=value" → {group (casefolded): [values]}; ImproperlyConfigured naming
    `variable` for an entry that is not group=value, or (roles=True) a value that is not a role.

    A list, not a tuple, per group: the settings are read back as JSON by tests and `diffsettings`.
    """
    found: dict[str, list[str]] = {}
    for item in (value or "").split(","):
        if not item.strip():
            continue
        group, sep, target = item.partition("=")
        group, target = group.strip(), target.strip()
        if not sep or not group or not target:
            example = "casino-pit-bosses=pit_boss" if roles else "pit-a=Pit A"
            raise ImproperlyConfigured(
                f'{variable}: "{item.strip()}" is not group=value; write e.g. {variable}="{example}", '
                "entries separated by commas."
            )
        if roles and target not in ROLE_NAMES:
            raise ImproperlyConfigured(
                f'{variable}: "{target}" (for group "{group}") is not a role; choose among {", ".join(ROLE_NAMES)}.'
            )
        targets = found.setdefault(group.casefold(), [])
        if target not in targets:
            targets.append(target)
    return found


@dataclass(frozen=True)
class Assignment:
    """What the directory gives a person here: role names and pit names."""

    roles: frozenset[str]
    pits: frozenset[str]


NOTHING = Assignment(frozenset(), frozenset())


def assignment_from(groups: Iterable[str], *, role_map: dict, pit_map: dict, who: str) -> Assignment:
    """The roles and pits `groups` map to; NoMappedGroup when no role is among them (a pit alone
    gives no right to open a page, so it admits nobody)."""
    names = {str(group).strip().casefold() for group in groups}
    roles = frozenset(role for name in names for role in role_map.get(name, ()))
    pits = frozenset(pit for name in names for pit in pit_map.get(name, ()))
    if not roles:
        raise NoMappedGroup(who)
    return Assignment(roles, pits)


def apply_assignment(user, assignment: Assignment) -> None:
    """Sets the user's roles (the role groups; his other groups are left alone) and his staff
    profile's pits to exactly `assignment`. A pit name that names no pit is logged and skipped: the
    directory may be ahead of the floor's configuration."""
    from django.contrib.auth.models import Group

    from .models import Pit, Staff
    from .roles import CACHE_ATTR, ROLES

    # The role groups come from a migration; get_or_create for the ones given, should one be gone.
    role_groups = {group.name: group for group in Group.objects.filter(name__in=ROLES)}
    role_groups.update({name: Group.objects.get_or_create(name=name)[0] for name in assignment.roles})
    role_groups = list(role_groups.values())
    user.groups.remove(*[group for group in role_groups if group.name not in assignment.roles])
    user.groups.add(*[group for group in role_groups if group.name in assignment.roles])
    pits = list(Pit.objects.filter(name__in=assignment.pits))
    unknown = assignment.pits - {pit.name for pit in pits}
    if unknown:
        log.warning("Directory groups of %s name unknown pit(s): %s", user.get_username(), ", ".join(sorted(unknown)))
    staff, _ = Staff.objects.get_or_create(user=user)
    staff.pits.set(pits)
    # The roles cached on this user object (casino.roles.user_roles) are the old ones.
    if hasattr(user, CACHE_ATTR):
        delattr(user, CACHE_ATTR)


def refuse(request, user, refusal: DirectoryRefusal, *, source: str) -> None:
    """Someone the directory vouched for, not signed in: in no mapped group, an account he already
    has loses its roles and pits (the directory says he holds none now); the login page says why."""
    from django.contrib import messages
    from django.utils.translation import gettext as _

    if isinstance(refusal, NoMappedGroup):
        log.warning("%s sign-in refused: %s is in no group mapped to a role", source, refusal)
        if user is not None:
            apply_assignment(user, NOTHING)
        text = _(
            "Your directory account is in no group that gives a role on this site, so you were not "
            "signed in. Ask an administrator to add you to one."
        )
    else:
        log.warning("%s sign-in refused: %s is a superuser's account", source, refusal)
        text = _("This account signs in with its own password, not through the directory.")
    if request is not None:
        # fail_silently: an API login has no message store, and wants none.
        messages.error(request, text, fail_silently=True)
