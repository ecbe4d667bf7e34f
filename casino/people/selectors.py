"""Reads of the staff page: the people, a page at a time, with their roles, pits and second factor."""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db.models import Exists, OuterRef, Prefetch, Q
from django.utils.translation import gettext_lazy as _

from ..config import OTP_ADMIN
from ..models import Pit, Staff
from ..roles import ROLE_LABELS, ROLES

# The administrator's role: a superuser, who holds no group (the name OTP_REQUIRED_ROLES gives him).
ADMIN = OTP_ADMIN
ROLE_CHOICES = [(ADMIN, _("Administrator")), *ROLE_LABELS.items()]
PAGE = 50


@dataclass
class PeoplePage:
    people: list
    newer: str = ""  # `?before=` for the page before (by username); empty on the first page
    older: str = ""  # `?after=` for the page after; empty on the last page


def person_roles(person) -> list[str]:
    """The role names a person holds, the administrator's first (from the groups prefetched by
    `person_list`, else read)."""
    groups = getattr(person, "role_groups", None)
    names = (
        [g.name for g in groups]
        if groups is not None
        else list(person.groups.filter(name__in=ROLES).values_list("name", flat=True))
    )
    held = [role for role in ROLES if role in names]
    return [ADMIN, *held] if person.is_superuser else held


def person_pits(person) -> list[Pit]:
    """The pits in a person's staff profile (none without a profile)."""
    try:
        staff = person.staff
    except Staff.DoesNotExist:
        return []
    return list(staff.pits.all())


def person_badge(person) -> str:
    try:
        return person.staff.badge
    except Staff.DoesNotExist:
        return ""


def _filtered(filters: dict):
    from django_otp.plugins.otp_totp.models import TOTPDevice

    people = get_user_model().objects.all()
    if filters.get("q"):
        words = filters["q"]
        people = people.filter(
            Q(username__icontains=words) | Q(first_name__icontains=words) | Q(last_name__icontains=words)
        )
    role = filters.get("role")
    if role == ADMIN:
        people = people.filter(is_superuser=True)
    elif role:
        # One row per person: a group's name is unique, a pit's membership too.
        people = people.filter(groups__name=role)
    if filters.get("pit"):
        people = people.filter(staff__pits=filters["pit"])
    if filters.get("active") == "yes":
        people = people.filter(is_active=True)
    elif filters.get("active") == "no":
        people = people.filter(is_active=False)
    return people.annotate(
        second_factor=Exists(TOTPDevice.objects.filter(user=OuterRef("pk"), confirmed=True))
    ).select_related("staff")


def person_list(
    *, filters: dict | None = None, after: str = "", before: str = "", size: int | None = None
) -> PeoplePage:
    """The people the filters select (q: part of a username or name; role, incl. ADMIN; pit; active:
    "yes" / "no"), `size` of them by username from a key: after `after`, or the page before
    `before` (`size`: PAGE). Cut at a username, never an OFFSET or a count: a page costs what the first costs."""
    size = size or PAGE
    people = _filtered(filters or {})
    if before:
        rows = list(people.filter(username__lt=before).order_by("-username")[: size + 1])
        more_before, rows = len(rows) > size, rows[:size][::-1]
        more_after = bool(rows)  # `before` itself is after them
    else:
        page = people.filter(username__gt=after) if after else people
        rows = list(page.order_by("username")[: size + 1])
        more_after, rows = len(rows) > size, rows[:size]
        more_before = bool(after) and bool(rows) and people.filter(username__lt=rows[0].username).exists()
    rows = _with_roles_and_pits(rows)
    return PeoplePage(
        people=rows,
        newer=rows[0].username if rows and more_before else "",
        older=rows[-1].username if rows and more_after else "",
    )


def _with_roles_and_pits(rows: list) -> list:
    from django.db.models import prefetch_related_objects

    prefetch_related_objects(
        rows,
        Prefetch("groups", queryset=Group.objects.filter(name__in=ROLES), to_attr="role_groups"),
        "staff__pits",
    )
    for person in rows:
        person.roles = person_roles(person)
        person.pits = person_pits(person)
    return rows


def person_get(*, pk: int):
    """The person with this id, with his staff profile; None when there is none."""
    return get_user_model().objects.select_related("staff").filter(pk=pk).first()


def second_factor_enrolled(*, person) -> bool:
    from django_otp.plugins.otp_totp.models import TOTPDevice

    return TOTPDevice.objects.filter(user=person, confirmed=True).exists()
