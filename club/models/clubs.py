"""A club: its name, its look, its contact details and what its nights start from."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from infra.name_text import NameField
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
    name = NameField(_("nom"), max_length=120, unique=True)
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
    # Whether the inter-club nights of its federations count in the club's own ranking (for
    # its members), the host club's included; else they count in the federation's only.
    ranking_interclub = models.BooleanField(
        _("soirées inter-clubs comptées au classement du club"), default=False
    )
    # Publishing a night publishes the season's ranking with it, as the guide says: what a
    # secretary expects. A club that checks its ranking before showing it turns this off and
    # publishes it with « Publier le classement ».
    ranking_follows_nights = models.BooleanField(
        _("classement de la saison publié avec chaque soirée"), default=True
    )
    # The club as its pages present it (club settings, set by its admin in the site).
    short_name = NameField(
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
    # The room screen's private link: the projector's PC opens it without anybody's login.
    # Unguessable, renewed by a club admin (the old link then shows nothing); empty: no link.
    room_key = models.CharField(_("clé de l'écran de salle"), max_length=43, blank=True)
    # Where the club plays, as the home page's directory says it ("Namur").
    town = NameField(_("ville"), max_length=80, blank=True)
    # On the home page's list of clubs, with its town, game and next night, for a newcomer to
    # find and ask to join. Clubs already on the site were all on that page: they stay; a club
    # that signs up chooses.
    listed = models.BooleanField(_("dans la liste des clubs de la page d'accueil"), default=True)
    # The room screen shows each table's last three deals too: a disputed deal checked from
    # across the room. Off unless the club admin turns it on (the room link's page).
    room_last_deals = models.BooleanField(
        _("écran de salle : les trois dernières donnes de chaque table"), default=False
    )
    # Lists of players sorted past the particles that open a name (« Van den Broeck » under B),
    # as some clubs' paper lists do; off, a name is sorted as it is written (under V).
    sort_ignores_particles = models.BooleanField(
        _("trier les noms sans leur particule (van, de, le…)"), default=False
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
