"""A club's seasons: dates, ranking rules and what the season's nights start from."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from infra.name_text import NameField
from infra.slugs import slug_of
from scoring.engine.errors import EngineError
from scoring.engine.ranking import RankingRules
from scoring.engine.standings import scheme as tournament_points_scheme

from .clubs import DEFAULT_PRECEDENCE, RULES_CHOICES, Club, check_ranking_rules


def season_slug(name: str) -> str:
    """A season's name as its pages' addresses carry it: "2025/2026" → "2025-2026"."""
    return slug_of(name.replace("/", "-"), 40) or "saison"


# A club's history may go back a century; a season years ahead is a typing error.
FIRST_SEASON_YEAR = 1900
SEASONS_AHEAD = 2


def dates_refused(*dates: datetime.date) -> str | None:
    """Why these dates cannot be a club's (a night, a season), or None."""
    last_year = datetime.date.today().year + SEASONS_AHEAD
    for date in dates:
        if not FIRST_SEASON_YEAR <= date.year <= last_year:
            return _("Le %(date)s est hors des dates possibles (de %(first)s à %(last)s).") % {
                "date": date.strftime("%d/%m/%Y"),
                "first": FIRST_SEASON_YEAR,
                "last": last_year,
            }
    return None


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = NameField(_("nom"), max_length=40, help_text=_("Par exemple « 2024 »."))
    # The name as an address carries it (a name may hold a slash, "2025/2026").
    slug = models.SlugField(_("identifiant"), max_length=40)
    start = models.DateField(_("début"))
    end = models.DateField(_("fin"))
    # Empty = the club's rules apply.
    ranking_best_n = models.PositiveSmallIntegerField(
        _("meilleures soirées retenues"), null=True, blank=True
    )
    ranking_min_tournaments = models.PositiveSmallIntegerField(
        _("soirées minimum pour être classé"), null=True, blank=True
    )
    ranking_precedence = models.JSONField(_("critères de classement"), null=True, blank=True)
    # A guest is a player whose membership of the club says so (Membership.Status.GUEST):
    # some clubs rank whoever plays, others only their members.
    ranking_guests = models.BooleanField(_("invités classés"), default=True)
    # What the season's new nights start from; empty: the club's defaults.
    default_rules = models.CharField(
        _("tableau des points des soirées"),
        max_length=60,
        choices=RULES_CHOICES,
        blank=True,
    )
    tournament_points = models.JSONField(_("points de tournoi des soirées"), null=True, blank=True)

    class Meta:
        ordering = ["club", "-start"]
        verbose_name = _("saison")
        verbose_name_plural = _("saisons")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_per_club"),
            models.UniqueConstraint(fields=["club", "slug"], name="season_slug_unique_per_club"),
            models.CheckConstraint(
                condition=Q(end__gte=models.F("start")),
                name="season_ends_after_start",
                violation_error_message=_("La saison se termine avant de commencer."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} {self.name}"

    def ranking_rules(self) -> RankingRules:
        """The season's overrides, else the club's rules."""
        club = self.club
        return RankingRules(
            best_n=self.ranking_best_n if self.ranking_best_n is not None else club.ranking_best_n,
            min_tournaments=(
                self.ranking_min_tournaments
                if self.ranking_min_tournaments is not None
                else club.ranking_min_tournaments
            ),
            precedence=tuple(self.ranking_precedence or club.ranking_precedence),
        )

    @property
    def rules_name(self) -> str:
        """The point table the season's nights are played with (by preset name)."""
        return self.default_rules or self.club.default_rules

    @property
    def points_scheme(self) -> Any:
        """The tournament-points scheme of the season's nights."""
        return self.tournament_points or self.club.tournament_points

    def clean(self) -> None:
        if self.start and self.end and (why := dates_refused(self.start, self.end)):
            raise ValidationError({"start": why})
        if self.tournament_points is not None:
            try:
                tournament_points_scheme(self.tournament_points)
            except EngineError as error:
                raise ValidationError({"tournament_points": str(error)}) from None
        if self.ranking_precedence is not None or self.ranking_best_n is not None:
            check_ranking_rules(
                self.ranking_best_n,
                self.ranking_min_tournaments or 0,
                self.ranking_precedence or DEFAULT_PRECEDENCE,
            )
