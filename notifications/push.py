"""The seam to the live stream: a notification shown on the page is announced (casino.signals) in
the transaction that stores it, and the live pit stores and pushes it to its recipient's open pages
only: the bell's count and a toast, without a reload. A push that fails loses nothing (the row is
in the database and the bell reads it at the next page)."""

import logging

from django.db import transaction
from django.utils import translation

from casino import signals

from .selectors import languages_for, unread_count

logger = logging.getLogger(__name__)


def pushed(notification) -> None:
    try:
        # A savepoint: a push that fails leaves the notification and its caller's transaction whole.
        with transaction.atomic():
            user_id = notification.recipient_id
            # The toast is read as the e-mail is: in the recipient's language, not the writer's.
            with translation.override(languages_for([user_id])[user_id]):
                payload = {
                    "id": notification.pk,
                    "kind": notification.kind,
                    "title": notification.title,
                    "text": notification.text,
                    "url": notification.url,
                    "unread": unread_count(user_id),
                }
            signals.user_told.send(sender=type(notification), user_id=user_id, payload=payload)
    except Exception:  # the live stream is a convenience: the row is what counts
        logger.warning("push of notification %s failed", notification.pk, exc_info=True)
