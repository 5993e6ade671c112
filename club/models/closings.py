"""A club that closed: its pages are gone, its data kept for a stated time, then deleted
(``club.services.closing``)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .accounts import login_field
from .clubs import Club


class ClubClosing(models.Model):
    """The club closed by its admin. While this row exists the club answers nowhere: its
    address moved to an unguessable one (``slug`` keeps the old, for the page that says the
    club closed, and for a reopening), the memberships it ended are listed so that a reopening
    opens exactly those again. After ``purge_after`` the club and its data are deleted."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="closing")
    slug = models.SlugField(_("ancienne adresse"), max_length=60, db_index=True)
    closed_at = models.DateTimeField(_("fermé le"))
    closed_by = login_field(_("fermé par"))
    purge_after = models.DateTimeField(_("données effacées après le"))
    # The memberships that were open when the club closed (ended that day).
    memberships = models.JSONField(_("affiliations fermées"), default=list, blank=True)
    # The federations the club left by closing (their names, for the record).
    federations = models.JSONField(_("fédérations quittées"), default=list, blank=True)
    # When the members were told (claimed before the e-mails go: a task run twice sends once).
    emailed_at = models.DateTimeField(_("membres prévenus le"), null=True, blank=True)

    class Meta:
        ordering = ["purge_after"]
        verbose_name = _("club fermé")
        verbose_name_plural = _("clubs fermés")

    def __str__(self) -> str:
        return f"{self.club} ({self.closed_at:%Y-%m-%d})"
