"""A club's photo albums and their photos.

A photo's files live in the ``photos`` storage (``STORAGES``: the file system of one host, or
S3-compatible object storage for several), under names no one can guess, and are only ever
served through the site's own view, which asks who is looking (an album may be members only,
a photo may be hidden). Only cleaned copies are kept: the file a phone sent (with its GPS
position in the EXIF) waits under ``upload_name`` until the task has made the copies, then is
deleted (``clubsite.photos.copies``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q, Sum
from django.utils.translation import gettext_lazy as _

from club.models import Club
from games.models import Tournament
from infra.name_text import NameField


class AlbumQuerySet(models.QuerySet):
    def seen_by(self, is_member: bool) -> AlbumQuerySet:
        """The albums a viewer may open: all of them for the club's members, the public ones
        for anybody else."""
        return self if is_member else self.filter(members_only=False)


class Album(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="albums")
    title = NameField(_("titre"), max_length=120)
    # The album's address under the club's (``photos/<slug>/``), made from its title.
    slug = models.SlugField(max_length=80)
    date = models.DateField(_("date"))
    night = models.ForeignKey(
        Tournament,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="albums",
        verbose_name=_("soirée"),
    )
    members_only = models.BooleanField(_("réservé aux membres"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = AlbumQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="album_slug_unique_in_club")
        ]

    def __str__(self) -> str:
        return self.title


class PhotoQuerySet(models.QuerySet):
    def shown(self) -> PhotoQuerySet:
        """Photos anybody allowed into their album sees: copied, and not waiting for the
        admins' decision on a take-down."""
        return self.filter(status=Photo.Status.READY, takedown_asked_at__isnull=True)

    def club_bytes(self, club: Club) -> int:
        """What the club's photos take in the storage (one query)."""
        total = self.filter(album__club=club).aggregate(total=Sum("bytes"))["total"]
        return total or 0


class Photo(models.Model):
    class Status(models.TextChoices):
        # Stored as sent, waiting for the task that makes its copies.
        WAITING = "waiting", _("en préparation")
        READY = "ready", _("prête")
        # The task could not read it after all: its upload is deleted, the admins see why.
        FAILED = "failed", _("illisible")

    album = models.ForeignKey(Album, on_delete=models.CASCADE, related_name="photos")
    caption = models.CharField(_("légende"), max_length=200, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    # The file as the phone sent it, never served; emptied once the copies are made.
    upload_name = models.CharField(max_length=200, blank=True)
    # Cleaned copies (upright, no EXIF): full size, a phone's screen, a thumbnail.
    full_name = models.CharField(max_length=200, blank=True)
    phone_name = models.CharField(max_length=200, blank=True)
    thumb_name = models.CharField(max_length=200, blank=True)
    width = models.PositiveIntegerField(default=0)
    height = models.PositiveIntegerField(default=0)
    phone_width = models.PositiveIntegerField(default=0)
    phone_height = models.PositiveIntegerField(default=0)
    thumb_width = models.PositiveIntegerField(default=0)
    thumb_height = models.PositiveIntegerField(default=0)
    # What its files take in the storage now (the upload while it waits, then the copies).
    bytes = models.PositiveBigIntegerField(default=0)
    uploaded_at = models.DateTimeField(auto_now_add=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # A member asked for it to be taken down: hidden until an admin keeps or removes it.
    takedown_asked_at = models.DateTimeField(null=True, blank=True)
    takedown_asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    takedown_note = models.CharField(max_length=500, blank=True)
    # When the admins were told of the latest request (the e-mail claimed once).
    takedown_told_at = models.DateTimeField(null=True, blank=True)

    objects = PhotoQuerySet.as_manager()

    class Meta:
        ordering = ["uploaded_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(status="ready") | ~Q(thumb_name=""), name="photo_ready_has_copies"
            )
        ]

    def __str__(self) -> str:
        return self.caption or f"photo {self.pk}"

    @property
    def hidden(self) -> bool:
        return self.takedown_asked_at is not None

    def stored_names(self) -> list[str]:
        """Every file of the photo in the storage."""
        names = [self.upload_name, self.full_name, self.phone_name, self.thumb_name]
        # A small photo's phone copy is its full-size file (one name for both).
        return list(dict.fromkeys(name for name in names if name))
