"""The engine's settlement of a posted round, stored nowhere."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_errors import errors
from casino.roles import HasAnyRole
from dealing import engine
from dealing.errors import engine_error

from .common import raw_body
from .rounds import ROUND_EXAMPLE


class EngineSettleApi(APIView):
    """The engine's `settlement/1` for a posted `round/1` document; nothing is stored."""

    permission_classes = [HasAnyRole]

    @extend_schema(
        request={"application/json": OpenApiTypes.OBJECT},
        examples=[
            OpenApiExample(
                "An ochko round", value={**ROUND_EXAMPLE, "table": {"min": 100, "max": 5000}}, request_only=True
            )
        ],
        responses={200: OpenApiTypes.OBJECT, **errors(400, 401, 403, 413)},
    )
    def post(self, request):
        try:
            return Response(engine.settle(raw_body(request)))
        except engine.RoundError as exc:
            raise engine_error(exc) from None
