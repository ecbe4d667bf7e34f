"""A database or broker that cannot be reached is a 503 that tells the client when to come back.

Django turns any exception that escapes a view or a middleware into the answer of the URLconf's
`handler500` (casino/urls.py), and it calls that handler while the exception is being handled. This
handler looks at it: an unreachable database (`OperationalError`, `InterfaceError` — the
connection refused, dropped or closed) or an unreachable Celery broker (kombu's `OperationalError`)
is not a bug of ours but a moment to wait, so the answer is `503 Service Unavailable` with a
`Retry-After` header — on the API in the project's error shape (`{"message", "extra"}`, code
`unavailable`), on pages a plain page (templates/503.html) rendered without the context processors,
which would query the database that is down. Any other exception stays the plain 500 it was.
"""

import sys

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _
from django.views.defaults import server_error
from kombu.exceptions import OperationalError as BrokerError

from .middleware import API_PREFIX

UNAVAILABLE = (OperationalError, InterfaceError, BrokerError)


def is_unavailable(exc: BaseException | None) -> bool:
    """The database or the broker could not be reached (also when that is the cause of `exc`: a
    service may raise its own error `from` the connection's)."""
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, UNAVAILABLE):
            return True
        exc, seen = exc.__cause__, seen + 1
    return False


def unavailable_response(request):
    """The 503 for a request that met an unreachable database or broker."""
    retry_after = str(settings.RETRY_AFTER_SECONDS)
    if request.path_info.startswith(API_PREFIX):
        response = JsonResponse(
            {
                "message": _("The service is unavailable for a moment; try again shortly."),
                "extra": {"code": "unavailable", "retry_after": settings.RETRY_AFTER_SECONDS},
            },
            status=503,
        )
    else:
        # No request: no context processors (navigation, the user's roles) reaching for the database.
        response = HttpResponse(loader.get_template("503.html").render(), status=503)
    response["Retry-After"] = retry_after
    return response


def handler500(request):
    if is_unavailable(sys.exc_info()[1]):
        return unavailable_response(request)
    return server_error(request)
