"""The drills' REST endpoints (under /api/v1/drills/), for a tablet at a practice table.

One class per operation with its own small serializers, as in casino/apis.py. The pages call the
same services and selectors. Business errors leave as ``{"message", "extra"}`` (casino/exception_handlers.py).
"""

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_serializer, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_errors import errors
from casino.api_inputs import Amount, JsonInput
from casino.roles import AUDITOR, PIT_BOSS, TRAINEE, HasRole

from . import presenters, selectors, services, setups
from .choices import Kind, Preset
from .models import Drill


def _own_drill(request, pk) -> Drill:
    """A drill the caller may read (404 otherwise); the services refuse a non-owner's moves (403)."""
    return selectors.drill_get(user=request.user, pk=pk)


class DrillOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    trainee = serializers.CharField(source="trainee.username")
    variant = serializers.CharField()
    preset = serializers.CharField()
    kind = serializers.CharField()
    seed = serializers.IntegerField()
    options = serializers.DictField(help_text="The difficulty options in force.")
    table = serializers.CharField(source="table_name")
    table_min = serializers.DecimalField(max_digits=14, decimal_places=2)
    table_max = serializers.DecimalField(max_digits=14, decimal_places=2)
    chips = serializers.ListField(child=serializers.CharField())
    rounds_planned = serializers.IntegerField()
    rounds_done = serializers.IntegerField()
    status = serializers.CharField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class DrillListApi(APIView):
    permission_classes = [HasRole(TRAINEE, PIT_BOSS, AUDITOR)]

    @extend_schema(responses=DrillOutputSerializer(many=True), summary="Drills the caller may read")
    def get(self, request):
        drills = selectors.drill_list(user=request.user)[:200]
        return Response(DrillOutputSerializer(drills, many=True).data)


class DrillStartApi(APIView):
    permission_classes = [HasRole(TRAINEE)]

    @extend_schema_serializer(component_name="DrillStartInput")
    class InputSerializer(JsonInput):
        variant = serializers.ChoiceField(choices=list(setups.features()))
        preset = serializers.ChoiceField(choices=Preset.values, required=False, default="", allow_blank=True)
        kind = serializers.ChoiceField(choices=Kind.choices)
        table = serializers.CharField(
            required=False,
            default="",
            allow_blank=True,
            help_text="A practice table of the game (e.g. r100, escribas); the first one when empty.",
        )
        rounds = serializers.IntegerField(required=False, min_value=1, max_value=setups.MAX_ROUNDS)
        seed = serializers.IntegerField(
            required=False, min_value=0, max_value=services.MAX_SEED, help_text="The same seed deals the same rounds."
        )
        options = serializers.DictField(
            required=False,
            default=dict,
            help_text="Difficulty: boxes (most boxes in play), the game's situations "
            "(true/false), for ochko procedure drills incidents "
            "(none|some|every) and incident_kinds, for the ochko strategy "
            "trainer house_rules {dark_win_bet, dark_double_bust_bet: "
            "leave|take}.",
        )

    @extend_schema(
        request=InputSerializer,
        responses={201: DrillOutputSerializer},
        summary="Start a drill",
        examples=[
            OpenApiExample(
                "A blackjack payout drill",
                value={"variant": "blackjack", "preset": "salon", "kind": "payout", "rounds": 5},
                request_only=True,
            ),
            OpenApiExample(
                "An ochko procedure drill", value={"variant": "ochko", "kind": "procedure"}, request_only=True
            ),
        ],
    )
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        drill = services.drill_start(
            trainee=request.user,
            variant=data["variant"],
            preset=data["preset"],
            kind=data["kind"],
            table=data["table"],
            options=data["options"],
            rounds=data.get("rounds"),
            seed=data.get("seed"),
        )
        return Response(DrillOutputSerializer(drill).data, status=status.HTTP_201_CREATED)


NextOutput = inline_serializer(
    "DrillNext",
    fields={
        "drill": serializers.IntegerField(),
        "finished": serializers.BooleanField(),
        "round": serializers.IntegerField(allow_null=True),
        "rounds_planned": serializers.IntegerField(),
        "kind": serializers.CharField(),
        "table": serializers.JSONField(
            help_text="The table to draw: spots (boxes or seats) with hands, cards and "
            "stakes, the dealer's (or bank's) cards."
        ),
        "sheet": serializers.JSONField(
            required=False, help_text="Payout: every wager to settle (stake, hand, wager, size)."
        ),
        "chips": serializers.ListField(child=serializers.CharField(), required=False),
        "step": serializers.IntegerField(required=False, help_text="Procedure: the step in play."),
        "steps": serializers.IntegerField(required=False),
        "narration": serializers.ListField(child=serializers.CharField(), required=False),
        "prompt": serializers.CharField(required=False),
        "choices": serializers.JSONField(required=False, help_text="Procedure: [{key, label}], keys 1–9."),
        "hand": serializers.JSONField(
            required=False,
            help_text="Strategy: the box's cards, the dealer's up card (face down while an "
            "ochko box chooses its Bet), the Bet, the situation and the options "
            "[{option, key, label}] (blackjack H S D P E, insurance I N; ochko F, "
            "1–9, 0 = Bet 10, then S H D; veintiuno S H T W); phase (bet, "
            "insurance, play, done); after a split hands [{number, cards, total, "
            "end, current}] and hand_number, the hand in play.",
        ),
    },
)


class DrillNextApi(APIView):
    permission_classes = [HasRole(TRAINEE)]

    @extend_schema(request=None, responses=NextOutput, summary="The round (and step) in play; deals the next round")
    def post(self, request, pk):
        drill = _own_drill(request, pk)
        current = services.drill_next(drill=drill, user=request.user)
        drill.refresh_from_db()
        return Response(presenters.next_json(drill, current))


class DrillAnswerApi(APIView):
    permission_classes = [HasRole(TRAINEE)]

    @extend_schema_serializer(component_name="DrillSettlementAnswer")
    class AnswerSerializer(JsonInput):
        stake = serializers.CharField()
        hand = serializers.CharField(required=False, allow_null=True, allow_blank=True, default=None)
        wager = serializers.CharField()
        result = serializers.ChoiceField(choices=["pay", "take", "leave"])
        amount = Amount(
            required=False,
            allow_null=True,
            min_value=0,
            help_text="Required to pay; the wager itself otherwise.",
        )

    @extend_schema_serializer(component_name="DrillAnswerInput")
    class InputSerializer(JsonInput):
        round = serializers.IntegerField(required=False, help_text="The round in play (checked when given).")
        answers = serializers.ListField(
            required=False,
            help_text="Payout: the settlement in the order it was made: [{stake, hand, wager, result, amount}].",
        )
        step = serializers.IntegerField(required=False, help_text="Procedure and strategy: the step in play.")
        choice = serializers.CharField(
            required=False,
            help_text="Procedure: the key of the chosen move. Strategy: "
            "the option's key (H, S, D, P, F, 0–9) or name "
            "(hit, bet:3 …).",
        )

    @extend_schema(
        request=InputSerializer,
        # 409: the drill is finished, no round is waiting for an answer, or the answer names another
        # round or the other kind of drill.
        responses={
            200: inline_serializer(
                "DrillAnswer",
                fields={
                    "correct": serializers.BooleanField(),
                    "accuracy": serializers.DecimalField(max_digits=6, decimal_places=1, allow_null=True),
                    "round_done": serializers.BooleanField(),
                    "finished": serializers.BooleanField(),
                    "graded": serializers.JSONField(
                        help_text="Payout: each answer with the engine's findings and the right "
                        "settlement. Procedure: the move, the right move, the "
                        "explanation. Strategy: the situation, the option chosen, the "
                        "best one, the chart's, every option's EV (in initial "
                        "wagers) and the cost of the choice at the stakes."
                    ),
                },
            ),
            **errors(409),
        },
        summary="Answer the round (payout) or the step (procedure) in play",
    )
    def post(self, request, pk):
        drill = _own_drill(request, pk)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if drill.kind == Kind.PAYOUT:
            answers = self._answers(data)
            done = services.payout_answer(
                drill=drill, user=request.user, answers=answers, round_number=data.get("round")
            )
            drill.refresh_from_db()
            return Response(presenters.payout_answer_json(drill, done))
        if not data.get("choice"):
            raise serializers.ValidationError({"choice": ["Choose a move."]})
        if drill.kind == Kind.STRATEGY:
            made = services.strategy_answer(
                drill=drill,
                user=request.user,
                choice=data["choice"],
                step=data.get("step"),
                round_number=data.get("round"),
            )
            drill.refresh_from_db()
            return Response(presenters.strategy_answer_json(drill, made))
        step = services.procedure_answer(
            drill=drill, user=request.user, choice=data["choice"], step=data.get("step"), round_number=data.get("round")
        )
        drill.refresh_from_db()
        return Response(presenters.procedure_answer_json(drill, step))

    def _answers(self, data) -> list[dict]:
        raw = data.get("answers")
        if not raw:
            raise serializers.ValidationError({"answers": ["Settle at least one wager."]})
        answers = []
        errors = {}
        for k, item in enumerate(raw):
            one = self.AnswerSerializer(data=item)
            if one.is_valid():
                answers.append(dict(one.validated_data))
            else:
                errors[f"answers[{k}]"] = one.errors
        if errors:
            raise serializers.ValidationError(errors)
        return answers


class DrillResultsApi(APIView):
    permission_classes = [HasRole(TRAINEE, PIT_BOSS, AUDITOR)]

    @extend_schema(
        responses=inline_serializer(
            "DrillResults",
            fields={
                "drill": DrillOutputSerializer(),
                "rounds": serializers.IntegerField(),
                "decisions": serializers.IntegerField(),
                "correct": serializers.IntegerField(),
                "accuracy": serializers.DecimalField(max_digits=6, decimal_places=1, allow_null=True),
                "band": serializers.CharField(allow_null=True),
                "streak_current": serializers.IntegerField(),
                "streak_best": serializers.IntegerField(),
                "per_decision_ms": serializers.IntegerField(allow_null=True),
                "pace_rounds_per_hour": serializers.DecimalField(max_digits=8, decimal_places=1, allow_null=True),
                "mistakes": serializers.JSONField(help_text="[{code, label, count}], most frequent first."),
                "situations": serializers.JSONField(
                    help_text="Strategy: the misplayed situations [{situation, count, "
                    "cost, best}], most frequent first."
                ),
                "per_round": serializers.JSONField(),
            },
        ),
        summary="Grading and progress of a drill",
    )
    def get(self, request, pk):
        drill = selectors.drill_get(user=request.user, pk=pk)
        results = selectors.drill_results(drill=drill)
        return Response(
            {
                "drill": DrillOutputSerializer(drill).data,
                **presenters.results_json(results),
                "per_round": presenters.rounds_json(drill),
            }
        )


class StandardOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    variant = serializers.CharField()
    preset = serializers.CharField()
    kind = serializers.CharField()
    rounds_in_row = serializers.IntegerField()
    min_accuracy = serializers.DecimalField(max_digits=5, decimal_places=2)
    time_limit_s = serializers.IntegerField(allow_null=True)
    is_active = serializers.BooleanField()
    set_by = serializers.CharField(source="set_by.username")
    set_at = serializers.DateTimeField()


class StandardListApi(APIView):
    permission_classes = [HasRole(PIT_BOSS, AUDITOR)]

    @extend_schema(responses=StandardOutputSerializer(many=True), summary="Certification standards in force")
    def get(self, request):
        return Response(StandardOutputSerializer(selectors.standards_in_force(), many=True).data)


class StandardSetApi(APIView):
    permission_classes = [HasRole(PIT_BOSS)]

    @extend_schema_serializer(component_name="StandardSetInput")
    class InputSerializer(JsonInput):
        variant = serializers.ChoiceField(choices=list(setups.features()))
        preset = serializers.ChoiceField(choices=Preset.values, required=False, default="", allow_blank=True)
        kind = serializers.ChoiceField(choices=Kind.choices, required=False, default=Kind.PAYOUT)
        rounds_in_row = serializers.IntegerField(min_value=1, max_value=1000)
        min_accuracy = serializers.DecimalField(max_digits=5, decimal_places=2, min_value=0, max_value=100)
        time_limit_s = serializers.IntegerField(required=False, allow_null=True, min_value=1)

    @extend_schema(
        request=InputSerializer,
        responses={201: StandardOutputSerializer},
        summary="Set the certification standard of a game (replaces the one in force)",
        examples=[
            OpenApiExample(
                "Ochko payout: 20 rounds in a row at 95%",
                value={"variant": "ochko", "kind": "payout", "rounds_in_row": 20, "min_accuracy": "95.00"},
                request_only=True,
            )
        ],
    )
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        standard = services.standard_set(user=request.user, **serializer.validated_data)
        return Response(StandardOutputSerializer(standard).data, status=status.HTTP_201_CREATED)
