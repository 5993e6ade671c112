"""The one way out of every bulk e-mail the site sends (a night's reminders, its results, a
club's news): a signed link per reader and kind of mail (``django.core.signing``), which the
e-mail names in its text and in its ``List-Unsubscribe`` headers (RFC 2369), with
``List-Unsubscribe-Post`` (RFC 8058) so that a mail reader's « unsubscribe » button stops
that kind of mail in one click, without a login. The link stops only the kind it was sent
with: a member who wants no more reminders still gets his results."""

from __future__ import annotations

from enum import StrEnum

from django.core import signing
from django.urls import reverse

from infra.site_address import absolute

from .models import Player

SALT = "club.unsubscribe"


class MailKind(StrEnum):
    REMINDERS = "reminders"
    RESULTS = "results"
    NEWS = "news"


class LinkRefused(Exception):
    """A link that was tampered with, cut short, or names a record no longer there."""


def unsubscribe_token(kind: MailKind, player: Player, club_id: int | None = None) -> str:
    """The signed words « this player, this kind (of this club) »: no expiry, since an old
    e-mail's link must still work (it only ever turns a mail off)."""
    return signing.dumps([kind.value, player.pk, club_id], salt=SALT, compress=True)


def unsubscribe_read(token: str) -> tuple[MailKind, Player, int | None]:
    try:
        kind, player_id, club_id = signing.loads(token, salt=SALT)
        player = Player.objects.get(pk=int(player_id))
        return MailKind(kind), player, (int(club_id) if club_id is not None else None)
    except (signing.BadSignature, TypeError, ValueError, Player.DoesNotExist):
        raise LinkRefused from None


def unsubscribe_url(kind: MailKind, player: Player, club_id: int | None = None) -> str:
    """The link, absolute: to the request's own host, else ``SITE_URL`` (``infra.site_address``)."""
    return absolute(reverse("unsubscribe", args=[unsubscribe_token(kind, player, club_id)]))


def list_headers(url: str) -> dict[str, str]:
    """The headers a bulk e-mail carries so that mail readers offer their own button."""
    return {
        "List-Unsubscribe": f"<{url}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
