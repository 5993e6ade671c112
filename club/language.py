"""The member's language follows him: chosen once in his profile, used at every login. A
list of languages names each in itself, marked with its lang (``LanguageSelect``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.http import HttpResponse


class LanguageSelect(forms.Select):
    """A language's choice whose options each carry their ``lang``: a screen reader says
    "Nederlands" in Dutch, not as a French word."""

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        if value:
            option["attrs"]["lang"] = str(value)
        return option


def remember_language(response: HttpResponse, code: str) -> HttpResponse:
    """Set Django's language cookie, as its ``set_language`` view does."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response
