"""The veintiuno game-math endpoints: the special hands' chances (`specials/1`) and the bank's edge
between the documented strategies (`edge/1`, strategy "documented"), from the cached selectors."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_errors import errors
from casino.roles import HasRole
from dealing.games.math import READERS, query

from . import selectors as vs

DECIMAL_HELP = "An exact decimal string (16 decimal places), per unit bet."


class VeintiunoRulesIn(serializers.Serializer):
    suited_twelve_pays = serializers.IntegerField(
        min_value=1, max_value=10, default=2, help_text="What a suited two-card 12 pays, to 1 (default 2)."
    )


class VeintiunoEdgeOut(serializers.Serializer):
    format = serializers.CharField(help_text="edge/1")
    variant = serializers.CharField()
    preset = serializers.CharField(allow_null=True)
    strategy = serializers.CharField(help_text="documented: the strategies of docs/veintiuno-math.md")
    house_edge = serializers.CharField(help_text="The bank's edge: − the player's expected net. " + DECIMAL_HELP)
    expected_return = serializers.CharField(help_text=DECIMAL_HELP)
    wagered = serializers.CharField()
    edge_per_wagered = serializers.CharField()
    sd = serializers.CharField(help_text="The standard deviation of one round's net, in bets.")
    rules = serializers.DictField(help_text="suited_twelve_pays and packs.")
    player = serializers.DictField(help_text="The player's documented strategy (threshold: stands from this count).")
    bank = serializers.DictField(help_text="The bank's documented strategy (stands_on).")
    probabilities = serializers.DictField(
        child=serializers.CharField(), help_text="total (1), withdrawn (a 13 in two cards), trillona."
    )


class VeintiunoSpecialsOut(serializers.Serializer):
    format = serializers.CharField(help_text="specials/1")
    variant = serializers.CharField()
    packs = serializers.IntegerField()
    player_threshold = serializers.IntegerField()
    chances = serializers.DictField(
        child=serializers.CharField(),
        help_text=(
            "natural, monona, suited_twelve, twelve, relancina, thirteen (two-card hands over every ordered pair), "
            "trillona (for the documented player) and trillona_chasing (a player drawing while under 21)."
        ),
    )


class VeintiunoEdgeApi(APIView):
    """The bank's edge over one player heads up between the documented strategies."""

    permission_classes = [HasRole(*READERS)]

    @extend_schema(
        operation_id="math_veintiuno_edge",
        parameters=[VeintiunoRulesIn],
        responses={200: VeintiunoEdgeOut, **errors(400, 401, 403)},
    )
    def get(self, request):
        pays = query(VeintiunoRulesIn, request)["suited_twelve_pays"]
        return Response(VeintiunoEdgeOut(vs.edge(suited_twelve_pays=pays)).data)


class VeintiunoSpecialsApi(APIView):
    """The exact chance of each special hand of veintiuno from a full 40-card pack."""

    permission_classes = [HasRole(*READERS)]

    @extend_schema(operation_id="math_veintiuno_specials", responses={200: VeintiunoSpecialsOut, **errors(401, 403)})
    def get(self, request):
        return Response(VeintiunoSpecialsOut(vs.specials()).data)
