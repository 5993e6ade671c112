"""Requests per minute: per token (or per signed-in member on the site's session), and per
address for the public. Rates come from settings at each request, so a deployment (or CI's
schema run) sets them by environment variable."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from club.models import ApiToken


class PerToken(SimpleRateThrottle):
    scope = "token"

    def get_rate(self) -> str | None:
        return settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"].get(self.scope)

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if not request.user.is_authenticated:
            return None
        token = request.auth
        ident = f"token-{token.pk}" if isinstance(token, ApiToken) else f"user-{request.user.pk}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


class Anonymous(PerToken):
    scope = "anon"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
