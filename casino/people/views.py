"""The staff page: the people (filtered, a page at a time), a new person, a person's roles and pits,
deactivation and the second factor's reset. Administrators only; thin: selectors read, services
write, a refusal is shown next to its field and stores nothing."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ..errors import ServiceError
from ..roles import role_required
from ..security import client_address
from . import selectors, services
from .forms import PersonCreateForm, PersonFilterForm, PersonForm
from .selectors import ROLE_CHOICES

# Every page here is the administrators' (superusers): `role_required()` with no role.
ADMINS_ONLY = ()
ROLE_NAMES = dict(ROLE_CHOICES)


def _role_labels(names) -> list[str]:
    return [str(ROLE_NAMES.get(name, name)) for name in names]


@require_GET
@role_required(*ADMINS_ONLY)
def staff_list(request):
    form = PersonFilterForm(request.GET or None)
    filters = form.cleaned_data if form.is_bound and form.is_valid() else {}
    page = selectors.person_list(
        filters=filters, after=request.GET.get("after", "")[:150], before=request.GET.get("before", "")[:150]
    )
    for person in page.people:
        person.role_labels = _role_labels(person.roles)
    query = {k: v for k, v in request.GET.items() if k in form.fields and v}
    return render(
        request,
        "casino/staff_list.html",
        {
            "form": form,
            "page": page,
            "newer_query": urlencode({**query, "before": page.newer}) if page.newer else "",
            "older_query": urlencode({**query, "after": page.older}) if page.older else "",
        },
    )


def _form_refused(form, error: ValidationError) -> None:
    """The service's refusal shown beside the fields it names (the rest above the form)."""
    for field, texts in error.message_dict.items():
        form.add_error(field if field in form.fields else None, texts)


@require_http_methods(["GET", "POST"])
@role_required(*ADMINS_ONLY)
def staff_create(request):
    form = PersonCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            person = services.person_create(
                by=request.user,
                username=data["username"],
                password=data["password"],
                first_name=data["first_name"],
                last_name=data["last_name"],
                email=data["email"],
                badge=data["badge"],
                roles=data["roles"],
                pits=data["pits"],
                address=client_address(request),
            )
        except ValidationError as error:
            _form_refused(form, error)
        else:
            messages.success(request, _("%(username)s can sign in now.") % {"username": person.username})
            return redirect("casino:staff_edit", pk=person.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "casino/staff_create.html", {"form": form}, status=status)


def _person_or_404(pk: int):
    person = selectors.person_get(pk=pk)
    if person is None:
        raise Http404(_("No such person."))
    return person


@require_http_methods(["GET", "POST"])
@role_required(*ADMINS_ONLY)
def staff_edit(request, pk: int):
    person = _person_or_404(pk)
    initial = {
        "first_name": person.first_name,
        "last_name": person.last_name,
        "email": person.email,
        "badge": selectors.person_badge(person),
        "roles": selectors.person_roles(person),
        "pits": selectors.person_pits(person),
    }
    form = PersonForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            changed = services.person_update(
                by=request.user,
                person=person,
                first_name=data["first_name"],
                last_name=data["last_name"],
                email=data["email"],
                badge=data["badge"],
                roles=data["roles"],
                pits=data["pits"],
                address=client_address(request),
            )
        except ValidationError as error:
            _form_refused(form, error)
            person = _person_or_404(pk)  # the page shows what is stored, not the refused change
        else:
            if changed:
                messages.success(request, _("Saved."))
            else:
                messages.info(request, _("Nothing changed."))
            return redirect("casino:staff_edit", pk=person.pk)
    context = {
        "form": form,
        "person": person,
        "role_labels": _role_labels(selectors.person_roles(person)),
        "is_admin": person.is_superuser,
        "second_factor": selectors.second_factor_enrolled(person=person),
        "is_self": person.pk == request.user.pk,
    }
    return render(request, "casino/staff_edit.html", context, status=400 if request.method == "POST" else 200)


def _confirmed(request, person, **expected) -> bool:
    """A form of the person's page names him (and what it asks): an empty or stale post changes nothing."""
    if request.POST.get("username") == person.username and all(
        request.POST.get(name) in values for name, values in expected.items()
    ):
        return True
    messages.error(request, _("The form did not name this person; nothing was changed."))
    return False


@require_POST
@role_required(*ADMINS_ONLY)
def staff_active(request, pk: int):
    person = _person_or_404(pk)
    active = request.POST.get("active")
    if _confirmed(request, person, active=("0", "1")):
        try:
            services.person_active_set(
                by=request.user, person=person, active=active == "1", address=client_address(request)
            )
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            if active == "1":
                messages.success(request, _("%(username)s can sign in again.") % {"username": person.username})
            else:
                messages.success(
                    request, _("%(username)s is deactivated: he can no longer sign in.") % {"username": person.username}
                )
    return redirect("casino:staff_edit", pk=person.pk)


@require_POST
@role_required(*ADMINS_ONLY)
def staff_second_factor_reset(request, pk: int):
    person = _person_or_404(pk)
    if _confirmed(request, person):
        services.person_second_factor_reset(by=request.user, person=person, address=client_address(request))
        messages.success(
            request,
            _("The second factor of %(username)s is reset: he enrols a new authenticator at his next sign-in.")
            % {"username": person.username},
        )
    return redirect("casino:staff_edit", pk=person.pk)
