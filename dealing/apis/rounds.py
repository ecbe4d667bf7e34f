"""Rounds: logging a `round/1` document, reading rounds, corrections and the pit boss's decision
on them; the stakes of rounds."""

from operator import attrgetter

from django.core.exceptions import ObjectDoesNotExist
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.fields import SkipField
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_errors import errors
from casino.api_inputs import JsonInput, Text
from casino.roles import HasRole
from dealing import selectors, services
from dealing.access import LOGGERS, READERS
from dealing.choices import Decision
from dealing.filters import RoundFilter, StakeFilter
from dealing.models import Round, Stake

from .common import PerMethodRoles, RoundPagination, StakePagination, json_body, paginated, raw_body
from .decisions import DecisionApi
from .outputs import (
    ApprovalSerializer,
    DecisionInput,
    RoundDetailSerializer,
    RoundLoggedSerializer,
    RoundSerializer,
    StakeSerializer,
)

ROUND_EXAMPLE = {
    "format": "round/1",
    "id": "b7e4c2d0-5a1f-4a3e-9d51-0c7f2f0a9e11",
    "variant": "ochko",
    "table": {"name": "R-1"},
    "stakes": [{"id": "1a", "box": 1, "player": "P-23", "ante": 100}],
    "events": [
        {"e": "deal", "to": 1, "card": "9H"},
        {"e": "deal", "to": "dealer", "card": "7C"},
        {"e": "bet", "stake": "1a", "amount": 300},
        {"e": "open"},
        {"e": "hit", "box": 1, "card": "TD"},
        {"e": "stand", "box": 1},
        {"e": "draw", "card": "6S"},
        {"e": "draw", "card": "9D"},
        {"e": "pay", "stake": "1a", "wager": "bet", "amount": 300},
        {"e": "pay", "stake": "1a", "wager": "ante", "amount": 100},
    ],
}


class LoggedAnswer:
    """RoundLoggedSerializer's fields, bound once: a serializer deep-copies its declared fields each
    time it is made, which costs more than writing the answer; the fields keep no state of their
    own between records, so one bound set serves every request (and every thread).

    Each field's value is read by a getter made once from its source (`dealer.username`), then
    written by the field itself, as `Serializer.to_representation` does: DRF's generic reading of
    a source, which checks every step for a mapping, a callable and a missing relation, was most of
    the answer's CPU. A value the getter cannot read plainly (a missing relation, a callable) is
    read by the field's own `get_attribute`, so every case is answered as DRF answers it."""

    _serializer = None
    _plan: list | None = None

    @classmethod
    def data(cls, record: Round) -> dict:
        plan = cls._plan
        if plan is None:
            serializer = RoundLoggedSerializer()
            cls._serializer = serializer
            plan = cls._plan = [
                (field.field_name, field, attrgetter(".".join(field.source_attrs)) if field.source_attrs else None)
                for field in serializer._readable_fields
            ]
        out = {}
        for name, field, read in plan:
            try:
                value = read(record) if read is not None else _SKIP
            except (AttributeError, KeyError, ObjectDoesNotExist):
                value = _SKIP
            if value is _SKIP or callable(value):
                try:
                    value = field.get_attribute(record)
                except SkipField:
                    continue
            out[name] = None if value is None else field.to_representation(value)
        return out


_SKIP = object()  # read by the field itself


def _logged(record: Round, created: bool) -> Response:
    outcome = getattr(record, "outcome", None)  # a new record carries its replay; a repeat is replayed
    record._findings = (
        [f.to_dict() for f in outcome.findings]
        if outcome is not None
        else selectors.round_settlement(round=record)["findings"]
    )
    return Response(LoggedAnswer.data(record), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class RoundCollectionApi(PerMethodRoles):
    """GET: the rounds the user may see. POST: log a `round/1` document."""

    method_roles = {"GET": READERS, "POST": LOGGERS}
    filter_backends = [DjangoFilterBackend]
    filterset_class = RoundFilter
    queryset = Round.objects.none()
    pagination_class = RoundPagination

    @extend_schema(operation_id="rounds_list", responses={200: RoundSerializer(many=True), **errors(400, 401, 403)})
    def get(self, request):
        return paginated(self, selectors.round_list(user=request.user, filters=request.query_params), RoundSerializer)

    @extend_schema(
        operation_id="rounds_log",
        description="Log a round: the body is a `round/1` document, read exactly (amounts never pass through a "
        "float). `table.name` names a stored table, whose limits and house rules are in force "
        "(`min`/`max`/`rules` may be left out; given and different, the round is refused). `dealer` "
        "defaults to the logged-in dealer. The same `id` again answers 200 with the stored round; the "
        "same `id` with another body is 409. A log the engine cannot read is refused (400) with "
        "`extra.code`, `extra.path` and `extra.event`; a log with mistakes is stored with its findings.",
        request={"application/json": OpenApiTypes.OBJECT},
        examples=[OpenApiExample("An ochko round", value=ROUND_EXAMPLE, request_only=True)],
        responses={201: RoundLoggedSerializer, 200: RoundLoggedSerializer, **errors(400, 401, 403, 409, 413)},
    )
    def post(self, request):
        record, created = services.round_log(document=raw_body(request), logged_by=request.user)
        return _logged(record, created)


class RoundDetailApi(APIView):
    permission_classes = [HasRole(*READERS)]

    @extend_schema(responses={200: RoundDetailSerializer, **errors(401, 403, 404)})
    def get(self, request, pk: int):
        return Response(RoundDetailSerializer(selectors.round_get(user=request.user, pk=pk)).data)


class RoundAmendApi(APIView):
    """Correct a round: a new revision awaiting a pit boss; the round stays as it was until he approves."""

    permission_classes = [HasRole(*LOGGERS)]

    class AmendInput(JsonInput):
        reason = Text(max_length=4000, lines=True, help_text="Why the round is corrected.")
        document = serializers.DictField(help_text="The corrected round/1 document (same id).")

    @extend_schema(request=AmendInput, responses={201: RoundLoggedSerializer, **errors(400, 401, 403, 404, 409, 413)})
    def post(self, request, pk: int):
        record = selectors.round_get(user=request.user, pk=pk)
        data = self.AmendInput(data=json_body(request))
        data.is_valid(raise_exception=True)
        amendment = services.round_amend(round=record, amended_by=request.user, **data.validated_data)
        return _logged(amendment, True)


class _RoundDecisionApi(DecisionApi):
    def subject(self, user, pk: int):
        return selectors.round_get(user=user, pk=pk)

    def decide(self, subject, user, data: dict):
        return services.round_amendment_decide(round=subject, decided_by=user, decision=self.decision, **data)


@extend_schema(
    request=DecisionInput,
    responses={200: ApprovalSerializer, **errors(400, 401, 403, 404, 409)},
    description="A pit boss of the table's pit approves a pending correction: it becomes the round in "
    "force. Never a correction he made, nor of a round he dealt.",
)
class RoundApproveApi(_RoundDecisionApi):
    decision = Decision.APPROVED


@extend_schema(
    request=DecisionInput,
    responses={200: ApprovalSerializer, **errors(400, 401, 403, 404, 409)},
    description="A pit boss rejects a pending correction, saying why (`comment`).",
)
class RoundRejectApi(_RoundDecisionApi):
    decision = Decision.REJECTED


# --- stakes ---------------------------------------------------------------------------------------------


class StakeListApi(APIView):
    permission_classes = [HasRole(*READERS)]
    filter_backends = [DjangoFilterBackend]
    filterset_class = StakeFilter
    queryset = Stake.objects.none()
    pagination_class = StakePagination

    @extend_schema(responses={200: StakeSerializer(many=True), **errors(400, 401, 403)})
    def get(self, request):
        return paginated(self, selectors.stake_list(user=request.user, filters=request.query_params), StakeSerializer)
