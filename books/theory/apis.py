"""Endpoints of theoretical against actual and of the reports (under /api/v1/books/): pit bosses
(their own pits) and auditors. Amounts leave as decimal strings; a bad filter is a 400
``{"message", "extra": {"code": "bad_filter", "field"}}``.

    GET theory/                 rows by ?by=table|dealer|day|game|shift, the total and the funnel by day
                                (?start=&end=&pit=&table=&dealer=&variant=&shift=)
    GET reports/shifts/<id>/    the shift report of a table
    GET reports/period/         the period report of a pit (?pit=&start=&end=)
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.choices import Variant
from casino.roles import HasRole

from .. import reports
from . import selectors as theory_selectors
from .views import READERS

FILTERS = [
    OpenApiParameter("start", OpenApiTypes.DATE, description="First day (default: 29 days before `end`)."),
    OpenApiParameter("end", OpenApiTypes.DATE, description="Last day (default: today)."),
    OpenApiParameter("pit", OpenApiTypes.STR, description="A pit's name or id."),
    OpenApiParameter("table", OpenApiTypes.STR, description="A table's name or id."),
    OpenApiParameter("dealer", OpenApiTypes.STR, description="A dealer's username or id."),
    OpenApiParameter("variant", OpenApiTypes.STR, enum=list(Variant.values)),
    OpenApiParameter("shift", OpenApiTypes.INT, description="The shift's place in CASINO_SHIFTS (0, 1, …)."),
]


class TheoryApi(APIView):
    permission_classes = [HasRole(*READERS)]

    @extend_schema(
        parameters=[*FILTERS, OpenApiParameter("by", OpenApiTypes.STR, enum=list(theory_selectors.BY))],
        responses=OpenApiTypes.OBJECT,
    )
    def get(self, request):
        f = theory_selectors.parse_filters(request.user, request.query_params)
        rows, total = theory_selectors.theory_rows(request.user, f)
        return Response(
            {
                "filters": f.query,
                "rows": [{"key": [str(k) for k in r.key], "label": r.label, **r.figures.as_dict()} for r in rows],
                "total": total.as_dict(),
                "funnel": [
                    {
                        "day": p.day,
                        "actual": f"{p.actual:f}",
                        "theoretical": f"{p.theoretical:f}",
                        "band_low": f"{p.low:f}",
                        "band_high": f"{p.high:f}",
                    }
                    for p in theory_selectors.funnel(request.user, f)
                ],
            }
        )


class ShiftReportApi(APIView):
    permission_classes = [HasRole(*READERS)]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk: int):
        return Response(reports.shift_report(reports.shift_for_report(request.user, pk)).as_dict())


class PeriodReportApi(APIView):
    permission_classes = [HasRole(*READERS)]

    @extend_schema(parameters=FILTERS, responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response(reports.period_report(request.user, request.query_params).as_dict())
