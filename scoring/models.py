"""Point tables (versioned) and the stored results: standings and ranking snapshots.

Results are written when a deal is recorded or a night closed, never recomputed on read.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import OuterRef, Prefetch, Q, Subquery
from django.utils.translation import gettext_lazy as _

from club.models import GAME_CHOICES
from scoring.engine.errors import EngineError
from scoring.engine.tables import load_table

from .fields import FractionField


def table_checksum(data: Any) -> str:
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


# checksum → the engine's (immutable) table; a club uses a handful of tables.
_ENGINE_TABLES: dict[str, Any] = {}


class PointTable(models.Model):
    """A point table at one version. Once a deal has been scored with it, it never changes:
    a correction creates the next version (``scoring.services.point_table_revise``), and past
    results keep the version they were scored with."""

    game = models.CharField(_("jeu"), max_length=20, choices=GAME_CHOICES)
    name = models.SlugField(_("nom"), max_length=60, help_text=_("Nom du preset, ex. rcwhist."))
    version = models.PositiveIntegerField(_("version"), default=1)
    label = models.CharField(_("libellé"), max_length=120, blank=True)
    data = models.JSONField(_("données"))
    checksum = models.CharField(_("empreinte"), max_length=64, editable=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "name", "-version"]
        verbose_name = _("tableau des points")
        verbose_name_plural = _("tableaux des points")
        constraints = [
            models.UniqueConstraint(fields=["name", "version"], name="point_table_version_unique"),
            models.CheckConstraint(
                condition=Q(version__gte=1), name="point_table_version_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.label or self.name} (v{self.version})"

    def clean(self) -> None:
        try:
            table = load_table(self.data)
        except EngineError as error:
            raise ValidationError({"data": str(error)}) from None
        if table.game != self.game:
            raise ValidationError({"data": _("Ce tableau est pour le jeu « %s ».") % table.game})
        self.checksum = table_checksum(self.data)

    def engine_table(self) -> Any:
        """The engine's frozen table. Loaded once per process and checksum: a score sheet is
        saved deal after deal all night, and a stored version never changes."""
        table = _ENGINE_TABLES.get(self.checksum)
        if table is None:
            table = load_table(self.data)
            if self.checksum:
                _ENGINE_TABLES[self.checksum] = table
        return table

    @property
    def is_used(self) -> bool:
        from games.models import Deal

        return Deal.objects.filter(poule__tournament__point_table=self).exists()


class PouleStanding(models.Model):
    poule = models.ForeignKey("games.Poule", on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey("club.Player", on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField(_("place"))
    rank = models.PositiveSmallIntegerField(_("rang"))
    tied = models.BooleanField(_("ex aequo"), default=False)
    game_points = models.IntegerField(_("points de jeu"))
    tournament_points = FractionField(_("points de tournoi"))

    class Meta:
        ordering = ["poule", "rank", "seat"]
        verbose_name = _("classement de poule")
        verbose_name_plural = _("classements de poule")
        constraints = [
            models.UniqueConstraint(fields=["poule", "player"], name="poule_standing_unique"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="poule_standing_rank_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.poule} – {self.rank}. {self.player}"


class TournamentStandingQuerySet(models.QuerySet):
    def of_night(self, tournament: Any) -> TournamentStandingQuerySet:
        """A night's standings in rank order, with their players (one query)."""
        return (
            self.filter(tournament=tournament)
            .select_related("player")
            .order_by("rank", "player__display_name")
        )


class TournamentStanding(models.Model):
    tournament = models.ForeignKey(
        "games.Tournament", on_delete=models.CASCADE, related_name="standings"
    )
    player = models.ForeignKey("club.Player", on_delete=models.PROTECT, related_name="+")
    rank = models.PositiveSmallIntegerField(_("rang"))
    tied = models.BooleanField(_("ex aequo"), default=False)
    tournament_points = FractionField(_("points de tournoi"))
    game_points = models.IntegerField(_("points de jeu"))
    poules_played = models.PositiveSmallIntegerField(_("poules jouées"))
    poules_won = models.PositiveSmallIntegerField(_("poules gagnées"))

    objects = TournamentStandingQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "rank", "player__display_name"]
        verbose_name = _("classement de soirée")
        verbose_name_plural = _("classements de soirée")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="tournament_standing_unique"
            ),
            models.CheckConstraint(
                condition=Q(rank__gte=1), name="tournament_standing_rank_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {self.rank}. {self.player}"


class RankingSnapshotQuerySet(models.QuerySet):
    def published(self) -> RankingSnapshotQuerySet:
        return self.filter(published_at__isnull=False)

    def live(self) -> RankingSnapshotQuerySet:
        """The provisional ranking, recomputed when a night closes (club admins only)."""
        return self.filter(published_at__isnull=True)

    def latest_published(self) -> RankingSnapshotQuerySet:
        """Each season's latest published snapshot: a club may publish a season several times
        (mid-season, then final), and the public sees only the last one."""
        latest = (
            RankingSnapshot.objects.published()
            .filter(season=OuterRef("season"))
            .order_by("-published_at", "-pk")
            .values("pk")[:1]
        )
        return self.published().filter(pk=Subquery(latest))

    def with_winners(self) -> RankingSnapshotQuerySet:
        """Prefetch each snapshot's first-ranked players as ``winners`` (one query)."""
        winners = RankingLine.objects.filter(rank=1).select_related("player").order_by("position")
        return self.prefetch_related(Prefetch("lines", queryset=winners, to_attr="winners"))


class RankingSnapshot(models.Model):
    """A season ranking as computed at one moment. The live one (unpublished) is replaced
    whenever a night closes; a published one is frozen with its date."""

    season = models.ForeignKey("club.Season", on_delete=models.CASCADE, related_name="rankings")
    computed_at = models.DateTimeField(_("calculé le"))
    published_at = models.DateTimeField(_("publié le"), null=True, blank=True)
    rules = models.JSONField(_("règles appliquées"), default=dict)
    tournaments = models.PositiveSmallIntegerField(_("soirées"), default=0)

    objects = RankingSnapshotQuerySet.as_manager()

    class Meta:
        ordering = ["season", "-computed_at"]
        verbose_name = _("classement annuel")
        verbose_name_plural = _("classements annuels")
        constraints = [
            models.UniqueConstraint(
                fields=["season"],
                condition=Q(published_at__isnull=True),
                name="ranking_one_live_per_season",
            ),
        ]

    def __str__(self) -> str:
        state = self.published_at.date() if self.published_at else _("provisoire")
        return f"{self.season} ({state})"


class RankingLineQuerySet(models.QuerySet):
    def in_order(self) -> RankingLineQuerySet:
        """The lines as the ranking lists them, with their players' names."""
        return self.select_related("player").order_by("position")

    def latest_published(self) -> RankingLineQuerySet:
        """Lines of each season's latest published ranking only."""
        return self.filter(snapshot__in=RankingSnapshot.objects.latest_published())


class RankingLine(models.Model):
    snapshot = models.ForeignKey(RankingSnapshot, on_delete=models.CASCADE, related_name="lines")
    player = models.ForeignKey("club.Player", on_delete=models.PROTECT, related_name="+")
    # No rank: fewer nights than the club's minimum, listed apart.
    rank = models.PositiveSmallIntegerField(_("rang"), null=True, blank=True)
    tied = models.BooleanField(_("ex aequo"), default=False)
    position = models.PositiveSmallIntegerField(_("ordre"))
    tournament_points = FractionField(_("points de tournoi"))
    game_points = models.IntegerField(_("points de jeu"))
    tournaments_played = models.PositiveSmallIntegerField(_("soirées jouées"))
    tournaments_counted = models.PositiveSmallIntegerField(_("soirées retenues"))
    tournaments_won = models.PositiveSmallIntegerField(_("soirées gagnées"), default=0)

    objects = RankingLineQuerySet.as_manager()

    class Meta:
        ordering = ["snapshot", "position"]
        verbose_name = _("ligne de classement")
        verbose_name_plural = _("lignes de classement")
        constraints = [
            models.UniqueConstraint(fields=["snapshot", "player"], name="ranking_line_unique"),
            models.UniqueConstraint(fields=["snapshot", "position"], name="ranking_line_position"),
        ]

    def __str__(self) -> str:
        return f"{self.rank or '–'}. {self.player}"
