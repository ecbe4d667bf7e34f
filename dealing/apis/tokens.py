"""An API token for a username and password."""

from django.contrib.auth import authenticate
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.errors import ServiceError

from .common import Text, errors


class TokenCreateApi(APIView):
    """`username` + `password` → the user's API token (`Authorization: Token <key>`)."""

    authentication_classes = []
    permission_classes = [AllowAny]

    class TokenInput(serializers.Serializer):
        username = Text(max_length=150)
        password = Text(max_length=4096, trim_whitespace=False, style={"input_type": "password"})

    @extend_schema(request=TokenInput, auth=[],
                   responses={200: inline_serializer("Token", {"token": serializers.CharField()}), **errors(400)})
    def post(self, request):
        data = self.TokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(request, **data.validated_data)
        if user is None or not user.is_active:
            raise ServiceError(_("Unable to log in with the username and password given."),
                               extra={"code": "bad_credentials"})
        token, _created = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})
