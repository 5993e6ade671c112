"""A club that starts alone: its secretary's sign-up from the home page (kept server-side, step
by step, until the club opens), and a stranger's request to join a listed club."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from infra.name_text import NameField

from .accounts import login_field
from .clubs import Club
from .players import Player


class ClubSignup(models.Model):
    """A secretary's sign-up of her club. The address is confirmed first (a link, of which only
    a hash is kept); the link opens her account, and her answers (the club, its first season
    and its ranking rules) are kept here as she goes, so she comes back to them from the link
    or by logging in. Nothing of the club exists until it opens, in one transaction: at once,
    or when the site's operator approves (``settings.CLUB_SIGNUP``). Once open, it keeps the
    steps of the club's checklist its admin confirmed by hand."""

    class Status(models.TextChoices):
        UNCONFIRMED = "unconfirmed", _("Adresse à confirmer")
        DRAFT = "draft", _("En cours")
        WAITING = "waiting", _("En attente d'approbation")
        OPENED = "opened", _("Club ouvert")
        REFUSED = "refused", _("Refusée")

    # A sign-up in one of these states holds its address (and its account): one at a time.
    OPEN_STATES = (Status.UNCONFIRMED, Status.DRAFT, Status.WAITING)

    email = models.EmailField(_("e-mail"))
    name = NameField(_("nom du secrétaire"), max_length=120)
    language = models.CharField(_("langue"), max_length=5, choices=settings.LANGUAGES, default="fr")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("compte"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="club_signups",
    )
    status = models.CharField(
        _("état"), max_length=12, choices=Status.choices, default=Status.UNCONFIRMED
    )
    token_hash = models.CharField(max_length=64, blank=True, editable=False)
    # The answers of the steps, as typed and checked: {"club": {…}, "season": {…}}.
    answers = models.JSONField(_("réponses"), default=dict, blank=True)
    club = models.OneToOneField(
        Club,
        verbose_name=_("club"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="signup",
    )
    created = models.DateTimeField(_("commencée le"), auto_now_add=True)
    confirmed_at = models.DateTimeField(_("adresse confirmée le"), null=True, blank=True)
    submitted_at = models.DateTimeField(_("envoyée le"), null=True, blank=True)
    decided_at = models.DateTimeField(_("décidée le"), null=True, blank=True)
    decided_by = login_field(_("décidée par"))
    note = models.TextField(
        _("mot de l'exploitant"),
        blank=True,
        help_text=_("Écrit au secrétaire avec la réponse (un refus surtout)."),
    )
    # Each e-mail is claimed here before it goes, so that the outbox's task run twice sends
    # it once (None: to send).
    link_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    operators_told_at = models.DateTimeField(null=True, blank=True, editable=False)
    decision_told_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The checklist's steps the club's admin ticked himself ("the preset suits us").
    steps_confirmed = models.JSONField(default=list, blank=True, editable=False)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("inscription d'un club")
        verbose_name_plural = _("inscriptions de clubs")
        constraints = [
            models.UniqueConstraint(
                fields=["email"],
                condition=Q(status__in=["unconfirmed", "draft", "waiting"]),
                name="club_signup_one_open_per_email",
                violation_error_message=_("Une inscription de cette adresse est déjà en cours."),
            ),
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(status__in=["draft", "waiting"]),
                name="club_signup_one_open_per_account",
            ),
            models.UniqueConstraint(
                fields=["token_hash"],
                condition=~Q(token_hash=""),
                name="club_signup_token_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club_name or '?'} ({self.email})"

    @property
    def club_name(self) -> str:
        return self.answers.get("club", {}).get("name", "")

    @property
    def town(self) -> str:
        return self.answers.get("club", {}).get("town", "")


class SignupLink(models.Model):
    """A confirmation link of a sign-up e-mailed before its latest (``ClubSignup.token_hash``):
    it keeps working until the sign-up's link expires, so that a stranger who starts a
    sign-up with somebody's address sends her a fresh link without voiding the one she holds.
    Only its hash is kept; it goes with its sign-up."""

    signup = models.ForeignKey(ClubSignup, on_delete=models.CASCADE, related_name="earlier_links")
    token_hash = models.CharField(max_length=64, unique=True, editable=False)

    class Meta:
        verbose_name = _("lien d'une inscription")
        verbose_name_plural = _("liens des inscriptions")

    def __str__(self) -> str:
        return f"{self.signup_id}: {self.token_hash[:8]}…"


class JoinRequest(models.Model):
    """Somebody asks to join a listed club (his name, his address, a word). The club's admins
    accept (he becomes a member and is invited to open his account) or refuse."""

    class Status(models.TextChoices):
        PENDING = "pending", _("En attente")
        ACCEPTED = "accepted", _("Acceptée")
        REFUSED = "refused", _("Refusée")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="join_requests")
    name = NameField(_("nom"), max_length=120)
    email = models.EmailField(_("e-mail"))
    message = models.TextField(_("message"), max_length=1000, blank=True)
    language = models.CharField(_("langue"), max_length=5, choices=settings.LANGUAGES, default="fr")
    status = models.CharField(
        _("état"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created = models.DateTimeField(_("demandée le"), auto_now_add=True)
    decided_at = models.DateTimeField(_("décidée le"), null=True, blank=True)
    decided_by = login_field(_("décidée par"))
    # The member the acceptance made.
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Claimed before the club's admins are e-mailed (the outbox's task run twice sends once).
    admins_told_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["created"]
        verbose_name = _("demande d'adhésion")
        verbose_name_plural = _("demandes d'adhésion")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "email"],
                condition=Q(status="pending"),
                name="join_request_one_pending_per_email",
                violation_error_message=_("Une demande de cette adresse attend déjà le club."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} → {self.club} ({self.get_status_display()})"
