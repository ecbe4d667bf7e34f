"""The notifications' pages: the list (read and unread, paged), marking read, the preferences."""

from django.contrib import messages
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from casino.roles import FLOOR_ROLES, role_required

from . import selectors, services
from .forms import PreferenceForm

# Everyone who works the floor hears of what concerns him; trainees see only their drills.
READERS = FLOOR_ROLES
PAGE_SIZE = 25


@role_required(*READERS)
def notification_list(request):
    page = Paginator(selectors.notification_list(request.user), PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "notifications/list.html", {"page": page, "unread": selectors.unread_count(request.user)})


@require_POST
@role_required(*READERS)
def notification_read(request, pk: int):
    """Mark one read; with `open`, go on to what it is about."""
    notification = selectors.notification_for(request.user, pk)
    services.mark_read(user=request.user, notification=notification)
    if request.POST.get("open") and notification.url.startswith("/"):
        return redirect(notification.url)
    return _back(request)


@require_POST
@role_required(*READERS)
def notification_read_all(request):
    count = services.mark_all_read(user=request.user)
    messages.success(request, _("%(n)d notification(s) marked read.") % {"n": count})
    return _back(request)


def _back(request):
    target = request.POST.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        return redirect(target)
    return redirect("notifications:list")


@role_required(*READERS)
def preferences(request):
    # The language this page is read in is the one he uses now: what his e-mails follow until he chooses.
    services.language_remember(user=request.user, language=getattr(request, "LANGUAGE_CODE", ""))
    pref = selectors.preference_for(request.user)
    channels = selectors.channels_for([request.user.pk])[request.user.pk]
    form = PreferenceForm(
        request.POST or None,
        channels=channels,
        last_language=pref.last_language,
        initial={"digest": pref.digest, "language": pref.language},
    )
    if request.method == "POST" and form.is_valid():
        services.preference_save(
            user=request.user,
            channels=form.channels(),
            digest=form.cleaned_data["digest"],
            language=form.cleaned_data["language"],
        )
        messages.success(request, _("Your notification settings are saved."))
        return redirect("notifications:preferences")
    return render(
        request,
        "notifications/preferences.html",
        {"form": form, "has_email": bool(request.user.email)},
        status=400 if form.errors else 200,
    )
