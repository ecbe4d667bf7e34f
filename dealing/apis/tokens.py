"""API tokens: a new one for a username and password, the revocation of this one or of all.

Tokens are django-rest-knox's (casino/authentication.py): each login returns a NEW token, which
expires after TOKEN_TTL_HOURS; a locked-out username or address (too many failures, django-axes)
is answered 429 in the API's error shape. A person whose role signs in with a second factor
(OTP_REQUIRED_ROLES, casino/identity.py) gives his authenticator's current code as `otp` too: a
token is as good as a verified session. Device tokens are not issued here (an admin issues them).
"""

from django.contrib.auth import authenticate
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from knox.models import AuthToken
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from casino import services
from casino.api_errors import errors
from casino.api_inputs import JsonInput, Text
from casino.errors import ServiceError
from casino.identity import second_factor_required
from casino.security import client_address, lockout_response

_NO_TOKEN = _("This call was not made with a token; there is none to revoke.")


def _this_token(request) -> AuthToken:
    if not isinstance(request.auth, AuthToken):  # a session, not a token
        raise ServiceError(_NO_TOKEN, extra={"code": "no_token"})
    return request.auth


class TokenCreateApi(APIView):
    """POST `username` + `password` → a new API token (`Authorization: Token <key>`) and when it
    expires; DELETE → revokes the token the call is made with (logout)."""

    permission_classes = [AllowAny]

    class TokenInput(JsonInput):
        # No username is longer than 150 characters, but a longer one is a login that fails like any
        # other (400 bad_credentials, counted by the lockout), not an error of its own.
        username = Text(max_length=4096)
        password = Text(max_length=4096, trim_whitespace=False, secret=True, style={"input_type": "password"})
        otp = Text(
            max_length=16,
            required=False,
            help_text="The authenticator's current 6-digit code; required of the roles in OTP_REQUIRED_ROLES.",
        )

    def get_authenticators(self):
        # Logging in needs no credentials but the password (and no CSRF check for a session cookie).
        if self._logging_in():
            return []
        return super().get_authenticators()

    def get_permissions(self):
        if self._logging_in():
            return [AllowAny()]
        return [IsAuthenticated()]

    def _logging_in(self) -> bool:
        request = getattr(self, "request", None)  # None while the schema is generated
        return request is not None and request.method == "POST"

    @extend_schema(
        request=TokenInput,
        auth=[],
        responses={
            200: inline_serializer("Token", {"token": serializers.CharField(), "expiry": serializers.DateTimeField()}),
            **errors(400, 429),
        },
    )
    def post(self, request):
        data = self.TokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        django_request = request._request  # axes marks a locked-out attempt on Django's request
        credentials = dict(data.validated_data)
        code = credentials.pop("otp", "")
        user = authenticate(django_request, **credentials)
        if getattr(django_request, "axes_locked_out", False):
            return lockout_response(django_request)
        if user is None or not user.is_active:
            raise ServiceError(
                _("Unable to log in with the username and password given."), extra={"code": "bad_credentials"}
            )
        if second_factor_required(user):
            services.second_factor_check(user=user, code=code, address=client_address(request))
        token, key = services.token_issue(user=user, address=client_address(request))
        return Response({"token": key, "expiry": serializers.DateTimeField().to_representation(token.expiry)})

    @extend_schema(
        request=None, responses={204: OpenApiResponse(description="The token is revoked."), **errors(400, 401)}
    )
    def delete(self, request):
        services.token_revoke(token=_this_token(request), address=client_address(request))
        return Response(status=204)


class TokenRevokeAllApi(APIView):
    """DELETE → revokes every token of the caller's (logout everywhere); device tokens stay."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: OpenApiResponse(description="Every token is revoked."), **errors(401)})
    def delete(self, request):
        services.tokens_revoke_all(user=request.user, address=client_address(request))
        return Response(status=204)
