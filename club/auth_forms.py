"""Django's login and password-reset forms, with the club's limits on attempts. The lock itself
is the authentication backend's (``club.backends``): these forms say it in words."""

from __future__ import annotations

from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from infra import throttle
from infra.client_address import client_address

from .backends import login_key, login_locked

LOCKED = _(
    "Trop de mots de passe erronés : la connexion est bloquée pendant %(minutes)s "
    "minutes. Choisissez un nouveau mot de passe (« Mot de passe oublié ? ») ou "
    "demandez à l'administrateur de votre club de débloquer votre compte."
)


class LockSaidMixin:
    """A login refused because the account (or the address) is locked says so, and what to
    do, instead of "wrong password"."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""  # type: ignore[attr-defined]
        request = self.request  # type: ignore[attr-defined]
        address = client_address(request) if request else "?"
        locked = login_locked(login_key(username), address)
        try:
            return super().clean()  # type: ignore[misc]
        except ValidationError:
            if locked:
                raise ValidationError(
                    LOCKED, code="locked", params={"minutes": throttle.LOGIN_ACCOUNT.minutes}
                ) from None
            raise


class MemberAuthenticationForm(LockSaidMixin, AuthenticationForm):
    """The site's login form."""


class OperatorAuthenticationForm(LockSaidMixin, AdminAuthenticationForm):
    """Django admin's login form (the site operator's): locked like every other way in."""


class ThrottledPasswordResetForm(PasswordResetForm):
    """A few reset e-mails per address and per sender each hour. Past that the page answers
    as always (it never tells whether an address has an account) and sends nothing."""

    def save(self, *args: Any, request: Any = None, **kwargs: Any) -> None:
        email = self.cleaned_data["email"].strip().lower()
        address = client_address(request) if request else "?"
        if throttle.exceeded(throttle.RESET_ACCOUNT, email) or throttle.exceeded(
            throttle.RESET_ADDRESS, address
        ):
            return
        throttle.record(throttle.RESET_ACCOUNT, email)
        throttle.record(throttle.RESET_ADDRESS, address)
        super().save(*args, request=request, **kwargs)
