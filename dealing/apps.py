from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DealingConfig(AppConfig):
    """Shoes, rounds, stakes, incidents and approvals (the rules engine lives in dealing/engine/)."""

    name = "dealing"
    verbose_name = _("Dealing")
