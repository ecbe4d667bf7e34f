"""The integrity signals' endpoints (under /api/v1/books/): services write, selectors read, every
refusal rendered as ``{"message", "extra"}`` by `casino.exception_handlers`.

    GET  signals/                 the signals the user may see (?kind=, ?status=, ?dealer=, ?player=)
    GET  signals/<id>/            one signal: its test, evidence and rounds
    POST signals/<id>/review/     an auditor confirms or dismisses it {status, note}
"""

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_errors import errors
from casino.api_inputs import KnownFields, Text
from casino.roles import HasRole

from ..models import SignalKind, SignalStatus
from . import selectors, services
from .selectors import READ_ROLES, REVIEW_ROLES

MAX_LIST = 500


@extend_schema_serializer(component_name="BooksIntegritySignal")
class SignalSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.CharField()
    dealer = serializers.CharField(source="dealer.username", allow_null=True, default=None)
    player = serializers.CharField()
    table = serializers.CharField(source="table.name", allow_null=True, default=None)
    box = serializers.IntegerField(allow_null=True)
    period_start = serializers.DateField()
    period_end = serializers.DateField()
    statistic = serializers.FloatField()
    p_value = serializers.FloatField()
    p_adjusted = serializers.FloatField()
    evidence = serializers.DictField()
    round_ids = serializers.ListField(child=serializers.IntegerField())
    reviewed_by = serializers.CharField(source="reviewed_by.username", allow_null=True, default=None)
    reviewed_at = serializers.DateTimeField(allow_null=True)
    note = serializers.CharField()
    created_at = serializers.DateTimeField()


def _choice(params, name, values):
    wanted = params.get(name, "")
    if wanted and wanted not in values:
        raise serializers.ValidationError(
            {name: [_('"%(value)s" is not one of %(choices)s.') % {"value": wanted, "choices": ", ".join(values)}]}
        )
    return wanted


class SignalListApi(APIView):
    permission_classes = [HasRole(*READ_ROLES)]

    @extend_schema(
        parameters=[
            OpenApiParameter("kind", OpenApiTypes.STR, enum=SignalKind.values),
            OpenApiParameter("status", OpenApiTypes.STR, enum=SignalStatus.values),
            OpenApiParameter("dealer", OpenApiTypes.STR, description="A dealer's username."),
            OpenApiParameter("player", OpenApiTypes.STR),
        ],
        responses=SignalSerializer(many=True),
    )
    def get(self, request):
        p = request.query_params
        signals = selectors.signal_list(
            user=request.user,
            kind=_choice(p, "kind", SignalKind.values),
            status=_choice(p, "status", SignalStatus.values),
            dealer=p.get("dealer", ""),
            player=p.get("player", ""),
        )
        return Response(SignalSerializer(signals[:MAX_LIST], many=True).data)


class SignalDetailApi(APIView):
    permission_classes = [HasRole(*READ_ROLES)]

    @extend_schema(responses=SignalSerializer)
    def get(self, request, pk: int):
        return Response(SignalSerializer(selectors.signal_for(request.user, pk)).data)


class _Note(Text):
    """A reviewer's words: a number or a list where the text belongs is refused, not turned into text."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            raise serializers.ValidationError(_("The note is text."))
        return super().to_internal_value(data)


class SignalReviewApi(APIView):
    permission_classes = [HasRole(*REVIEW_ROLES)]

    @extend_schema_serializer(component_name="BooksSignalReviewInput")
    class InputSerializer(KnownFields):
        status = serializers.ChoiceField(choices=[SignalStatus.CONFIRMED.value, SignalStatus.DISMISSED.value])
        note = _Note(max_length=services.MAX_NOTE, lines=True, help_text="Why: required.")

    # 409: the signal was reviewed already (by someone else, a moment ago).
    @extend_schema(
        request=InputSerializer,
        responses={200: SignalSerializer, **errors(409)},
        examples=[
            OpenApiExample(
                "Dismissed, with the reason",
                value={"status": "dismissed", "note": "The dealer was covering a break; the tapes show no mistake."},
                request_only=True,
            )
        ],
    )
    def post(self, request, pk: int):
        signal = selectors.signal_for(request.user, pk)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        done = services.signal_review(signal=signal, reviewer=request.user, **data.validated_data)
        return Response(SignalSerializer(done).data)
