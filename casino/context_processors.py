from django.utils.translation import gettext_lazy as _

from . import navigation as nav
from .roles import ROLE_LABELS, ROLES, user_roles


def navigation(request):
    """The navigation entries and the role names of the logged-in user, for base.html."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"nav_items": [], "user_role_labels": []}
    if user.is_superuser:
        labels = [_("Superuser")]
    else:
        held = user_roles(user)
        labels = [ROLE_LABELS[role] for role in ROLES if role in held]
    return {"nav_items": nav.items_for(user), "user_role_labels": labels}
