"""The notifications' tasks, on the `notifications` queue (casino/settings.py routes them)."""

from celery import shared_task

from . import mail


@shared_task(name="notifications.tasks.send_emails", ignore_result=True)
def send_emails(ids: list[int]) -> int:
    return mail.send_notification_emails(ids)


@shared_task(name="notifications.tasks.email_sweep", ignore_result=True)
def email_sweep() -> int:
    """The e-mails whose task was lost (the broker down when the row was made), sent here."""
    return mail.send_notification_emails(mail.due_ids())


@shared_task(name="notifications.tasks.digest_daily", ignore_result=True)
def digest_daily() -> int:
    return mail.send_digests()
