"""The project-wide API error shape: every error answer is ``{"message": str, "extra": dict}``.

DRF's own exceptions (validation, authentication, permission, not found, throttling), Django's
ValidationError / PermissionDenied / Http404, and the business `ServiceError` all leave the API in
this one shape, so a client reads every error the same way. Field errors of a validation failure
are under ``extra["fields"]``. A body larger than DATA_UPLOAD_MAX_MEMORY_SIZE (Django's
RequestDataTooBig, which would be its HTML 400) is a 413 in the same shape, on every endpoint.
"""

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import ServiceError
from .log_filters import REASON


def exception_handler(exc, context):
    response = _handled(exc, context)
    if response is not None and response.status_code == 403:
        _note_refusal(context, response.data["message"])
    return response


def _note_refusal(context, message: str) -> None:
    """Why the API refused, for the one line the request's log writes (casino/log_filters.py)."""
    request = getattr(context.get("request"), "_request", None)  # the Django request under DRF's
    if request is not None:
        setattr(request, REASON, message)


def _handled(exc, context):
    if isinstance(exc, ServiceError):
        return Response({"message": exc.message, "extra": exc.extra}, status=exc.status)
    if isinstance(exc, RequestDataTooBig):
        return Response({"message": _("The request body is too large."), "extra": {"code": "too_large"}}, status=413)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(as_serializer_error(exc))
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    response = drf_exception_handler(exc, context)
    if response is None:  # not an API error: let Django's 500 handling and logging see it
        return None

    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        response.data = {"message": _("Validation error."), "extra": {"fields": detail}}
    elif isinstance(exc, exceptions.UnsupportedMediaType):  # 415: the API reads JSON only
        response.data = {"message": str(exc.detail), "extra": {"code": "unsupported_media_type"}}
    else:
        response.data = {"message": str(exc.detail), "extra": {}}
    return response
