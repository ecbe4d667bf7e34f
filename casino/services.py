"""Writes of the floor. Every function validates fully before it stores anything."""

from decimal import Decimal

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from .models import Pit, Staff, Table
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
    table = Table(pit=pit, name=name, variant=variant, min_bet=min_bet, max_bet=max_bet, boxes=boxes,
                  chips=chips or [], rules=rules or {}, is_active=is_active)
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


def user_create(*, username: str, password: str, email: str = "", first_name: str = "", last_name: str = "",
                is_superuser: bool = False):
    """A new login. Superusers are also `is_staff`, so they reach the admin site."""
    User = get_user_model()
    user = User(username=username, email=email, first_name=first_name, last_name=last_name,
                is_superuser=is_superuser, is_staff=is_superuser)
    user.set_password(password)
    user.full_clean()
    user.save()
    return user
