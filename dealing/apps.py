from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DealingConfig(AppConfig):
    """Shoes, rounds, stakes, incidents and approvals (the rules engine lives in dealing/engine/)."""

    name = "dealing"
    verbose_name = _("Dealing")

    def ready(self):
        from casino import demo
        from casino.navigation import NavItem, register

        from . import checks, views  # noqa: F401 - checks registers the system checks
        from .demo import dealing_demo_load

        # The demo floor's shoes, rounds, incidents and a correction (manage.py demo_floor).
        demo.register_loader("dealing", dealing_demo_load, order=10)

        # The roles of each entry are the roles its view requires (casino/navigation.py).
        register(NavItem(_("Tables"), "dealing:table_list", roles=views.READERS, order=20, group="pit"))
        register(NavItem(_("Log a round"), "dealing:round_pick_table", roles=views.LOGGERS, order=21))
        register(NavItem(_("Incidents"), "dealing:incident_list", roles=views.READERS, order=30, group="pit"))
        register(NavItem(_("Pit queue"), "dealing:pit_queue", roles=views.DECIDERS, order=31))
