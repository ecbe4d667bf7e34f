"""Pages of the books. Thin: check the role and the shift (`access`), call a selector or a service,
render. Every step of a shift is a form on the shift's page, posted back to it with its `action`;
a refusal shows its sentence next to the field it is about and nothing is stored."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from casino.errors import ServiceError
from casino.pdf import pdf_response
from casino.roles import PIT_BOSS, has_role, role_required
from casino.scope import table_named

from . import selectors, services, slips
from .access import COUNTERS, READ_ROLES, WRITE_ROLES, may_count_opening, may_handle, may_sign, shift_for
from .choices import EventKind
from .forms import CashForm, CountForm, ExplainForm, TransferForm
from .models import FloatEvent, Slip


@require_http_methods(["GET"])
@role_required(*READ_ROLES)
def shift_list(request):
    tables = [
        {"table": t, "live": live, "can_open": live is None and may_count_opening(request.user, t)}
        for t, live in selectors.tables_with_live_shift(user=request.user)
    ]
    shifts = list(selectors.shift_list(user=request.user, status=request.GET.get("status"))[:100])
    return render(
        request,
        "books/shift_list.html",
        {
            "tables": tables,
            "shifts": shifts,
            "status": request.GET.get("status", ""),
            "is_pit_boss": has_role(request.user, PIT_BOSS),
        },
    )


def _error(form, exc: ServiceError) -> None:
    field = exc.extra.get("field")
    if field == "counts" or field not in form.fields:
        field = None
    form.add_error(field, exc.message)


@require_http_methods(["GET", "POST"])
@role_required(*COUNTERS)
def shift_open(request, table: str):
    table = table_named(request.user, table)
    if table is None:
        raise Http404
    if not may_count_opening(request.user, table):
        raise PermissionDenied(
            _("Only a dealer of pit %(pit)s counts the opening float of table %(table)s.")
            % {"pit": table.pit.name, "table": table.name}
        )
    form = CountForm(request.POST or None, table=table)
    if request.method == "POST" and form.is_valid():
        try:
            shift = services.shift_open(
                table=table, counted_by=request.user, counts=form.counts(), total=form.total_value()
            )
        except ServiceError as exc:
            _error(form, exc)
        else:
            messages.success(request, _("Opening float counted: a pit boss signs it to open the shift."))
            return redirect("books:shift_detail", pk=shift.pk)
    return render(request, "books/shift_open.html", {"table": table, "form": form})


ACTIONS = (
    "sign",
    "request",
    "approve",
    "receive",
    "cash",
    "closing",
    "explain",
    "close",
    "void_request",
    "void_confirm",
)


@require_http_methods(["GET", "POST"])
@role_required(*READ_ROLES)
def shift_detail(request, pk: int):
    shift = shift_for(request.user, pk)
    table, user = shift.table, request.user
    data = request.POST if request.method == "POST" else None
    action = request.POST.get("action") if data is not None else None
    if data is not None and action not in ACTIONS:
        messages.error(request, _("Unknown action."))
        return redirect("books:shift_detail", pk=shift.pk)

    def bound(name):
        return data if action == name else None

    forms = {
        "request": TransferForm(bound("request"), table=table, prefix="request"),
        "cash": CashForm(bound("cash"), prefix="cash"),
        "closing": CountForm(bound("closing"), table=table, prefix="closing"),
        "explain": ExplainForm(bound("explain"), prefix="explain"),
    }
    receive_event = receive_form = None
    if action == "receive":
        receive_event = _event(shift, request.POST.get("event"))
        receive_form = CountForm(data, table=table, with_total=False, prefix=f"receive-{receive_event.pk}")
    general_error = None
    if data is not None:
        if not may_handle(user, table) and not may_sign(user, table):
            raise PermissionDenied(_("You may only read the books of table %(table)s.") % {"table": table.name})
        done = _act(request, shift, action, forms, receive_event, receive_form)
        if done is True:
            return redirect("books:shift_detail", pk=shift.pk)
        general_error = done
        shift = shift_for(user, pk)
    books = selectors.shift_books(shift)
    for event in books.events:  # each approved transfer its own receipt form (the posted one bound)
        posted = receive_event is not None and event.pk == receive_event.pk
        event.receive_form = (
            receive_form if posted else CountForm(None, table=table, with_total=False, prefix=f"receive-{event.pk}")
        )
    return render(
        request,
        "books/shift_detail.html",
        {
            "shift": shift,
            "books": books,
            "forms": forms,
            "general_error": general_error,
            "can_handle": may_handle(user, table) and shift.is_open,
            "can_sign": may_sign(user, table) and not shift.is_closed,
            "chips": selectors.denominations(table),
        },
    )


def _event(shift, pk) -> FloatEvent:
    try:
        pk = int(pk)
    except (TypeError, ValueError):
        pk = 0
    return get_object_or_404(FloatEvent, shift=shift, pk=pk, kind__in=[EventKind.FILL, EventKind.CREDIT])


def _slip(shift, event_pk) -> Slip:
    return get_object_or_404(Slip, event=_event(shift, event_pk))


def _act(request, shift, action, forms, receive_event, receive_form):
    """Run the posted step: True when done, a sentence for the page when refused outside a form,
    None when the form shows its own errors."""
    user = request.user
    try:
        if action == "sign":
            services.shift_open_sign(shift=shift, signed_by=user)
            messages.success(request, _("Opening float signed: the shift is open."))
        elif action == "approve":
            event = _event(shift, request.POST.get("event"))
            services.transfer_approve(event=event, approved_by=user)
            messages.success(request, _("%(what)s approved.") % {"what": event.get_kind_display().capitalize()})
        elif action in ("void_request", "void_confirm"):
            slip = _slip(shift, request.POST.get("event"))
            if action == "void_request":
                slips.slip_void_request(slip=slip, asked_by=user, reason=request.POST.get("reason", ""))
                messages.success(
                    request, _("Void of slip %(slip)s asked: another pit boss confirms it.") % {"slip": slip.label}
                )
            else:
                slips.slip_void_confirm(slip=slip, confirmed_by=user)
                messages.success(request, _("Slip %(slip)s is void.") % {"slip": slip.label})
        elif action == "close":
            services.shift_close(shift=shift, closed_by=user)
            messages.success(request, _("The shift is closed."))
        elif action == "receive":
            if not receive_form.is_valid():
                return None
            services.transfer_receive(event=receive_event, received_by=user, counts=receive_form.counts())
            messages.success(request, _("%(what)s received.") % {"what": receive_event.get_kind_display().capitalize()})
        else:
            form = forms[action]
            if not form.is_valid():
                return None
            d = form.cleaned_data
            if action == "request":
                services.transfer_request(
                    shift=shift, kind=d["kind"], counts=form.counts(), total=form.total_value(), requested_by=user
                )
                messages.success(request, _("Requested: a pit boss approves it."))
            elif action == "cash":
                services.cash_record(shift=shift, kind=d["kind"], amount=f"{d['amount']:f}", recorded_by=user)
                messages.success(request, _("Recorded."))
            elif action == "closing":
                services.shift_count_closing(
                    shift=shift, counted_by=user, counts=form.counts(), total=form.total_value()
                )
                messages.success(request, _("Closing float counted."))
            elif action == "explain":
                services.shift_explain(shift=shift, explained_by=user, text=d["text"])
                messages.success(request, _("Explanation signed."))
    except ServiceError as exc:
        if exc.status == 403 and exc.extra.get("code") == "forbidden":
            raise PermissionDenied(exc.message) from None
        if exc.extra.get("code") in ("shift_closed", "shift_not_signed"):
            return exc.message  # the step's form is not on the page of a shift that is not open
        if action in forms:
            _error(forms[action], exc)
            return None
        if action == "receive":
            _error(receive_form, exc)
            return None
        return exc.message
    return True


@require_http_methods(["POST"])
@role_required(*WRITE_ROLES)
def slip_print(request, pk: int, event: int):
    """The slip of a fill or credit as a PDF to print, the print recorded: the first the original,
    every later one marked REPRINT with its number, who and when."""
    shift = shift_for(request.user, pk)
    slip = _slip(shift, event)
    if not may_handle(request.user, shift.table) and not may_sign(request.user, shift.table):
        raise PermissionDenied(_("You may only read the books of table %(table)s.") % {"table": shift.table.name})
    printed = slips.slip_print(slip=slip, printed_by=request.user)
    context = {
        "slip": slip,
        "event": slip.event,
        "shift": shift,
        "printed": printed,
        "reprints": slip.prints.filter(reprint=True).count(),
    }
    return pdf_response(request, "books/pdf_slip.html", context, f"slip-{slip.label}.pdf")
