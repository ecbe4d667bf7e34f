"""The blackjack game math endpoints: the engine's `edge/1`, `strategy/1`, `ev/1`, the rule-effects
table and the jackpot, under /api/v1/math/blackjack/. A question the engine cannot ask
(QuestionError) is a 400 in the project's one error shape, naming the field."""

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_errors import errors
from casino.api_inputs import JsonInput
from casino.roles import HasRole
from dealing.games.math import READERS, asked, query

from . import selectors

DECIMAL_HELP = "An exact decimal string (15 significant digits), in units of the bet."
RULES_HELP = (
    "House rules over the preset's: the engine's (decks, max_hands, resplit_aces, hit_split_aces, "
    "double_after_split, jackpot_amount …) and the model's hit_soft_17 (bool), blackjack_pays "
    "(3:2 | 6:5), surrender (bool), double (any | 9-11)."
)


class BlackjackPresetIn(serializers.Serializer):
    preset = serializers.ChoiceField(
        choices=list(selectors.PRESETS),
        default="salon",
        help_text="salon (6 decks, seed 002) or online (8 decks, seed 001).",
    )


class BlackjackJackpotIn(serializers.Serializer):
    preset = serializers.ChoiceField(
        choices=list(selectors.PRESETS),
        default="online",
        help_text="The jackpot is the online preset's side bet (its default).",
    )


class BlackjackEdgeIn(BlackjackPresetIn):
    strategy = serializers.ChoiceField(
        choices=list(selectors.STRATEGIES),
        default="optimal",
        help_text="optimal (composition-dependent) or basic (the chart).",
    )


class BlackjackEvIn(JsonInput, BlackjackPresetIn):
    cards = serializers.ListField(
        child=serializers.CharField(max_length=4),
        min_length=2,
        max_length=21,
        help_text="The hand's cards as codes (10S or TS, 6H …).",
    )
    dealer = serializers.CharField(max_length=4, help_text="The dealer's up card.")
    removed = serializers.ListField(
        child=serializers.CharField(max_length=4),
        max_length=300,
        default=list,
        help_text="Cards already gone from the shoe.",
    )
    rules = serializers.DictField(required=False, default=dict, help_text=RULES_HELP)


class BlackjackEdgeOut(serializers.Serializer):
    format = serializers.CharField(help_text="edge/1")
    variant = serializers.CharField()
    preset = serializers.CharField()
    strategy = serializers.CharField()
    house_edge = serializers.CharField(help_text="− the expected net return per round, per unit bet. " + DECIMAL_HELP)
    expected_return = serializers.CharField(help_text=DECIMAL_HELP)
    wagered = serializers.CharField(help_text="The expected bet + doubles + splits per round. " + DECIMAL_HELP)
    edge_per_wagered = serializers.CharField(help_text="house_edge / wagered.")
    sd = serializers.CharField(help_text="The standard deviation of one round's net return. " + DECIMAL_HELP)
    rules = serializers.DictField(help_text="The house rules the figure is for.")


class BlackjackCellOut(serializers.Serializer):
    up = serializers.CharField()
    action = serializers.ChoiceField(choices=["stand", "hit", "double", "split", "surrender"])
    code = serializers.CharField(help_text="H, S, Dh, Ds, P, Rh … as on the classic cards.")
    fallback = serializers.CharField(help_text="stand or hit, when the action is not allowed (three cards).")
    margin = serializers.CharField(help_text="The action's EV over the next best option. " + DECIMAL_HELP)
    options = serializers.DictField(child=serializers.CharField(), help_text="Every option's EV. " + DECIMAL_HELP)


class BlackjackRowOut(serializers.Serializer):
    hand = serializers.CharField()
    total = serializers.IntegerField(allow_null=True)
    cells = BlackjackCellOut(many=True)


class BlackjackStrategyOut(serializers.Serializer):
    format = serializers.CharField(help_text="strategy/1")
    variant = serializers.CharField()
    preset = serializers.CharField()
    up_cards = serializers.ListField(child=serializers.CharField())
    rules = serializers.DictField()
    hard = BlackjackRowOut(many=True)
    soft = BlackjackRowOut(many=True)
    pairs = BlackjackRowOut(many=True)


class BlackjackEvOut(serializers.Serializer):
    format = serializers.CharField(help_text="ev/1")
    variant = serializers.CharField()
    preset = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    dealer = serializers.CharField()
    bet = serializers.IntegerField(allow_null=True)
    removed = serializers.ListField(child=serializers.CharField())
    options = serializers.DictField(
        child=serializers.CharField(),
        help_text="Every legal option (stand, hit, double, split, surrender, insurance, "
        "even_money) and its EV. " + DECIMAL_HELP,
    )
    best = serializers.CharField()
    rules = serializers.DictField()


class BlackjackEffectOut(serializers.Serializer):
    rule = serializers.CharField()
    value = serializers.JSONField()
    preset_value = serializers.JSONField()
    unchanged = serializers.BooleanField()
    house_edge = serializers.CharField()
    basic_house_edge = serializers.CharField()
    change = serializers.CharField(help_text="house_edge − the preset's. " + DECIMAL_HELP)
    basic_change = serializers.CharField()


class BlackjackEffectsOut(serializers.Serializer):
    format = serializers.CharField(help_text="rule-effects/1")
    variant = serializers.CharField()
    preset = serializers.CharField()
    house_edge = serializers.CharField()
    basic_house_edge = serializers.CharField()
    rows = BlackjackEffectOut(many=True)


class BlackjackJackpotOut(serializers.Serializer):
    format = serializers.CharField(help_text="jackpot/1")
    variant = serializers.CharField()
    preset = serializers.CharField()
    decks = serializers.IntegerField()
    probability = serializers.CharField(help_text="P(the first two cards are A♠ and J♠), exact to 18 digits.")
    one_in = serializers.CharField()
    jackpot_amount = serializers.CharField()
    jackpot_bet = serializers.CharField()
    ev = serializers.CharField(help_text="The side bet's EV per unit of it.")
    house_edge = serializers.CharField()
    break_even_amount = serializers.CharField(help_text="The jackpot at which the side bet's EV is 0.")


class _Reader(APIView):
    permission_classes = [HasRole(*READERS)]


class BlackjackEdgeApi(_Reader):
    """The house edge of blackjack off the top, under optimal play or the basic-strategy chart."""

    @extend_schema(
        operation_id="math_blackjack_edge",
        parameters=[BlackjackEdgeIn],
        responses={200: BlackjackEdgeOut, **errors(400, 401, 403)},
    )
    def get(self, request):
        data = query(BlackjackEdgeIn, request)
        return Response(
            BlackjackEdgeOut(asked(lambda: selectors.edge(preset=data["preset"], strategy=data["strategy"]))).data
        )


class BlackjackStrategyApi(_Reader):
    """The basic-strategy chart of a preset: hard, soft and pairs by the dealer's up card."""

    @extend_schema(
        operation_id="math_blackjack_strategy",
        parameters=[BlackjackPresetIn],
        responses={200: BlackjackStrategyOut, **errors(400, 401, 403)},
    )
    def get(self, request):
        data = query(BlackjackPresetIn, request)
        return Response(BlackjackStrategyOut(asked(lambda: selectors.strategy(preset=data["preset"]))).data)


class BlackjackRuleEffectsApi(_Reader):
    """The house edge with each single rule changed (the rule-effects table)."""

    @extend_schema(
        operation_id="math_blackjack_rule_effects",
        parameters=[BlackjackPresetIn],
        responses={200: BlackjackEffectsOut, **errors(400, 401, 403)},
    )
    def get(self, request):
        data = query(BlackjackPresetIn, request)
        return Response(BlackjackEffectsOut(asked(lambda: selectors.rule_effects(preset=data["preset"]))).data)


class BlackjackJackpotApi(_Reader):
    """The online jackpot side bet (A♠ J♠): probability, EV at the table's jackpot, break-even."""

    @extend_schema(
        operation_id="math_blackjack_jackpot",
        parameters=[BlackjackJackpotIn],
        responses={200: BlackjackJackpotOut, **errors(400, 401, 403)},
    )
    def get(self, request):
        data = query(BlackjackJackpotIn, request)
        return Response(BlackjackJackpotOut(asked(lambda: selectors.jackpot(preset=data["preset"]))).data)


class BlackjackEvApi(_Reader):
    """The exact EV of every option of a blackjack hand against an up card (`ev/1`); nothing is stored."""

    @extend_schema(
        operation_id="math_blackjack_ev",
        request=BlackjackEvIn,
        responses={200: BlackjackEvOut, **errors(400, 401, 403)},
        examples=[
            OpenApiExample("Sixteen against a ten", value={"cards": ["TS", "6H"], "dealer": "TC"}, request_only=True),
            OpenApiExample(
                "Eights against a six, online",
                request_only=True,
                value={"cards": ["8S", "8H"], "dealer": "6D", "preset": "online"},
            ),
        ],
    )
    def post(self, request):
        serializer = BlackjackEvIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        answer = asked(
            lambda: selectors.ev(
                cards=data["cards"],
                dealer=data["dealer"],
                removed=data["removed"],
                preset=data["preset"],
                rules=data["rules"] or None,
            )
        )
        return Response(BlackjackEvOut(answer).data)
