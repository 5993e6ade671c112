"""The member's language follows him: chosen once in his profile, used at every login."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse


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
