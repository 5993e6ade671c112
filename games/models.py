"""What is played: point tables (versioned), club nights (tournaments), their rounds, poules,
seats and deals."""

from __future__ import annotations

import datetime
import hashlib
import json
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Prefetch, Q
from django.utils.translation import gettext_lazy as _

from club.models import GAME_CHOICES, Club, Player, Season, dates_refused, default_scheme
from infra.dates import date_written
from infra.name_text import NameField
from scoring.engine.errors import EngineError
from scoring.engine.tables import load_table

from .labels import POINT_TABLE_LABELS, point_table_label


def point_table_checksum(data: Any) -> str:
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


# checksum → the engine's (immutable) table; a club uses a handful of tables.
_ENGINE_POINT_TABLES: dict[str, Any] = {}


class PointTable(models.Model):
    """A point table at one version. Once a deal has been scored with it, it never changes:
    a correction creates the next version (``games.services.point_table_revise``), and past
    results keep the version they were scored with."""

    game = models.CharField(_("jeu"), max_length=20, choices=GAME_CHOICES)
    # A club's own versions of a table (its admin changed a cell): they are its club's alone,
    # other clubs keep playing the shared table. Empty: the site's shared table.
    club = models.ForeignKey(
        Club,
        verbose_name=_("club"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="point_tables",
    )
    name = models.SlugField(_("nom"), max_length=60, help_text=_("Nom du preset, ex. rcwhist."))
    version = models.PositiveIntegerField(_("version"), default=1)
    label = NameField(_("libellé"), max_length=120, blank=True)
    data = models.JSONField(_("données"))
    checksum = models.CharField(_("empreinte"), max_length=64, editable=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "name", "-version"]
        verbose_name = _("tableau des points")
        verbose_name_plural = _("tableaux des points")
        constraints = [
            models.UniqueConstraint(
                fields=["name", "version"],
                condition=Q(club__isnull=True),
                name="point_table_version_unique",
            ),
            models.UniqueConstraint(
                fields=["club", "name", "version"], name="point_table_club_version_unique"
            ),
            models.CheckConstraint(
                condition=Q(version__gte=1), name="point_table_version_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.title} (v{self.version})"

    @property
    def title(self) -> str:
        """What pages call it: a preset by its label in the reader's language, a club's own
        table by the label it came with."""
        if self.name in POINT_TABLE_LABELS:
            return point_table_label(self.name)
        return self.label or self.name

    def clean(self) -> None:
        try:
            point_table = load_table(self.data)
        except EngineError as error:
            raise ValidationError({"data": str(error)}) from None
        if point_table.game != self.game:
            raise ValidationError(
                {"data": _("Ce tableau est pour le jeu « %s ».") % point_table.game}
            )
        self.checksum = point_table_checksum(self.data)

    def engine_table(self) -> Any:
        """The engine's frozen point table. Loaded once per process and checksum: a score sheet is
        saved deal after deal all night, and a stored version never changes."""
        point_table = _ENGINE_POINT_TABLES.get(self.checksum)
        if point_table is None:
            point_table = load_table(self.data)
            if self.checksum:
                _ENGINE_POINT_TABLES[self.checksum] = point_table
        return point_table

    @property
    def is_used(self) -> bool:
        return Deal.objects.filter(poule__tournament__point_table=self).exists()


def night_title(name: str, date: datetime.date) -> str:
    """A night's name, or for a night without one "Soirée du 23 novembre 2026" (the date in
    the reader's language). Pages reading plain rows, not nights, call it too."""
    if name:
        return name
    return _("Soirée du %(date)s") % {"date": date_written(date, "j F Y")}


class TournamentQuerySet(models.QuerySet):
    def counted(self) -> TournamentQuerySet:
        """The nights whose results count: closed or published."""
        return self.filter(status__in=COUNTED_STATUSES)


class DrawMethod(models.TextChoices):
    """How rounds after the first are drawn (round 1 is always at random)."""

    AVOID_REPEATS = "avoid_repeats", _("Éviter que les joueurs se retrouvent")
    STANDINGS = "standings", _("Selon le classement (les quatre premiers à la table 1)")


class Tournament(models.Model):
    """A club night: several rounds of poules, scored with one point table version."""

    class Status(models.TextChoices):
        PLANNED = "planned", _("Prévue")
        RUNNING = "running", _("En cours")
        CLOSED = "closed", _("Clôturée")
        PUBLISHED = "published", _("Publiée")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="tournaments")
    # An inter-club night: held by ``club`` within a federation's season, open to the players
    # of every club of the federation (a visitor plays without joining the host club).
    federation_season = models.ForeignKey(
        "club.FederationSeason",
        verbose_name=_("saison de fédération"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="nights",
    )
    date = models.DateField(_("date"))
    name = NameField(_("nom"), max_length=120, blank=True)
    game = models.CharField(_("jeu"), max_length=20, choices=GAME_CHOICES)
    point_table = models.ForeignKey(
        PointTable,
        verbose_name=_("tableau des points"),
        on_delete=models.PROTECT,
        related_name="tournaments",
    )
    tournament_points = models.JSONField(_("points de tournoi"), default=default_scheme)
    rounds = models.PositiveSmallIntegerField(_("tours"), default=3)
    draw_method = models.CharField(
        _("tirage des tours suivants"),
        max_length=20,
        choices=DrawMethod.choices,
        default=DrawMethod.AVOID_REPEATS,
    )
    present = models.ManyToManyField(
        Player, verbose_name=_("joueurs présents"), blank=True, related_name="tournaments_present"
    )
    status = models.CharField(
        _("état"), max_length=10, choices=Status.choices, default=Status.PLANNED
    )
    created = models.DateTimeField(auto_now_add=True)

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("soirée")
        verbose_name_plural = _("soirées")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "date", "name"],
                name="tournament_unique_per_club_date_name",
                violation_error_message=_("Le club a déjà une soirée de ce nom à cette date."),
            ),
            models.CheckConstraint(condition=Q(rounds__gte=1), name="tournament_rounds_positive"),
            models.CheckConstraint(
                condition=Q(status__in=["planned", "running", "closed", "published"]),
                name="tournament_status_known",
            ),
        ]

    def __str__(self) -> str:
        """What the night is called everywhere (pages, e-mails, exports, the admin): its name,
        or "Soirée du 23 novembre 2026" in the reader's language."""
        return night_title(self.name, self.date)

    def clean(self) -> None:
        if self.season_id and self.club_id and self.season.club_id != self.club_id:
            raise ValidationError({"season": _("Cette saison appartient à un autre club.")})
        if self.date and (why := dates_refused(self.date)):
            raise ValidationError({"date": why})
        if self.season_id and not self.season.start <= self.date <= self.season.end:
            raise ValidationError({"date": _("La date est en dehors de la saison.")})
        if self.federation_season_id:
            fed_season = self.federation_season
            if not fed_season.federation.clubs.filter(pk=self.club_id).exists():
                raise ValidationError(
                    {"federation_season": _("Le club n'est pas de cette fédération.")}
                )
            if self.date and not fed_season.start <= self.date <= fed_season.end:
                raise ValidationError(
                    {"date": _("La date est en dehors de la saison de la fédération.")}
                )
        if self.point_table_id and self.point_table.game != self.game:
            raise ValidationError(
                {"point_table": _("Ce tableau des points est pour un autre jeu.")}
            )

    @property
    def is_locked(self) -> bool:
        """Closed or published: its sheets no longer change, its results count."""
        return self.status in COUNTED_STATUSES

    def dealt_rounds(self) -> set[int]:
        """The rounds with at least one deal recorded (even a pass): their draw is final."""
        return set(
            Deal.objects.filter(poule__tournament=self)
            .values_list("poule__round", flat=True)
            .distinct()
        )

    def deals_per_poule(self, seats: int) -> int:
        """How many deals the club plays at a table of ``seats``."""
        return self.club.deals_per_poule_5 if seats == 5 else self.club.deals_per_poule_4


# A closed night's results count (in the season ranking, the statistics); a published one's
# too, and its sheets are public. A running night's standings still move.
COUNTED_STATUSES = (Tournament.Status.CLOSED, Tournament.Status.PUBLISHED)


class RoundDraw(models.Model):
    """How a round's tables were drawn; with the seed the draw can be reproduced."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="draws")
    round = models.PositiveSmallIntegerField(_("tour"))
    method = models.CharField(_("méthode"), max_length=20)
    seed = models.BigIntegerField(_("graine"))
    repeats = models.PositiveSmallIntegerField(_("rencontres répétées"), default=0)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    drawn_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament", "round"]
        verbose_name = _("tirage")
        verbose_name_plural = _("tirages")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round"], name="draw_once_per_round"),
        ]

    def __str__(self) -> str:
        return _("Tirage du tour %(round)s") % {"round": self.round}


class PouleQuerySet(models.QuerySet):
    def with_seated_players(self) -> PouleQuerySet:
        """Prefetch each poule's seats with their players, in seat order (two queries)."""
        seats = Seat.objects.select_related("player").order_by("number")
        return self.prefetch_related(Prefetch("seats", queryset=seats))


class Poule(models.Model):
    """One table in one round."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="poules")
    round = models.PositiveSmallIntegerField(_("tour"))
    table = models.PositiveSmallIntegerField(_("table"))
    counted_deals = models.PositiveSmallIntegerField(_("donnes jouées"), default=0)
    # How many corrections and removals its history holds: the sheet of a poule without any
    # (nearly all of them) does not read its history after every deal.
    corrections = models.PositiveSmallIntegerField(_("corrections"), default=0)
    # Deals the scorer added to the club's count tonight ("the poule is longer tonight"): a
    # table at its count refuses another deal until he says so.
    extra_deals = models.PositiveSmallIntegerField(_("donnes en plus ce soir"), default=0)

    objects = PouleQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "round", "table"]
        verbose_name = _("poule")
        verbose_name_plural = _("poules")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "table"],
                name="poule_unique_table_per_round",
                violation_error_message=_("Ce numéro de table existe déjà dans ce tour."),
            ),
            models.CheckConstraint(
                condition=Q(round__gte=1) & Q(table__gte=1), name="poule_round_table_positive"
            ),
        ]

    def __str__(self) -> str:
        return _("Tour %(round)s, table %(table)s") % {"round": self.round, "table": self.table}

    def deals_tonight(self, seats: int) -> int:
        """The deals this table plays tonight: the club's count for its size, and those the
        scorer added ("the poule is longer tonight")."""
        return self.tournament.deals_per_poule(seats) + self.extra_deals


class Seat(models.Model):
    """A player at a poule. ``tournament`` and ``round`` repeat the poule's so that the database
    itself refuses a player at two tables of the same round."""

    poule = models.ForeignKey(Poule, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveSmallIntegerField(_("place"))
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    round = models.PositiveSmallIntegerField(_("tour"))

    class Meta:
        ordering = ["poule", "number"]
        verbose_name = _("place")
        verbose_name_plural = _("places")
        constraints = [
            models.UniqueConstraint(fields=["poule", "number"], name="seat_number_unique"),
            models.UniqueConstraint(fields=["poule", "player"], name="seat_player_once_per_poule"),
            models.UniqueConstraint(
                fields=["tournament", "round", "player"],
                name="seat_one_table_per_round",
                violation_error_message=_("Ce joueur est déjà à une autre table dans ce tour."),
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=5), name="seat_number_1_to_5"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.player}"


class Deal(models.Model):
    """One deal of a poule. ``data`` is the deal as the club-night file writes it, with players
    named by seat number ("1" … "5") so that renaming a player never touches a score sheet;
    ``points`` (one per seat) and ``dealer`` come from the engine when the deal is recorded."""

    # No index of its own: the unique (poule, position) below starts with it and serves every
    # look-up by poule; a second one only slowed each deal's insert.
    poule = models.ForeignKey(Poule, on_delete=models.CASCADE, related_name="deals", db_index=False)
    # Where the deal is stored in the poule's playing order (1, 2 …, a pass included): not
    # the number the sheet prints, which games/numbering.py alone gives (a pass takes none).
    position = models.PositiveSmallIntegerField(_("place dans la poule"))
    data = models.JSONField(_("donne"))
    dealer = models.PositiveSmallIntegerField(_("donneur"), null=True, blank=True)
    points = models.JSONField(_("points"), default=list)
    counted = models.BooleanField(_("comptée"), default=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    recorded_at = models.DateTimeField(auto_now=True)
    # Made by the scorer's phone for each deal it sends: a deal sent again (bad Wi-Fi, a
    # queue emptied twice) is recognised and recorded once.
    client_key = models.UUIDField(_("clé du téléphone"), null=True, blank=True, editable=False)
    # What was sent with that key (``digest_of``): the same key with another deal is a client's
    # bug, refused, never mistaken for a retry. Empty for deals recorded without a key.
    client_digest = models.CharField(max_length=64, blank=True, default="", editable=False)

    class Meta:
        ordering = ["poule", "position"]
        verbose_name = _("donne")
        verbose_name_plural = _("donnes")
        constraints = [
            models.UniqueConstraint(fields=["poule", "position"], name="deal_number_unique"),
            models.UniqueConstraint(
                fields=["poule", "client_key"], name="deal_client_key_once_per_poule"
            ),
            models.CheckConstraint(condition=Q(position__gte=1), name="deal_number_positive"),
        ]

    def __str__(self) -> str:
        # The sheet's number needs the poule's other deals (games/numbering.py); a row alone
        # says only where it is stored.
        return _("Donne à la place %(position)s de sa poule") % {"position": self.position}

    @staticmethod
    def digest_of(data: Any) -> str:
        """A deal as sent, whatever the order of its keys: a retry has the same digest."""
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()

    def sent_as(self, data: Any) -> bool:
        """Whether ``data`` is what came with this deal's key (deals stored before the digest
        was kept cannot tell: taken as a retry, as they were)."""
        return not self.client_digest or self.client_digest == Deal.digest_of(data)


class DealChange(models.Model):
    """A correction or removal of a recorded deal: who, when, and the deal before → after.
    Kept on the poule so that the history of a removed deal survives it."""

    class Action(models.TextChoices):
        CORRECTED = "corrected", _("corrigée")
        DELETED = "deleted", _("supprimée")

    poule = models.ForeignKey(Poule, on_delete=models.CASCADE, related_name="changes")
    deal = models.ForeignKey(
        Deal, on_delete=models.SET_NULL, null=True, blank=True, related_name="changes"
    )
    # The deal's place in the poule when it was changed (``Deal.position``).
    position = models.PositiveSmallIntegerField(_("place dans la poule"))
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    before = models.JSONField(_("avant"))
    after = models.JSONField(_("après"), null=True, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("par"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    at = models.DateTimeField(_("le"), auto_now_add=True)
    # A removed deal's key from the scorer's phone (``Deal.client_key``): a late retry of the
    # request that recorded it must not bring it back once somebody has undone it.
    client_key = models.UUIDField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["poule", "at", "pk"]
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")
        constraints = [
            models.CheckConstraint(
                condition=Q(action__in=["corrected", "deleted"]), name="deal_change_action_known"
            ),
        ]

    def __str__(self) -> str:
        return _("%(action)s, place %(position)s") % {
            "action": self.get_action_display(),
            "position": self.position,
        }


class ResultEmail(models.Model):
    """A night's results sent to one participant: a task run twice sends nothing twice."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="result_emails"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    email = models.EmailField(_("e-mail"))
    sent_at = models.DateTimeField(_("envoyé le"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "player"]
        verbose_name = _("résultats envoyés")
        verbose_name_plural = _("résultats envoyés")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="result_email_once_per_night"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} → {self.player}"


# The club's calendar (its own package, games/calendar/: this module stays small). Imported
# last so Django registers its models in this app: importing it runs games/calendar/__init__,
# whose services take from here only the names defined above (Tournament, DrawMethod, …).
from .calendar.models import (  # noqa: E402,F401
    ClubCalendar,
    MemberCalendar,
    PlannedNight,
    PlannedSeries,
    ReminderEmail,
    Reply,
)
