"""E-mails that go once each however often their task runs (a night's results, the calendar's
reminders, a club's news): each is claimed by a row before it goes, whose unique constraint
lets only one run send it, and released if the mail server refuses it, so that the next run
tries that address again while the others still go."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.mail import EmailMessage, get_connection
from django.db import IntegrityError, models, transaction

from ..models import Player

logger = logging.getLogger(__name__)

Row = TypeVar("Row", bound=models.Model)


def row_claimed(model: type[Row], **fields: Any) -> Row | None:
    """The claim's row written in its own savepoint; None: another run has it already."""
    try:
        with transaction.atomic():
            return model.objects.create(**fields)
    except IntegrityError:
        return None


def claimed_send(
    recipients: Iterable[tuple[Player, str]],
    claim: Callable[[Player, str], models.Model | None],
    message: Callable[[Player, str, Any], EmailMessage],
    failed: str,
) -> int:
    """Each (player, address) claimed, then its ``message`` (built with the one connection)
    sent; returns how many went. ``failed``: what the log says of a refused one, before the
    player's id and address."""
    connection = get_connection()
    sent = 0
    for player, address in recipients:
        record = claim(player, address)
        if record is None:
            continue
        try:
            message(player, address, connection).send()
        except Exception:
            logger.exception("%s: e-mail to player %s <%s> failed", failed, player.pk, address)
            # Not sent: the next run tries this address again.
            record.delete()
            continue
        sent += 1
    return sent
