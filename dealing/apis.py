"""Dealing's REST endpoints (under /api/v1/): shoes and shoe events, rounds and their corrections,
stakes, incidents and the pit boss's decisions, the engine's settlement, tokens.

Thin by design: each operation reads its input with a small serializer, calls one service or
selector, and writes its output with another. Who may do what is checked twice — the role at
the door (`casino.roles.HasRole`), the pit and the four-eyes rules in the service. Round documents
are read from the raw body by the engine (`engine.load`), so amounts never pass through a float.
Errors: ``{"message", "extra"}`` (casino.exception_handlers); a round the engine refuses names its `code`,
JSON `path` and `event` index in `extra`.
"""

from django.contrib.auth import authenticate, get_user_model
from django.core.exceptions import RequestDataTooBig
from django.utils.translation import gettext as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.errors import ServiceError
from casino.models import Table
from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, HasAnyRole, HasRole
from dealing import engine
from dealing.engine.document import load_json

from . import selectors, services
from .choices import BurnReason, Decision, IncidentKind, Resolution
from .filters import IncidentFilter, RoundFilter, ShoeFilter, StakeFilter
from .models import Incident, Round, Shoe, Stake

User = get_user_model()

READERS = (DEALER, INSPECTOR, PIT_BOSS, AUDITOR)
MONEY = {"max_digits": 14, "decimal_places": 2}


# --- shared pieces -------------------------------------------------------------------------------------

class ErrorSerializer(serializers.Serializer):
    message = serializers.CharField()
    extra = serializers.DictField(help_text="Details for programs: `code`; for a round, `path` and `event`; "
                                            "for invalid fields, `fields`.")


def errors(*codes: int) -> dict:
    return {code: ErrorSerializer for code in codes}


class Pagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 500


def _paginated(view: APIView, queryset, serializer_class) -> Response:
    paginator = Pagination()
    page = paginator.paginate_queryset(queryset, view.request, view=view)
    return paginator.get_paginated_response(serializer_class(page, many=True).data)


class Text(serializers.CharField):
    """Text that the database can store: no NUL (DRF refuses those) and no unpaired surrogates."""

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise serializers.ValidationError(_("This is not valid Unicode text.")) from None
        return value


def _raw_body(request) -> bytes:
    """The request body as sent (the engine reads it exactly); too large is refused like any error."""
    try:
        return request.body
    except RequestDataTooBig:
        raise ServiceError(_("The request body is too large."), extra={"code": "too_large"}, status=413) from None


def _json_body(request) -> dict:
    """The body as a JSON object read exactly (decimals stay Decimal)."""
    try:
        data = load_json(_raw_body(request))
    except engine.RoundError as exc:
        raise services.engine_error(exc) from None
    if not isinstance(data, dict):
        raise ServiceError(_("The body must be a JSON object."), extra={"code": "wrong_type", "path": "$", "event": None})
    return data


def _user(username: str, field: str):
    user = User.objects.filter(username=username, is_active=True).first()
    if user is None:
        raise serializers.ValidationError({field: [_("There is no user \"%(name)s\".") % {"name": username}]})
    return user


class _PerMethodRoles(APIView):
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


# --- output serializers ----------------------------------------------------------------------------------

class ApprovalSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    decision = serializers.CharField()
    comment = serializers.CharField()
    decided_by = serializers.CharField(source="decided_by.username")
    decided_at = serializers.DateTimeField()
    incident = serializers.IntegerField(source="incident_id", allow_null=True)
    round = serializers.IntegerField(source="round_id", allow_null=True)


class StakeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField(source="round_id")
    round_uid = serializers.UUIDField(source="round.uid")
    table = serializers.CharField(source="round.table.name")
    stake_id = serializers.CharField()
    box = serializers.IntegerField(allow_null=True, help_text="Box (or seat, veintiuno).")
    player = serializers.CharField()
    ante = serializers.DecimalField(**MONEY, allow_null=True)
    bet = serializers.DecimalField(**MONEY, allow_null=True)
    dealer_bet = serializers.DecimalField(**MONEY, allow_null=True)
    owed_net = serializers.DecimalField(**MONEY, allow_null=True, help_text="Σ pay − Σ take as the rules owed.")
    paid_net = serializers.DecimalField(**MONEY, allow_null=True, help_text="Σ pay − Σ take as logged.")


class _StakeInRoundSerializer(StakeSerializer):
    round_uid = None
    table = None


class RoundSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The record's id (each revision has its own).")
    uid = serializers.UUIDField(help_text="The document's id, shared by a round's revisions.")
    table = serializers.CharField(source="table.name")
    table_id = serializers.IntegerField()
    shoe = serializers.SerializerMethodField(help_text="The shoe's name, e.g. \"R-1/3\".")
    shoe_id = serializers.IntegerField(allow_null=True)
    number = serializers.IntegerField(allow_null=True, help_text="Round of the shoe: 1, 2, …")
    position = serializers.IntegerField(allow_null=True, help_text="Place among the shoe's events and rounds.")
    dealer = serializers.CharField(source="dealer.username")
    variant = serializers.CharField()
    revision = serializers.IntegerField()
    status = serializers.CharField()
    supersedes = serializers.IntegerField(source="supersedes_id", allow_null=True)
    chain_index = serializers.IntegerField()
    sha256 = serializers.CharField()
    prev_sha256 = serializers.CharField()
    logged_by = serializers.CharField(source="logged_by.username")
    logged_at = serializers.DateTimeField()
    audit_status = serializers.CharField(help_text="As stored when the record was read (the audit runs after the "
                                                   "round is committed).")
    audited_at = serializers.DateTimeField(allow_null=True)
    float_owed = serializers.DecimalField(**MONEY, allow_null=True)
    float_logged = serializers.DecimalField(**MONEY, allow_null=True)

    @extend_schema_field(OpenApiTypes.STR)
    def get_shoe(self, record) -> str | None:
        return None if record.shoe_id is None else f"{record.table.name}/{record.shoe.number}"


class _RevisionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    revision = serializers.IntegerField()
    status = serializers.CharField()
    logged_by = serializers.CharField(source="logged_by.username")
    logged_at = serializers.DateTimeField()
    amendment_reason = serializers.CharField()


class RoundDetailSerializer(RoundSerializer):
    house_rules = serializers.DictField()
    table_min = serializers.DecimalField(**MONEY)
    table_max = serializers.DecimalField(**MONEY)
    amendment_reason = serializers.CharField()
    document = serializers.DictField(help_text="The round/1 log as stored.")
    settlement = serializers.SerializerMethodField(help_text="The engine's settlement/1 of the document.")
    findings = serializers.SerializerMethodField()
    stakes = _StakeInRoundSerializer(many=True, source="stakes.all")
    revisions = serializers.SerializerMethodField()
    approvals = ApprovalSerializer(many=True, source="approvals.all")

    def _settlement(self, record) -> dict:
        cached = getattr(record, "_settlement", None)
        if cached is None:
            cached = record._settlement = selectors.round_settlement(round=record)
        return cached

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_settlement(self, record) -> dict:
        return self._settlement(record)

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_findings(self, record) -> list:
        return self._settlement(record).get("findings", [])

    @extend_schema_field(_RevisionSerializer(many=True))
    def get_revisions(self, record) -> list:
        return _RevisionSerializer(selectors.round_revisions(round=record), many=True).data


class RoundLoggedSerializer(RoundSerializer):
    findings = serializers.ListField(child=serializers.DictField(), source="_findings",
                                     help_text="What the engine found wrong in the log (stored all the same).")


class ShoeEventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    shoe = serializers.IntegerField(source="shoe_id")
    position = serializers.IntegerField()
    kind = serializers.CharField()
    card = serializers.CharField()
    reason = serializers.CharField()
    fee = serializers.DecimalField(**MONEY, allow_null=True)
    dealer = serializers.CharField(source="dealer.username", allow_null=True, default=None)
    recorded_by = serializers.CharField(source="recorded_by.username")
    recorded_at = serializers.DateTimeField()


class ShoeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.CharField(source="table.name")
    table_id = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.SerializerMethodField(help_text="How rounds name the shoe: \"R-1/3\".")
    decks = serializers.IntegerField()
    loaded_at = serializers.DateTimeField()
    shuffled_by = serializers.CharField(source="shuffled_by.username")
    ended_at = serializers.DateTimeField(allow_null=True)
    is_open = serializers.BooleanField()

    @extend_schema_field(OpenApiTypes.STR)
    def get_name(self, shoe) -> str:
        return f"{shoe.table.name}/{shoe.number}"


class ShoeDetailSerializer(ShoeSerializer):
    events = ShoeEventSerializer(many=True, source="events.all")
    rounds = serializers.SerializerMethodField(help_text="Rounds in force dealt from this shoe.")
    cards_left = serializers.SerializerMethodField(help_text="Cards still in the shoe (null for veintiuno).")

    @extend_schema_field(OpenApiTypes.INT)
    def get_rounds(self, shoe) -> int:
        return shoe.rounds.filter(status="recorded").count()

    @extend_schema_field(OpenApiTypes.INT)
    def get_cards_left(self, shoe) -> int | None:
        return selectors.shoe_cards_left(shoe=shoe)


class IncidentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    card = serializers.CharField()
    exposed = serializers.BooleanField()
    table = serializers.CharField(source="table.name")
    table_id = serializers.IntegerField()
    shoe = serializers.IntegerField(source="shoe_id", allow_null=True)
    round = serializers.IntegerField(source="round_id", allow_null=True)
    dealer = serializers.CharField(source="dealer.username")
    reported_by = serializers.CharField(source="reported_by.username")
    reported_at = serializers.DateTimeField()
    status = serializers.CharField()
    resolution = serializers.CharField()
    to_box = serializers.IntegerField(allow_null=True)
    evidence = serializers.CharField()
    note = serializers.CharField()


class IncidentDetailSerializer(IncidentSerializer):
    approvals = ApprovalSerializer(many=True, source="approvals.all")


class DecisionInput(serializers.Serializer):
    comment = Text(required=False, allow_blank=True, default="", max_length=4000,
                   help_text="Required to reject: why.")


# --- authentication ---------------------------------------------------------------------------------------

class TokenCreateApi(APIView):
    """`username` + `password` → the user's API token (`Authorization: Token <key>`)."""

    authentication_classes = []
    permission_classes = [AllowAny]

    class TokenInput(serializers.Serializer):
        username = Text(max_length=150)
        password = Text(max_length=4096, trim_whitespace=False, style={"input_type": "password"})

    @extend_schema(request=TokenInput, auth=[],
                   responses={200: inline_serializer("Token", {"token": serializers.CharField()}), **errors(400)})
    def post(self, request):
        data = self.TokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(request, **data.validated_data)
        if user is None or not user.is_active:
            raise ServiceError(_("Unable to log in with the username and password given."),
                               extra={"code": "bad_credentials"})
        token, _created = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


# --- shoes --------------------------------------------------------------------------------------------

class ShoeCollectionApi(_PerMethodRoles):
    """GET: the shoes of the user's pits. POST: load a new shoe at a table (the open one ends)."""

    method_roles = {"GET": READERS, "POST": (DEALER, PIT_BOSS)}
    filter_backends = [DjangoFilterBackend]  # documents the filters in the schema; the selector applies them
    filterset_class = ShoeFilter
    queryset = Shoe.objects.none()
    pagination_class = Pagination

    class ShoeStartInput(serializers.Serializer):
        table = serializers.PrimaryKeyRelatedField(queryset=Table.objects.select_related("pit"))
        decks = serializers.IntegerField(required=False, min_value=1, max_value=16,
                                         help_text="Packs; by default the table's house rules'.")
        loaded_at = serializers.DateTimeField(required=False)

    @extend_schema(operation_id="shoes_list", responses={200: ShoeSerializer(many=True), **errors(400, 401, 403)})
    def get(self, request):
        return _paginated(self, selectors.shoe_list(user=request.user, filters=request.query_params), ShoeSerializer)

    @extend_schema(operation_id="shoes_start", request=ShoeStartInput,
                   responses={201: ShoeDetailSerializer, **errors(400, 401, 403)})
    def post(self, request):
        data = self.ShoeStartInput(data=request.data)
        data.is_valid(raise_exception=True)
        shoe = services.shoe_start(shuffled_by=request.user, **data.validated_data)
        return Response(ShoeDetailSerializer(shoe).data, status=status.HTTP_201_CREATED)


class ShoeDetailApi(APIView):
    permission_classes = [HasRole(*READERS)]

    @extend_schema(responses={200: ShoeDetailSerializer, **errors(401, 403, 404)})
    def get(self, request, pk: int):
        return Response(ShoeDetailSerializer(selectors.shoe_get(user=request.user, pk=pk)).data)


class ShoeEndApi(APIView):
    permission_classes = [HasRole(DEALER, PIT_BOSS)]

    @extend_schema(request=None, responses={200: ShoeDetailSerializer, **errors(401, 403, 404, 409)})
    def post(self, request, pk: int):
        shoe = services.shoe_end(shoe=selectors.shoe_get(user=request.user, pk=pk), ended_by=request.user)
        return Response(ShoeDetailSerializer(shoe).data)


class ShoeBurnApi(APIView):
    """A card burned between rounds."""

    permission_classes = [HasRole(DEALER, INSPECTOR, PIT_BOSS)]

    class BurnInput(serializers.Serializer):
        card = Text(max_length=8, help_text="Rank and suit: TS, AH, 10d.")
        reason = serializers.ChoiceField(choices=BurnReason.choices)
        fee = serializers.DecimalField(**MONEY, required=False, allow_null=True,
                                       help_text="What the player paid (paid burns only).")

    @extend_schema(request=BurnInput, responses={201: ShoeEventSerializer, **errors(400, 401, 403, 404, 409)})
    def post(self, request, pk: int):
        shoe = selectors.shoe_get(user=request.user, pk=pk)
        data = self.BurnInput(data=request.data)
        data.is_valid(raise_exception=True)
        event = services.shoe_burn(shoe=shoe, recorded_by=request.user, **data.validated_data)
        return Response(ShoeEventSerializer(event).data, status=status.HTTP_201_CREATED)


class ShoeDealerChangeApi(APIView):
    """A new dealer takes the table."""

    permission_classes = [HasRole(DEALER, INSPECTOR, PIT_BOSS)]

    class DealerChangeInput(serializers.Serializer):
        dealer = Text(max_length=150, help_text="The new dealer's username.")

    @extend_schema(request=DealerChangeInput, responses={201: ShoeEventSerializer, **errors(400, 401, 403, 404, 409)})
    def post(self, request, pk: int):
        shoe = selectors.shoe_get(user=request.user, pk=pk)
        data = self.DealerChangeInput(data=request.data)
        data.is_valid(raise_exception=True)
        dealer = _user(data.validated_data["dealer"], "dealer")
        event = services.shoe_dealer_change(shoe=shoe, dealer=dealer, recorded_by=request.user)
        return Response(ShoeEventSerializer(event).data, status=status.HTTP_201_CREATED)


# --- rounds ----------------------------------------------------------------------------------------------

ROUND_EXAMPLE = {
    "format": "round/1", "id": "b7e4c2d0-5a1f-4a3e-9d51-0c7f2f0a9e11", "variant": "ochko",
    "table": {"name": "R-1"},
    "stakes": [{"id": "1a", "box": 1, "player": "P-23", "ante": 100}],
    "events": [{"e": "deal", "to": 1, "card": "9H"}, {"e": "deal", "to": "dealer", "card": "7C"},
               {"e": "bet", "stake": "1a", "amount": 300}, {"e": "open"}, {"e": "hit", "box": 1, "card": "TD"},
               {"e": "stand", "box": 1}, {"e": "draw", "card": "6S"}, {"e": "draw", "card": "9D"},
               {"e": "pay", "stake": "1a", "wager": "bet", "amount": 300},
               {"e": "pay", "stake": "1a", "wager": "ante", "amount": 100}],
}


class _Logged:
    """RoundLoggedSerializer's fields, bound once: a serializer deep-copies its declared fields each
    time it is made, which costs more than writing the answer; the fields keep no state of their
    own between records, so one bound set serves every request (and every thread)."""

    _serializer = None

    @classmethod
    def data(cls, record: Round) -> dict:
        if cls._serializer is None:
            serializer = RoundLoggedSerializer()
            serializer.fields  # noqa: B018 - bind them now, once
            cls._serializer = serializer
        return cls._serializer.to_representation(record)


def _logged(record: Round, created: bool) -> Response:
    outcome = getattr(record, "outcome", None)  # a new record carries its replay; a repeat is replayed
    record._findings = ([f.to_dict() for f in outcome.findings] if outcome is not None
                        else selectors.round_settlement(round=record)["findings"])
    return Response(_Logged.data(record), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class RoundCollectionApi(_PerMethodRoles):
    """GET: the rounds the user may see. POST: log a `round/1` document."""

    method_roles = {"GET": READERS, "POST": (DEALER, PIT_BOSS)}
    filter_backends = [DjangoFilterBackend]
    filterset_class = RoundFilter
    queryset = Round.objects.none()
    pagination_class = Pagination

    @extend_schema(operation_id="rounds_list", responses={200: RoundSerializer(many=True), **errors(400, 401, 403)})
    def get(self, request):
        return _paginated(self, selectors.round_list(user=request.user, filters=request.query_params), RoundSerializer)

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
        record, created = services.round_log(document=_raw_body(request), logged_by=request.user)
        return _logged(record, created)


class RoundDetailApi(APIView):
    permission_classes = [HasRole(*READERS)]

    @extend_schema(responses={200: RoundDetailSerializer, **errors(401, 403, 404)})
    def get(self, request, pk: int):
        return Response(RoundDetailSerializer(selectors.round_get(user=request.user, pk=pk)).data)


class RoundAmendApi(APIView):
    """Correct a round: a new revision awaiting a pit boss; the round stays as it was until he approves."""

    permission_classes = [HasRole(DEALER, PIT_BOSS)]

    class AmendInput(serializers.Serializer):
        reason = Text(max_length=4000, help_text="Why the round is corrected.")
        document = serializers.DictField(help_text="The corrected round/1 document (same id).")

    @extend_schema(request=AmendInput, responses={201: RoundLoggedSerializer, **errors(400, 401, 403, 404, 409, 413)})
    def post(self, request, pk: int):
        record = selectors.round_get(user=request.user, pk=pk)
        data = self.AmendInput(data=_json_body(request))
        data.is_valid(raise_exception=True)
        amendment = services.round_amend(round=record, amended_by=request.user, **data.validated_data)
        return _logged(amendment, True)


class _RoundDecisionApi(APIView):
    permission_classes = [HasRole(PIT_BOSS)]
    decision = ""

    def post(self, request, pk: int):
        record = selectors.round_get(user=request.user, pk=pk)
        data = DecisionInput(data=request.data)
        data.is_valid(raise_exception=True)
        approval = services.round_amendment_decide(round=record, decided_by=request.user, decision=self.decision,
                                                   **data.validated_data)
        return Response(ApprovalSerializer(approval).data)


@extend_schema(request=DecisionInput, responses={200: ApprovalSerializer, **errors(400, 401, 403, 404, 409)},
               description="A pit boss of the table's pit approves a pending correction: it becomes the round in "
                           "force. Never a correction he made, nor of a round he dealt.")
class RoundApproveApi(_RoundDecisionApi):
    decision = Decision.APPROVED


@extend_schema(request=DecisionInput, responses={200: ApprovalSerializer, **errors(400, 401, 403, 404, 409)},
               description="A pit boss rejects a pending correction, saying why (`comment`).")
class RoundRejectApi(_RoundDecisionApi):
    decision = Decision.REJECTED


# --- stakes ---------------------------------------------------------------------------------------------

class StakeListApi(APIView):
    permission_classes = [HasRole(*READERS)]
    filter_backends = [DjangoFilterBackend]
    filterset_class = StakeFilter
    queryset = Stake.objects.none()
    pagination_class = Pagination

    @extend_schema(responses={200: StakeSerializer(many=True), **errors(400, 401, 403)})
    def get(self, request):
        return _paginated(self, selectors.stake_list(user=request.user, filters=request.query_params), StakeSerializer)


# --- incidents -------------------------------------------------------------------------------------------

class IncidentCollectionApi(_PerMethodRoles):
    """GET: the incidents the user may see. POST: an inspector or pit boss reports one."""

    method_roles = {"GET": READERS, "POST": (INSPECTOR, PIT_BOSS)}
    filter_backends = [DjangoFilterBackend]
    filterset_class = IncidentFilter
    queryset = Incident.objects.none()
    pagination_class = Pagination

    class IncidentReportInput(serializers.Serializer):
        table = serializers.PrimaryKeyRelatedField(queryset=Table.objects.select_related("pit"))
        kind = serializers.ChoiceField(choices=IncidentKind.choices)
        card = Text(max_length=8, help_text="Rank and suit: TS, AH, 10d.")
        exposed = serializers.BooleanField(default=True, help_text="Whether the card was seen.")
        resolution = serializers.ChoiceField(choices=Resolution.choices)
        to_box = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=32767,
                                          help_text="The box the pit boss placed the card on (resolution to_box).")
        dealer = Text(max_length=150, help_text="The dealer's username.")
        round = serializers.PrimaryKeyRelatedField(queryset=Round.objects.all(), required=False, allow_null=True)
        shoe = serializers.PrimaryKeyRelatedField(queryset=Shoe.objects.all(), required=False, allow_null=True)
        evidence = Text(required=False, allow_blank=True, default="", max_length=120,
                        help_text="A reference such as a surveillance clip id.")
        note = Text(required=False, allow_blank=True, default="", max_length=4000)

    @extend_schema(operation_id="incidents_list",
                   responses={200: IncidentSerializer(many=True), **errors(400, 401, 403)})
    def get(self, request):
        incidents = selectors.incident_list(user=request.user, filters=request.query_params)
        return _paginated(self, incidents, IncidentSerializer)

    @extend_schema(operation_id="incidents_report", request=IncidentReportInput,
                   responses={201: IncidentDetailSerializer, **errors(400, 401, 403)})
    def post(self, request):
        data = self.IncidentReportInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        fields["dealer"] = _user(fields["dealer"], "dealer")
        incident = services.incident_report(reported_by=request.user, **fields)
        return Response(IncidentDetailSerializer(incident).data, status=status.HTTP_201_CREATED)


class IncidentDetailApi(APIView):
    permission_classes = [HasRole(*READERS)]

    @extend_schema(responses={200: IncidentDetailSerializer, **errors(401, 403, 404)})
    def get(self, request, pk: int):
        return Response(IncidentDetailSerializer(selectors.incident_get(user=request.user, pk=pk)).data)


class _IncidentDecisionApi(APIView):
    permission_classes = [HasRole(PIT_BOSS)]
    decision = ""

    def post(self, request, pk: int):
        incident = selectors.incident_get(user=request.user, pk=pk)
        data = DecisionInput(data=request.data)
        data.is_valid(raise_exception=True)
        approval = services.incident_decide(incident=incident, decided_by=request.user, decision=self.decision,
                                            **data.validated_data)
        return Response(ApprovalSerializer(approval).data)


@extend_schema(request=DecisionInput, responses={200: ApprovalSerializer, **errors(400, 401, 403, 404, 409)},
               description="A pit boss of the table's pit approves a reported incident — never one he reported "
                           "or one where he was the dealer.")
class IncidentApproveApi(_IncidentDecisionApi):
    decision = Decision.APPROVED


@extend_schema(request=DecisionInput, responses={200: ApprovalSerializer, **errors(400, 401, 403, 404, 409)},
               description="A pit boss rejects a reported incident, saying why (`comment`).")
class IncidentRejectApi(_IncidentDecisionApi):
    decision = Decision.REJECTED


# --- the engine -----------------------------------------------------------------------------------------

class EngineSettleApi(APIView):
    """The engine's `settlement/1` for a posted `round/1` document; nothing is stored."""

    permission_classes = [HasAnyRole]

    @extend_schema(request={"application/json": OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("An ochko round", value={**ROUND_EXAMPLE, "table": {"min": 100,
                                                                                              "max": 5000}},
                                            request_only=True)],
                   responses={200: OpenApiTypes.OBJECT, **errors(400, 401, 403, 413)})
    def post(self, request):
        try:
            return Response(engine.settle(_raw_body(request)))
        except engine.RoundError as exc:
            raise services.engine_error(exc) from None
