"""Django's login and password-reset forms, with the club's limits on attempts."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from . import throttle


class MemberAuthenticationForm(AuthenticationForm):
    """A locked account (or an address that guessed too much) is refused before its password
    is even checked, with a message that says what to do."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "locked": _(
            "Trop de mots de passe erronés : la connexion est bloquée pendant %(minutes)s "
            "minutes. Choisissez un nouveau mot de passe (« Mot de passe oublié ? ») ou "
            "demandez à l'administrateur de votre club de débloquer votre compte."
        ),
    }

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username") or ""
        account = throttle.login_key(username)
        address = throttle.client_address(self.request) if self.request else "?"
        if throttle.exceeded(throttle.LOGIN_ACCOUNT, account) or throttle.exceeded(
            throttle.LOGIN_ADDRESS, address
        ):
            raise ValidationError(
                self.error_messages["locked"],
                code="locked",
                params={"minutes": throttle.LOGIN_ACCOUNT.minutes},
            )
        try:
            return super().clean()
        except ValidationError:
            if username and self.cleaned_data.get("password"):
                throttle.record(throttle.LOGIN_ACCOUNT, account)
                throttle.record(throttle.LOGIN_ADDRESS, address)
            raise


class ThrottledPasswordResetForm(PasswordResetForm):
    """A few reset e-mails per address and per sender each hour. Past that the page answers
    as always (it never tells whether an address has an account) and sends nothing."""

    def save(self, *args: Any, request: Any = None, **kwargs: Any) -> None:
        email = self.cleaned_data["email"].strip().lower()
        address = throttle.client_address(request) if request else "?"
        if throttle.exceeded(throttle.RESET_ACCOUNT, email) or throttle.exceeded(
            throttle.RESET_ADDRESS, address
        ):
            return
        throttle.record(throttle.RESET_ACCOUNT, email)
        throttle.record(throttle.RESET_ADDRESS, address)
        super().save(*args, request=request, **kwargs)
