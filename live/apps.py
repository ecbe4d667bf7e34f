from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LiveConfig(AppConfig):
    """The live pit: events stored as rows, pushed over a bus (Redis publish/subscribe, or in
    memory), streamed to pit bosses and auditors as Server-Sent Events (docs/live.md)."""

    name = "live"
    verbose_name = _("Live pit")

    def ready(self):
        from casino.navigation import NavItem, register

        from . import subscribers
        from .access import FLOOR_ROLES

        subscribers.connect()
        register(NavItem(_("Live floor"), "live:floor", roles=FLOOR_ROLES, order=22, group="pit"))
