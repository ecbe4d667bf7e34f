"""The books' REST endpoints (under /api/v1/books/): one class per operation, small serializers;
services write, selectors read, `casino.exception_handlers` renders every refusal as
``{"message", "extra"}`` (`extra.code`, and `extra.field` when one input is wrong). Amounts leave
as decimal strings; counts are {denomination: number of chips}.

    GET  shifts/                                the shifts the user may read (?table=, ?status=)
    POST shifts/open/                           the dealer's opening count {table, counts, total?}
    GET  shifts/<id>/                           the shift's books: counts, events, figures
    POST shifts/<id>/sign/                      a pit boss signs the opening count
    POST shifts/<id>/transfers/                 request a fill or credit {kind, counts, total?}; the books
                                                and `event`, the new request's id
    POST shifts/<id>/transfers/<event>/approve/ a pit boss approves it (not the requester)
    POST shifts/<id>/transfers/<event>/receive/ counted in at the table {counts}
    POST shifts/<id>/cash/                      chips sold or cash to the drop box {kind, amount}
    POST shifts/<id>/closing/                   the closing count {counts, total?}
    POST shifts/<id>/explain/                   a pit boss explains the variance {text}
    POST shifts/<id>/close/                     a pit boss closes the shift
"""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_errors import errors
from casino.api_inputs import KnownFields, Text
from casino.errors import ServiceError
from casino.models import Table
from casino.roles import HasRole
from casino.scope import table_named

from . import selectors, services
from .access import COUNTERS, READ_ROLES, SIGNERS, WRITE_ROLES, shift_for
from .choices import CASH_KINDS, CHIP_KINDS, EventKind, ShiftStatus
from .models import FloatEvent

COUNTS_HELP = 'Chips by denomination, e.g. {"100": 20, "500": 4}; denominations the table does not use are refused.'
TOTAL_HELP = "Optional: what the chips add up to; a count that does not add up to it is refused."


def _example(summary: str, value: dict) -> OpenApiExample:
    """A request body as a client sends it (the chips of the demo floor's tables)."""
    return OpenApiExample(summary, value=value, request_only=True)


def _books(shift, code=status.HTTP_200_OK) -> Response:
    return Response(selectors.shift_books(shift).as_dict(), status=code)


class ShiftListApi(APIView):
    permission_classes = [HasRole(*READ_ROLES)]

    @extend_schema_serializer(component_name="BooksShiftListItem")
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        table = serializers.CharField(source="table.name")
        status = serializers.CharField()
        dealer = serializers.CharField(source="dealer.username")
        opened_at = serializers.DateTimeField()
        opening_total = serializers.DecimalField(max_digits=14, decimal_places=2)
        closing_total = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)
        closed_at = serializers.DateTimeField(allow_null=True)

    @extend_schema(
        parameters=[
            OpenApiParameter("table", OpenApiTypes.STR, description="A table's name."),
            OpenApiParameter("status", OpenApiTypes.STR, enum=ShiftStatus.values),
        ],
        responses=OutputSerializer(many=True),
    )
    def get(self, request):
        wanted = request.query_params.get("status")
        if wanted and wanted not in ShiftStatus.values:
            raise serializers.ValidationError(
                {
                    "status": [
                        _('"%(value)s" is not one of %(choices)s.')
                        % {"value": wanted, "choices": ", ".join(ShiftStatus.values)}
                    ]
                }
            )
        table = None
        if request.query_params.get("table"):
            table = table_named(request.user, request.query_params["table"])
            if table is None:
                return Response([])
        shifts = selectors.shift_list(user=request.user, table=table, status=request.query_params.get("status"))
        return Response(self.OutputSerializer(shifts[:500], many=True).data)


def _table(user, ref: str) -> Table:
    table = table_named(user, ref, by_pk=True)
    if table is None:
        raise ServiceError(
            _("There is no table “%(table)s” in your pits.") % {"table": ref},
            extra={"code": "unknown_table", "field": "table"},
        )
    return table


class ShiftOpenApi(APIView):
    permission_classes = [HasRole(*COUNTERS)]  # the dealer counts the opening float

    @extend_schema_serializer(component_name="BooksShiftOpenInput")
    class InputSerializer(KnownFields):
        table = Text(help_text="The table's name (or id).")
        counts = serializers.DictField(help_text=COUNTS_HELP)
        total = serializers.CharField(required=False, allow_blank=True, help_text=TOTAL_HELP)

    @extend_schema(
        request=InputSerializer,
        responses={201: OpenApiTypes.OBJECT},
        examples=[_example("An opening count", {"table": "R-1", "counts": {"100": 20, "500": 4}, "total": "4000"})],
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        shift = services.shift_open(
            table=_table(request.user, v["table"]), counted_by=request.user, counts=v["counts"], total=v.get("total")
        )
        return _books(shift, status.HTTP_201_CREATED)


class ShiftBooksApi(APIView):
    permission_classes = [HasRole(*READ_ROLES)]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        return _books(shift_for(request.user, pk))


class _ShiftWrite(APIView):
    permission_classes = [HasRole(*WRITE_ROLES)]


class ShiftSignApi(_ShiftWrite):
    permission_classes = [HasRole(*SIGNERS)]  # signatures, approvals, explanations, the close

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, **errors(400)})
    def post(self, request, pk: int):
        shift = services.shift_open_sign(shift=shift_for(request.user, pk), signed_by=request.user)
        return _books(shift)


class TransferRequestApi(_ShiftWrite):
    @extend_schema_serializer(component_name="BooksTransferInput")
    class InputSerializer(KnownFields):
        kind = serializers.ChoiceField(choices=[(k.value, k.label) for k in CHIP_KINDS])
        counts = serializers.DictField(help_text=COUNTS_HELP)
        total = serializers.CharField(required=False, allow_blank=True, help_text=TOTAL_HELP)

    @extend_schema(
        request=InputSerializer,
        responses={201: OpenApiTypes.OBJECT},
        examples=[_example("A fill", {"kind": "fill", "counts": {"100": 10}, "total": "1000"})],
    )
    def post(self, request, pk: int):
        shift = shift_for(request.user, pk)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        event = services.transfer_request(
            shift=shift, kind=v["kind"], counts=v["counts"], total=v.get("total"), requested_by=request.user
        )
        # The shift's books, and the new request's id: the event a pit boss approves and the table receives.
        return Response({**selectors.shift_books(shift).as_dict(), "event": event.pk}, status=status.HTTP_201_CREATED)


def _event(user, pk: int, event: int) -> FloatEvent:
    shift = shift_for(user, pk)
    return get_object_or_404(
        FloatEvent.objects.select_related("shift__table__pit"),
        shift=shift,
        pk=event,
        kind__in=[EventKind.FILL, EventKind.CREDIT],
    )


class TransferApproveApi(_ShiftWrite):
    permission_classes = [HasRole(*SIGNERS)]  # signatures, approvals, explanations, the close

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, **errors(400)})
    def post(self, request, pk: int, event: int):
        done = services.transfer_approve(event=_event(request.user, pk, event), approved_by=request.user)
        return _books(done.shift)


class TransferReceiveApi(_ShiftWrite):
    @extend_schema_serializer(component_name="BooksReceiveInput")
    class InputSerializer(KnownFields):
        counts = serializers.DictField(help_text="The chips counted in (a fill) or out (a credit): what was approved.")

    @extend_schema(
        request=InputSerializer,
        # 409: the fill's or credit's slip is void, or its void is waiting for a second pit boss.
        responses={200: OpenApiTypes.OBJECT, **errors(409)},
        examples=[_example("The chips of a fill counted in", {"counts": {"100": 10}})],
    )
    def post(self, request, pk: int, event: int):
        one = _event(request.user, pk, event)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        done = services.transfer_receive(event=one, received_by=request.user, counts=data.validated_data["counts"])
        return _books(done.shift)


class CashApi(_ShiftWrite):
    @extend_schema_serializer(component_name="BooksCashInput")
    class InputSerializer(KnownFields):
        kind = serializers.ChoiceField(choices=[(k.value, k.label) for k in CASH_KINDS])
        amount = serializers.CharField(help_text='A positive amount with at most 2 decimals, e.g. "2500".')

    @extend_schema(
        request=InputSerializer,
        responses={201: OpenApiTypes.OBJECT},
        examples=[_example("Chips sold for cash", {"kind": "chips_sold", "amount": "2500"})],
    )
    def post(self, request, pk: int):
        shift = shift_for(request.user, pk)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.cash_record(
            shift=shift,
            kind=data.validated_data["kind"],
            amount=data.validated_data["amount"],
            recorded_by=request.user,
        )
        return _books(shift, status.HTTP_201_CREATED)


class ClosingCountApi(_ShiftWrite):
    @extend_schema_serializer(component_name="BooksClosingInput")
    class InputSerializer(KnownFields):
        counts = serializers.DictField(help_text=COUNTS_HELP)
        total = serializers.CharField(required=False, allow_blank=True, help_text=TOTAL_HELP)

    @extend_schema(
        request=InputSerializer,
        responses=OpenApiTypes.OBJECT,
        examples=[_example("A closing count", {"counts": {"100": 22, "500": 4}, "total": "4200"})],
    )
    def post(self, request, pk: int):
        shift = shift_for(request.user, pk)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        shift = services.shift_count_closing(
            shift=shift,
            counted_by=request.user,
            counts=data.validated_data["counts"],
            total=data.validated_data.get("total"),
        )
        return _books(shift)


class ExplainApi(_ShiftWrite):
    permission_classes = [HasRole(*SIGNERS)]  # signatures, approvals, explanations, the close

    @extend_schema_serializer(component_name="BooksExplainInput")
    class InputSerializer(KnownFields):
        text = Text(max_length=4000, lines=True)

    @extend_schema(
        request=InputSerializer,
        responses=OpenApiTypes.OBJECT,
        examples=[_example("An explanation", {"text": "Two 100 chips paid twice on box 3; the player returned them."})],
    )
    def post(self, request, pk: int):
        shift = shift_for(request.user, pk)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return _books(services.shift_explain(shift=shift, explained_by=request.user, text=data.validated_data["text"]))


class CloseApi(_ShiftWrite):
    permission_classes = [HasRole(*SIGNERS)]  # signatures, approvals, explanations, the close

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, **errors(400)})
    def post(self, request, pk: int):
        return _books(services.shift_close(shift=shift_for(request.user, pk), closed_by=request.user))
