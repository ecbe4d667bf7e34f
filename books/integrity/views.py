"""Pages of the integrity signals: the list with its filters, and a signal's detail with its
evidence, the rounds it names and (for auditors) the review form. Thin: selectors read, the
service writes, a refusal shows its sentence next to the field and stores nothing."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from casino.errors import ServiceError
from casino.roles import has_role, role_required

from . import selectors, services
from .forms import SignalFilterForm, SignalReviewForm
from .selectors import READ_ROLES, REVIEW_ROLES

PAGE = 200

# The evidence's figures (books/integrity/detection.py) as the page names them; a name not here is shown as stored.
EVIDENCE_LABELS = {
    "test": gettext_lazy("test"),
    "errors_in_favour": gettext_lazy("errors in the players' favour"),
    "to_subject": gettext_lazy("of them to this subject"),
    "expected": gettext_lazy("expected by chance"),
    "share_of_stakes": gettext_lazy("share of the dealer's stakes"),
    "stakes_of_subject": gettext_lazy("stakes of this subject"),
    "stakes_of_dealer": gettext_lazy("stakes of the dealer"),
    "money_to_subject": gettext_lazy("money to this subject"),
    "errors": gettext_lazy("payment errors"),
    "overpayments": gettext_lazy("overpayments"),
    "underpayments": gettext_lazy("underpayments"),
    "p0": gettext_lazy("share of overpayments if honest"),
    "overpaid": gettext_lazy("overpaid"),
    "underpaid": gettext_lazy("underpaid"),
    "game": gettext_lazy("game"),
    "stakes": gettext_lazy("stakes"),
    "mean_per_unit": gettext_lazy("mean result per unit wagered"),
    "floor_mean_per_unit": gettext_lazy("floor's mean per unit wagered"),
    "floor_sd_per_unit": gettext_lazy("floor's standard deviation per unit wagered"),
    "floor_errors": gettext_lazy("errors of the rest of the floor"),
    "floor_overpayments": gettext_lazy("overpayments of the rest of the floor"),
    "floor_share": gettext_lazy("the rest of the floor's share of overpayments"),
    "won": gettext_lazy("won"),
    "wagered": gettext_lazy("wagered"),
    "what": gettext_lazy("counted"),
    "events": gettext_lazy("on the floor"),
    "of_subject": gettext_lazy("of this subject"),
    "rounds_of_subject": gettext_lazy("rounds of this subject"),
    "rounds": gettext_lazy("rounds on the floor"),
    "share_of_rounds": gettext_lazy("share of the rounds"),
    "tests_in_scan": gettext_lazy("tests in the scan"),
    "alpha": gettext_lazy("level of the scan"),
    "rounds_in_shoes": gettext_lazy("rounds of the shoes he sat in"),
    "rounds_played": gettext_lazy("rounds he played"),
    "spearman": gettext_lazy("rank correlation of wager and count changes"),
    "effective_rounds": gettext_lazy("pairs left after autocorrelation"),
    "mean_true_count_played": gettext_lazy("mean true count where he played"),
    "mean_true_count_all": gettext_lazy("mean true count of those shoes"),
    "mean_wager_low_count": gettext_lazy("mean wager below a true count of +1"),
    "mean_wager_high_count": gettext_lazy("mean wager from a true count of +2"),
}
# The evidence's words (the tests' names, what was counted), stored in English by books/integrity/detection.py.
VALUE_LABELS = {
    "binomial upper tail": gettext_lazy("binomial upper tail"),
    "binomial upper tail (sign test)": gettext_lazy("binomial upper tail (sign test)"),
    "one-sided Fisher exact test against the rest of the floor": gettext_lazy(
        "one-sided Fisher exact test against the rest of the floor"
    ),
    "z-test of the mean result per unit wagered": gettext_lazy("z-test of the mean result per unit wagered"),
    "incidents": gettext_lazy("incidents"),
    "burn and reshuffle findings": gettext_lazy("burn and reshuffle findings"),
    "Spearman rank correlation of the changes of wager and true count, autocorrelation-corrected": gettext_lazy(
        "Spearman rank correlation of the changes of wager and true count, autocorrelation-corrected"
    ),
}


@require_http_methods(["GET"])
@role_required(*READ_ROLES)
def signal_list(request):
    form = SignalFilterForm(request.GET or None)
    wanted = form.cleaned_data if form.is_valid() else {}
    signals = selectors.signal_list(
        user=request.user, **{k: wanted.get(k) or "" for k in ("kind", "status", "dealer", "player")}
    )
    return render(
        request, "books/signals_list.html", {"form": form, "signals": list(signals[:PAGE]), "page_size": PAGE}
    )


def _detail(request, signal, form, status=200):
    return render(
        request,
        "books/signals_detail.html",
        {
            "signal": signal,
            "form": form,
            "rounds": selectors.signal_rounds(signal),
            "evidence": [
                (EVIDENCE_LABELS.get(name, name), VALUE_LABELS.get(value, value) if isinstance(value, str) else value)
                for name, value in signal.evidence.items()
            ],
            "can_review": has_role(request.user, *REVIEW_ROLES) and signal.status == "open",
        },
        status=status,
    )


@require_http_methods(["GET"])
@role_required(*READ_ROLES)
def signal_detail(request, pk: int):
    signal = selectors.signal_for(request.user, pk)
    return _detail(request, signal, SignalReviewForm())


@require_http_methods(["POST"])
@role_required(*REVIEW_ROLES)
def signal_review(request, pk: int):
    signal = selectors.signal_for(request.user, pk)
    form = SignalReviewForm(request.POST)
    if form.is_valid():
        try:
            services.signal_review(
                signal=signal, reviewer=request.user, status=form.cleaned_data["status"], note=form.cleaned_data["note"]
            )
        except ServiceError as exc:
            if exc.status == 403:
                raise PermissionDenied(exc.message) from None
            field = exc.extra.get("field")
            form.add_error(field if field in form.fields and exc.extra.get("code") == "invalid" else None, exc.message)
        else:
            messages.success(request, _("Signal reviewed."))
            return redirect("books:signal_detail", pk=signal.pk)
    return _detail(request, selectors.signal_for(request.user, pk), form, status=400)
