"""Clubs, the people who play, their memberships and the seasons."""

from __future__ import annotations

import datetime
import unicodedata
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from scoring.engine.errors import EngineError
from scoring.engine.ranking import SEASON_METRICS, RankingRules
from scoring.engine.standings import scheme as tournament_points_scheme
from scoring.engine.tables import PRESET_GAME, PRESETS

GAME_CHOICES = [
    ("belgian_whist", _("Whist belge")),
    ("whist", _("Whist classique")),
    ("hearts", _("Cœurs")),
    ("besigue", _("Bésigue")),
]
GAME_LABELS = dict(GAME_CHOICES)
# The point tables a club may choose from, grouped by game as the night form lists them.
RULES_CHOICES = [(GAME_LABELS[game], [(n, n) for n in names]) for game, names in PRESETS.items()]
DEFAULT_PRECEDENCE = ["tournament_points", "game_points"]


# A colour as the browser's colour picker sends it.
COLOUR = RegexValidator(
    r"^#[0-9a-fA-F]{6}$", _("Une couleur s'écrit #rrggbb, par exemple #14213d.")
)


def default_scheme() -> str:
    return "rcwhist"


def default_precedence() -> list[str]:
    return list(DEFAULT_PRECEDENCE)


def check_ranking_rules(best_n: int | None, min_tournaments: int, precedence: list[str]) -> None:
    """The engine is the judge of ranking rules; its located message becomes a field error."""
    try:
        RankingRules(best_n=best_n, min_tournaments=min_tournaments, precedence=tuple(precedence))
    except EngineError as error:
        # The engine names its settings (best_n …); the form shows the model's fields.
        setting = error.place.split("[")[0].split(".")[0]
        raise ValidationError({f"ranking_{setting}": error.message}) from None
    except TypeError:
        raise ValidationError(
            {
                "ranking_precedence": _("Une liste de critères parmi : %s.")
                % ", ".join(SEASON_METRICS)
            }
        ) from None


class Club(models.Model):
    name = models.CharField(_("nom"), max_length=120, unique=True)
    slug = models.SlugField(_("identifiant"), max_length=60, unique=True)
    # The club's rules: what a new club night starts from. The point table is chosen by name
    # (a preset); a night uses that table's latest version, so a club that revised its table
    # plays the revision from then on. The name also says the game.
    default_rules = models.CharField(
        _("tableau des points par défaut"),
        max_length=60,
        choices=RULES_CHOICES,
        default="rcwhist",
    )
    tournament_points = models.JSONField(
        _("points de tournoi"),
        default=default_scheme,
        help_text=_('"rcwhist", "freewhist" ou {"places": [5, 3, 1], "positive_from_place": 2}'),
    )
    deals_per_poule_4 = models.PositiveSmallIntegerField(
        _("donnes par poule de 4"), default=12, validators=[MinValueValidator(1)]
    )
    deals_per_poule_5 = models.PositiveSmallIntegerField(
        _("donnes par poule de 5"), default=15, validators=[MinValueValidator(1)]
    )
    rounds_per_night = models.PositiveSmallIntegerField(
        _("tours par soirée"), default=3, validators=[MinValueValidator(1)]
    )
    ranking_best_n = models.PositiveSmallIntegerField(
        _("meilleures soirées retenues"), null=True, blank=True, help_text=_("Vide : toutes.")
    )
    ranking_min_tournaments = models.PositiveSmallIntegerField(
        _("soirées minimum pour être classé"), default=0
    )
    ranking_precedence = models.JSONField(_("critères de classement"), default=default_precedence)
    # The club as its pages present it (club settings, set by its admin in the site).
    short_name = models.CharField(
        _("nom court"), max_length=30, blank=True, help_text=_("Par exemple « RCWhist ».")
    )
    logo = models.ImageField(_("logo"), upload_to="clubs/", blank=True)
    # The room screen's colours (a projector in a bright room needs the club's contrast).
    colour_background = models.CharField(
        _("couleur de fond (écran de salle)"),
        max_length=7,
        default="#14213d",
        validators=[COLOUR],
    )
    colour_text = models.CharField(
        _("couleur du texte (écran de salle)"),
        max_length=7,
        default="#ffffff",
        validators=[COLOUR],
    )
    contact_email = models.EmailField(_("e-mail de contact"), blank=True)
    contact_phone = models.CharField(_("téléphone de contact"), max_length=30, blank=True)
    contact_address = models.CharField(_("adresse des soirées"), max_length=200, blank=True)
    language = models.CharField(
        _("langue du club"), max_length=5, choices=settings.LANGUAGES, default="fr"
    )
    # The names the club had before its admin renamed it: its older night files name it so,
    # and an import finds it by them.
    former_names = models.JSONField(_("anciens noms"), default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    # When what the club shows the public last changed (a ranking or a night published,
    # reopened or corrected, a season ranked again): its published pages are cached, and
    # their ETags built, from it (club.services.published_pages_changed).
    pages_changed = models.DateTimeField(_("pages publiques modifiées le"), default=timezone.now)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [
            models.CheckConstraint(
                condition=Q(deals_per_poule_4__gte=1) & Q(deals_per_poule_5__gte=1),
                name="club_deals_per_poule_positive",
            ),
            models.CheckConstraint(
                condition=Q(rounds_per_night__gte=1), name="club_rounds_positive"
            ),
            models.CheckConstraint(
                condition=Q(ranking_best_n__isnull=True) | Q(ranking_best_n__gte=1),
                name="club_best_n_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def default_game(self) -> str:
        return PRESET_GAME[self.default_rules]

    @property
    def game_label(self) -> str:
        return str(GAME_LABELS[self.default_game])

    @property
    def short(self) -> str:
        """What a narrow screen calls the club."""
        return self.short_name or self.name

    def clean(self) -> None:
        try:
            tournament_points_scheme(self.tournament_points)
        except EngineError as error:
            raise ValidationError({"tournament_points": str(error)}) from None
        check_ranking_rules(
            self.ranking_best_n, self.ranking_min_tournaments, self.ranking_precedence
        )


def name_key(name: str) -> str:
    """A name as two names are compared: whatever the case, the accents and the spaces
    ("Zoé  Dupont" and "zoe dupont" are one name)."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


class PlayerQuerySet(models.QuerySet):
    def in_club(self, club: Club) -> PlayerQuerySet:
        return self.filter(memberships__club=club).distinct()


class Player(models.Model):
    """A person who plays; may belong to several clubs and may have a user account."""

    class PublicName(models.TextChoices):
        FULL = "full", _("Nom complet")
        INITIALS = "initials", _("Initiales")

    first_name = models.CharField(_("prénom"), max_length=80, blank=True)
    last_name = models.CharField(_("nom"), max_length=80, blank=True)
    display_name = models.CharField(_("nom affiché"), max_length=120)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("compte"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
    )
    photo = models.ImageField(_("photo"), upload_to="players/", blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("téléphone"), max_length=30, blank=True)
    public_name = models.CharField(
        _("nom public"), max_length=10, choices=PublicName.choices, default=PublicName.FULL
    )
    language = models.CharField(_("langue"), max_length=5, choices=settings.LANGUAGES, default="fr")
    result_emails = models.BooleanField(_("résultats par e-mail"), default=True)
    created = models.DateTimeField(auto_now_add=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["display_name"]
        verbose_name = _("joueur")
        verbose_name_plural = _("joueurs")
        constraints = [
            models.CheckConstraint(condition=~Q(display_name=""), name="player_display_name_set"),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def initials(self) -> str:
        words = [self.first_name, self.last_name] if self.first_name or self.last_name else []
        words = words or self.display_name.split()
        return "".join(f"{w[0].upper()}." for w in words if w)

    # What ``public_display_name`` is made of: a page that shows public names reads only these.
    PUBLIC_NAME_FIELDS = ("display_name", "first_name", "last_name", "public_name")

    @property
    def public_display_name(self) -> str:
        """The name public pages and exports show: the member's choice is honoured everywhere."""
        if self.public_name == self.PublicName.INITIALS:
            return self.initials
        return self.display_name


class Membership(models.Model):
    class Role(models.TextChoices):
        ADMIN = "admin", _("Administrateur du club")
        SCORER = "scorer", _("Marqueur")
        MEMBER = "member", _("Membre")

    class Status(models.TextChoices):
        ACTIVE = "active", _("Actif")
        GUEST = "guest", _("Invité")
        FORMER = "former", _("Ancien membre")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    start = models.DateField(_("depuis"))
    end = models.DateField(_("jusqu'au"), null=True, blank=True)
    status = models.CharField(
        _("statut"), max_length=10, choices=Status.choices, default=Status.ACTIVE
    )
    role = models.CharField(_("rôle"), max_length=10, choices=Role.choices, default=Role.MEMBER)

    class Meta:
        ordering = ["club", "player__display_name"]
        verbose_name = _("affiliation")
        verbose_name_plural = _("affiliations")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "player"],
                condition=Q(end__isnull=True),
                name="membership_one_open_per_club",
                violation_error_message=_("Ce joueur est déjà membre de ce club."),
            ),
            models.CheckConstraint(
                condition=Q(end__isnull=True) | Q(end__gte=models.F("start")),
                name="membership_ends_after_start",
                violation_error_message=_("La fin d'affiliation précède son début."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} – {self.club} ({self.get_role_display()})"


def season_slug(name: str) -> str:
    """A season's name as its pages' addresses carry it: "2025/2026" → "2025-2026"."""
    return slugify(name.replace("/", "-"))[:40] or "saison"


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
    name = models.CharField(_("nom"), max_length=40, help_text=_("Par exemple « 2024 »."))
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


class Invitation(models.Model):
    """A club admin's invitation for a player to open his account. Only a hash of the link's
    token is stored: a copy of the database cannot be used to claim somebody's player."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(_("e-mail"))
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("invité par"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created = models.DateTimeField(_("envoyée le"), auto_now_add=True)
    accepted_at = models.DateTimeField(_("acceptée le"), null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.player} <{self.email}>"


class PlayerClaim(models.Model):
    """An account opened by one club's invitation for a player whom another club also knows,
    or whose e-mail on file is another address. The account gets the player (and so his roles
    in every club) only once the address on file confirms it, or once the admin of each other
    club approves: one club's admin can never give himself rights in another club."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    club = models.ForeignKey(
        Club, verbose_name=_("invité par le club"), on_delete=models.CASCADE, related_name="+"
    )
    email = models.EmailField(_("adresse de l'invitation"))
    # The link sent to the address on file; empty when the player has none.
    token_hash = models.CharField(max_length=64, blank=True, editable=False)
    approved_by = models.ManyToManyField(
        Club, verbose_name=_("approuvée par"), blank=True, related_name="+"
    )
    created = models.DateTimeField(_("demandée le"), auto_now_add=True)
    confirmed_at = models.DateTimeField(_("confirmée le"), null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("demande de compte")
        verbose_name_plural = _("demandes de compte")
        constraints = [
            models.UniqueConstraint(
                fields=["token_hash"],
                condition=~Q(token_hash=""),
                name="player_claim_token_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ← {self.email}"


class ThrottleEvent(models.Model):
    """One attempt that counts against a limit (a wrong password, a password reset asked for):
    ``scope`` names the limit, ``key`` whom it counts for (an account, an address). Kept in the
    database so that every web worker counts the same attempts."""

    scope = models.CharField(max_length=30)
    key = models.CharField(max_length=200)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("tentative comptée")
        verbose_name_plural = _("tentatives comptées")
        indexes = [models.Index(fields=["scope", "key", "at"], name="throttle_scope_key_at")]

    def __str__(self) -> str:
        return f"{self.scope} {self.key} {self.at:%Y-%m-%d %H:%M}"


class EmailChange(models.Model):
    """A member's new address, waiting for him to open the link sent to it: only then does it
    become his e-mail and his login (an open session alone cannot take an account over)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="email_changes")
    email = models.EmailField(_("nouvelle adresse"))
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created = models.DateTimeField(_("demandée le"), auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("changement d'adresse")
        verbose_name_plural = _("changements d'adresse")

    def __str__(self) -> str:
        return f"{self.player} → {self.email}"


class ApiToken(models.Model):
    """A member's personal key to the JSON API, named by him (« tableur du club »). Only a
    hash is stored: the key is shown once, when made; a copy of the database opens nothing.
    It carries its member's roles and nothing more (the API asks the same permission
    functions as the pages)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("nom"), max_length=60)
    # The first characters of the key, shown in the profile so the member knows which is which.
    prefix = models.CharField(_("début de la clé"), max_length=12, editable=False)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    created = models.DateTimeField(_("créée le"), auto_now_add=True)
    last_used = models.DateTimeField(_("dernière utilisation"), null=True, blank=True)
    # A key for a club's web site only reads: a leak cannot change a sheet or the profile.
    read_only = models.BooleanField(_("lecture seule"), default=False)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("clé d'API")
        verbose_name_plural = _("clés d'API")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


class PendingWork(models.Model):
    """Work that must follow a commit (a season's ranking, a night's result e-mails, a
    ranking's publication), recorded in the same transaction as the change that asks for it
    (``club.outbox``). The row is the promise: it stays until the task has done the work, so
    a broker that was down or a worker that died only delays it; a periodic task queues again
    what is still pending. One row per task and object: asking twice before it runs is one
    run."""

    task = models.CharField(max_length=100)
    # The id the task takes: a season or a night.
    key = models.BigIntegerField()
    # The latest change that asked for it: a task that ran before it leaves the row pending.
    requested_at = models.DateTimeField(default=timezone.now)
    # When it was last handed to the broker (none: the broker was not reached yet).
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["task", "key"], name="pending_work_once_per_object")
        ]
        indexes = [models.Index(fields=["requested_at"], name="pending_work_oldest")]

    def __str__(self) -> str:
        return f"{self.task}({self.key}) since {self.requested_at:%Y-%m-%d %H:%M:%S}"
