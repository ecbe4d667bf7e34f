"""A player's evaluation over the API (under /api/v1/books/):

    GET  players/<player>/evaluation/     ?days= | ?from=&to=   (the period, as the dashboards')

The same evaluation the page shows (books/protection/views.py): the summary, the bet against the
count, the sessions and the deviations, for auditors and pit bosses (a pit boss: the rounds at his
pits' tables). A malformed period is a 400 naming the parameter; a player with no round the caller
may see, a 404.
"""

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from casino import collector
from casino.roles import HasRole

from ..performance.apis import PERIOD_PARAMETERS, request_period
from .selectors import READ_ROLES
from .views import evaluate

MAX_DECISIONS = 500


class _BetsSerializer(serializers.Serializer):
    n = serializers.IntegerField()
    correlation = serializers.FloatField(allow_null=True)
    slope = serializers.FloatField(allow_null=True, help_text="Money per unit of true count (least squares).")
    intercept = serializers.FloatField(allow_null=True)
    spread = serializers.FloatField(allow_null=True, help_text="95th over 5th percentile bet.")


class _DecisionSerializer(serializers.Serializer):
    round_id = serializers.CharField()
    stake = serializers.CharField()
    hand = serializers.CharField()
    situation = serializers.CharField()
    true_count = serializers.FloatField()
    chosen = serializers.CharField()
    optimal = serializers.CharField()
    ev_chosen = serializers.FloatField()
    ev_optimal = serializers.FloatField()
    wager = serializers.DecimalField(max_digits=14, decimal_places=2)
    given_up = serializers.DecimalField(max_digits=14, decimal_places=2)


class _SessionSerializer(serializers.Serializer):
    shoe = serializers.CharField()
    table = serializers.CharField()
    rounds = serializers.IntegerField()
    first_round = serializers.IntegerField()
    last_round = serializers.IntegerField()
    shoe_rounds = serializers.IntegerField()
    entry_count = serializers.FloatField()
    exit_count = serializers.FloatField(allow_null=True)
    shoe_mean_count = serializers.FloatField()
    wagered = serializers.DecimalField(max_digits=16, decimal_places=2)
    net = serializers.DecimalField(max_digits=16, decimal_places=2)


@extend_schema_serializer(component_name="BooksPlayerEvaluation")
class EvaluationSerializer(serializers.Serializer):
    player = serializers.CharField()
    date_from = serializers.DateField()
    date_to = serializers.DateField()
    rounds = serializers.IntegerField()
    sessions = serializers.IntegerField()
    wagered = serializers.DecimalField(max_digits=16, decimal_places=2)
    net = serializers.DecimalField(max_digits=16, decimal_places=2)
    edge = serializers.FloatField(allow_null=True, help_text="Net over wagered, %.")
    edge_low = serializers.FloatField(allow_null=True, help_text="95 % interval, low end, %.")
    edge_high = serializers.FloatField(allow_null=True)
    expected_edge = serializers.FloatField(allow_null=True, help_text="From the shoes' compositions and his play, %.")
    decisions = serializers.IntegerField()
    deviations = serializers.IntegerField()
    accuracy = serializers.FloatField(allow_null=True)
    ev_given_up = serializers.DecimalField(max_digits=16, decimal_places=2)
    ev_gained = serializers.DecimalField(max_digits=16, decimal_places=2)
    bets = _BetsSerializer()
    entries_mid_shoe = serializers.IntegerField()
    entry_count_mean = serializers.FloatField(allow_null=True)
    exits_before_end = serializers.IntegerField()
    exit_count_mean = serializers.FloatField(allow_null=True)
    shoe_count_mean = serializers.FloatField(allow_null=True)
    insurance_offered = serializers.IntegerField()
    insurance_taken = serializers.IntegerField()
    insurance_right = serializers.IntegerField()
    insurance_taken_count_mean = serializers.FloatField(allow_null=True)
    session_list = _SessionSerializer(many=True)
    deviation_list = _DecisionSerializer(many=True, help_text=f"The {MAX_DECISIONS} costliest deviations.")


class PlayerEvaluationApi(APIView):
    permission_classes = [HasRole(*READ_ROLES)]

    @extend_schema(operation_id="books_player_evaluation", parameters=PERIOD_PARAMETERS, responses=EvaluationSerializer)
    @collector.paused()  # a year's documents and rounds make no cycle (casino/collector.py)
    def get(self, request, player: str):
        period = request_period(request)
        report = evaluate(request.user, player, period)
        deviations = report.costliest_deviations()
        data = {
            **report.summary(),
            "date_from": period.date_from,
            "date_to": period.date_to,
            "session_list": report.sessions,
            "deviation_list": deviations[:MAX_DECISIONS],
        }
        return Response(EvaluationSerializer(data).data)
