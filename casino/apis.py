"""The floor's REST endpoints (under /api/v1/). One API class per operation, with its own
small serializers; reads go through selectors, so pages and the API see the same tables."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from . import selectors
from .choices import Variant
from .roles import FLOOR_ROLES, HasRole


class TableListApi(APIView):
    # The floor's tables are for the staff who work it; trainees see only their drills (SPEC, issue 18).
    permission_classes = [HasRole(*FLOOR_ROLES)]

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = serializers.CharField()
        pit = serializers.CharField(source="pit.name")
        variant = serializers.CharField()
        min_bet = serializers.DecimalField(max_digits=14, decimal_places=2)
        max_bet = serializers.DecimalField(max_digits=14, decimal_places=2)
        boxes = serializers.IntegerField()
        chips = serializers.ListField(child=serializers.CharField())
        rules = serializers.DictField(help_text="The table's overrides of the variant's house rules.")
        is_active = serializers.BooleanField()

    @extend_schema(
        parameters=[
            OpenApiParameter("pit", OpenApiTypes.INT, description="Only the tables of this pit (id)."),
            OpenApiParameter("variant", OpenApiTypes.STR, enum=Variant.values),
            OpenApiParameter("is_active", OpenApiTypes.BOOL, description="Open (true) or closed (false) tables."),
        ],
        responses=OutputSerializer(many=True),
    )
    def get(self, request):
        tables = selectors.table_list(user=request.user, filters=request.query_params)
        return Response(self.OutputSerializer(tables, many=True).data)
