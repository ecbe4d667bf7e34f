"""API throttles (REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]), counted in the shared cache (CACHES,
`CACHE_URL`: Redis in production, so every web process counts the same requests).

Three budgets, one per kind of caller, each from its own setting (THROTTLE_*_RATE):
- a token call (`Authorization: Token …`): per token — each device token (an electronic shoe, a
  table system) its own budget, so one machine gone wrong cannot starve the other tables, even when
  several machines act as the same account; a person's token likewise;
- a session call (the pages' own API calls): per user;
- an anonymous call (logging in, mostly): per address.

A caller over its budget gets 429 with Retry-After (DRF's Throttled, in the API's error shape).
Rates are read at each request rather than when the class is defined, so a changed setting (a
test's) takes effect.
"""

from knox.models import AbstractAuthToken
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle


class _RateFromSettings(SimpleRateThrottle):
    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class TokenRateThrottle(_RateFromSettings):
    """Calls made with a knox token, counted per token (its digest identifies it; never the token)."""

    scope = "token"

    def get_cache_key(self, request, view):
        if not isinstance(request.auth, AbstractAuthToken):
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.auth.digest}


class SessionUserRateThrottle(_RateFromSettings):
    """Calls of a logged-in user without a token (a page's session), counted per user."""

    scope = "user"

    def get_cache_key(self, request, view):
        if isinstance(request.auth, AbstractAuthToken) or not request.user or not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class AnonRateThrottle(_RateFromSettings):
    """Anonymous calls, counted per address (REMOTE_ADDR, or X-Forwarded-For as NUM_PROXIES says)."""

    scope = "anon"

    def get_cache_key(self, request, view):
        if request.user and request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
