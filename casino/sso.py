"""OpenID Connect sign-in (mozilla-django-oidc), on when OIDC_RP_CLIENT_ID is set
(casino/sso_settings.py).

The login page's "Sign in with …" button opens `oidc_authentication_init`, which sends the browser
to the provider; the provider sends it back to `oidc_authentication_callback` with a code, which
OIDCBackend trades for the ID token (its RS256 signature checked against the provider's JWKS, its
nonce and audience too) and the userinfo. The groups claim then sets the person's roles and pits
(casino/directory_groups.py); the second factor still follows unless OIDC_SKIP_OTP
(casino/identity.py). A refusal, or a sign-in that fails at the provider, lands on the login page
with a message. With OIDC off both URLs answer 404.
"""

import logging

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import SuspiciousOperation
from django.db import transaction
from django.http import Http404, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.translation import gettext as _
from mozilla_django_oidc.auth import OIDCAuthenticationBackend
from mozilla_django_oidc.views import OIDCAuthenticationCallbackView, OIDCAuthenticationRequestView

from .directory_groups import DirectoryRefusal, apply_assignment, assignment_from, check_account, refuse

log = logging.getLogger("casino.security")
# The request attribute a refusal leaves for the callback view, which then adds no second message.
REFUSED = "casino_sso_refused"
USERNAME_MAX = 150


def claimed_groups(claims: dict) -> list[str]:
    """The groups claim as a list: providers send a list, a few a single string."""
    groups = claims.get(settings.OIDC_GROUPS_CLAIM) or []
    return [groups] if isinstance(groups, str) else [str(group) for group in groups]


class OIDCBackend(OIDCAuthenticationBackend):
    """The provider's people, by username (OIDC_USERNAME_CLAIM), with roles and pits from their
    groups at every sign-in; someone in no mapped group is refused and not created."""

    def username_from(self, claims: dict) -> str:
        return str(claims.get(settings.OIDC_USERNAME_CLAIM) or "")[:USERNAME_MAX]

    def verify_claims(self, claims):
        return bool(self.username_from(claims))

    def filter_users_by_claims(self, claims):
        username = self.username_from(claims)
        if not username:
            return self.UserModel.objects.none()
        return self.UserModel.objects.filter(**{self.UserModel.USERNAME_FIELD: username})

    def verify_token(self, token, **kwargs):
        # The library leaves the audience unchecked: an ID token issued to another client of the
        # same provider must not sign anyone in here.
        payload = super().verify_token(token, **kwargs)
        audience = payload.get("aud")
        if audience is not None:
            audiences = [audience] if isinstance(audience, str) else list(audience)
            if self.OIDC_RP_CLIENT_ID not in audiences:
                raise SuspiciousOperation("The ID token was issued to another client.")
        return payload

    def get_or_create_user(self, access_token, id_token, payload):
        # The groups may be in the ID token or in the userinfo, as the provider is set up; the
        # userinfo wins where both have a claim.
        claims = {**payload, **self.get_userinfo(access_token, id_token, payload)}
        if not self.verify_claims(claims):
            raise SuspiciousOperation(f"No {settings.OIDC_USERNAME_CLAIM} claim to name the user by.")
        username = self.username_from(claims)
        existing = self.filter_users_by_claims(claims).first()
        try:
            check_account(existing)
            assignment = assignment_from(
                claimed_groups(claims),
                role_map=settings.OIDC_GROUP_ROLES,
                pit_map=settings.OIDC_GROUP_PITS,
                who=username,
            )
        except DirectoryRefusal as refusal:
            refuse(self.request, existing, refusal, source="OIDC")
            setattr(self.request, REFUSED, True)
            return None
        with transaction.atomic():
            # Created without a password: the person signs in through the provider only.
            user = existing or self.UserModel.objects.create_user(username)
            user.email = claims.get("email") or user.email
            user.first_name = str(claims.get("given_name") or user.first_name)[:150]
            user.last_name = str(claims.get("family_name") or user.last_name)[:150]
            user.save()
            apply_assignment(user, assignment)
        log.info("OIDC sign-in of %s: roles %s", username, ", ".join(sorted(assignment.roles)))
        return user


def require_oidc():
    if not settings.OIDC_ENABLED:
        raise Http404("OpenID Connect sign-in is not configured.")


class OIDCAuthenticateView(OIDCAuthenticationRequestView):
    """To the provider's authorization endpoint (404 with OIDC off)."""

    def __init__(self, *args, **kwargs):
        # The library reads its required settings here, which with OIDC off are not there.
        super(OIDCAuthenticationRequestView, self).__init__(*args, **kwargs)
        self.OIDC_OP_AUTH_ENDPOINT = self.get_settings("OIDC_OP_AUTHORIZATION_ENDPOINT", "")
        self.OIDC_RP_CLIENT_ID = self.get_settings("OIDC_RP_CLIENT_ID", "")

    def dispatch(self, request, *args, **kwargs):
        require_oidc()
        return super().dispatch(request, *args, **kwargs)


class OIDCCallbackView(OIDCAuthenticationCallbackView):
    """Back from the provider: signed in, or the login page with why not (404 with OIDC off)."""

    def dispatch(self, request, *args, **kwargs):
        require_oidc()
        return super().dispatch(request, *args, **kwargs)

    def login_failure(self):
        if not getattr(self.request, REFUSED, False):
            messages.error(
                self.request,
                _("Sign-in through %(provider)s did not complete. Try again, or ask an administrator.")
                % {"provider": settings.OIDC_PROVIDER_NAME},
                fail_silently=True,
            )
        return HttpResponseRedirect(reverse("login"))


urlpatterns = [
    path("authenticate/", OIDCAuthenticateView.as_view(), name="oidc_authentication_init"),
    path("callback/", OIDCCallbackView.as_view(), name="oidc_authentication_callback"),
]
