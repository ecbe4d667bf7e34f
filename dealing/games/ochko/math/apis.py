"""The game math endpoints: the engine's `edge/1`, `strategy/1` and `ev/1` for 21 Ochko.

Each reads its question with a small input serializer, asks the (cached) selectors, and answers
the engine's document through an output serializer that documents it in the schema. A question
the engine cannot ask (QuestionError) is a 400 in the project's one error shape, naming the field.
"""

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_errors import errors
from casino.api_inputs import JsonInput
from casino.roles import HasRole
from dealing.games.math import READERS, asked, query

from . import selectors

RULE_CHOICES = list(selectors.RULE_VALUES)
DECIMAL_HELP = "An exact decimal string (18 significant digits), in Antes."


# --- input ----------------------------------------------------------------------------------------


class RulesIn(serializers.Serializer):
    dark_win_bet = serializers.ChoiceField(
        choices=RULE_CHOICES, default="leave", help_text="A winning dark card's Bet: left to the box or taken."
    )
    dark_double_bust_bet = serializers.ChoiceField(
        choices=RULE_CHOICES, default="leave", help_text="A dark card's Bet when box and dealer both bust."
    )


class StrategyIn(RulesIn):
    bet = serializers.IntegerField(
        min_value=1, max_value=max(selectors.BETS), default=1, help_text="The Bet in Antes the chart is for (1 to 10)."
    )


class EvIn(JsonInput):
    cards = serializers.ListField(
        child=serializers.CharField(max_length=4),
        min_length=1,
        max_length=40,
        help_text="The box's cards as codes (10S or TS, 6H …); one card alone asks the Bet decision.",
    )
    dealer = serializers.CharField(
        max_length=4,
        required=False,
        allow_null=True,
        default=None,
        help_text="The dealer's up card; absent for the one-card question.",
    )
    bet = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="The Bet in Antes (1 to 10; default 1); only with the dealer's card.",
    )
    removed = serializers.ListField(
        child=serializers.CharField(max_length=4),
        max_length=300,
        default=list,
        help_text="Cards already gone from the shoe.",
    )
    rules = RulesIn(required=False, help_text="The dark-card house rules (both default to leave).")


# --- output ---------------------------------------------------------------------------------------


class RulesOut(serializers.Serializer):
    dark_win_bet = serializers.CharField()
    dark_double_bust_bet = serializers.CharField()
    dealer_bet_min = serializers.CharField()


class EdgeOut(serializers.Serializer):
    format = serializers.CharField(help_text="edge/1")
    variant = serializers.CharField()
    preset = serializers.CharField(allow_null=True)
    strategy = serializers.CharField()
    house_edge = serializers.CharField(help_text="− the expected net return per round, per Ante. " + DECIMAL_HELP)
    expected_return = serializers.CharField(help_text=DECIMAL_HELP)
    wagered = serializers.CharField(help_text="The expected Ante + Bet put at risk per round. " + DECIMAL_HELP)
    edge_per_wagered = serializers.CharField(help_text="house_edge / wagered.")
    sd = serializers.CharField(help_text="The standard deviation of one round's net return. " + DECIMAL_HELP)
    rules = RulesOut()


class CellOut(serializers.Serializer):
    action = serializers.ChoiceField(choices=["stand", "hit", "dark"])
    margin = serializers.CharField(help_text="The action's EV over the next best option, weighted. " + DECIMAL_HELP)
    agree = serializers.CharField(help_text="The share of the cell's hands for which the action is optimal.")


class RowOut(serializers.Serializer):
    hand = serializers.CharField(help_text="The one card (kind one_card) or the total of two or more cards.")
    kind = serializers.ChoiceField(choices=["one_card", "total"])
    cells = serializers.DictField(child=CellOut(), help_text="By the dealer's up card.")


class BetDecisionOut(serializers.Serializer):
    action = serializers.CharField(help_text="fold or bet:k, the best choice after the first card.")
    ev = serializers.CharField(help_text=DECIMAL_HELP)
    margin = serializers.CharField(help_text=DECIMAL_HELP)


class DarkValueOut(serializers.Serializer):
    house_edge = serializers.CharField()
    house_edge_without_dark = serializers.CharField()
    value = serializers.CharField(help_text="What the dark-card option is worth per round, in Antes.")


class StrategyOut(serializers.Serializer):
    format = serializers.CharField(help_text="strategy/1")
    variant = serializers.CharField()
    preset = serializers.CharField(allow_null=True)
    strategy = serializers.CharField()
    bet = serializers.IntegerField()
    rules = RulesOut()
    up_cards = serializers.ListField(child=serializers.CharField())
    rows = RowOut(many=True)
    bet_decision = serializers.DictField(child=BetDecisionOut(), help_text="By the first card.")
    dark_value = DarkValueOut()


class EvOut(serializers.Serializer):
    format = serializers.CharField(help_text="ev/1")
    variant = serializers.CharField()
    preset = serializers.CharField(allow_null=True)
    cards = serializers.ListField(child=serializers.CharField())
    dealer = serializers.CharField(allow_null=True)
    bet = serializers.IntegerField(allow_null=True)
    removed = serializers.ListField(child=serializers.CharField())
    options = serializers.DictField(
        child=serializers.CharField(),
        help_text="Every legal option (stand, hit, dark; or fold, bet:1 … bet:10) and its EV. " + DECIMAL_HELP,
    )
    best = serializers.CharField()


def _rules(data: dict) -> dict:
    return {name: data[name] for name in selectors.RULE_NAMES}


class OchkoEdgeApi(APIView):
    """The house edge of 21 Ochko under optimal play, for a combination of the dark-card rules."""

    permission_classes = [HasRole(*READERS)]

    @extend_schema(
        operation_id="math_ochko_edge", parameters=[RulesIn], responses={200: EdgeOut, **errors(400, 401, 403)}
    )
    def get(self, request):
        rules = _rules(query(RulesIn, request))
        return Response(EdgeOut(asked(lambda: selectors.edge(rules=rules))).data)


class OchkoStrategyApi(APIView):
    """The optimal chart of 21 Ochko for a Bet of k Antes, by hand and the dealer's up card."""

    permission_classes = [HasRole(*READERS)]

    @extend_schema(
        operation_id="math_ochko_strategy",
        parameters=[StrategyIn],
        responses={200: StrategyOut, **errors(400, 401, 403)},
    )
    def get(self, request):
        data = query(StrategyIn, request)
        return Response(StrategyOut(asked(lambda: selectors.strategy(bet=data["bet"], rules=_rules(data)))).data)


class OchkoEvApi(APIView):
    """The exact EV of every option of a 21 Ochko hand (`ev/1`); nothing is stored."""

    permission_classes = [HasRole(*READERS)]

    @extend_schema(
        operation_id="math_ochko_ev",
        request=EvIn,
        responses={200: EvOut, **errors(400, 401, 403)},
        examples=[
            OpenApiExample(
                "Ten and six against a nine, Bet 10",
                value={"cards": ["TS", "6H"], "dealer": "9C", "bet": 10},
                request_only=True,
            ),
            OpenApiExample("The Bet decision on an ace", value={"cards": ["AS"]}, request_only=True),
        ],
    )
    def post(self, request):
        serializer = EvIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        rules = dict(data.get("rules") or {"dark_win_bet": "leave", "dark_double_bust_bet": "leave"})
        answer = asked(
            lambda: selectors.ev(
                cards=data["cards"], dealer=data["dealer"], bet=data["bet"], removed=data["removed"], rules=rules
            )
        )
        return Response(EvOut(answer).data)
