"""Accounts around a player: invitations, claims of a player record, e-mail changes and API
tokens (the login throttle's events are ``infra.models.ThrottleEvent``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from infra.name_text import NameField

from .clubs import Club
from .players import Player


def login_field(label: Any = None) -> models.ForeignKey:
    """The login who did something (invited, answered, decided): kept for the record, emptied
    if the account is deleted; nothing leads back from the account to it."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=label,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )


class Invitation(models.Model):
    """A club admin's invitation for a player to open his account. Only a hash of the link's
    token is stored: a copy of the database cannot be used to claim somebody's player."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(_("e-mail"))
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    invited_by = login_field(_("invité par"))
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
    name = NameField(_("nom"), max_length=60)
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
