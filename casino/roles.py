"""Roles and the one permission mechanism every page and endpoint uses.

A role is a Django group of the same name (created by migration 0002). Superusers hold every
role. Which pits a user works in comes from the `Staff` profile; auditors read every pit.

    has_role(user, DEALER, PIT_BOSS)        # any of these roles (superuser: always)
    user_pits(user)                         # Pit queryset the user may see

    @role_required(DEALER)                  # function views
    class View(RoleRequiredMixin, ...):     # class-based views
        roles = (DEALER,)
    permission_classes = [HasRole(PIT_BOSS)]  # DRF endpoints

For a page: anonymous → redirect to the login page; logged in without the role → 403.
For the API: anonymous → 401; logged in without the role → 403.
"""

import functools
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import BasePermission

DEALER = "dealer"
INSPECTOR = "inspector"
PIT_BOSS = "pit_boss"
AUDITOR = "auditor"
TRAINEE = "trainee"

ROLES = (DEALER, INSPECTOR, PIT_BOSS, AUDITOR, TRAINEE)
# The floor is for the staff who work it; trainees see only their drills (SPEC).
FLOOR_ROLES = (DEALER, INSPECTOR, PIT_BOSS, AUDITOR)
ROLE_LABELS = {
    DEALER: _("Dealer"),
    INSPECTOR: _("Inspector"),
    PIT_BOSS: _("Pit boss"),
    AUDITOR: _("Auditor"),
    TRAINEE: _("Trainee"),
}
# Compliance reads everything (SPEC: "auditors read everything and write only reviews").
SEES_EVERY_PIT = (AUDITOR,)

CACHE_ATTR = "_casino_role_names"


def check_known(roles) -> None:
    """ValueError for a misspelt role: a typo must not quietly lock everyone out of a page."""
    unknown = set(roles) - set(ROLES)
    if unknown:
        raise ValueError(f"unknown role(s): {', '.join(sorted(unknown))}")


def user_roles(user) -> frozenset[str]:
    """The role names a user holds (for a superuser: every role). Cached on the user object."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return frozenset()
    if user.is_superuser:
        return frozenset(ROLES)
    names = getattr(user, CACHE_ATTR, None)
    if names is None:
        names = frozenset(_role_names(user.pk))
        setattr(user, CACHE_ATTR, names)
    return names


def _role_names(user_id) -> list[str]:
    """`user.groups.filter(name__in=ROLES).values_list("name", flat=True)` in SQL of its own: every
    signed-in page and terminal entry asks once, and the ORM's building of the query cost several
    times the query's own CPU."""
    with connection.cursor() as cursor:
        cursor.execute(_role_names_sql(), [user_id, *ROLES])
        return [name for (name,) in cursor.fetchall()]


@functools.cache
def _role_names_sql() -> str:
    from django.contrib.auth import get_user_model

    groups = get_user_model()._meta.get_field("groups")
    group_model, user_groups = groups.related_model, groups.remote_field.through
    q = connection.ops.quote_name
    name = q(group_model._meta.get_field("name").column)
    return (
        f"SELECT g.{name} FROM {q(group_model._meta.db_table)} g JOIN {q(user_groups._meta.db_table)} ug "
        f"ON ug.{q(groups.m2m_reverse_name())} = g.{q(group_model._meta.pk.column)} "
        f"WHERE ug.{q(groups.m2m_column_name())} = %s AND g.{name} IN ({', '.join(['%s'] * len(ROLES))})"
    )


def has_role(user, *roles: str) -> bool:
    """True when the user holds any of `roles`; a superuser always does.

    With no roles given only a superuser passes, which is how superuser-only pages are declared.
    """
    check_known(roles)
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return not user_roles(user).isdisjoint(roles)


def user_pits(user) -> QuerySet:
    """The pits a user works in: their staff profile's pits; every pit for superusers and auditors."""
    from .models import Pit

    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return Pit.objects.none()
    if user.is_superuser or has_role(user, *SEES_EVERY_PIT):
        return Pit.objects.all()
    return Pit.objects.filter(staff_members__user=user)


def check_role(request, roles: tuple[str, ...]):
    """None when the request may proceed; otherwise the login redirect (anonymous) or 403."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not has_role(request.user, *roles):
        raise PermissionDenied(_("Your role does not give access to this page."))
    return None


def role_required(*roles: str, methods: dict[str, tuple[str, ...]] | None = None):
    """Decorator for function views: login required, then any of `roles` (superuser always).

    `methods={"POST": (AUDITOR,)}` admits fewer roles to a method (a page everyone reads and a few
    write to). Both are kept on the view (`roles`, `method_roles`): the URL × role walk
    (tests/casino/test_url_roles.py) reads them as the view's declaration.
    """
    check_known(roles)
    methods = dict(methods or {})
    for narrower in methods.values():
        check_known(narrower)

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            refused = check_role(request, methods.get(request.method, roles))
            if refused is not None:
                return refused
            return view(request, *args, **kwargs)

        wrapped.roles = roles
        wrapped.method_roles = methods
        return wrapped

    return decorator


class RoleRequiredMixin:
    """Mixin for class-based views: set `roles`; login required, then any of them."""

    roles: tuple[str, ...] = ()

    def dispatch(self, request, *args, **kwargs):
        refused = check_role(request, tuple(self.roles))
        if refused is not None:
            return refused
        return super().dispatch(request, *args, **kwargs)


def HasRole(*roles: str) -> type[BasePermission]:  # noqa: N802 - used like a class
    """A DRF permission class admitting authenticated users with any of `roles`."""
    check_known(roles)

    class _HasRole(BasePermission):
        message = _("Your role does not give access to this endpoint.")

        def has_permission(self, request, view):
            return has_role(request.user, *roles)

    _HasRole.__name__ = _HasRole.__qualname__ = f"HasRole({', '.join(roles)})"
    _HasRole.roles = roles
    return _HasRole


# Any staff role at all: for endpoints every role may read (API schema and docs).
HasAnyRole = HasRole(*ROLES)
