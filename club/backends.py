"""Logging in with one's e-mail address, however it is typed."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.http import HttpRequest


class EmailOrUsernameBackend(ModelBackend):
    """A member's username is his e-mail address in lower case (``club.invitations``); members
    type it as it comes ("Anne.Dupont@…"). An exact username still wins, so an account whose
    username differs only in case from another's keeps logging in as itself."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if username is None or password is None:
            return None
        user = account_named(username)
        if user is None:
            # Run the hasher anyway, so that a wrong name takes as long as a wrong password.
            get_user_model()().set_password(password)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None


def account_named(username: str) -> Any:
    """The account a login form's name stands for: the exact username, else the one username
    equal to it whatever its case; None when there is none (or two)."""
    users = get_user_model()._default_manager
    user = users.filter(username=username).first()
    if user is None:
        matches = list(users.filter(username__iexact=username.strip())[:2])
        user = matches[0] if len(matches) == 1 else None
    return user
