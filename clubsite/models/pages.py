"""A club's pages (« Le club », « Règlement interne », « Règles du jeu »…) and every version of
each: the text as its admin wrote it (Markdown) and the HTML rendered from it once, at save
(``clubsite.pages`` writes both; ``clubsite.markdown`` renders)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from club.models import Club
from infra.name_text import NameField

from ..markdown import TEXT_MAX

# A page's address: short enough to read aloud and type on a phone.
SLUG_MAX = 60

# The page's language; empty: shown whatever the reader's language (« toutes »).
LANGUAGE_CHOICES = [("", _("Toutes les langues")), *settings.LANGUAGES]


class PageQuerySet(models.QuerySet):
    def public(self) -> PageQuerySet:
        """The pages anybody may read: what a sitemap or a feed may list (never a members-only
        page)."""
        return self.filter(members_only=False)

    def seen_by(self, member: bool) -> PageQuerySet:
        return self if member else self.public()

    def in_language(self, language: str) -> PageQuerySet:
        """The pages written for ``language`` or for every language."""
        return self.filter(Q(language="") | Q(language=language))

    def in_menu_order(self) -> PageQuerySet:
        return self.order_by("position", "title", "pk")


class PageContent(models.Model):
    """What a page says and how it is shown: the page's current state and each version's."""

    title = NameField(_("titre"), max_length=120)
    slug = models.SlugField(
        _("adresse"),
        max_length=SLUG_MAX,
        blank=True,
        help_text=_(
            "Les mots de l'adresse de la page, par exemple « reglement-interne ». Vide : "
            "tirée du titre. Une page « regles-du-jeu » reçoit les liens du tableau des points."
        ),
    )
    text = models.TextField(
        _("texte"),
        max_length=TEXT_MAX,
        blank=True,
        help_text=_(
            "En Markdown : « ## Titre », « **gras** », « - liste », « [lien](adresse) », "
            "les tableaux avec « | »."
        ),
    )
    # Rendered from ``text`` at save (clubsite.markdown): the reader's request only reads it.
    html = models.TextField(editable=False, blank=True)
    language = models.CharField(
        _("langue"), max_length=8, choices=LANGUAGE_CHOICES, blank=True, default=""
    )
    members_only = models.BooleanField(
        _("réservée aux membres"),
        default=False,
        help_text=_(
            "Un visiteur est invité à se connecter ; la page n'est jamais listée ailleurs."
        ),
    )
    position = models.PositiveSmallIntegerField(
        _("ordre dans le menu"), default=0, help_text=_("Les plus petits nombres d'abord.")
    )

    class Meta:
        abstract = True

    # The fields a version keeps and a restore puts back.
    CONTENT_FIELDS = ("title", "slug", "text", "html", "language", "members_only", "position")


class Page(PageContent):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="site_pages")
    # The latest version's number: the next save writes the one after.
    version = models.PositiveIntegerField(default=0, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    objects = PageQuerySet.as_manager()

    class Meta:
        ordering = ["club", "position", "title"]
        verbose_name = _("page du club")
        verbose_name_plural = _("pages du club")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "slug"],
                name="site_page_slug_unique_per_club",
                violation_error_message=_("Le club a déjà une page à cette adresse."),
            ),
        ]

    def __str__(self) -> str:
        return self.title


class PageVersion(PageContent):
    """A page as one save left it, with who saved it and when; the latest is the page's
    current state. Restoring one saves its content again, as the next version."""

    page = models.ForeignKey(Page, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    saved_at = models.DateTimeField(auto_now_add=True)
    saved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # A version put back: the number it was restored from.
    restored_from = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["page", "-number"]
        verbose_name = _("version d'une page")
        verbose_name_plural = _("versions des pages")
        constraints = [
            models.UniqueConstraint(fields=["page", "number"], name="site_page_version_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.page} v{self.number}"
