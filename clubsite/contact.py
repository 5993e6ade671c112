"""A visitor writes to a club from its contact page: his message goes to the club's contact
address through the outbox, and the address is never on the page. Robots are refused the
usual ways: a field no person sees (``club.views.signup.Honeypot``), a minimum time between
the page shown and the message sent (a signed time in the form), and a limit per client
address and per club (the site's one throttle), each refused in words. The message itself is
kept ``KEPT_DAYS`` only: the club's mailbox is its record, not the site (the privacy page says
so)."""

from __future__ import annotations

import datetime
import time

from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Club
from infra.outbox import TaskName, work_queue
from infra.throttle import Limit, exceeded, record

from .models import ContactMessage

SALT = "clubsite.contact.shown"
# A person reads the page and types a few words; a robot posts at once. Three seconds stop
# the robot and no person.
MIN_SECONDS = 3
# A form older than this was left open too long: reloaded, it is fresh again.
MAX_AGE = datetime.timedelta(days=1)
# From one address: a visitor writes once or twice; more is a robot or a quarrel.
CONTACT_ADDRESS = Limit("contact-address", 3, datetime.timedelta(hours=1))
# To one club: many visitors at once is a flood, which the club's mailbox is spared.
CONTACT_CLUB = Limit("contact-club", 20, datetime.timedelta(days=1))
# How long a visitor's message stays on the site after it came in: time enough for the outbox
# to e-mail it through a long outage of the mail server, then it is the club's mail alone.
KEPT_DAYS = 30


def shown_token(at: float | None = None) -> str:
    """The signed moment the form was shown (``at``: seconds since the epoch)."""
    return signing.dumps(int(time.time() if at is None else at), salt=SALT)


def shown_check(token: str, now: float | None = None) -> None:
    """``ValidationError`` in words unless the form was shown long enough ago (and not too
    long: a tampered or stale form is refused too)."""
    now = time.time() if now is None else now
    try:
        shown = int(signing.loads(token, salt=SALT))
        if now - shown > MAX_AGE.total_seconds():
            raise ValueError("stale")
    except (signing.BadSignature, TypeError, ValueError):
        raise ValidationError(
            _("Ce formulaire a expiré : rechargez la page et écrivez à nouveau."),
            code="contact_stale",
        ) from None
    if now - shown < MIN_SECONDS:
        raise ValidationError(
            _(
                "Message envoyé trop vite après l'ouverture de la page : "
                "relisez-le et envoyez-le à nouveau."
            ),
            code="contact_fast",
        )


def contact_receive(
    club: Club, *, name: str, email: str, message: str, address: str
) -> ContactMessage:
    """A visitor's message kept and e-mailed to the club once it commits. ``address``: the
    client's, which the throttle counts with the club's own total."""
    if not club.contact_email:
        raise ValidationError(_("Ce club ne reçoit pas encore de message par le site."))
    if exceeded(CONTACT_ADDRESS, address):
        raise ValidationError(
            _("Trop de messages envoyés d'ici : réessayez dans %(minutes)s minutes.")
            % {"minutes": CONTACT_ADDRESS.minutes},
            code="contact_throttled",
        )
    if exceeded(CONTACT_CLUB, f"club:{club.pk}"):
        raise ValidationError(
            _("Ce club a reçu trop de messages aujourd'hui : réessayez demain."),
            code="contact_throttled",
        )
    contact = ContactMessage(
        club=club, name=name.strip(), email=email.strip(), message=message.strip()
    )
    contact.full_clean()
    record(CONTACT_ADDRESS, address)
    record(CONTACT_CLUB, f"club:{club.pk}")
    with transaction.atomic():
        contact.save()
        work_queue(TaskName.CONTACT_EMAIL, contact.pk)
    return contact


def contact_messages_purge(now: datetime.datetime | None = None) -> int:
    """The visitors' messages that came in more than ``KEPT_DAYS`` ago, deleted, e-mailed or
    not (Celery beat, daily). Returns how many."""
    since = (now or timezone.now()) - datetime.timedelta(days=KEPT_DAYS)
    deleted, _kinds = ContactMessage.objects.filter(received__lt=since).delete()
    return deleted
