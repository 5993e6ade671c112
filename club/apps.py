from django.apps import AppConfig
from django.urls import register_converter
from django.utils.translation import gettext_lazy as _

from infra.converters import IdConverter


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = _("Clubs et membres")

    def ready(self) -> None:
        # Before any URLconf is read: every app's addresses use <id:…> for their numbers.
        register_converter(IdConverter, "id")
