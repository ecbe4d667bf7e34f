"""Writes: `notify` stores a row per recipient and its push to the recipient's pages (in the
caller's transaction, if any); once that commits, the push goes out and its e-mail is queued. A
push or a task that cannot be sent (the broker down) loses nothing: the row is stored, its e-mail
stays due, and the sweep (`notifications.tasks.email_sweep`) sends it later."""

import logging
from collections.abc import Iterable

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from . import push
from .kinds import Channel, by_email, on_page
from .models import Notification, Preference
from .selectors import channels_for

logger = logging.getLogger(__name__)


def notify(*, kind: str, recipients: Iterable, params: dict, url: str = "", key: str = "", exclude=()) -> list:
    """Tell each of `recipients` (users or ids) but those in `exclude` of one event of `kind`.

    With a `key`, one event is told once: a recipient who has the row already gets no second one.
    Who chose neither the page nor e-mail for the kind gets nothing. The rows made are returned."""
    excluded = {getattr(u, "pk", u) for u in exclude if u is not None}
    ids = sorted({getattr(u, "pk", u) for u in recipients} - excluded)
    if not ids:
        return []
    if key:
        told = set(
            Notification.objects.filter(kind=kind, key=key, recipient_id__in=ids).values_list("recipient_id", flat=True)
        )
        ids = [pk for pk in ids if pk not in told]
    channels = channels_for(ids)
    made = []
    for pk in ids:
        channel = channels[pk][kind]
        if channel == Channel.NONE:
            continue
        row = Notification(
            recipient_id=pk,
            kind=kind,
            params=params,
            url=url,
            key=key,
            on_page=on_page(channel),
            email_due=by_email(channel),
        )
        try:
            with transaction.atomic():  # a savepoint: a row told meanwhile (a race) is skipped alone
                row.save()
        except IntegrityError:
            continue
        if row.on_page:
            push.pushed(row)
        made.append(row)
    if made:
        transaction.on_commit(lambda: _after_commit(made))
    return made


def _after_commit(rows: list[Notification]) -> None:
    due = [row.pk for row in rows if row.email_due]
    if due:
        queue_emails(due)


def queue_emails(ids: list[int]) -> bool:
    """Queue the e-mails of these rows on the notifications queue; False when the broker refused
    (they stay due for the sweep)."""
    from .tasks import send_emails

    try:
        send_emails.delay(ids)
    except Exception:
        logger.warning("could not queue the e-mail of notifications %s: left for the sweep", ids, exc_info=True)
        return False
    return True


def mark_read(*, user, notification: Notification) -> Notification:
    if notification.recipient_id != user.pk:  # selectors.notification_for already refuses; twice sure
        raise Notification.DoesNotExist
    if notification.read_at is None:
        notification.read_at = timezone.now()
        Notification.objects.filter(pk=notification.pk, read_at__isnull=True).update(read_at=notification.read_at)
    return notification


def mark_all_read(*, user) -> int:
    return Notification.objects.filter(recipient=user, read_at__isnull=True).update(read_at=timezone.now())


def preference_save(*, user, channels: dict[str, str], digest: bool, language: str = "") -> Preference:
    pref, _ = Preference.objects.get_or_create(user=user)
    pref.channels = dict(channels)
    pref.digest = bool(digest)
    pref.language = language
    pref.save(update_fields=["channels", "digest", "language"])
    return pref


def language_remember(*, user, language: str) -> None:
    """The language a user last used (at his sign-in, on his notification settings): his e-mails'
    language until he chooses one. Written only when it changed."""
    if language not in {code for code, _name in settings.LANGUAGES}:
        return
    if not Preference.objects.filter(user=user).exclude(last_language=language).update(last_language=language):
        Preference.objects.get_or_create(user=user, defaults={"last_language": language})
