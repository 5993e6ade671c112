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


def _authorization(request: Request) -> bytes:
    """The Authorization header as bytes; a character no header can carry (a test client's
    surrogate, say) becomes "?" and the key is refused as unknown, not a server error."""
    header = request.META.get("HTTP_AUTHORIZATION", b"")
    if isinstance(header, str):
        return header.encode("latin-1", "replace")
    return get_authorization_header(request)


class PersonalTokenAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        words = _authorization(request).split()
        if not words or words[0].lower() not in KEYWORDS:
            return None  # no token: the session (or nobody) signs the request
        failures = FailedTokens()
        key = words[1].decode("ascii", "replace") if len(words) == 2 else ""
        if failures.exhausted(request, key):
            raise Throttled(wait=failures.wait())
        found = token_user(key) if len(words) == 2 and key.isascii() else None
        if len(words) != 2:
            failures.note(request, key)
            raise AuthenticationFailed(_("En-tête Authorization attendu : « Token <clé> »."))
        if found is None:
            failures.note(request, key)
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
