from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    """Who must hear of what happened: rows per recipient, the bell, e-mail, the digest."""

    name = "notifications"
    verbose_name = _("Notifications")

    def ready(self):
        from audit import hooks as audit_hooks
        from books.models import IntegritySignal, TableShift
        from dealing import hooks as dealing_hooks
        from dealing.chain_models import ChainCheck
        from dealing.incident_models import IncidentReview
        from dealing.models import Incident

        from . import subscribers

        # The apps below announce; this one listens (they never import it).
        dealing_hooks.listen("halted", subscribers.halted)
        dealing_hooks.listen("correction_proposed", subscribers.correction_proposed)
        audit_hooks.listen("findings_added", subscribers.findings_added)
        audit_hooks.listen("run_finished", subscribers.run_finished)
        dealing_hooks.subscribe_chain_broken(subscribers.chain_broken)
        # Rows written with save()/create(): their post_save, inside the writer's transaction.
        post_save.connect(subscribers.incident_saved, sender=Incident, dispatch_uid="notify-incident")
        post_save.connect(subscribers.review_saved, sender=IncidentReview, dispatch_uid="notify-review")
        post_save.connect(subscribers.chain_check_saved, sender=ChainCheck, dispatch_uid="notify-chain-check")
        post_save.connect(subscribers.shift_saved, sender=TableShift, dispatch_uid="notify-shift")
        post_save.connect(subscribers.signal_saved, sender=IntegritySignal, dispatch_uid="notify-signal")
        user_logged_in.connect(subscribers.signed_in, dispatch_uid="notify-language")

        # No entry in the bar: the bell leads to the list, and the list to the settings.
