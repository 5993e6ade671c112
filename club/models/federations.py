"""A federation (a league): clubs grouped under their own administrators, seasons and ranking.

A federation's seasons rank the nights of its clubs across the clubs' doors: either its
championship nights only (the inter-club nights a host club holds within the federation's
season) or every night of its clubs. Its administrators are players, as a club's are; being one
gives no right in any club, and a club admin has none in the federation.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from infra.name_text import NameField
from scoring.engine.ranking import RankingRules

from .accounts import login_field
from .clubs import Club, check_ranking_rules, default_precedence
from .players import Player
from .seasons import dates_refused


class Federation(models.Model):
    name = NameField(_("nom"), max_length=120, unique=True)
    slug = models.SlugField(_("identifiant"), max_length=60, unique=True)
    short_name = NameField(_("nom court"), max_length=30, blank=True)
    description = models.TextField(_("présentation"), blank=True)
    clubs = models.ManyToManyField(
        Club, verbose_name=_("clubs"), related_name="federations", blank=True
    )
    created = models.DateTimeField(auto_now_add=True)
    # When what the federation shows the public last changed (its ranking recomputed, a club
    # joined): its public pages are cached, and their ETags built, from it.
    pages_changed = models.DateTimeField(_("pages publiques modifiées le"), default=timezone.now)

    class Meta:
        ordering = ["name"]
        verbose_name = _("fédération")
        verbose_name_plural = _("fédérations")

    def __str__(self) -> str:
        return self.name


class FederationAdmin(models.Model):
    """A player who runs the federation: its seasons, its clubs, its ranking."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="admins")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="federation_roles")
    since = models.DateField(_("depuis"), default=timezone.localdate)

    class Meta:
        verbose_name = _("administrateur de fédération")
        verbose_name_plural = _("administrateurs de fédération")
        constraints = [
            models.UniqueConstraint(fields=["federation", "player"], name="federation_admin_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} – {self.federation}"


class FederationInvitation(models.Model):
    """A federation asks a club to join. The club is no member, and the federation sees no more
    of it than anybody, until one of the club's admins accepts: joining puts its members in
    the federation's ranking and its inter-club nights, under the federation's eyes. Who asked
    and who answered are kept (the operator, who may answer for a club, too)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("En attente")
        ACCEPTED = "accepted", _("Acceptée")
        REFUSED = "refused", _("Refusée")
        WITHDRAWN = "withdrawn", _("Retirée")

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="invitations")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="federation_invitations")
    status = models.CharField(
        _("état"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    invited_by = login_field(_("invité par"))
    invited_at = models.DateTimeField(_("envoyée le"), default=timezone.now)
    # The club's admin who accepted or refused, or the federation's who withdrew it.
    answered_by = login_field(_("répondu par"))
    answered_at = models.DateTimeField(_("répondu le"), null=True, blank=True)
    # When its e-mail to the club's admins went (claimed before sending: a task run twice
    # sends it once).
    emailed_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-invited_at", "-pk"]
        verbose_name = _("invitation d'un club dans une fédération")
        verbose_name_plural = _("invitations de clubs dans une fédération")
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "club"],
                condition=Q(status="pending"),
                name="federation_invitation_pending_once",
                violation_error_message=_("Ce club a déjà une invitation en attente."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} → {self.federation} ({self.get_status_display()})"


class FederationSeason(models.Model):
    class Counts(models.TextChoices):
        CHAMPIONSHIP = "championship", _("Les soirées inter-clubs de la fédération")
        ALL = "all", _("Toutes les soirées de ses clubs")

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="seasons")
    name = NameField(_("nom"), max_length=40)
    slug = models.SlugField(_("identifiant"), max_length=40)
    start = models.DateField(_("début"))
    end = models.DateField(_("fin"))
    game = models.CharField(_("jeu"), max_length=20, default="belgian_whist")
    counts = models.CharField(
        _("soirées comptées"), max_length=20, choices=Counts.choices, default=Counts.CHAMPIONSHIP
    )
    ranking_best_n = models.PositiveSmallIntegerField(
        _("meilleures soirées retenues"), null=True, blank=True, help_text=_("Vide : toutes.")
    )
    ranking_min_tournaments = models.PositiveSmallIntegerField(
        _("soirées minimum pour être classé"), default=0
    )
    ranking_precedence = models.JSONField(_("critères de classement"), default=default_precedence)

    class Meta:
        ordering = ["federation", "-start"]
        verbose_name = _("saison de fédération")
        verbose_name_plural = _("saisons de fédération")
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "name"], name="federation_season_name_unique"
            ),
            models.UniqueConstraint(
                fields=["federation", "slug"], name="federation_season_slug_unique"
            ),
            models.CheckConstraint(
                condition=Q(end__gte=models.F("start")),
                name="federation_season_ends_after_start",
                violation_error_message=_("La saison se termine avant de commencer."),
            ),
            models.CheckConstraint(
                condition=Q(ranking_best_n__isnull=True) | Q(ranking_best_n__gte=1),
                name="federation_best_n_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.federation} {self.name}"

    def ranking_rules(self) -> RankingRules:
        return RankingRules(
            best_n=self.ranking_best_n,
            min_tournaments=self.ranking_min_tournaments,
            precedence=tuple(self.ranking_precedence),
        )

    def clean(self) -> None:
        if self.start and self.end and (why := dates_refused(self.start, self.end)):
            raise ValidationError({"start": why})
        check_ranking_rules(
            self.ranking_best_n, self.ranking_min_tournaments or 0, self.ranking_precedence
        )
