"""Two records of one person merged into one: proposed by a club admin, confirmed by the side
that loses its record, undoable. Who may do what: ``scoring.services.merge_rights``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .accounts import login_field
from .clubs import Club
from .players import Player


class PlayerMerge(models.Model):
    """``merged`` folds into ``kept``: every row that named ``merged`` (seats, standings,
    memberships …) names ``kept`` once confirmed. What moved is written down (``moved``), so
    an undo moves exactly those rows back and both records are as they were."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("Proposée")
        DONE = "done", _("Faite")
        REFUSED = "refused", _("Refusée")
        UNDONE = "undone", _("Annulée")

    kept = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="merges_kept")
    merged = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="merges_merged")
    club = models.ForeignKey(
        Club, verbose_name=_("proposée par le club"), on_delete=models.CASCADE, related_name="+"
    )
    status = models.CharField(
        _("état"), max_length=10, choices=Status.choices, default=Status.PROPOSED
    )
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    proposed_at = models.DateTimeField(_("proposée le"), auto_now_add=True)
    decided_by = login_field()
    decided_at = models.DateTimeField(_("décidée le"), null=True, blank=True)
    undone_by = login_field()
    undone_at = models.DateTimeField(_("annulée le"), null=True, blank=True)
    # {"<app.Model>.<field>": [row ids]}: the rows that named ``merged`` and now name ``kept``.
    moved = models.JSONField(default=dict, blank=True)
    # The roles the merge (or its undo) ended, one dict each ("event", "role", "club" or
    # "federation", "player", "name"): a merge moves history, never authority, and the club
    # that had granted a role is told (``roles_told``: how many of these it was told of).
    roles_ended = models.JSONField(_("rôles terminés"), default=list, blank=True)
    roles_told = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-proposed_at"]
        verbose_name = _("fusion de joueurs")
        verbose_name_plural = _("fusions de joueurs")
        constraints = [
            models.CheckConstraint(condition=~Q(kept=models.F("merged")), name="merge_two_records"),
            # One merge under way or done per record that disappears.
            models.UniqueConstraint(
                fields=["merged"],
                condition=Q(status__in=["proposed", "done"]),
                name="merge_once_per_record",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.merged} → {self.kept} ({self.get_status_display()})"
