"""The invitations of an import sent, by the outbox's task once the import has committed.

Each goes through the site's one invitation road (``club.invitations.invitation_send``: its
link, its checks, its e-mail in the player's language). Each is taken off the import's list
before it goes, so a task run twice invites nobody twice; one that could not go (the mail
server down) is put back, and the task fails so that the outbox tries again later."""

from __future__ import annotations

import logging

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.urls import reverse

from infra.site_address import absolute

from ..invitations import invitation_send
from ..models import MemberImport, Player

logger = logging.getLogger(__name__)


def _next(import_id: int) -> list | None:
    """The next invitation of the import, taken off its list (None: all went)."""
    with transaction.atomic():
        record = MemberImport.objects.select_for_update().filter(pk=import_id).first()
        if record is None or not record.invitations:
            return None
        entry, record.invitations = record.invitations[0], record.invitations[1:]
        record.save(update_fields=["invitations"])
    return entry


def _put_back(import_id: int, entry: list) -> None:
    with transaction.atomic():
        record = MemberImport.objects.select_for_update().get(pk=import_id)
        record.invitations = [*record.invitations, entry]
        record.save(update_fields=["invitations"])


def member_invitations_send(import_id: int) -> int:
    """Send the import's invitations still waiting; returns how many went. An invitation the
    site refuses now (the player opened an account meanwhile, the address became another's)
    is dropped and logged; one whose e-mail failed is put back and the error raised once the
    others have been tried."""
    record = MemberImport.objects.select_related("club", "by").filter(pk=import_id).first()
    if record is None:
        return 0
    players = Player.objects.in_bulk([player_id for player_id, _email in record.invitations])
    sent, failure, failed = 0, None, []
    while (entry := _next(import_id)) is not None:
        player_id, email = entry
        player = players.get(player_id)
        if player is None:
            continue
        try:
            invitation_send(
                record.club,
                player,
                email,
                by=record.by,
                link_for=lambda token: absolute(reverse("invitation-accept", args=[token])),
            )
        except ValidationError as refused:
            logger.info(
                "member import %s: no invitation for %s (%s)", import_id, player_id, refused
            )
            continue
        except Exception as error:
            logger.exception("member import %s: the invitation of %s failed", import_id, player_id)
            failure = error
            failed.append(entry)
            continue
        sent += 1
    for entry in failed:
        _put_back(import_id, entry)
    if sent:
        MemberImport.objects.filter(pk=import_id).update(
            invitations_sent=F("invitations_sent") + sent
        )
    if failure is not None:
        raise failure
    return sent
