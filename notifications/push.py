"""The seam to the live stream: a notification row, once committed, is pushed to its recipient's
open pages. Until the bus is connected this only logs; a push that fails loses nothing (the row is
in the database and the bell reads it)."""

import logging

logger = logging.getLogger(__name__)


def pushed(notification) -> None:
    logger.debug("notification %s (%s) for user %s", notification.pk, notification.kind, notification.recipient_id)
