"""An incident's page: the record and surveillance's file on it — the review (classification, the
money saved or lost, a first and a second reviewer), the attachments and video references — with
the forms of those who may add to it, and the attachments' downloads."""

from django.contrib import messages
from django.http import FileResponse, Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from casino.errors import ServiceError
from casino.exports import content_disposition
from casino.roles import role_required
from dealing import selectors, services
from dealing.forms import AttachmentForm, ReviewForm, SignOffForm, VideoForm

from .common import ATTACHERS, READERS, REVIEWERS, may, service_error_to_form


def _page(request, incident, status: int = 200, **forms):
    user = request.user
    review = selectors.incident_review_of(incident)
    may_review = may(user, *REVIEWERS)
    may_attach = may(user, *ATTACHERS)
    context = {
        "incident": incident,
        "procedure": selectors.incident_procedure(incident),
        "approvals": incident.approvals.select_related("decided_by").order_by("decided_at", "id"),
        "review": review,
        "attachments": selectors.incident_attachments(incident),
        "may_review": may_review and not (review and review.signed_off),
        "may_sign_off": may_review and review is not None and not review.signed_off,
        "may_attach": may_attach and not (review and review.signed_off),
        "review_form": forms.get("review_form") or ReviewForm(initial=_initial(review)),
        "sign_off_form": forms.get("sign_off_form") or SignOffForm(),
        "attachment_form": forms.get("attachment_form") or AttachmentForm(),
        "video_form": forms.get("video_form") or VideoForm(),
    }
    return render(request, "dealing/incident_detail.html", context, status=status)


def _initial(review) -> dict:
    if review is None:
        return {"money": "0"}
    return {
        "classification": review.classification,
        "money_direction": review.money_direction,
        "money": review.money,
        "reason": review.reason,
    }


def _submit(request, pk: int, form, slot: str, write, done: str):
    """A form posted to the incident's page: `write(incident, cleaned_data)` (a service) on a valid
    form, then back to the page with `done`; else the page again with the form's errors in `slot`."""
    incident = selectors.incident_get(user=request.user, pk=pk)
    if form.is_valid():
        try:
            write(incident, form.cleaned_data)
        except ServiceError as exc:
            service_error_to_form(form, exc)
        else:
            messages.success(request, done)
            return redirect("dealing:incident_detail", pk=incident.pk)
    return _page(request, incident, status=400, **{slot: form})


@require_http_methods(["GET"])
@role_required(*READERS)
def incident_detail(request, pk: int):
    return _page(request, selectors.incident_get(user=request.user, pk=pk))


@require_POST
@role_required(*REVIEWERS)
def incident_review(request, pk: int):
    """The first review: classification and the money saved or lost, with the reason."""
    return _submit(
        request,
        pk,
        ReviewForm(request.POST),
        "review_form",
        lambda incident, data: services.incident_classify(incident=incident, reviewed_by=request.user, **data),
        _("The review is recorded: it waits for a second reviewer."),
    )


@require_POST
@role_required(*REVIEWERS)
def incident_sign_off(request, pk: int):
    """The second reviewer's sign-off of the first review."""
    return _submit(
        request,
        pk,
        SignOffForm(request.POST),
        "sign_off_form",
        lambda incident, data: services.incident_sign_off(incident=incident, signed_by=request.user, **data),
        _("The review is signed off by a second reviewer."),
    )


@require_POST
@role_required(*ATTACHERS)
def incident_attach(request, pk: int):
    """An image or a PDF added to the incident's file (kept through the storage, hashed, chained)."""
    return _submit(
        request,
        pk,
        AttachmentForm(request.POST, request.FILES),
        "attachment_form",
        lambda incident, data: services.incident_attach(incident=incident, added_by=request.user, upload=data["file"]),
        _("The file is attached to the incident."),
    )


@require_POST
@role_required(*ATTACHERS)
def incident_video(request, pk: int):
    """A reference to surveillance's video: the camera and the times."""
    return _submit(
        request,
        pk,
        VideoForm(request.POST),
        "video_form",
        lambda incident, data: services.incident_video_reference(incident=incident, added_by=request.user, **data),
        _("The video reference is added to the incident."),
    )


@require_http_methods(["GET"])
@role_required(*READERS)
def incident_attachment(request, pk: int):
    """An attachment's file, for those who may see its incident (404 otherwise): always a download
    under its own type, never shown inline, never sniffed into HTML."""
    attachment = selectors.incident_attachment_get(user=request.user, pk=pk)
    if not attachment.file:
        raise Http404
    try:
        handle = attachment.file.open("rb")
    except OSError:
        raise Http404 from None
    response = FileResponse(handle, content_type=attachment.content_type)
    response["Content-Disposition"] = content_disposition(attachment.name)
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response
