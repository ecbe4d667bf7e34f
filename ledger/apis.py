"""The ledger's REST endpoints (under /api/v1/ledger/): one class per operation, each with its own
small serializers; services write, selectors read, `casino.exception_handlers` renders every error as
``{"message", "extra"}``. Amounts leave as decimal strings.

    GET  sessions/                 the nights the user may read
    POST sessions/create/          start a night (players, unit, the draw — or dealt here)
    GET  sessions/<id>/            the ledger: rounds, balances after each, banks, findings, who pays whom
    POST sessions/<id>/rounds/     add the next round (the body is a round/1 document)
    POST sessions/<id>/end/        end the night (by agreement, or one player holds every chip)
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_errors import errors
from casino.api_inputs import JsonInput, Text
from casino.errors import ServiceError
from casino.models import Table
from casino.roles import HasRole
from casino.scope import table_named
from dealing import engine
from dealing.engine.money import fmt, parse_amount

from . import selectors, services
from .access import READ_ROLES, RUN_ROLES, session_for
from .choices import EndReason, SessionStatus


@extend_schema_field(OpenApiTypes.DECIMAL)
class AmountField(serializers.Field):
    """An amount read exactly (100, "7.50"), as the engine reads amounts."""

    default_error_messages = {
        "invalid": gettext_lazy('An amount is a positive number with at most 2 decimals, such as 5 or "2.50".'),
    }

    def to_internal_value(self, data):
        try:
            return parse_amount(data, "amount")
        except engine.RoundError:
            self.fail("invalid")

    def to_representation(self, value):
        return fmt(value)


class SessionListApi(APIView):
    permission_classes = [HasRole(*READ_ROLES)]

    @extend_schema_serializer(component_name="LedgerSessionListItem")
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = serializers.CharField()
        table = serializers.CharField(source="table.name")
        status = serializers.CharField()
        players = serializers.SerializerMethodField()
        rounds = serializers.IntegerField(source="round_count")
        first_bank = serializers.CharField()
        started_at = serializers.DateTimeField(source="created_at")
        ended_at = serializers.DateTimeField(allow_null=True)  # null while the night is played

        def get_players(self, session) -> list[str]:
            return [p.name for p in session.players.all()]

    @extend_schema(
        parameters=[OpenApiParameter("status", OpenApiTypes.STR, enum=SessionStatus.values)],
        responses=OutputSerializer(many=True),
    )
    def get(self, request):
        wanted = request.query_params.get("status")
        if wanted and wanted not in SessionStatus.values:  # a misspelt filter is not "every night"
            raise serializers.ValidationError(
                {
                    "status": [
                        _('"%(value)s" is not one of %(choices)s.')
                        % {"value": wanted, "choices": ", ".join(SessionStatus.values)}
                    ]
                }
            )
        sessions = selectors.session_list(user=request.user, status=wanted or None)
        return Response(self.OutputSerializer(sessions, many=True).data)


class SessionCreateApi(APIView):
    permission_classes = [HasRole(*RUN_ROLES)]

    @extend_schema_serializer(component_name="LedgerSessionCreateInput")
    class InputSerializer(JsonInput):
        table = Text(help_text="The veintiuno table's name (or id).")
        name = Text(required=False, allow_blank=True, max_length=80)
        players = serializers.ListField(
            child=Text(),
            min_length=2,
            help_text="The players in the order they sit around the table.",
        )
        unit = AmountField(help_text="The betting unit: bets go in multiples of it.")
        buy_in = AmountField(required=False, allow_null=True, help_text="Chips each player starts with.")
        dealer = Text(
            required=False,
            allow_blank=True,
            help_text="Username of the dealer the rounds are logged by (default: you).",
        )
        draw = serializers.ListField(
            child=serializers.DictField(child=Text()),
            required=False,
            allow_null=True,
            help_text="The draw for the first bank: a list of passes, each {player: card}; ties draw again. "
            "Left out, the cards are dealt here from a shuffled 40-card pack.",
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: OpenApiTypes.OBJECT},
        examples=[
            OpenApiExample(
                "A night of three players",
                value={"table": "Casa-21", "name": "Friday", "players": ["Ana", "Luis", "Marta"], "unit": 5},
                request_only=True,
            )
        ],
    )
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        table = _table(request.user, v["table"])
        session = services.session_start(
            table=table,
            players=v["players"],
            unit=v["unit"],
            created_by=request.user,
            dealer=v.get("dealer") or None,
            name=v.get("name", ""),
            buy_in=v.get("buy_in"),
            draw=v.get("draw"),
        )
        return Response(selectors.session_ledger(session).as_dict(), status=status.HTTP_201_CREATED)


def _table(user, ref: str) -> Table:
    table = table_named(user, ref, by_pk=True)
    if table is None:
        raise ServiceError(
            _("There is no table “%(table)s” in your pits.") % {"table": ref},
            extra={"code": "unknown_table", "field": "table"},
        )
    return table


class SessionLedgerApi(APIView):
    permission_classes = [HasRole(*READ_ROLES)]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        session = session_for(request.user, pk)
        return Response(selectors.session_ledger(session).as_dict())


class SessionRoundAddApi(APIView):
    """The body is the round's `round/1` document (veintiuno), read exactly as sent."""

    permission_classes = [HasRole(*RUN_ROLES)]

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={201: OpenApiTypes.OBJECT, 200: OpenApiTypes.OBJECT, **errors(400, 404, 409)},
    )
    def post(self, request, pk: int):
        session = session_for(request.user, pk, run=True)
        entry, created = services.session_round_add(session=session, document=request.body, logged_by=request.user)
        session.refresh_from_db()  # the night may have ended with this round
        ledger = selectors.session_ledger(session)
        line = next(r for r in ledger.rounds if r.number == entry.number)
        body = {
            "number": entry.number,
            "round": entry.round_id,
            "uid": str(entry.round.uid),
            "created": created,
            "bank": line.bank,
            "bank_next": line.bank_next,
            "gains": {p: fmt(v) for p, v in line.gains.items()},
            "balances": {p: fmt(v) for p, v in line.balances.items()},
            "findings": line.findings,
            "session_status": ledger.session.status,
        }
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class SessionEndApi(APIView):
    permission_classes = [HasRole(*RUN_ROLES)]

    @extend_schema_serializer(component_name="LedgerSessionEndInput")
    class InputSerializer(JsonInput):
        reason = serializers.ChoiceField(choices=EndReason.choices, default=EndReason.AGREEMENT)
        note = Text(required=False, allow_blank=True, max_length=2000, lines=True)

    @extend_schema(
        request=InputSerializer,
        responses={200: OpenApiTypes.OBJECT, **errors(400, 404, 409)},
        examples=[OpenApiExample("Settled by agreement", value={"reason": "agreement"}, request_only=True)],
    )
    def post(self, request, pk: int):
        session = session_for(request.user, pk, run=True)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        session = services.session_end(
            session=session,
            by=request.user,
            reason=data.validated_data["reason"],
            note=data.validated_data.get("note", ""),
        )
        return Response(selectors.session_ledger(session).as_dict())
