"""Shared by the pages of dealing: who may do what, the table of a URL, redirects htmx follows, service errors on forms."""



from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _

from casino.errors import ServiceError
from casino.models import Table
from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, has_role, user_pits
from dealing.models import Round

# Who may do what on these pages (dealing/apps.py registers the navigation with the same tuples).
READERS = (DEALER, INSPECTOR, PIT_BOSS, AUDITOR)
LOGGERS = (DEALER, PIT_BOSS)
SHOE_LOADERS = (DEALER, PIT_BOSS)
SHOE_RECORDERS = (DEALER, INSPECTOR, PIT_BOSS)
REPORTERS = (INSPECTOR, PIT_BOSS)
DECIDERS = (PIT_BOSS,)


def _is_htmx(request) -> bool:
    return request.headers.get("HX-Request") == "true"


def _redirect(request, url: str):
    """A redirect htmx follows as a page load (fetch would otherwise swap the next page into the form)."""
    if _is_htmx(request):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def table_for(user, name: str) -> Table:
    """The table named `name` when it stands in one of the user's pits: 404 if none, 403 if elsewhere."""
    table = get_object_or_404(Table.objects.select_related("pit"), name=name)
    if not user_pits(user).filter(pk=table.pit_id).exists():
        raise PermissionDenied(_("Table %(table)s is not in your pits.") % {"table": table.name})
    return table


def audit_replay_url(record: Round) -> str | None:
    """The audit's rich replay of a round, when the audit app provides one."""
    for name in ("audit:round_replay", "audit:round_detail", "audit:round"):
        try:
            return reverse(name, args=[record.pk])
        except NoReverseMatch:
            continue
    return None


def _may(user, *roles) -> bool:
    return has_role(user, *roles)



def _call(form, write) -> bool:
    """Run a service; its refusal goes next to the field it names (or on top of the form)."""
    try:
        write()
    except ServiceError as exc:
        _service_error_to_form(form, exc)
        return False
    return True


def _require_role(user, roles) -> None:
    if not has_role(user, *roles):
        raise PermissionDenied(_("Your role does not allow this."))


def _service_error_to_form(form, exc: ServiceError) -> None:
    name = (exc.extra or {}).get("path")
    form.add_error(name if name in form.fields else None, exc.message)
