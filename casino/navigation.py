"""The navigation bar: a registry of entries, each shown only to the roles that may use it.

Apps add their entries once, at start-up (in `AppConfig.ready()`):

    from casino.navigation import NavItem, register
    register(NavItem(_("Rounds"), "dealing:round_list", roles=(DEALER, PIT_BOSS), order=20))

`roles` must match the roles the page's view requires, so the bar never offers a page that
answers 403. An empty `roles` means superusers only.
"""

from dataclasses import dataclass

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _

from .roles import AUDITOR, FLOOR_ROLES, PIT_BOSS, has_role


@dataclass(frozen=True)
class NavItem:
    label: str
    url_name: str
    roles: tuple[str, ...]
    order: int = 100


_registry: dict[str, NavItem] = {}


def register(item: NavItem) -> None:
    """Add an entry, or replace the one with the same url_name (re-registration is harmless)."""
    _registry[item.url_name] = item


def items_for(user) -> list[dict]:
    """The entries a user may follow, in order, as {label, url, url_name}."""
    visible = []
    for item in sorted(_registry.values(), key=lambda i: (i.order, str(i.label))):
        if not has_role(user, *item.roles):
            continue
        try:
            url = reverse(item.url_name)
        except NoReverseMatch:  # an app registered an entry but its URLs are not mounted
            continue
        visible.append({"label": item.label, "url": url, "url_name": item.url_name})
    return visible


register(NavItem(_("Floor"), "casino:floor", roles=FLOOR_ROLES, order=10))
register(NavItem(_("Lockouts"), "casino:lockouts", roles=(PIT_BOSS,), order=90))
register(NavItem(_("Security log"), "casino:security_log", roles=(AUDITOR,), order=91))
register(NavItem(_("Admin"), "admin:index", roles=(), order=1000))
