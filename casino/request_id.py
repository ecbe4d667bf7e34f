"""A request id for every request: taken from a proxy's `X-Request-ID` when it is a sane one
(REQUEST_ID_TRUST_HEADER), else made here; echoed in the response's `X-Request-ID` and written in
every log record of the request (RequestIdFilter), so a line of the log, an answer a client got and
a proxy's access log can be matched.

The id lives in a context variable: each request its own, threads and asyncio tasks included.
"""

import contextvars
import logging
import re
import uuid

from django.conf import settings

HEADER = "X-Request-ID"
_SANE = re.compile(r"[A-Za-z0-9_-]{1,64}")
NONE = "-"  # the id of a record logged outside any request (a worker, a command)

current = contextvars.ContextVar("request_id", default=NONE)


def request_id_from(value: str | None) -> str:
    """The proxy's id if trusted and sane (a header is caller input: nothing that could forge a log
    line), else a new one."""
    if value and settings.REQUEST_ID_TRUST_HEADER and _SANE.fullmatch(value):
        return value
    return uuid.uuid4().hex


class RequestIdMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request_id = request_id_from(request.META.get("HTTP_X_REQUEST_ID"))
        request.request_id = request_id
        # Kept past this middleware until the response is closed (request_finished): Django logs a
        # 4xx or 5xx answer after the middleware chain has returned, and that line needs the id too.
        current.set(request_id)
        response = self.get_response(request)
        response[HEADER] = request_id
        return response


def forget(**kwargs) -> None:
    """request_finished: records logged after the request (by the same thread) have no id."""
    current.set(NONE)


class RequestIdFilter(logging.Filter):
    """Gives every record `request_id`: the current request's, or "-"."""

    def filter(self, record):
        if not hasattr(record, "request_id"):
            record.request_id = current.get()
        return True
