"""Limits on attempts, the site's one throttle: wrong passwords lock an account (and an address
that guesses many) for a while, counted by the authentication backend (``club.backends``) for
every way in; password-reset e-mails are rationed; wrong API keys are counted per key. Every
attempt is a row, so that all web workers count together (and no cache is needed); a locked
login never reaches the password hasher, whose cost is what a crowd of guessers would
otherwise take from everybody else. An address is the client's as ``infra.client_address``
decides it (behind the site's proxies, not the proxy's)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from .models import ThrottleEvent


@dataclass(frozen=True)
class Limit:
    scope: str
    attempts: int
    window: datetime.timedelta

    @property
    def minutes(self) -> int:
        return int(self.window.total_seconds() // 60)


# Ten wrong passwords in a quarter of an hour lock the account: a member who mistypes gets
# many tries, a guesser gets none worth having.
LOGIN_ACCOUNT = Limit("login-account", 10, datetime.timedelta(minutes=15))
# An address guessing many accounts; generous, since a whole club may sit behind one router.
LOGIN_ADDRESS = Limit("login-address", 50, datetime.timedelta(minutes=15))
# Reset e-mails: a few per address per hour, and per sender.
RESET_ACCOUNT = Limit("reset-account", 3, datetime.timedelta(hours=1))
RESET_ADDRESS = Limit("reset-address", 10, datetime.timedelta(hours=1))
# Rows older than this are of no use to any limit.
KEEP = datetime.timedelta(days=1)


def exceeded(limit: Limit, key: str) -> bool:
    since = timezone.now() - limit.window
    return (
        ThrottleEvent.objects.filter(scope=limit.scope, key=key, at__gte=since).count()
        >= limit.attempts
    )


def record(limit: Limit, key: str) -> None:
    # Its own transaction: a refused login rolls nothing back, and the count must stay.
    with transaction.atomic():
        ThrottleEvent.objects.create(scope=limit.scope, key=key[:200])
        ThrottleEvent.objects.filter(at__lt=timezone.now() - KEEP).delete()


def spend(limit: Limit, key: str) -> bool:
    """One attempt of ``key`` counted, unless its limit is reached already: False then, and
    nothing counted (what a form that sends e-mails asks before it sends one)."""
    if exceeded(limit, key):
        return False
    record(limit, key)
    return True


def clear(limit: Limit, key: str) -> int:
    deleted, _detail = ThrottleEvent.objects.filter(scope=limit.scope, key=key).delete()
    return deleted


def locked_accounts() -> set[int]:
    """The accounts locked now by wrong passwords (one query)."""
    since = timezone.now() - LOGIN_ACCOUNT.window
    keys = (
        ThrottleEvent.objects.filter(
            scope=LOGIN_ACCOUNT.scope, key__startswith="user:", at__gte=since
        )
        .values("key")
        .annotate(attempts=Count("pk"))
        .filter(attempts__gte=LOGIN_ACCOUNT.attempts)
        .values_list("key", flat=True)
    )
    return {int(key.removeprefix("user:")) for key in keys}


def account_unlock(user_pk: int) -> None:
    """A club admin (or a password reset) lets the member try again at once."""
    clear(LOGIN_ACCOUNT, f"user:{user_pk}")
