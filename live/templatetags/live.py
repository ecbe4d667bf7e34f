from django import template

from live import bus, selectors

register = template.Library()


@register.inclusion_tag("live/_stream.html")
def live_stream():
    """The page's stream, starting after the newest event stored now (what the page shows), and the
    banner, shown at once when the bus cannot be reached."""
    return {"cursor": selectors.events_cursor(), "bus_up": bus.is_up()}
