"""The stored results: poule and tournament standings, and season ranking snapshots.

Results are written when a deal is recorded or a night closed, never recomputed on read.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import models
from django.db.models import CharField, OuterRef, Prefetch, Q, Subquery
from django.db.models.functions import Cast
from django.utils.translation import gettext_lazy as _

from club.name_order import by_name

from .fields import FractionField, PointUnitsField


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
    def winners(self) -> Prefetch:
        """A prefetch of each night's first-placed players as ``winners``, for a queryset of
        nights (one query for any number of nights)."""
        first = self.filter(rank=1).select_related("player")
        return Prefetch("standings", queryset=first, to_attr="winners")

    def with_points_text(self) -> TournamentStandingQuerySet:
        """``points_text``: the tournament points as stored, for reading thousands of rows
        without a ``Fraction`` built for each (``fields.fraction_of`` parses them once)."""
        return self.annotate(points_text=Cast("tournament_points", CharField()))

    def of_tournament(self, tournament: Any) -> TournamentStandingQuerySet:
        """A night's standings in rank order, with their players (one query)."""
        return (
            self.filter(tournament=tournament)
            .select_related("player")
            .order_by("rank", *by_name("player__"))
        )


class TournamentStanding(models.Model):
    tournament = models.ForeignKey(
        "games.Tournament", on_delete=models.CASCADE, related_name="standings"
    )
    player = models.ForeignKey("club.Player", on_delete=models.PROTECT, related_name="+")
    rank = models.PositiveSmallIntegerField(_("rang"))
    tied = models.BooleanField(_("ex aequo"), default=False)
    tournament_points = FractionField(_("points de tournoi"))
    # The same points in whole units, for the season ranking summed by the database.
    points_units = PointUnitsField()
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
    # None: unknown, an imported ranking's (its table gives what each player played, not
    # how many nights the season had).
    tournaments = models.PositiveSmallIntegerField(_("soirées"), default=0, null=True, blank=True)
    # A ranking the club published before it came here, imported from its table (rank, name,
    # points, nights played): no nights behind it, nothing recomputes it.
    imported = models.BooleanField(_("classement importé"), default=False)
    # Which of the table's columns the import read ("rank", "name", "points", "nights"): a
    # figure whose column was not read is unknown (NULL), never a zero.
    imported_columns = models.JSONField(_("colonnes importées"), default=list, blank=True)

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


class RankedLine(models.Model):
    """A player's line in a ranking of nights: a club's season or a federation's."""

    player = models.ForeignKey("club.Player", on_delete=models.PROTECT, related_name="+")
    # No rank: fewer nights than the ranking's minimum, listed apart.
    rank = models.PositiveSmallIntegerField(_("rang"), null=True, blank=True)
    tied = models.BooleanField(_("ex aequo"), default=False)
    position = models.PositiveSmallIntegerField(_("ordre"))
    tournament_points = FractionField(_("points de tournoi"))
    game_points = models.IntegerField(_("points de jeu"))
    tournaments_played = models.PositiveSmallIntegerField(_("soirées jouées"))
    tournaments_counted = models.PositiveSmallIntegerField(_("soirées retenues"))
    tournaments_won = models.PositiveSmallIntegerField(_("soirées gagnées"), default=0)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.rank or '–'}. {self.player}"

    @classmethod
    def lines_of(cls, ranked: Iterable[Any], **owner: Any) -> list[RankedLine]:
        """The engine's ranked lines (``rank_season``) as unsaved rows of ``owner`` (the
        snapshot, the federation's ranking), positioned in their order."""
        return [
            cls(
                player_id=line.player,
                rank=line.rank,
                tied=line.tied,
                position=position,
                tournament_points=line.tournament_points,
                game_points=line.game_points,
                tournaments_played=line.tournaments_played,
                tournaments_counted=line.tournaments_counted,
                tournaments_won=line.tournaments_won,
                **owner,
            )
            for position, line in enumerate(ranked, start=1)
        ]


class RankingLine(RankedLine):
    snapshot = models.ForeignKey(RankingSnapshot, on_delete=models.CASCADE, related_name="lines")
    # An imported ranking's table may not give them: NULL is unknown (shown "—", null in the
    # API, an empty cell in the exports), never a zero. A computed ranking always has them.
    game_points = models.IntegerField(_("points de jeu"), null=True, blank=True)
    tournaments_played = models.PositiveSmallIntegerField(
        _("soirées jouées"), null=True, blank=True
    )
    tournaments_counted = models.PositiveSmallIntegerField(
        _("soirées retenues"), null=True, blank=True
    )
    tournaments_won = models.PositiveSmallIntegerField(
        _("soirées gagnées"), default=0, null=True, blank=True
    )

    objects = RankingLineQuerySet.as_manager()

    class Meta:
        ordering = ["snapshot", "position"]
        verbose_name = _("ligne de classement")
        verbose_name_plural = _("lignes de classement")
        constraints = [
            models.UniqueConstraint(fields=["snapshot", "player"], name="ranking_line_unique"),
            models.UniqueConstraint(fields=["snapshot", "position"], name="ranking_line_position"),
        ]


class PlayerRatingQuerySet(models.QuerySet):
    def current(self, club: Any, game: str) -> PlayerRatingQuerySet:
        """Each player's rating after his latest night of ``game`` at ``club``, best first."""
        return (
            self.filter(tournament__club=club, game=game, current=True)
            .select_related("player")
            .order_by("-conservative", *by_name("player__"))
        )


class PlayerRating(models.Model):
    """A player's « cote » in one game after one night: written when the night is closed or
    corrected (``scoring.services.ratings``), never computed on read."""

    tournament = models.ForeignKey(
        "games.Tournament", on_delete=models.CASCADE, related_name="ratings"
    )
    player = models.ForeignKey("club.Player", on_delete=models.CASCADE, related_name="+")
    game = models.CharField(_("jeu"), max_length=20)
    mu = models.FloatField("μ")
    sigma = models.FloatField("σ")
    conservative = models.FloatField(_("cote"))
    deals = models.PositiveIntegerField(_("donnes"))
    night_deals = models.PositiveIntegerField(_("donnes de la soirée"))
    expected = models.FloatField(_("attendu"))
    actual = models.FloatField(_("obtenu"))
    # Why his cote moved that night, written with it: μ after the night less μ before it (the
    # start for a newcomer), and the deals that moved it most (``services.ratings._moves``).
    change = models.FloatField(_("évolution"), default=0.0)
    moves = models.JSONField(_("donnes décisives"), default=list, blank=True)
    # The rest of the change, so that the night's page adds it up whole: the deals not listed
    # (their number and sum) and the night's final rebalancing (``statistics.cote``).
    other_deals = models.PositiveIntegerField(_("autres donnes"), default=0)
    others = models.FloatField(_("évolution des autres donnes"), default=0.0)
    rebalance = models.FloatField(_("rééquilibrage de fin de soirée"), default=0.0)
    # The player's latest night of this game at this club: what the « cote » page lists.
    current = models.BooleanField(default=False)

    objects = PlayerRatingQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "-conservative"]
        verbose_name = _("cote")
        verbose_name_plural = _("cotes")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="rating_once_per_night"),
        ]
        indexes = [
            models.Index(fields=["player", "game"], name="rating_player_game"),
            models.Index(fields=["game", "current"], name="rating_current"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game} {self.conservative:.2f}"


class PlayerNightStats(models.Model):
    """A player's night summed once when the night's ratings are written (``scoring.
    statistics.nights``): what his statistics page and his own results add up."""

    tournament = models.ForeignKey(
        "games.Tournament", on_delete=models.CASCADE, related_name="player_stats"
    )
    player = models.ForeignKey("club.Player", on_delete=models.CASCADE, related_name="+")
    data = models.JSONField(default=dict)

    class Meta:
        verbose_name = _("statistiques de soirée")
        verbose_name_plural = _("statistiques de soirée")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="stats_once_per_night"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.player_id}"


class PlayerSeasonStats(models.Model):
    """A player's season at his club added up from his nights' lines (``PlayerNightStats``),
    twice: his nights that count (what he reads of himself) and his published nights (what
    the public reads). Written whenever a night's lines or its state change
    (``scoring.services.season_stats``), so that his statistics page and « Mes résultats »
    add up a row a season, not a row a night (``scoring.statistics.seasons``)."""

    player = models.ForeignKey("club.Player", on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey("club.Season", on_delete=models.CASCADE, related_name="+")
    published_only = models.BooleanField(default=False)
    data = models.JSONField(default=dict)

    class Meta:
        verbose_name = _("statistiques de saison")
        verbose_name_plural = _("statistiques de saison")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "season", "published_only"], name="stats_once_per_season"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.season_id} {self.player_id} {self.published_only}"


class FederationRanking(models.Model):
    """A federation season's ranking across its clubs, recomputed by a task when a night that
    counts in it is published, corrected or unpublished (``scoring.services.federations``).
    Only nights their host club has published count: nothing appears here first."""

    season = models.OneToOneField(
        "club.FederationSeason", on_delete=models.CASCADE, related_name="ranking"
    )
    computed_at = models.DateTimeField(_("calculé le"))
    rules = models.JSONField(_("règles appliquées"), default=dict)
    tournaments = models.PositiveIntegerField(_("soirées"), default=0)
    clubs = models.PositiveIntegerField(_("clubs"), default=0)

    class Meta:
        verbose_name = _("classement de fédération")
        verbose_name_plural = _("classements de fédération")

    def __str__(self) -> str:
        return str(self.season)


class FederationRankingLine(RankedLine):
    ranking = models.ForeignKey(FederationRanking, on_delete=models.CASCADE, related_name="lines")
    # How many different clubs' nights the player played in the season (a traveller's mark).
    clubs_played = models.PositiveSmallIntegerField(_("clubs visités"), default=1)

    class Meta:
        ordering = ["ranking", "position"]
        verbose_name = _("ligne de classement de fédération")
        verbose_name_plural = _("lignes de classement de fédération")
        constraints = [
            models.UniqueConstraint(
                fields=["ranking", "player"], name="federation_ranking_line_unique"
            ),
            models.UniqueConstraint(
                fields=["ranking", "position"], name="federation_ranking_line_position"
            ),
        ]
