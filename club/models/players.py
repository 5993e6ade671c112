"""The people who play, and their memberships of a club."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from infra.name_text import HIDDEN_CATEGORIES, NameField

from .clubs import Club

# The ligatures a keyboard writes as two letters that Unicode does not decompose ("ß" folds
# to "ss" by itself, "ﬁ" and "ĳ" decompose): "Lœtitia" is found by "loetitia".
LIGATURES = str.maketrans({"œ": "oe", "æ": "ae"})


def name_key(name: str) -> str:
    """A name as two names are compared and searched: whatever the case, the accents, the
    ligatures, the spaces and any character no page shows ("Zoé  Dupont" and "zoe dupont"
    are one name, "Lœtitia" and "Loetitia" too)."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(
        c
        for c in decomposed
        if not unicodedata.combining(c) and unicodedata.category(c) not in HIDDEN_CATEGORIES
    )
    return " ".join(bare.casefold().translate(LIGATURES).split())


# The particles a club may ask its lists to pass over at the start of a name ("Van den Broeck
# Jan" listed under B): longest first, so "van der" goes before "van".
PARTICLES = (
    "van den",
    "van der",
    "van de",
    "de la",
    "von",
    "van",
    "der",
    "den",
    "de",
    "du",
    "le",
    "la",
    "d",
    "l",
    "ver",
    "vander",
    "vanden",
)


def sort_key(name: str, particles: bool = True) -> str:
    """A name as a French reader sorts it (``name_key``'s fold: case, accents and ligatures
    aside, so « Éloïse » comes before « Raphaël »), apostrophes and hyphens read as nothing
    and as a space (« D'Hondt » as « dhondt », « Jean-Pierre » as « jean pierre »). Without
    ``particles``, the particles that open the name are passed over (« Van den Broeck » sorts
    as « broeck »). The key's characters are compared one by one, as the database's binary
    collation does (``club.name_order``), the same on SQLite and PostgreSQL."""
    key = name_key(name).replace("'", "").replace("’", "").replace("-", " ")
    key = " ".join(key.split())
    if not particles:
        words = " ".join(name_key(name).replace("'", " ").replace("’", " ").split())
        for particle in sorted(PARTICLES, key=len, reverse=True):
            if words.startswith(particle + " ") and len(words) > len(particle) + 1:
                return sort_key(words[len(particle) + 1 :])
    return key


# The folds a stored key may keep of a name: the search's, the lists' order, the lists' order
# without the particles.
FOLDS = {
    "search": name_key,
    "sort": sort_key,
    "sort_bare": lambda name: sort_key(name, particles=False),
}


class NameKeyField(models.CharField):
    """A name's ``name_key``, kept by the model: set from ``source`` whenever the row is
    written (``save()``, ``bulk_create()``: both ask a field's ``pre_save``), so that the
    database finds a name as the site compares names, with an index."""

    def __init__(
        self, *args: Any, source: str = "display_name", fold: str = "search", **kwargs: Any
    ) -> None:
        self.source = source
        self.fold = fold
        kwargs.setdefault("editable", False)
        kwargs.setdefault("blank", True)
        kwargs.setdefault("default", "")
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        name, path, args, kwargs = super().deconstruct()
        kwargs["source"] = self.source
        if self.fold != "search":
            kwargs["fold"] = self.fold
        return name, path, args, kwargs

    def pre_save(self, model_instance: models.Model, add: bool) -> str:
        # A fold may write a name longer than it is typed ("ß", "æ" two letters): cut, a
        # search then misses only what lies past the cut of a name that long.
        key = FOLDS[self.fold](getattr(model_instance, self.source) or "")[: self.max_length]
        setattr(model_instance, self.attname, key)
        return key


class PlayerQuerySet(models.QuerySet):
    def in_club(self, club: Club) -> PlayerQuerySet:
        return self.filter(memberships__club=club).distinct()


class Player(models.Model):
    """A person who plays; may belong to several clubs and may have a user account."""

    class PublicName(models.TextChoices):
        FULL = "full", _("Nom complet")
        INITIALS = "initials", _("Initiales")

    first_name = NameField(_("prénom"), max_length=80, blank=True)
    last_name = NameField(_("nom"), max_length=80, blank=True)
    display_name = NameField(_("nom affiché"), max_length=120)
    # The shown name folded (``name_key``): what a search by name reads, with its index.
    name_key = NameKeyField(_("nom replié"), max_length=240, source="display_name", db_index=True)
    # The shown name as every list of players is ordered (``club.name_order``), and the same
    # without its opening particles, for a club that lists « Van den Broeck » under B.
    sort_key = NameKeyField(_("clé de tri"), max_length=240, fold="sort", db_index=True)
    sort_key_bare = NameKeyField(_("clé de tri sans particule"), max_length=240, fold="sort_bare")
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
    # Another record of the same person that this one was merged into (``PlayerMerge``): his
    # results and memberships moved there, and this record's old addresses lead there.
    merged_into = models.ForeignKey(
        "self",
        verbose_name=_("fusionné dans"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created = models.DateTimeField(auto_now_add=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["sort_key", "pk"]
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

    # What ``club.names.name_shown`` reads of a player: a page that names players reads only
    # these.
    PUBLIC_NAME_FIELDS = ("display_name", "first_name", "last_name", "public_name")


class MembershipQuerySet(models.QuerySet):
    """A membership's reads. The one place that says what a current membership is (open: no
    end yet) and that a user's role in a club is his current membership's role there."""

    @staticmethod
    def current_q(through: str = "") -> Q:
        """A current membership as a condition: on the membership itself, or through a
        relation (``"memberships"`` from a player, ``"player__memberships"`` from an account)
        for a query that joins them and must hold the other conditions on the same row."""
        if through:
            return Q(**{f"{through}__end__isnull": True})
        return Q(end__isnull=True)

    def current(self) -> MembershipQuerySet:
        """The memberships open today (a guest's too: ``status`` tells him apart)."""
        return self.filter(self.current_q())

    def admins(self) -> MembershipQuerySet:
        """The current memberships of club admins."""
        return self.current().filter(role=Membership.Role.ADMIN)

    def role_of(self, user: Any, club: Any) -> MembershipQuerySet:
        """The role of ``user``'s current membership of ``club`` (a club, its id, or an
        ``OuterRef`` to the club of each row), as a one-column query: ``.first()`` reads it
        (None: no current membership), ``Subquery(...)`` annotates every row with it. A
        user has one current membership of a club at most: ordered by its key alone, since the
        default order would join the club and the player for nothing."""
        return (
            self.current()
            .filter(player__user=user, club=club)
            .order_by("pk")
            .values_list("role", flat=True)[:1]
        )


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

    objects = MembershipQuerySet.as_manager()

    class Meta:
        ordering = ["club", "player__sort_key", "player__pk"]
        verbose_name = _("affiliation")
        verbose_name_plural = _("affiliations")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "player"],
                condition=MembershipQuerySet.current_q(),
                name="membership_one_open_per_club",
                violation_error_message=_("Ce joueur est déjà membre de ce club."),
            ),
            models.CheckConstraint(
                condition=MembershipQuerySet.current_q() | Q(end__gte=models.F("start")),
                name="membership_ends_after_start",
                violation_error_message=_("La fin d'affiliation précède son début."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} – {self.club} ({self.get_role_display()})"
