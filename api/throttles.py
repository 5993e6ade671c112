"""Requests per minute: per member (all his tokens and his session share one budget), and per
address for the public; refused keys per address too. Rates come from settings at each
request, so a deployment (or CI's schema run) sets them by environment variable. The address
is the connection's unless ``NUM_PROXIES`` (``API_NUM_PROXIES``) says which proxies to trust."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle


class _FromSettings(SimpleRateThrottle):
    def get_rate(self) -> str | None:
        return settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"].get(self.scope)


class PerToken(_FromSettings):
    """Per member, whatever the key: a member making twenty tokens gets no twenty budgets."""

    scope = "token"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": f"user-{request.user.pk}"}


class Anonymous(_FromSettings):
    scope = "anon"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class FailedTokens(_FromSettings):
    """Keys refused (401) per address. Authentication runs before the throttles, so a refused
    key never reaches them: the token authentication asks this one itself, before looking the
    key up (an address past its budget gets 429 even with a good key, until the minute ends)."""

    scope = "failed_token"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def exhausted(self, request: Request) -> bool:
        """Whether the address has no refusals left; remembers what ``note`` needs."""
        if self.rate is None:
            return False
        self.key = self.get_cache_key(request, None)
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        return len(self.history) >= self.num_requests

    def note(self) -> None:
        """Count one more refused key (after ``exhausted``)."""
        if self.rate is not None:
            self.history.insert(0, self.now)
            self.cache.set(self.key, self.history, self.duration)
