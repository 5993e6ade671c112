"""A visitor's message to a club from its contact form, kept until the outbox has e-mailed it
to the club's contact address (the task reads it by its id), then kept a while as the club's
record of what came in."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Club

MESSAGE_MAX = 5_000


class ContactMessage(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    name = models.CharField(_("nom"), max_length=120)
    email = models.EmailField(_("adresse e-mail"))
    message = models.TextField(_("message"), max_length=MESSAGE_MAX)
    received = models.DateTimeField(default=timezone.now)
    # Set when it went to the club: a task run twice sends it once.
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-received"]

    def __str__(self) -> str:
        return f"{self.name} <{self.email}>"
