from django import template

from casino.roles import has_role
from live import bus, selectors
from live.access import STREAM_ROLES

register = template.Library()


@register.inclusion_tag("live/_stream.html", takes_context=True)
def live_stream(context):
    """Every page of a user who may stream (base.html): the stream, starting after the newest event
    stored now (what the page shows), and the banner, shown at once when the bus cannot be reached.
    His notifications reach whatever page he has open; the floor, the queue and a run's progress
    follow the pit's events. Nothing for the others (the stream would refuse them)."""
    user = context.get("user")
    if user is None or not user.is_authenticated or not has_role(user, *STREAM_ROLES):
        return {"show": False}
    return {"show": True, "cursor": selectors.events_cursor(), "bus_up": bus.is_up()}
