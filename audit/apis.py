"""The audit endpoints (under /api/v1/). One API class per operation with its own small serializers,
as casino/apis.py; reads go through selectors and writes through services, so the API and the
pages agree on who sees and does what. Errors are `{"message", "extra"}` (casino/exception_handlers.py).

- GET  findings/                 the findings the user may see, filtered (audit/filters.py), paginated
- GET  findings/{id}/            one finding with its review history
- POST findings/{id}/review/     an auditor's decision on one finding
- POST findings/review/          the same decision on many findings at once
- GET  audit-runs/               the runs (auditors)
- POST audit-runs/               start a run over a selection (auditors) → 202
- GET  audit-runs/{id}/          a run's progress and totals
"""

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_errors import errors
from casino.api_inputs import Day, JsonInput, Text
from casino.models import Table
from casino.pagination import KeysetPagination, StrictLimitOffsetPagination
from casino.roles import HasRole

from . import access, selectors, services
from .choices import Classification, FindingStatus, RunTrigger, Severity
from .models import AuditRun

User = get_user_model()


class Pagination(StrictLimitOffsetPagination):
    default_limit = 100
    max_limit = 1000


class FindingPagination(KeysetPagination, Pagination):
    """Findings newest first: by `limit`/`offset` as before, or by key (`older`, `newer`, `at`)."""

    keyset_field = "played_at"


def paginated(request, view, queryset, serializer_class, pagination=Pagination) -> Response:
    paginator = pagination()
    page = paginator.paginate_queryset(queryset, request, view=view)
    return paginator.get_paginated_response(serializer_class(page, many=True, context={"request": request}).data)


# --- findings -------------------------------------------------------------------------------------


class FindingSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField(
        source="round_id", allow_null=True, help_text="The round record's id; empty for a shoe finding."
    )
    table_round = serializers.IntegerField(
        source="round.table_round",
        allow_null=True,
        default=None,
        help_text="The round's number at its table (1, 2, …), as pages show it.",
    )
    round_uid = serializers.UUIDField(source="round.uid", allow_null=True, default=None)
    shoe = serializers.IntegerField(source="shoe_id", allow_null=True)
    pit = serializers.CharField(source="table.pit.name")
    table = serializers.CharField(source="table.name")
    dealer = serializers.CharField(source="dealer.username", allow_null=True, default=None)
    played_at = serializers.DateTimeField()
    code = serializers.CharField()
    severity = serializers.ChoiceField(choices=Severity.choices)
    event = serializers.IntegerField(allow_null=True, help_text="0-based event index (a shoe's: item index).")
    stake = serializers.CharField()
    hand = serializers.CharField()
    wager = serializers.CharField()
    expected = serializers.JSONField(allow_null=True, help_text="What was owed: {result, amount}.")
    actual = serializers.JSONField(allow_null=True, help_text="What was logged: {result, amount}.")
    player_delta = serializers.DecimalField(
        max_digits=14, decimal_places=2, allow_null=True, help_text="What the player received minus what was owed."
    )
    message = serializers.CharField()
    params = serializers.JSONField(
        help_text="The named values of the message's sentence, with its `rule` "
        "(round-format.md, third wave; docs/findings.md); {} for a finding stored "
        "before findings had params."
    )
    engine_version = serializers.CharField()
    status = serializers.ChoiceField(choices=FindingStatus.choices)
    classification = serializers.CharField()
    reviewed_by = serializers.CharField(source="reviewed_by.username", allow_null=True, default=None)
    reviewed_at = serializers.DateTimeField(allow_null=True)
    replay_url = serializers.SerializerMethodField()

    def get_replay_url(self, finding) -> str:
        if finding.round_id:
            return reverse("audit:round_replay", args=[finding.round_id])
        return reverse("audit:shoe_detail", args=[finding.shoe_id])


class ReviewSerializer(serializers.Serializer):
    auditor = serializers.CharField(source="auditor.username")
    status = serializers.ChoiceField(choices=FindingStatus.choices)
    classification = serializers.CharField()
    comment = serializers.CharField()
    at = serializers.DateTimeField()


class FindingDetailSerializer(FindingSerializer):
    reviews = ReviewSerializer(many=True, help_text="Newest first.")


class ReviewInputSerializer(JsonInput):
    status = serializers.ChoiceField(choices=FindingStatus.choices)
    classification = serializers.ChoiceField(
        choices=Classification.choices, required=False, allow_blank=True, default=""
    )
    comment = Text(required=False, allow_blank=True, default="", max_length=2000, lines=True)


FILTER_PARAMETERS = [
    OpenApiParameter("code", OpenApiTypes.STR, many=True, description="Finding code(s), e.g. WRONG_AMOUNT."),
    OpenApiParameter("severity", OpenApiTypes.STR, many=True, enum=Severity.values),
    OpenApiParameter("status", OpenApiTypes.STR, many=True, enum=FindingStatus.values),
    OpenApiParameter("classification", OpenApiTypes.STR, many=True, enum=Classification.values),
    OpenApiParameter("pit", OpenApiTypes.INT, many=True, description="Pit id(s)."),
    OpenApiParameter("table", OpenApiTypes.INT, many=True, description="Table id(s)."),
    OpenApiParameter("variant", OpenApiTypes.STR, many=True),
    OpenApiParameter("dealer", OpenApiTypes.INT, many=True, description="Dealer user id(s)."),
    OpenApiParameter("date_from", OpenApiTypes.DATE, description="Played on or after this day."),
    OpenApiParameter("date_to", OpenApiTypes.DATE, description="Played on or before this day."),
    OpenApiParameter("round", OpenApiTypes.INT),
    OpenApiParameter("shoe", OpenApiTypes.INT),
    OpenApiParameter("kind", OpenApiTypes.STR, enum=["round", "shoe"]),
    OpenApiParameter(
        "impact",
        OpenApiTypes.STR,
        enum=["under", "over", "any"],
        description="Findings that short-changed the player, overpaid him, or either.",
    ),
    OpenApiParameter("q", OpenApiTypes.STR, description="Text in the message, the code or the stake id."),
]


class FindingListApi(APIView):
    permission_classes = [HasRole(*access.FINDING_ROLES)]
    pagination_class = FindingPagination  # what the schema shows: the page object, its parameters

    @extend_schema(parameters=FILTER_PARAMETERS, responses=FindingSerializer(many=True))
    def get(self, request):
        findings = selectors.finding_list(user=request.user, filters=request.query_params)
        return paginated(request, self, findings, FindingSerializer, FindingPagination)


class FindingDetailApi(APIView):
    permission_classes = [HasRole(*access.FINDING_ROLES)]

    @extend_schema(responses=FindingDetailSerializer)
    def get(self, request, pk: int):
        finding = selectors.finding_get(user=request.user, finding_id=pk)
        return Response(FindingDetailSerializer(finding, context={"request": request}).data)


class FindingReviewApi(APIView):
    permission_classes = [HasRole(*access.REVIEW_ROLES)]

    @extend_schema(operation_id="findings_review", request=ReviewInputSerializer, responses=FindingDetailSerializer)
    def post(self, request, pk: int):
        data = ReviewInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        finding = selectors.finding_get(user=request.user, finding_id=pk)
        services.finding_review(finding_ids=[finding.pk], auditor=request.user, **data.validated_data)
        finding = selectors.finding_get(user=request.user, finding_id=pk)
        return Response(FindingDetailSerializer(finding, context={"request": request}).data)


class FindingBulkReviewApi(APIView):
    permission_classes = [HasRole(*access.REVIEW_ROLES)]

    class BulkReviewInputSerializer(ReviewInputSerializer):
        ids = serializers.ListField(
            child=serializers.IntegerField(min_value=1), min_length=1, max_length=services.MAX_BULK_REVIEW
        )

    class BulkReviewOutputSerializer(serializers.Serializer):
        reviewed = serializers.IntegerField()
        findings = FindingSerializer(many=True)

    @extend_schema(
        operation_id="findings_bulk_review",
        request=BulkReviewInputSerializer,
        responses={200: BulkReviewOutputSerializer, **errors(404)},
    )  # 404: an id that is no finding
    def post(self, request):
        data = self.BulkReviewInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        findings = services.finding_review(finding_ids=values.pop("ids"), auditor=request.user, **values)
        out = {"reviewed": len(findings), "findings": findings}
        return Response(self.BulkReviewOutputSerializer(out, context={"request": request}).data)


# --- audit runs -----------------------------------------------------------------------------------


class AuditRunSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    trigger = serializers.CharField()
    started_by = serializers.CharField(source="started_by.username", allow_null=True, default=None)
    tables = serializers.SerializerMethodField(help_text="Table names; empty: every table.")
    dealers = serializers.SerializerMethodField(help_text="Dealer usernames; empty: every dealer.")
    date_from = serializers.DateField(allow_null=True)
    date_to = serializers.DateField(allow_null=True)
    only_unaudited = serializers.BooleanField()
    planned = serializers.BooleanField(help_text="Every chunk of the selection is planned (rounds_total is final).")
    rounds_expected = serializers.IntegerField(help_text="The selection counted when the run started.")
    percent = serializers.IntegerField()
    rounds_total = serializers.IntegerField()
    rounds_done = serializers.IntegerField()
    clean = serializers.IntegerField()
    with_findings = serializers.IntegerField()
    errors = serializers.IntegerField()
    findings_total = serializers.IntegerField()
    findings_by_code = serializers.DictField(child=serializers.IntegerField())
    engine_version = serializers.CharField()
    error = serializers.CharField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    def get_tables(self, run) -> list[str]:
        return [table.name for table in run.tables.all()]

    def get_dealers(self, run) -> list[str]:
        return [user.get_username() for user in run.dealers.all()]


class AuditRunStartSerializer(JsonInput):
    tables = serializers.SlugRelatedField(
        slug_field="name",
        many=True,
        required=False,
        queryset=Table.objects.all(),
        help_text="Table names; none: every table.",
    )
    dealers = serializers.SlugRelatedField(
        slug_field="username",
        many=True,
        required=False,
        queryset=User.objects.all(),
        help_text="Dealer usernames; none: all.",
    )
    date_from = Day(required=False, allow_null=True)
    date_to = Day(required=False, allow_null=True)
    only_unaudited = serializers.BooleanField(required=False, default=True)
    chunk_size = serializers.IntegerField(required=False, min_value=1, max_value=services.MAX_CHUNK_SIZE)


class AuditRunListApi(APIView):
    """GET: the runs, newest first. POST: start a run."""

    permission_classes = [HasRole(*access.RUN_ROLES)]
    pagination_class = Pagination  # what the schema shows: the page object, its parameters

    @extend_schema(responses=AuditRunSerializer(many=True))
    def get(self, request):
        return paginated(request, self, selectors.audit_run_list(user=request.user), AuditRunSerializer)

    @extend_schema(request=AuditRunStartSerializer, responses={202: AuditRunSerializer})
    def post(self, request):
        data = AuditRunStartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        with transaction.atomic():
            run = services.audit_run_start(started_by=request.user, trigger=RunTrigger.API, **data.validated_data)
        run = AuditRun.objects.get(pk=run.pk)  # as far as it got (with eager tasks: finished)
        return Response(AuditRunSerializer(run).data, status=status.HTTP_202_ACCEPTED)


class AuditRunDetailApi(APIView):
    permission_classes = [HasRole(*access.RUN_ROLES)]

    @extend_schema(responses=AuditRunSerializer)
    def get(self, request, pk: int):
        return Response(AuditRunSerializer(selectors.audit_run_get(user=request.user, run_id=pk)).data)
