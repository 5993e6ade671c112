"""Requests per minute: per member (all his tokens and his session share one budget), and per
address for the public, in the cache; refused keys per address and per key, in the site's own
throttle (``infra.throttle``). Rates come from settings at each request, so a deployment (or
CI's schema run) sets them by environment variable. The address is the client's as the whole
site reads it (``infra.client_address``, behind ``TRUSTED_PROXY_COUNT`` proxies): the login and
the API count one visitor alike."""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from infra import throttle
from infra.client_address import client_address


class _FromSettings(SimpleRateThrottle):
    def get_rate(self) -> str | None:
        return settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"].get(self.scope)

    def get_ident(self, request: Request) -> str:
        return client_address(request)


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
    """Keys refused (401), counted by the site's one throttle (``infra.throttle``) per address
    and per key's prefix (its first ten characters, stored in clear): a script sending a wrong
    key gets 429 once past its budget, and the club's good key, from the same address, still
    works. Authentication runs before the throttles, so the token authentication asks this one
    itself, before looking the key up. The budget is the ``failed_token`` rate."""

    scope = "failed_token"

    def _limit(self) -> throttle.Limit:
        return throttle.Limit(
            "api-key", self.num_requests, datetime.timedelta(seconds=self.duration)
        )

    def _key(self, request: Request, key: str) -> str:
        # Only the characters a key is made of: the rest (a NUL, say) is no database's text.
        prefix = "".join(c if c.isascii() and (c.isalnum() or c in "_-") else "?" for c in key[:10])
        return f"{self.get_ident(request)}|{prefix}"

    def exhausted(self, request: Request, key: str) -> bool:
        return self.rate is not None and throttle.exceeded(self._limit(), self._key(request, key))

    def note(self, request: Request, key: str) -> None:
        if self.rate is not None:
            throttle.record(self._limit(), self._key(request, key))

    def wait(self) -> float:
        return float(self.duration)
