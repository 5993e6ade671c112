"""What a club that starts alone is shown: the home page's list of clubs that chose to be
listed (each with its town, game and next planned night), and a new club's checklist for its
admins (members, a first night, the calendar, the point table, the colours), each step ticked
from the club's own data. Plain data, no request; a fixed number of queries whatever the number
of clubs."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from club.models import Club, ClubSignup, Membership

from ..models import PlannedNight, PointTable, Tournament


def listed_clubs(today: datetime.date, now: datetime.time | None = None) -> list[Club]:
    """The clubs on the home page's list, by name, each with its seasons and its next night
    on the calendar (``next_night_date``, ``next_night_start``; None: none planned): two
    queries. A closed club is gone from it (club.services.closing). A night that has started
    (its hour passed, ``now``, or its club night opened, from the calendar or not) is no
    longer the next one: the one after it is."""
    started = Tournament.objects.filter(club=OuterRef("club"), date=OuterRef("date")).exclude(
        status=Tournament.Status.PLANNED
    )
    later_today = Q(date=today, start__gt=now) if now is not None else Q(date=today)
    coming = (
        PlannedNight.objects.filter(
            Q(date__gt=today) | later_today,
            club=OuterRef("pk"),
            status=PlannedNight.Status.PLANNED,
            tournament__isnull=True,
        )
        .exclude(Exists(started))
        .order_by("date", "start", "pk")
    )
    return list(
        Club.objects.filter(listed=True, closing=None)
        .annotate(
            next_night_date=Subquery(coming.values("date")[:1]),
            next_night_start=Subquery(coming.values("start")[:1]),
        )
        .prefetch_related("seasons")
        .order_by("name")
    )


@dataclass(frozen=True)
class Step:
    key: str
    label: str
    done: bool
    link: str
    # The admin may tick it himself ("the preset suits us"): a button beside the link.
    confirmable: bool = False


# The room screen's colours as a new club has them.
DEFAULT_COLOURS = (
    Club._meta.get_field("colour_background").default,
    Club._meta.get_field("colour_text").default,
)


def club_checklist(club: Club) -> list[Step] | None:
    """A club's first steps, each ticked when the data says it is done, for a club that came
    by the sign-up (None for the others, which started before it, and once every step is
    done): one query."""
    current = Membership.objects.current().filter(club=OuterRef("club"))
    row = (
        ClubSignup.objects.filter(club=club)
        .annotate(
            members=Coalesce(
                Subquery(current.order_by().values("club").annotate(n=Count("pk")).values("n")[:1]),
                0,
            ),
            played=Exists(Tournament.objects.filter(club=OuterRef("club"))),
            planned=Exists(PlannedNight.objects.filter(club=OuterRef("club"))),
            own_table=Exists(PointTable.objects.filter(club=OuterRef("club"))),
        )
        .values("steps_confirmed", "members", "played", "planned", "own_table")
        .first()
    )
    if row is None:
        return None
    confirmed = set(row["steps_confirmed"] or [])
    colours = (club.colour_background, club.colour_text) != DEFAULT_COLOURS or bool(club.logo)
    slug = club.slug
    steps = [
        Step(
            "members",
            _("Ajouter les membres du club"),
            row["members"] > 1,
            reverse("members", args=[slug]),
        ),
        Step(
            "first_night",
            _("Jouer une première soirée"),
            row["played"],
            reverse("games:tournament-create", args=[slug]),
        ),
        Step(
            "calendar",
            _("Prévoir les prochaines soirées au calendrier"),
            row["planned"],
            reverse("games:calendar-manage", args=[slug]),
        ),
        Step(
            "point_table",
            _("Vérifier le tableau des points"),
            row["own_table"] or "point_table" in confirmed,
            reverse("point-table", args=[slug, club.default_rules]),
            confirmable=True,
        ),
        Step(
            "colours",
            _("Choisir les couleurs et le logo du club"),
            colours or "colours" in confirmed,
            reverse("club-settings", args=[slug]),
            confirmable=True,
        ),
    ]
    return None if all(step.done for step in steps) else steps
