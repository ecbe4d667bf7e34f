from django.utils.translation import gettext_lazy as _

from . import navigation as nav
from .identity import second_factor_passed
from .roles import ROLE_LABELS, ROLES, user_roles


def navigation(request):
    """The navigation entries and the role names of the logged-in user, for base.html."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"nav_items": [], "nav_menu": [], "user_role_labels": []}
    if user.is_superuser:
        labels = [_("Superuser")]
    else:
        held = user_roles(user)
        labels = [ROLE_LABELS[role] for role in ROLES if role in held]
    # Until the second factor is passed every page but its own redirects there: offer none.
    items = nav.items_for(user) if second_factor_passed(user, getattr(request, "session", None)) else []
    match = getattr(request, "resolver_match", None)
    return {
        "nav_items": items,
        "nav_menu": nav.menu_for(items, match.view_name if match else None),
        "user_role_labels": labels,
    }
