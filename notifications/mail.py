"""The e-mails: one per notification, and the daily digest of what a user has not read."""

import logging
from datetime import timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from .models import Notification, Preference
from .selectors import languages_for, reading_language

logger = logging.getLogger(__name__)


def _link(url: str) -> str:
    return f"{settings.SITE_URL.rstrip('/')}{url}" if url.startswith("/") else url


def send_notification_emails(ids) -> int:
    """Send the e-mail of each row still due (each once: the row is claimed under its lock)."""
    sent = 0
    for pk in ids:
        with transaction.atomic():
            row = (
                Notification.objects.select_for_update(skip_locked=True)
                .select_related("recipient")
                .filter(pk=pk, email_due=True, emailed_at__isnull=True)
                .first()
            )
            if row is None:
                continue
            address = row.recipient.email
            if address:
                # The recipient's language, not the sender's: one send may go to readers of four.
                with translation.override(languages_for([row.recipient_id])[row.recipient_id]):
                    body = render_to_string(
                        "notifications/email.txt", {"n": row, "link": _link(row.url) if row.url else ""}
                    )
                    send_mail(row.title, body, None, [address])
                sent += 1
            row.email_due = False
            row.emailed_at = timezone.now()
            row.save(update_fields=["email_due", "emailed_at"])
    return sent


def due_ids(older_than_s: int = 60, limit: int = 500) -> list[int]:
    """E-mails due for a while whose task never ran (the broker was down when they were made)."""
    cutoff = timezone.now() - timedelta(seconds=older_than_s)
    return list(
        Notification.objects.filter(email_due=True, emailed_at__isnull=True, created_at__lt=cutoff)
        .order_by("created_at")
        .values_list("pk", flat=True)[:limit]
    )


def send_digests(now=None) -> int:
    """To each user who chose the digest, his notifications not read since his last digest (at most
    one a day); nothing to tell, no e-mail."""
    now = now or timezone.now()
    sent = 0
    for pref in Preference.objects.filter(digest=True, user__is_active=True).select_related("user"):
        since = pref.digest_sent_at or (now - timedelta(days=1))
        if pref.digest_sent_at and now - pref.digest_sent_at < timedelta(hours=20):
            continue
        rows = list(
            Notification.objects.filter(recipient=pref.user, read_at__isnull=True, created_at__gt=since).order_by(
                "created_at"
            )[:200]
        )
        if rows and pref.user.email:
            with translation.override(reading_language(pref.language, pref.last_language)):
                body = render_to_string(
                    "notifications/digest.txt",
                    {"rows": [(r, _link(r.url) if r.url else "") for r in rows], "user": pref.user},
                )
                send_mail(_("Your notifications of the day (%(n)d)") % {"n": len(rows)}, body, None, [pref.user.email])
            sent += 1
        pref.digest_sent_at = now
        pref.save(update_fields=["digest_sent_at"])
    return sent
