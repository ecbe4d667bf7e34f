"""Shoes and what happens between rounds: loading, ending, burns, dealer changes."""

from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_errors import errors
from casino.api_inputs import Amount, JsonInput, Text
from casino.models import Table
from casino.roles import HasRole
from dealing import selectors, services
from dealing.access import READERS, SHOE_LOADERS, SHOE_RECORDERS
from dealing.choices import BurnReason
from dealing.filters import ShoeFilter
from dealing.models import Shoe

from .common import Pagination, PerMethodRoles, paginated, user_named
from .outputs import ShoeDetailSerializer, ShoeEventSerializer, ShoeSerializer


class ShoeCollectionApi(PerMethodRoles):
    """GET: the shoes of the user's pits. POST: load a new shoe at a table (the open one ends)."""

    method_roles = {"GET": READERS, "POST": SHOE_LOADERS}
    filter_backends = [DjangoFilterBackend]  # documents the filters in the schema; the selector applies them
    filterset_class = ShoeFilter
    queryset = Shoe.objects.none()
    pagination_class = Pagination

    class ShoeStartInput(JsonInput):
        table = serializers.PrimaryKeyRelatedField(queryset=Table.objects.select_related("pit"))
        decks = serializers.IntegerField(
            required=False, min_value=1, max_value=16, help_text="Packs; by default the table's house rules'."
        )
        loaded_at = serializers.DateTimeField(required=False)

    @extend_schema(operation_id="shoes_list", responses={200: ShoeSerializer(many=True), **errors(400, 401, 403)})
    def get(self, request):
        return paginated(self, selectors.shoe_list(user=request.user, filters=request.query_params), ShoeSerializer)

    @extend_schema(
        operation_id="shoes_start",
        request=ShoeStartInput,
        responses={201: ShoeDetailSerializer, **errors(400, 401, 403)},
    )
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
    permission_classes = [HasRole(*SHOE_LOADERS)]

    @extend_schema(request=None, responses={200: ShoeDetailSerializer, **errors(401, 403, 404, 409)})
    def post(self, request, pk: int):
        shoe = services.shoe_end(shoe=selectors.shoe_get(user=request.user, pk=pk), ended_by=request.user)
        return Response(ShoeDetailSerializer(shoe).data)


class ShoeBurnApi(APIView):
    """A card burned between rounds."""

    permission_classes = [HasRole(*SHOE_RECORDERS)]

    class BurnInput(JsonInput):
        card = Text(max_length=8, help_text="Rank and suit: TS, AH, 10d.")
        reason = serializers.ChoiceField(choices=BurnReason.choices)
        fee = Amount(
            required=False,
            allow_null=True,
            min_value=0,
            help_text='What the player paid (paid burns only): a number or a decimal string, 50 or "50.00".',
        )

    @extend_schema(request=BurnInput, responses={201: ShoeEventSerializer, **errors(400, 401, 403, 404, 409)})
    def post(self, request, pk: int):
        shoe = selectors.shoe_get(user=request.user, pk=pk)
        data = self.BurnInput(data=request.data)
        data.is_valid(raise_exception=True)
        event = services.shoe_burn(shoe=shoe, recorded_by=request.user, **data.validated_data)
        return Response(ShoeEventSerializer(event).data, status=status.HTTP_201_CREATED)


class ShoeDealerChangeApi(APIView):
    """A new dealer takes the table."""

    permission_classes = [HasRole(*SHOE_RECORDERS)]

    class DealerChangeInput(JsonInput):
        dealer = Text(max_length=150, help_text="The new dealer's username.")

    @extend_schema(request=DealerChangeInput, responses={201: ShoeEventSerializer, **errors(400, 401, 403, 404, 409)})
    def post(self, request, pk: int):
        shoe = selectors.shoe_get(user=request.user, pk=pk)
        data = self.DealerChangeInput(data=request.data)
        data.is_valid(raise_exception=True)
        dealer = user_named(data.validated_data["dealer"], "dealer")
        event = services.shoe_dealer_change(shoe=shoe, dealer=dealer, recorded_by=request.user)
        return Response(ShoeEventSerializer(event).data, status=status.HTTP_201_CREATED)
