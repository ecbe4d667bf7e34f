"""Surveillance's file on an incident through the API: the first review (classification, the money
saved or lost), the second reviewer's sign-off and video references. Files are uploaded on the
incident's page only (multipart there); the API lists them with their hash and download address."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_errors import errors
from casino.api_inputs import Amount, JsonInput, Text
from casino.roles import HasRole
from dealing import selectors, services
from dealing.access import ATTACHERS, REVIEWERS
from dealing.choices import IncidentClass, MoneyDirection

from .outputs import IncidentAttachmentSerializer, IncidentReviewSerializer


class IncidentReviewInput(JsonInput):
    # Text, not an enum: the audit's findings already name a different choice set "classification".
    classification = Text(max_length=20, help_text="One of: " + ", ".join(IncidentClass.values) + ".")
    money_direction = serializers.ChoiceField(choices=MoneyDirection.choices)
    money = Amount(min_value=0, help_text="The money saved or lost, never negative (0 when none was at stake).")
    reason = Text(max_length=4000, lines=True)


class IncidentSignOffInput(JsonInput):
    comment = Text(required=False, allow_blank=True, default="", max_length=4000, lines=True)


class IncidentVideoInput(JsonInput):
    camera = Text(max_length=60, help_text="The surveillance camera's id.")
    start = serializers.DateTimeField()
    end = serializers.DateTimeField(help_text="After start.")


class IncidentReviewApi(APIView):
    permission_classes = [HasRole(*REVIEWERS)]

    @extend_schema(
        operation_id="incidents_review",
        request=IncidentReviewInput,
        responses={200: IncidentReviewSerializer, **errors(400, 401, 403, 404, 409)},
        description="A pit boss of the table's pit or an auditor classifies the incident and says the money "
        "saved or lost — never its reporter or dealer. Replaces an earlier review until it is signed off.",
    )
    def post(self, request, pk: int):
        incident = selectors.incident_get(user=request.user, pk=pk)
        data = IncidentReviewInput(data=request.data)
        data.is_valid(raise_exception=True)
        review = services.incident_classify(incident=incident, reviewed_by=request.user, **data.validated_data)
        return Response(IncidentReviewSerializer(review).data)


class IncidentSignOffApi(APIView):
    permission_classes = [HasRole(*REVIEWERS)]

    @extend_schema(
        operation_id="incidents_sign_off",
        request=IncidentSignOffInput,
        responses={200: IncidentReviewSerializer, **errors(400, 401, 403, 404, 409)},
        description="A second reviewer — never the reporter, the dealer or the first reviewer — signs the "
        "review off; the file then no longer changes.",
    )
    def post(self, request, pk: int):
        incident = selectors.incident_get(user=request.user, pk=pk)
        data = IncidentSignOffInput(data=request.data)
        data.is_valid(raise_exception=True)
        review = services.incident_sign_off(incident=incident, signed_by=request.user, **data.validated_data)
        return Response(IncidentReviewSerializer(review).data)


class IncidentVideoApi(APIView):
    permission_classes = [HasRole(*ATTACHERS)]

    @extend_schema(
        operation_id="incidents_video_reference",
        request=IncidentVideoInput,
        responses={201: IncidentAttachmentSerializer, **errors(400, 401, 403, 404, 409)},
        description="Where surveillance's recording of the incident is: a camera between two times.",
    )
    def post(self, request, pk: int):
        incident = selectors.incident_get(user=request.user, pk=pk)
        data = IncidentVideoInput(data=request.data)
        data.is_valid(raise_exception=True)
        video = services.incident_video_reference(incident=incident, added_by=request.user, **data.validated_data)
        return Response(IncidentAttachmentSerializer(video).data, status=201)
