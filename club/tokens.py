"""Personal API tokens: made, named and revoked by a member in his profile, found again from
the key a client sends. Revoking deletes the row, so the very next request is refused."""

from __future__ import annotations

import datetime
import hashlib
import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from infra.name_text import name_checked

from .models import ApiToken

# A member needs a few (the club's web site, his spreadsheet, a scorer's tool), not hundreds.
MAX_TOKENS = 20
KEY_PREFIX = "cw_"
# The last-used date is a day's precision for the member: written at most once a minute, so
# that a client polling every few seconds does not write on every read.
LAST_USED_STEP = datetime.timedelta(minutes=1)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def token_create(
    user: AbstractBaseUser, name: str, *, read_only: bool = False
) -> tuple[ApiToken, str]:
    """A new token and its key, which is shown this once and never stored. ``read_only``:
    the API refuses it every change (a deal, a night, the profile)."""
    name = name_checked(name or "", ApiToken._meta.get_field("name").max_length)
    if not name:
        raise ValidationError(_("Donnez un nom à la clé (par exemple « site du club »)."))
    if ApiToken.objects.filter(user=user).count() >= MAX_TOKENS:
        raise ValidationError(
            _("Vous avez déjà %(count)s clés : retirez-en une avant d'en créer une autre.")
            % {"count": MAX_TOKENS}
        )
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name, prefix=key[:10], key_hash=key_hash(key), read_only=read_only
    )
    return token, key


def token_revoke(user: AbstractBaseUser, pk: int) -> bool:
    """Remove one of the user's tokens (another member's is not found): refused at once."""
    deleted, _rows = ApiToken.objects.filter(user=user, pk=pk).delete()
    return bool(deleted)


def tokens_revoke_all(user: AbstractBaseUser) -> int:
    """Every token of the account, removed: a new password (changed, or reset from the
    mailbox after a theft) shuts out whoever held the old one, his keys too."""
    deleted, _rows = ApiToken.objects.filter(user=user).delete()
    return deleted


def token_user(key: str) -> tuple[AbstractBaseUser, ApiToken] | None:
    """The active account a key belongs to, or None; the token's last use is noted."""
    if not key.startswith(KEY_PREFIX):
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(key_hash=key_hash(key), user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used is None or now - token.last_used >= LAST_USED_STEP:
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
        token.last_used = now
    return token.user, token
