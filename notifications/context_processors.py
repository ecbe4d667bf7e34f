from casino.roles import has_role

from .selectors import unread_count
from .views import READERS


def bell(request):
    """The bell's unread count for base.html: one count on a partial index, for the floor's roles."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not has_role(user, *READERS):
        return {"bell": None}
    return {"bell": {"unread": unread_count(user)}}
