"""A member's personal token (``Authorization: Token cw_…``, or ``Bearer``): it signs the
request in as its member, with his roles and nothing more. A revoked token is gone from the
database, so the next request with it is refused (401)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed, PermissionDenied, Throttled
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request

from club.tokens import token_user

from .throttles import FailedTokens

KEYWORDS = (b"token", b"bearer")


class PersonalTokenAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        words = get_authorization_header(request).split()
        if not words or words[0].lower() not in KEYWORDS:
            return None  # no token: the session (or nobody) signs the request
        failures = FailedTokens()
        if failures.exhausted(request):
            raise Throttled(wait=failures.wait())
        if len(words) != 2:
            failures.note()
            raise AuthenticationFailed(_("En-tête Authorization attendu : « Token <clé> »."))
        try:
            found = token_user(words[1].decode("ascii"))
        except UnicodeDecodeError:
            found = None
        if found is None:
            failures.note()
            raise AuthenticationFailed(_("Clé d'API inconnue ou retirée."))
        if found[1].read_only and request.method not in SAFE_METHODS:
            # Whatever the member's roles: the key was made to read only.
            raise PermissionDenied(
                _("Cette clé est en lecture seule : elle ne change rien (créez-en une autre).")
            )
        return found

    def authenticate_header(self, request: Request) -> str:
        # Makes a refused or missing token a 401 (with the scheme to use), not a 403.
        return 'Token realm="api"'


class PersonalTokenScheme(OpenApiAuthenticationExtension):
    """How the OpenAPI schema describes the token."""

    target_class = PersonalTokenAuthentication
    name = "personalToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": (
                "A personal token made in the member's profile (Mon profil → Clés d'API), "
                "sent as `Authorization: Token cw_…`. It carries its member's roles."
            ),
        }
