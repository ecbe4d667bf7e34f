from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = _("Floor")
