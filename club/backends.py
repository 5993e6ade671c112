"""Logging in with one's e-mail address, however it is typed, and the one place that counts
wrong passwords: every way in that checks a password (the site's login, Django's admin, any
``authenticate()`` call) comes here, so every way in is locked alike. A logged-in member's
session and account are read here too, each by a query compiled once (``SessionStore``,
the site's session engine; ``EmailOrUsernameBackend.get_user``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.backends import db
from django.contrib.sessions.backends.base import VALID_KEY_CHARS
from django.contrib.sessions.models import Session
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from infra import throttle
from infra.client_address import client_address
from infra.compiled import Compiled


class EmailOrUsernameBackend(ModelBackend):
    """A member's username is his e-mail address in lower case (``club.invitations``); members
    type it as it comes ("Anne.Dupont@…"). An exact username still wins, so an account whose
    username differs only in case from another's keeps logging in as itself.

    Ten wrong passwords for an account, or fifty from one address, lock the way in for a
    quarter of an hour (``infra.throttle``); a locked login never reaches the password hasher,
    and Django's ``authenticate()`` asks no other backend after the refusal."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if username is None or password is None:
            return None
        account = login_key(username)
        address = client_address(request) if request else "?"
        if login_locked(account, address):
            raise PermissionDenied("login locked")
        user = account_named(username)
        if user is None:
            # Run the hasher anyway, so that a wrong name takes as long as a wrong password.
            get_user_model()().set_password(password)
        elif user.check_password(password):
            return user if self.user_can_authenticate(user) else None
        throttle.record(throttle.LOGIN_ACCOUNT, account)
        throttle.record(throttle.LOGIN_ADDRESS, address)
        return None

    def get_user(self, user_id: Any) -> Any:
        """A request's account with its player record (``user.player``, or none) read in the
        same query: the member's own pages (Mes résultats, his profile) each read it, which
        was one query more on every view of theirs. The query is compiled once
        (``infra.compiled``): it is asked on every request of a logged-in member, and building
        it cost more than running it."""
        # Django gives the session's id as a whole number (any other goes by the ORM).
        found = _ACCOUNT(user_id) if type(user_id) is int else _accounts(user_id)
        user = found[0] if found else None
        if user is None:
            return None
        return user if self.user_can_authenticate(user) else None


def _accounts(pk: Any) -> Any:
    return get_user_model()._default_manager.select_related("player").filter(pk=pk)[:1]


# A request's account by its id: compiled once.
_ACCOUNT = Compiled(_accounts)


def account_named(username: str) -> Any:
    """The account a login form's name stands for: the exact username, else the one username
    equal to it whatever its case; None when there is none (or two)."""
    users = get_user_model()._default_manager
    user = users.filter(username=username).first()
    if user is None:
        matches = list(users.filter(username__iexact=username.strip())[:2])
        user = matches[0] if len(matches) == 1 else None
    return user


def login_key(username: str) -> str:
    """Whom wrong passwords count against: the account the name stands for (typed as an
    address or as a username, in any case), else the name as typed."""
    user = account_named(username) if username else None
    return f"user:{user.pk}" if user is not None else f"name:{username.strip().lower()[:150]}"


def login_locked(account: str, address: str) -> bool:
    """Whether this account, or this address, has used up its wrong passwords."""
    return throttle.exceeded(throttle.LOGIN_ACCOUNT, account) or throttle.exceeded(
        throttle.LOGIN_ADDRESS, address
    )


def _sessions(key: str) -> QuerySet[Session]:
    return Session.objects.filter(session_key=key)


# A session by its key: compiled once.
_SESSION = Compiled(_sessions)
# What a key Django makes is written with: any other cookie names no session.
_KEY_CHARS = frozenset(VALID_KEY_CHARS)


class SessionStore(db.SessionStore):
    """Django's database sessions (``django.contrib.sessions.backends.db``), the site's
    session engine, each read by a query compiled once (``infra.compiled``): Django builds
    and compiles the same ``Session.objects.get(session_key=…, expire_date__gt=now)`` on
    every request of a logged-in member, which cost more than running it (a twentieth of
    "Mes résultats"' first view). The same row read, the same session decoded; its expiry
    compared here with the instant Django compares it with in SQL (a compiled query binds
    only ids and texts)."""

    def _get_session_from_db(self) -> Any:
        key = self.session_key
        if type(key) is not str:
            return super()._get_session_from_db()
        if not _KEY_CHARS.issuperset(key):
            # A cookie Django never wrote (a NUL, which PostgreSQL refuses in a query, made it
            # a 500): no session, as an unknown key, without asking the database.
            self._session_key = None
            return None
        found = _SESSION(key)
        # As Django reads it: an expired session is none (the member logs in again).
        if not found or found[0].expire_date <= timezone.now():
            self._session_key = None
            return None
        return found[0]
