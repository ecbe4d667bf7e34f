"""The navigation bar: a registry of entries, each shown only to the roles that may use it.

Apps add their entries once, at start-up (in `AppConfig.ready()`):

    from casino.navigation import NavItem, register
    register(NavItem(_("Rounds"), "dealing:round_list", roles=(DEALER, PIT_BOSS), order=20))

`roles` must match the roles the page's view requires, so the bar never offers a page that
answers 403. An empty `roles` means superusers only. `group` puts the entry in one of the bar's
menus (GROUPS: Pit, Audit, Training, More) rather than on the bar itself, so the bar fits one line
at 1366 px whoever is logged in; a menu that would hold one entry only is shown as that entry.
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
    group: str = ""


# The bar's menus, in the order shown, after the plain entries.
GROUPS: dict[str, str] = {"pit": _("Pit"), "audit": _("Audit"), "training": _("Training"), "more": _("More")}

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
        visible.append({"label": item.label, "url": url, "url_name": item.url_name, "group": item.group})
    return visible


def menu_for(items: list[dict], current: str | None = None) -> list[dict]:
    """The bar as drawn: `items` (from items_for) with those of a group gathered into one menu
    {"label", "entries", "active", "key"} after the plain entries, in GROUPS' order; a group of one entry
    is that entry. `current` is the view name of the page shown (its entry and menu are marked active)."""
    menus: dict[str, dict] = {}
    bar: list[dict] = []
    for item in items:
        entry = dict(item, active=item["url_name"] == current)
        group = item.get("group") or ""
        if not group:
            bar.append(entry)
            continue
        menu = menus.get(group)
        if menu is None:
            menu = menus[group] = {"label": GROUPS.get(group, group), "entries": [], "active": False, "key": group}
            bar.append(menu)
        menu["entries"].append(entry)
        menu["active"] = menu["active"] or entry["active"]
    # The plain entries first, then the menus in GROUPS' order.
    order = list(GROUPS)
    bar.sort(
        key=lambda m: (1, order.index(m["key"]) if m["key"] in order else len(order)) if "entries" in m else (0, 0)
    )
    return [m["entries"][0] if "entries" in m and len(m["entries"]) == 1 else m for m in bar]


register(NavItem(_("Floor"), "casino:floor", roles=FLOOR_ROLES, order=10))
register(NavItem(_("Lockouts"), "casino:lockouts", roles=(PIT_BOSS,), order=90, group="more"))
register(NavItem(_("Security log"), "casino:security_log", roles=(AUDITOR,), order=91, group="more"))
register(NavItem(_("Change history"), "casino:change_history", roles=(AUDITOR,), order=92, group="more"))
register(NavItem(_("Staff"), "casino:staff_list", roles=(), order=93, group="more"))
register(NavItem(_("Admin"), "admin:index", roles=(), order=1000, group="more"))
