"""Django's session, authentication and messages middleware, left out of API calls made with a token.

A call to the REST API (under /api/) that carries `Authorization: Token …` is authenticated by
DRF's token authentication (casino.authentication) and by nothing else: with a token header DRF
never falls back to the session (a wrong or malformed token is answered 401), DRF sets the
request's user itself, and API views neither read the session nor add flash messages. For such
calls these three would only build a session store, a lazy user and a message storage that no one
looks at, on every round logged. Every other request — pages, the admin, the API used from a
browser with its session cookie (and CSRF checks) — goes through them exactly as before.

Each class is the Django middleware it names (a subclass, in the same place in MIDDLEWARE, so
Django's own checks still find it); it only steps aside for token API calls.
"""

from django.contrib.auth import middleware as auth_middleware
from django.contrib.messages import middleware as messages_middleware
from django.contrib.sessions import middleware as sessions_middleware

from .log_filters import REASON

API_PREFIX = "/api/"
TOKEN_KEYWORD = "token"  # DRF TokenAuthentication's keyword, which it reads case-insensitively


def is_token_api_call(request) -> bool:
    """An API call authenticated by its token header (DRF then never reads the session)."""
    if not request.path_info.startswith(API_PREFIX):
        return False
    header = request.META.get("HTTP_AUTHORIZATION", "")
    return header[: len(TOKEN_KEYWORD) + 1].lower() == TOKEN_KEYWORD + " "


class SessionMiddleware(sessions_middleware.SessionMiddleware):
    def __call__(self, request):
        if is_token_api_call(request):
            return self.get_response(request)
        return super().__call__(request)


class AuthenticationMiddleware(auth_middleware.AuthenticationMiddleware):
    def __call__(self, request):
        if is_token_api_call(request):
            return self.get_response(request)
        return super().__call__(request)


class MessageMiddleware(messages_middleware.MessageMiddleware):
    def __call__(self, request):
        if is_token_api_call(request):
            return self.get_response(request)
        return super().__call__(request)


class IdleTimeoutMiddleware:
    """A signed-in session idle for SESSION_IDLE_TIMEOUT minutes is ended (casino/identity.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not is_token_api_call(request):
            from .identity import session_idle_check

            session_idle_check(request)
        return self.get_response(request)


class SecondFactorMiddleware:
    """After django-otp's middleware: a person who owes the second factor reaches only the enrol,
    verify and logout pages (casino/identity.py). Token calls carry a token issued with the code."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not is_token_api_call(request):
            from .identity import second_factor_gate

            refused = second_factor_gate(request)
            if refused is not None:
                return refused
        return self.get_response(request)


class SecurityRefusalMiddleware:
    """Each refusal (a 403 answer, page or API) goes to the security log too, with who, what and
    why (the reason the API recorded, casino/log_filters.py). Other answers pass untouched."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 403:
            _record_refusal(request, response)
        return response

    def process_exception(self, request, exception):
        from django.core.exceptions import PermissionDenied

        if isinstance(exception, PermissionDenied):  # the page's reason, before Django renders 403.html
            setattr(request, REASON, str(exception))


def _record_refusal(request, response) -> None:
    from .models import SecurityEvent
    from .security import client_address
    from .services import security_event_record

    user = getattr(request, "user", None)  # DRF sets it on token calls; pages have the lazy user
    try:
        user = user if user is not None and user.is_authenticated else None
    except Exception:  # noqa: BLE001 - a session that cannot be read: refused anonymously
        user = None
    why = getattr(request, REASON, "") or "Forbidden"
    security_event_record(
        kind=SecurityEvent.Kind.REFUSAL,
        user=user,
        address=client_address(request),
        detail=f"{request.method} {request.path[:300]}: {why}",
    )


class ApiNotFoundMiddleware:
    """Under /api/ a path that matches no endpoint (`/api/v1/rounds/-1/`, `/api/v1/nowhere`) is a
    404 in the API's error shape, as the schema documents, not Django's HTML page (the URLconf's
    `handler404` is not used while DEBUG is on; this is). The endpoints' own 404s are JSON already
    and pass untouched; pages keep their 404 page."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            response.status_code == 404
            and request.path_info.startswith(API_PREFIX)
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            from django.http import JsonResponse
            from django.utils.translation import gettext as _

            return JsonResponse({"message": _("Not found."), "extra": {"code": "not_found"}}, status=404)
        return response


class NulCharacterMiddleware:
    """A NUL character (`%00`) in a query parameter or a form field is refused before any view reads
    it: 400 naming the field — on the API in its error shape (`extra.fields`), on a page with the
    400 page that names it. PostgreSQL cannot store text holding one, nor compare with it, so a
    filter or a lookup given one was a 500; no one types one, and no form field may hold one
    (Django's own text fields refuse it, so the pages' forms would say the same). A NUL in the
    path is a page that does not exist (404). JSON bodies are checked by their parser
    (casino.parsers) and the round logs by their own reader (dealing.services.documents)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" in request.path_info:
            from django.http import Http404

            raise Http404
        name = _field_with_nul(request)
        if name is not None:
            return nul_refusal(request, name)
        return self.get_response(request)


def _field_with_nul(request) -> str | None:
    """The first query parameter or form field whose name or a value holds a NUL, or None."""
    sources = [request.GET]
    # A form's urlencoded body, read once and kept (a view may still read `request.body`); not a
    # multipart body, which reading here would consume (its fields are Django's form fields, which
    # refuse a NUL themselves), nor the API's, which reads no form (415) and checks its JSON itself.
    form = request.content_type == "application/x-www-form-urlencoded"
    if request.method == "POST" and form and not request.path_info.startswith(API_PREFIX):
        from django.core.exceptions import SuspiciousOperation
        from django.http import UnreadablePostError
        from django.http.multipartparser import MultiPartParserError

        try:
            sources.append(request.POST)
        except (SuspiciousOperation, MultiPartParserError, UnreadablePostError):
            pass  # too large, too many fields, unreadable: refused as they always were
    for data in sources:
        for name, values in data.lists():
            if "\x00" in name or any("\x00" in value for value in values):
                return name.replace("\x00", "\\0")
    return None


def nul_refusal(request, name: str):
    from django.http import JsonResponse
    from django.shortcuts import render
    from django.utils.translation import gettext as _

    error = _("This text contains a NUL character, which no text may hold.")
    if request.path_info.startswith(API_PREFIX):
        return JsonResponse({"message": _("Validation error."), "extra": {"fields": {name: [error]}}}, status=400)
    message = _("The field “%(name)s” contains a NUL character, which no text may hold.") % {"name": name}
    return render(request, "400.html", {"message": message}, status=400)
