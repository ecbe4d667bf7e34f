"""Shared by the pages of dealing: who may do what, the table of a URL, redirects htmx follows, service errors on forms."""

from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _

from casino.errors import ServiceError
from casino.roles import has_role

# Who may do what on these pages: dealing.access, for the pages and the API alike (and the navigation).
from dealing.access import (  # noqa: F401
    ATTACHERS,
    DECIDERS,
    LOGGERS,
    READERS,
    REPORTERS,
    REVIEWERS,
    SHOE_LOADERS,
    SHOE_RECORDERS,
    TERMINAL_USERS,
    may,
    table_for,
)
from dealing.models import Round


def is_htmx(request) -> bool:
    return request.headers.get("HX-Request") == "true"


def htmx_redirect(request, url: str):
    """A redirect htmx follows as a page load (fetch would otherwise swap the next page into the form)."""
    if is_htmx(request):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def audit_replay_url(record: Round) -> str | None:
    """The audit's rich replay of a round, when the audit app provides one."""
    for name in ("audit:round_replay", "audit:round_detail", "audit:round"):
        try:
            return reverse(name, args=[record.pk])
        except NoReverseMatch:
            continue
    return None


def call_service(form, write) -> bool:
    """Run a service; its refusal goes next to the field it names (or on top of the form)."""
    try:
        write()
    except ServiceError as exc:
        service_error_to_form(form, exc)
        return False
    return True


def require_role(user, roles) -> None:
    if not has_role(user, *roles):
        raise PermissionDenied(_("Your role does not allow this."))


def service_error_to_form(form, exc: ServiceError) -> None:
    name = (exc.extra or {}).get("path")
    form.add_error(name if name in form.fields else None, exc.message)
