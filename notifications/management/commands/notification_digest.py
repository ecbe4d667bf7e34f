from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from notifications.mail import send_digests


class Command(BaseCommand):
    help = "E-mail the daily digest of unread notifications to the users who chose it (beat runs it daily)."

    def handle(self, *args, **options):
        sent = send_digests()
        self.stdout.write(_("%(n)d digest(s) sent.") % {"n": sent})
