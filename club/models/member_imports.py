"""Members brought in from a spreadsheet, and the invitations that follow them."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .accounts import login_field
from .clubs import Club


class MemberImport(models.Model):
    """One import of a club's members (``club.member_import.store``). Its invitations wait
    here (``[player id, address]`` pairs) until the outbox's task sends them: each is taken off
    the list before it goes, so a task run twice invites nobody twice."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="member_imports")
    by = login_field(_("importé par"))
    created = models.DateTimeField(_("importé le"), auto_now_add=True)
    source = models.CharField(_("fichier"), max_length=200, blank=True)
    players_created = models.PositiveIntegerField(_("joueurs créés"), default=0)
    members_joined = models.PositiveIntegerField(_("affiliations ouvertes"), default=0)
    invitations = models.JSONField(_("invitations à envoyer"), default=list, blank=True)
    invitations_sent = models.PositiveIntegerField(_("invitations envoyées"), default=0)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("import de membres")
        verbose_name_plural = _("imports de membres")

    def __str__(self) -> str:
        return f"{self.club} {self.created:%Y-%m-%d %H:%M}"
