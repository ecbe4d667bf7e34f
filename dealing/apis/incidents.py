"""Incidents: reporting one, reading them, the pit boss's decision."""

from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_errors import errors
from casino.api_inputs import JsonInput, Text
from casino.models import Table
from casino.roles import HasRole
from dealing import selectors, services
from dealing.access import READERS, REPORTERS
from dealing.choices import Decision, IncidentKind, Resolution
from dealing.filters import IncidentFilter
from dealing.models import Incident, Round, Shoe

from .common import Pagination, PerMethodRoles, paginated, user_named
from .decisions import DecisionApi
from .outputs import ApprovalSerializer, DecisionInput, IncidentDetailSerializer, IncidentSerializer


class IncidentCollectionApi(PerMethodRoles):
    """GET: the incidents the user may see. POST: an inspector or pit boss reports one."""

    method_roles = {"GET": READERS, "POST": REPORTERS}
    filter_backends = [DjangoFilterBackend]
    filterset_class = IncidentFilter
    queryset = Incident.objects.none()
    pagination_class = Pagination

    class IncidentReportInput(JsonInput):
        table = serializers.PrimaryKeyRelatedField(queryset=Table.objects.select_related("pit"))
        kind = serializers.ChoiceField(choices=IncidentKind.choices)
        card = Text(max_length=8, help_text="Rank and suit: TS, AH, 10d.")
        exposed = serializers.BooleanField(default=True, help_text="Whether the card was seen.")
        resolution = serializers.ChoiceField(choices=Resolution.choices)
        to_box = serializers.IntegerField(
            required=False,
            allow_null=True,
            min_value=1,
            max_value=32767,
            help_text="The box the pit boss placed the card on (resolution to_box).",
        )
        dealer = Text(max_length=150, help_text="The dealer's username.")
        round = serializers.PrimaryKeyRelatedField(queryset=Round.objects.all(), required=False, allow_null=True)
        shoe = serializers.PrimaryKeyRelatedField(queryset=Shoe.objects.all(), required=False, allow_null=True)
        evidence = Text(
            required=False,
            allow_blank=True,
            default="",
            max_length=120,
            help_text="A reference such as a surveillance clip id.",
        )
        note = Text(required=False, allow_blank=True, default="", max_length=4000, lines=True)

    @extend_schema(
        operation_id="incidents_list", responses={200: IncidentSerializer(many=True), **errors(400, 401, 403)}
    )
    def get(self, request):
        incidents = selectors.incident_list(user=request.user, filters=request.query_params)
        return paginated(self, incidents, IncidentSerializer)

    @extend_schema(
        operation_id="incidents_report",
        request=IncidentReportInput,
        responses={201: IncidentDetailSerializer, **errors(400, 401, 403)},
    )
    def post(self, request):
        data = self.IncidentReportInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        fields["dealer"] = user_named(fields["dealer"], "dealer")
        incident = services.incident_report(reported_by=request.user, **fields)
        return Response(IncidentDetailSerializer(incident).data, status=status.HTTP_201_CREATED)


class IncidentDetailApi(APIView):
    permission_classes = [HasRole(*READERS)]

    @extend_schema(responses={200: IncidentDetailSerializer, **errors(401, 403, 404)})
    def get(self, request, pk: int):
        return Response(IncidentDetailSerializer(selectors.incident_get(user=request.user, pk=pk)).data)


class _IncidentDecisionApi(DecisionApi):
    def subject(self, user, pk: int):
        return selectors.incident_get(user=user, pk=pk)

    def decide(self, subject, user, data: dict):
        return services.incident_decide(incident=subject, decided_by=user, decision=self.decision, **data)


@extend_schema(
    request=DecisionInput,
    responses={200: ApprovalSerializer, **errors(400, 401, 403, 404, 409)},
    description="A pit boss of the table's pit approves a reported incident — never one he reported "
    "or one where he was the dealer.",
)
class IncidentApproveApi(_IncidentDecisionApi):
    decision = Decision.APPROVED


@extend_schema(
    request=DecisionInput,
    responses={200: ApprovalSerializer, **errors(400, 401, 403, 404, 409)},
    description="A pit boss rejects a reported incident, saying why (`comment`).",
)
class IncidentRejectApi(_IncidentDecisionApi):
    decision = Decision.REJECTED
