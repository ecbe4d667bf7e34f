"""The toy game's math page (/math/toy/, "gamemath:toy") and endpoint (/api/v1/math/toy/edge/,
"api:math-toy-edge"), mounted by the gamemath app through the registry."""

from django.shortcuts import render
from django.urls import path
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.roles import HasRole, role_required
from dealing.games.math import READERS

from .. import theory

WARMED: list[str] = []


@role_required(*READERS)
def page(request):
    return render(request, "toy/math.html", {"edge": theory.EDGE})


class EdgeApi(APIView):
    permission_classes = [HasRole(*READERS)]

    def get(self, request):
        return Response({"house_edge": str(theory.EDGE)})


pages = [path("toy/", page, name="toy")]
api = [path("toy/edge/", EdgeApi.as_view(), name="math-toy-edge")]


def warm() -> None:
    WARMED.append("toy")
