"""The API: the tables endpoint, the one error shape, the schema and its docs."""

import pytest
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.urls import reverse
from knox.models import AuthToken
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.test import APIClient, APIRequestFactory, force_authenticate
from rest_framework.views import APIView

from casino.errors import ServiceError
from casino.roles import DEALER
from tests.factories import TableFactory

pytestmark = pytest.mark.django_db


def test_tables_of_the_users_pits_with_amounts_as_strings(client_for, floor):
    response = client_for(DEALER, pits=[floor.pit_a]).get(reverse("api:table-list"))
    assert response.status_code == 200
    assert response.json() == [
        {
            "id": floor.table_a.pk,
            "name": "R-1",
            "pit": "Pit A",
            "variant": "ochko",
            "min_bet": "100.00",
            "max_bet": "5000.00",
            "boxes": 6,
            "chips": ["100", "500", "1000", "5000"],
            "rules": {},
            "is_active": True,
        }
    ]


def test_tables_filter_by_variant_and_reject_a_bad_filter(client_for, floor):
    TableFactory(name="Escribas", pit=floor.pit_a, variant="blackjack", boxes=5)
    client = client_for(DEALER)
    names = [t["name"] for t in client.get(reverse("api:table-list"), {"variant": "blackjack"}).json()]
    assert names == ["Escribas"]
    response = client.get(reverse("api:table-list"), {"variant": "poker"})
    assert response.status_code == 400
    body = response.json()
    assert body["message"] == "Validation error."
    assert list(body["extra"]["fields"]) == ["variant"]


def test_token_authentication(make_user, floor):
    user = make_user(DEALER, pits=floor.pits)
    client = APIClient()
    assert client.get(reverse("api:table-list")).status_code == 401
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=user)[1]}")
    assert client.get(reverse("api:table-list")).status_code == 200


class _Raising(APIView):
    """Raises whatever the test hands it, so each kind of error goes through the handler."""

    error: Exception | None = None

    class InputSerializer(serializers.Serializer):
        amount = serializers.DecimalField(max_digits=14, decimal_places=2)

    def post(self, request):
        if self.error is None:
            self.InputSerializer(data=request.data).is_valid(raise_exception=True)
        raise self.error

    def get(self, request):
        return Response({})


@pytest.mark.parametrize(
    "error, status, body",
    [
        (
            ServiceError("The pit boss cannot approve his own report.", extra={"incident": 7}, status=409),
            409,
            {"message": "The pit boss cannot approve his own report.", "extra": {"incident": 7}},
        ),
        (ServiceError("Nope."), 400, {"message": "Nope.", "extra": {}}),
        (None, 400, {"message": "Validation error.", "extra": {"fields": {"amount": ["This field is required."]}}}),
        (
            DjangoValidationError({"amount": "Too much."}),
            400,
            {"message": "Validation error.", "extra": {"fields": {"amount": ["Too much."]}}},
        ),
        (Http404(), 404, {"message": "Not found.", "extra": {}}),
    ],
)
def test_every_error_has_one_shape(make_user, error, status, body):
    request = APIRequestFactory().post("/x/", {}, format="json")
    force_authenticate(request, user=make_user(DEALER))
    response = _Raising.as_view(error=error)(request)
    assert response.status_code == status
    assert response.data == body


def test_permission_errors_have_the_same_shape(client, make_user):
    response = client.get(reverse("api:table-list"))
    assert response.status_code == 401
    assert response.json() == {"message": "Authentication credentials were not provided.", "extra": {}}
    client.force_login(make_user(None))
    response = client.get(reverse("api:table-list"))
    assert response.status_code == 403
    assert set(response.json()) == {"message", "extra"}


def test_schema_and_docs_are_served_offline(client_for):
    client = client_for(DEALER)
    schema = client.get(reverse("schema"), {"format": "json"})
    assert schema.status_code == 200
    assert "/api/v1/tables/" in schema.json()["paths"]
    docs = client.get(reverse("swagger-ui")).content.decode()
    assert "drf_spectacular_sidecar/swagger-ui-dist" in docs  # served from our static files, no CDN
    assert "cdn" not in docs.lower()
