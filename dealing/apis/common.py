"""What dealing's endpoints share: pagination, reading a body exactly, looking up a user by name, and an
endpoint whose methods admit different roles. What every app's endpoints share is in the floor app:
the error body (casino/api_errors.py), text fields (casino/api_inputs.py `Text`)."""

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_errors import ErrorSerializer, errors  # noqa: F401 - gamemath's imports, until its wings move
from casino.errors import ServiceError
from casino.pagination import KeysetPagination, StrictLimitOffsetPagination
from casino.roles import HasRole
from dealing import engine
from dealing.access import READERS  # noqa: F401 - dealing.apis.READERS, as before
from dealing.engine.document import load_json
from dealing.errors import engine_error

User = get_user_model()

MONEY = {"max_digits": 14, "decimal_places": 2}


class Pagination(StrictLimitOffsetPagination):
    default_limit = 50
    max_limit = 500


class RoundPagination(KeysetPagination, Pagination):
    """Rounds newest first: by `limit`/`offset` as before, or by key (`older`, `newer`, `at`)."""

    keyset_field = "played_at"


class StakePagination(KeysetPagination, Pagination):
    """Stakes, the newest round's first: by key (`older`, `newer`: `<round id>_<stake row id>`), or by
    `limit`/`offset` as before."""

    keyset_parent = "round_id"


def paginated(view: APIView, queryset, serializer_class) -> Response:
    paginator = (getattr(view, "pagination_class", None) or Pagination)()
    page = paginator.paginate_queryset(queryset, view.request, view=view)
    return paginator.get_paginated_response(serializer_class(page, many=True).data)


def raw_body(request) -> bytes:
    """The request body as sent (the engine reads it exactly); too large is a 413 as on every
    endpoint (casino.exception_handlers).

    The body skips DRF's parsers (which would read amounts through floats), so the rule they keep
    for every other endpoint is kept here: a body that is not declared JSON is refused with 415.
    """
    media_type = request.content_type.split(";", 1)[0].strip().lower()
    if media_type != "application/json":
        raise exceptions.UnsupportedMediaType(media_type)
    return request.body


def json_body(request) -> dict:
    """The body as a JSON object read exactly (decimals stay Decimal)."""
    try:
        data = load_json(raw_body(request))
    except engine.RoundError as exc:
        raise engine_error(exc) from None
    if not isinstance(data, dict):
        raise ServiceError(
            _("The body must be a JSON object."), extra={"code": "wrong_type", "path": "$", "event": None}
        )
    return data


def user_named(username: str, field: str):
    user = User.objects.filter(username=username, is_active=True).first()
    if user is None:
        raise serializers.ValidationError({field: [_('There is no user "%(name)s".') % {"name": username}]})
    return user


class PerMethodRoles(APIView):
    """An endpoint whose methods admit different roles: `method_roles = {"GET": (...), "POST": (...)}`."""

    method_roles: dict[str, tuple[str, ...]] = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._permission_by_method = {method: HasRole(*roles) for method, roles in cls.method_roles.items()}

    def get_permissions(self):
        # OPTIONS and HEAD are judged like the endpoint's first method.
        by_method = self._permission_by_method
        permission = by_method.get(getattr(self.request, "method", "GET")) or next(iter(by_method.values()))
        return [permission()]
