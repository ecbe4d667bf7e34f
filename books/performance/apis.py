"""Dealer performance endpoints (under /api/v1/books/performance/), the pages' figures as JSON.

    GET performance/?days=N | ?from=&to=     every dealer of the viewer's floor (a dealer: his own row)
    GET performance/<dealer id>/?days=N      one dealer, with his game pace and weekly trend

Rates, intervals and money leave as decimal strings, p-values as numbers."""

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.dashboard import period_from
from casino.api_inputs import Day
from casino.roles import HasRole

from . import selectors

PERIOD_PARAMETERS = [
    OpenApiParameter("days", OpenApiTypes.INT, description="The last N days (default 30, at most 366)."),
    OpenApiParameter("from", OpenApiTypes.DATE, description="First day (with `to`, instead of `days`)."),
    OpenApiParameter("to", OpenApiTypes.DATE, description="Last day."),
]


class _PeriodQuerySerializer(serializers.Serializer):
    """The period's parameters, checked: a malformed date or count is a 400 naming it, not another period."""

    days = serializers.IntegerField(required=False, allow_null=True)
    to = Day(required=False, allow_null=True)

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = Day(required=False, allow_null=True)  # a keyword in Python
        return fields


def request_period(request):
    params = {name: value for name, value in request.query_params.items() if value != ""}
    _PeriodQuerySerializer(data=params).is_valid(raise_exception=True)
    return period_from(params)


class _WeekSerializer(serializers.Serializer):
    start = serializers.DateField()
    rounds = serializers.IntegerField()
    errors = serializers.IntegerField()
    per_100 = serializers.DecimalField(max_digits=12, decimal_places=2)


@extend_schema_serializer(component_name="DealerPerformance")
class DealerSerializer(serializers.Serializer):
    dealer_id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()
    rounds = serializers.IntegerField()
    errors = serializers.IntegerField()
    per_100 = serializers.DecimalField(max_digits=12, decimal_places=2)
    ci_low = serializers.DecimalField(max_digits=12, decimal_places=2)
    ci_high = serializers.DecimalField(max_digits=12, decimal_places=2)
    over = serializers.DecimalField(max_digits=18, decimal_places=2)
    under = serializers.DecimalField(max_digits=18, decimal_places=2)
    net = serializers.DecimalField(max_digits=18, decimal_places=2)
    p_value = serializers.FloatField()
    p_holm = serializers.FloatField()
    flagged = serializers.BooleanField()
    weeks = _WeekSerializer(many=True)


@extend_schema_serializer(component_name="FloorPerformance")
class FloorSerializer(serializers.Serializer):
    date_from = serializers.DateField(source="period.date_from")
    date_to = serializers.DateField(source="period.date_to")
    rounds = serializers.IntegerField()
    errors = serializers.IntegerField()
    per_100 = serializers.DecimalField(max_digits=12, decimal_places=2)
    ci_low = serializers.DecimalField(max_digits=12, decimal_places=2)
    ci_high = serializers.DecimalField(max_digits=12, decimal_places=2)
    alpha = serializers.FloatField()
    test = serializers.CharField()
    dealers = DealerSerializer(source="rows", many=True)


@extend_schema_serializer(component_name="DealerPace")
class PaceSerializer(serializers.Serializer):
    per_hour = serializers.DecimalField(max_digits=10, decimal_places=1, allow_null=True)
    hours = serializers.DecimalField(max_digits=12, decimal_places=2)
    rounds = serializers.IntegerField()
    intervals = serializers.IntegerField()
    breaks = serializers.IntegerField()
    shoe_changes = serializers.IntegerField()
    break_minutes = serializers.FloatField()


class PerformanceListApi(APIView):
    permission_classes = [HasRole(*selectors.ROLES)]

    @extend_schema(operation_id="books_performance_list", parameters=PERIOD_PARAMETERS, responses=FloorSerializer)
    def get(self, request):
        floor = selectors.floor_performance(user=request.user, period=request_period(request))
        return Response(FloorSerializer(floor).data)


class PerformanceDetailApi(APIView):
    permission_classes = [HasRole(*selectors.ROLES)]

    @extend_schema_serializer(component_name="DealerPerformanceDetail")
    class OutputSerializer(serializers.Serializer):
        floor_per_100 = serializers.DecimalField(max_digits=12, decimal_places=2)
        test = serializers.CharField()
        alpha = serializers.FloatField()
        dealer = DealerSerializer()
        pace = PaceSerializer()

    @extend_schema(operation_id="books_performance_detail", parameters=PERIOD_PARAMETERS, responses=OutputSerializer)
    def get(self, request, dealer: int):
        period = request_period(request)
        floor, row = selectors.dealer_row(user=request.user, period=period, dealer_id=dealer)
        if row is None:
            raise Http404
        pace = selectors.dealer_pace(user=request.user, dealer_id=dealer, period=period)
        pace_data = {
            name: getattr(pace, name) for name in ("per_hour", "hours", "rounds", "intervals", "breaks", "shoe_changes")
        }
        pace_data["break_minutes"] = selectors.break_after().total_seconds() / 60
        return Response(
            self.OutputSerializer(
                {
                    "floor_per_100": floor.per_100,
                    "test": floor.test,
                    "alpha": floor.alpha,
                    "dealer": row,
                    "pace": pace_data,
                }
            ).data
        )
