"""One log line per refusal: who was refused what, and why — not a traceback.

Django logs every 403 on `django.request` (and a CSRF failure on `django.security.csrf`); for a
PermissionDenied raised by a page it attaches the exception, so each refusal wrote a whole
traceback, while an API refusal said only "Forbidden: <path>". A refusal is expected behaviour,
not a fault: this filter (casino/settings.py LOGGING) turns each such record into one line,

    Forbidden: GET /audit/ by dealer1 from 10.0.0.7: Your role does not give access to this page.

The reason is the PermissionDenied's message (pages), or the message the API answered with
(casino/api.py records it on the request as `REASON`). Text from the request is escaped like
Django escapes it, so a path or a name cannot forge a second line.
"""

import logging

# The attribute of the Django request that holds why the API refused it.
REASON = "refusal_reason"


class OneLineRefusal(logging.Filter):
    """Rewrites 403 records of the request loggers as one line with who, what and why."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) != 403:
            return True
        request = getattr(record, "request", None)
        if request is None:
            return True
        exc = record.exc_info[1] if record.exc_info else None
        why = (str(exc) if exc is not None else "") or getattr(request, REASON, "") or record.getMessage()
        from .security import client_address  # the caller behind the trusted proxies

        record.msg = "Forbidden: %s %s by %s from %s: %s"
        record.args = tuple(
            _escaped(part)
            for part in (request.method, request.path, _who(request), client_address(request) or "?", why)
        )
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True


def _who(request) -> str:
    """The refused user's name; "anonymous" without one. Reading the user may need the session (a
    CSRF refusal comes before any page read it), which may fail: the line is written anyway."""
    try:
        user = request.user
        return user.get_username() if user.is_authenticated else "anonymous"
    except Exception:  # noqa: BLE001 - a log line must not fail for want of a name
        return "unknown"


def _escaped(text) -> str:
    """Characters that are not printable written as escapes (a newline as \\n), as Django does."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else char.encode("unicode_escape").decode("ascii") for char in text)
