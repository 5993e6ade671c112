"""A club's news: posts written by its admins (a title, Markdown made into HTML once at save,
a date, an optional photo), drafts until published; the members who asked for them by e-mail;
and each e-mail sent, one row per post and reader, so that a post goes to each once."""

from __future__ import annotations

import datetime

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Club, Player

# A post's text, capped: a club's news item, never a 2 MB paste (refused in words).
TEXT_MAX = 20_000


class NewsPostQuerySet(models.QuerySet):
    def published(self) -> NewsPostQuerySet:
        return self.filter(status=NewsPost.Status.PUBLISHED)

    def latest_first(self) -> NewsPostQuerySet:
        return self.order_by("-date", "-pk")


class NewsPost(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Brouillon")
        PUBLISHED = "published", _("Publiée")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="news_posts")
    title = models.CharField(_("titre"), max_length=200)
    text = models.TextField(_("texte"), max_length=TEXT_MAX, blank=True)
    # ``text`` made into safe HTML when saved (clubsite.markdown): never rendered per request.
    html = models.TextField(blank=True, editable=False)
    date = models.DateField(_("date"), default=datetime.date.today)
    # The phone-sized copy, EXIF dropped (clubsite.news_photo): the one place a post's photo
    # is made, so that it can later point at an album's photo instead.
    photo = models.ImageField(_("photo"), upload_to="clubsite/news/", blank=True)
    status = models.CharField(
        _("état"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    published_at = models.DateTimeField(_("publiée le"), null=True, blank=True)
    # Asked to be e-mailed to the members who want news; set when its e-mails are queued,
    # so that publishing again (after an edit) never sends it twice.
    emailed_at = models.DateTimeField(_("envoyée par e-mail le"), null=True, blank=True)
    author = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now)
    updated = models.DateTimeField(auto_now=True)

    objects = NewsPostQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "-pk"]
        indexes = [models.Index(fields=["club", "status", "-date"], name="news_club_listed")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status="draft") | models.Q(published_at__isnull=False),
                name="news_published_has_time",
            )
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def is_published(self) -> bool:
        return self.status == self.Status.PUBLISHED


class NewsReader(models.Model):
    """A member who asked for the club's news by e-mail (off unless he asks: no row). A row of
    its own rather than a field on the membership: the club site owns it, and a member who
    leaves and comes back keeps his choice."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    since = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "player"], name="news_reader_once")]

    def __str__(self) -> str:
        return f"{self.player_id} → {self.club_id}"


class NewsEmail(models.Model):
    """A post e-mailed to one reader, claimed before it goes: a task run twice sends nothing
    twice (the unique row decides)."""

    post = models.ForeignKey(NewsPost, on_delete=models.CASCADE, related_name="emails")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    email = models.EmailField()
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["post", "player"], name="news_email_once")]

    def __str__(self) -> str:
        return f"{self.post_id} → {self.email}"
