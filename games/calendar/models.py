"""The club's calendar: nights planned ahead (alone or as a weekly series), members' replies,
the reminders sent, and each member's calendar settings.

Imported at the end of ``games.models`` so Django registers these models in the app ``games``;
they name that module's models by their app label ("games.Tournament"), never by import, so the
two modules do not import each other."""

from __future__ import annotations

import datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Count, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from club.models import RULES_CHOICES, Club, Player
from infra.name_text import NameField

CLUB_TIME_ZONE = ZoneInfo(settings.TIME_ZONE)
# A member brings a friend or two, not a team: past this, the secretary plans a night for them.
MAX_GUESTS = 3
# A word for the secretary ("je viendrai vers 21 h"), not a letter.
COMMENT_MAX_LENGTH = 200


class ClubCalendar(models.Model):
    """A club's calendar settings (its admin's): reminders and the replies' deadline. Kept in
    ``games`` beside the calendar, one row per club made on first use."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="calendar")
    reminders = models.BooleanField(_("rappels par e-mail"), default=True)
    reminder_days = models.PositiveSmallIntegerField(
        _("rappel, jours avant la soirée"),
        default=2,
        validators=[MinValueValidator(1), MaxValueValidator(14)],
    )
    # Past it, answers no longer change: the table plan is being made.
    deadline_hours = models.PositiveSmallIntegerField(
        _("réponses closes, heures avant la soirée"),
        default=2,
        validators=[MaxValueValidator(7 * 24)],
    )

    class Meta:
        verbose_name = _("calendrier du club")
        verbose_name_plural = _("calendriers des clubs")
        constraints = [
            models.CheckConstraint(
                condition=Q(reminder_days__gte=1) & Q(reminder_days__lte=14),
                name="club_calendar_reminder_days_1_to_14",
            ),
        ]

    def __str__(self) -> str:
        return str(self.club)


class MemberCalendar(models.Model):
    """A member's own calendar settings: reminders on or off, and his private feed's secret
    address (renewed by him; the old one then answers 404)."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="calendar")
    reminders = models.BooleanField(_("rappels des soirées par e-mail"), default=True)
    feed_key = models.CharField(_("clé du calendrier privé"), max_length=43, blank=True)

    class Meta:
        verbose_name = _("calendrier d'un membre")
        verbose_name_plural = _("calendriers des membres")
        constraints = [
            models.UniqueConstraint(
                fields=["feed_key"], condition=~Q(feed_key=""), name="member_feed_key_unique"
            ),
        ]

    def __str__(self) -> str:
        return str(self.player)


class PlannedSeries(models.Model):
    """A repeating night ("every Friday at 20:00 from September to June"): the rule it was
    planned with, kept so the admin sees it; its nights are rows of their own."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="planned_series")
    rule = models.CharField(_("règle de répétition"), max_length=200)
    first = models.DateField(_("du"))
    last = models.DateField(_("au"))
    months = models.JSONField(_("mois"), default=list)
    exceptions = models.JSONField(_("sauf les"), default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "first"]
        verbose_name = _("série de soirées")
        verbose_name_plural = _("séries de soirées")
        constraints = [
            models.CheckConstraint(
                condition=Q(last__gte=models.F("first")), name="series_last_after_first"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} {self.first}–{self.last}"


class PlannedNightQuerySet(models.QuerySet):
    def coming(self, today: datetime.date | None = None) -> PlannedNightQuerySet:
        today = today or datetime.date.today()
        return self.filter(date__gte=today).order_by("date", "start", "pk")

    def to_open(self) -> PlannedNightQuerySet:
        """The nights still to be started: neither cancelled nor opened at the door yet."""
        return self.filter(status=PlannedNight.Status.PLANNED, tournament__isnull=True)

    def with_counts(self) -> PlannedNightQuerySet:
        """Each night's replies counted in the same query; ``guests_count``: the guests those
        with a place bring (they take places and seats too)."""
        seated = Q(replies__answer="yes", replies__waiting=False)
        return self.annotate(
            yes_count=Count("replies", filter=seated),
            guests_count=Coalesce(Sum("replies__guests", filter=seated), 0),
            maybe_count=Count("replies", filter=Q(replies__answer="maybe")),
            no_count=Count("replies", filter=Q(replies__answer="no")),
            waiting_count=Count("replies", filter=Q(replies__waiting=True)),
        )


class PlannedNight(models.Model):
    """A night on the club's calendar. Its Tournament is made at the door (``night_open``)."""

    class Status(models.TextChoices):
        PLANNED = "planned", _("Prévue")
        CANCELLED = "cancelled", _("Annulée")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="planned_nights")
    series = models.ForeignKey(
        PlannedSeries,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="nights",
    )
    date = models.DateField(_("date"))
    start = models.TimeField(_("heure"), default=datetime.time(20, 0))
    name = NameField(_("nom"), max_length=120, blank=True)
    place = models.CharField(_("lieu"), max_length=200, blank=True)
    rules = models.CharField(
        _("tableau des points"), max_length=60, choices=RULES_CHOICES, default="rcwhist"
    )
    rounds = models.PositiveSmallIntegerField(
        _("tours"), default=3, validators=[MinValueValidator(1)]
    )
    draw_method = models.CharField(_("tirage des tours suivants"), max_length=20, blank=True)
    cap = models.PositiveSmallIntegerField(
        _("places"),
        null=True,
        blank=True,
        validators=[MinValueValidator(4)],
        help_text=_("Vide : sans limite. Au-delà, liste d'attente."),
    )
    status = models.CharField(
        _("état"), max_length=10, choices=Status.choices, default=Status.PLANNED
    )
    tournament = models.OneToOneField(
        "games.Tournament",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="planned_night",
    )
    # When its reminders were handed to the outbox: once per night.
    reminders_queued = models.DateTimeField(null=True, blank=True, editable=False)
    # How many times the secretary reminded those who had not answered: each press of the
    # button is one more, and a press sent twice (a double tap, a reload) finds it done.
    nudges = models.PositiveSmallIntegerField(default=0, editable=False)
    # Bumped at each change, so a calendar application sees the entry changed (SEQUENCE).
    sequence = models.PositiveIntegerField(default=0, editable=False)
    changed = models.DateTimeField(auto_now=True)

    objects = PlannedNightQuerySet.as_manager()

    class Meta:
        ordering = ["date", "start", "pk"]
        verbose_name = _("soirée au calendrier")
        verbose_name_plural = _("soirées au calendrier")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "date", "name"],
                name="planned_night_unique_per_club_date_name",
                violation_error_message=_("Le club a déjà une soirée de ce nom à cette date."),
            ),
            models.CheckConstraint(
                condition=Q(status__in=["planned", "cancelled"]), name="planned_night_status_known"
            ),
            models.CheckConstraint(
                condition=Q(cap__isnull=True) | Q(cap__gte=4), name="planned_night_cap_4_or_more"
            ),
        ]

    def __str__(self) -> str:
        from_name = self.name or _("Soirée")
        return f"{from_name} {self.date:%d/%m/%Y}"

    @property
    def starts_at(self) -> datetime.datetime:
        return datetime.datetime.combine(self.date, self.start, tzinfo=CLUB_TIME_ZONE)

    @property
    def is_cancelled(self) -> bool:
        return self.status == self.Status.CANCELLED


class ReplyQuerySet(models.QuerySet):
    def with_place(self) -> ReplyQuerySet:
        """Each reply with ``place``: for a yes that waits, its place in the night's line (1:
        the next to move up), in the same query."""
        ahead = (
            self.model.objects.filter(night=OuterRef("night"), waiting=True)
            .filter(
                Q(answered__lt=OuterRef("answered"))
                | Q(answered=OuterRef("answered"), pk__lt=OuterRef("pk"))
            )
            .order_by()
            .values("night")
            .annotate(count=Count("pk"))
            .values("count")
        )
        return self.annotate(place=Coalesce(Subquery(ahead), 0) + 1)


class Reply(models.Model):
    """A member's answer for one planned night, with a word for the secretary and the guests
    he brings (a yes only; each takes a place). A yes past the cap waits (``waiting``) and
    moves up by itself when a place frees (``games.calendar.reply_set``)."""

    class Answer(models.TextChoices):
        YES = "yes", _("Je viens")
        MAYBE = "maybe", _("Peut-être")
        NO = "no", _("Je ne viens pas")

    night = models.ForeignKey(PlannedNight, on_delete=models.CASCADE, related_name="replies")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="replies")
    answer = models.CharField(_("réponse"), max_length=5, choices=Answer.choices)
    comment = models.CharField(_("commentaire"), max_length=COMMENT_MAX_LENGTH, blank=True)
    guests = models.PositiveSmallIntegerField(
        _("invités"), default=0, validators=[MaxValueValidator(MAX_GUESTS)]
    )
    waiting = models.BooleanField(_("liste d'attente"), default=False)
    # When this yes was given: the waiting list's order.
    answered = models.DateTimeField(_("répondu le"))
    # Set when a waiting yes got a place and the member is to be told (once, by e-mail).
    promoted = models.DateTimeField(null=True, blank=True, editable=False)
    promoted_told = models.DateTimeField(null=True, blank=True, editable=False)

    objects = ReplyQuerySet.as_manager()

    class Meta:
        ordering = ["night", "answered", "pk"]
        verbose_name = _("réponse")
        verbose_name_plural = _("réponses")
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="reply_once_per_night"),
            models.CheckConstraint(
                condition=Q(answer__in=["yes", "maybe", "no"]), name="reply_answer_known"
            ),
            models.CheckConstraint(
                condition=Q(waiting=False) | Q(answer="yes"), name="reply_only_yes_waits"
            ),
            models.CheckConstraint(
                condition=Q(guests__lte=MAX_GUESTS) & (Q(guests=0) | Q(answer="yes")),
                name="reply_guests_with_a_yes_at_most_3",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} – {self.get_answer_display()}"


class ReminderEmail(models.Model):
    """A night's reminder sent to one member: a task run twice sends nothing twice. Round 0 is
    the reminder due the club's days before; round n, the secretary's n-th reminder to those
    who had not answered."""

    night = models.ForeignKey(PlannedNight, on_delete=models.CASCADE, related_name="reminders")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    round = models.PositiveSmallIntegerField(_("relance"), default=0)
    email = models.EmailField(_("e-mail"))
    sent_at = models.DateTimeField(_("envoyé le"), auto_now_add=True)

    class Meta:
        ordering = ["night", "player"]
        verbose_name = _("rappel envoyé")
        verbose_name_plural = _("rappels envoyés")
        constraints = [
            models.UniqueConstraint(
                fields=["night", "player", "round"], name="reminder_once_per_night_and_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.night} → {self.player}"
