"""The calendar's forms: a night or a weekly series planned by the club admin, a planned night
changed, a member's answer (with a comment and guests) and the one the secretary records for
a member, and the club's calendar settings."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.dates import MONTHS
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from club.models import Club, Membership, Player
from club.name_order import by_name

from ..labels import rules_choices
from ..models import ClubCalendar, DrawMethod, PlannedNight, Reply
from .models import COMMENT_MAX_LENGTH, MAX_GUESTS
from .planning import NightPlan

WEEKDAYS = [
    (0, _("lundi")),
    (1, _("mardi")),
    (2, _("mercredi")),
    (3, _("jeudi")),
    (4, _("vendredi")),
    (5, _("samedi")),
    (6, _("dimanche")),
]
# The club's season: September to June, the summer off.
SEASON_MONTHS = [9, 10, 11, 12, 1, 2, 3, 4, 5, 6]
ISO_DATE = {"type": "date"}


class NightPlanForm(forms.Form):
    """What a planned night is: shared by a single night and a series."""

    start = forms.TimeField(
        label=_("Heure"), widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )
    name = forms.CharField(label=_("Nom (facultatif)"), max_length=120, required=False)
    place = forms.CharField(label=_("Lieu"), max_length=200, required=False)
    rules = forms.ChoiceField(label=_("Jeu et tableau des points"))
    rounds = forms.IntegerField(label=_("Nombre de tours"), min_value=1, max_value=10)
    draw_method = forms.ChoiceField(
        label=_("Tirage des tours 2 et suivants"), choices=DrawMethod.choices
    )
    cap = forms.IntegerField(
        label=_("Places (vide : sans limite)"), min_value=4, max_value=400, required=False
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        initial = {
            "start": datetime.time(20, 0),
            "place": club.contact_address,
            "rules": club.default_rules,
            "rounds": club.rounds_per_night,
            "draw_method": DrawMethod.AVOID_REPEATS,
        }
        kwargs.setdefault("initial", {}).update(
            {k: v for k, v in initial.items() if k not in kwargs["initial"]}
        )
        super().__init__(*args, **kwargs)
        self.fields["rules"].choices = rules_choices()

    def plan(self) -> NightPlan:
        data = self.cleaned_data
        return NightPlan(
            start=data["start"],
            name=data["name"],
            place=data["place"],
            rules=data["rules"],
            rounds=data["rounds"],
            draw_method=data["draw_method"],
            cap=data["cap"],
        )


class SingleNightForm(NightPlanForm):
    date = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs=ISO_DATE, format="%Y-%m-%d")
    )
    field_order = ["date"]


class SeriesForm(NightPlanForm):
    """ "Every Friday at 20:00 from September to June, except …"."""

    weekday = forms.TypedChoiceField(label=_("Chaque"), choices=WEEKDAYS, coerce=int)
    first = forms.DateField(
        label=_("Du"), widget=forms.DateInput(attrs=ISO_DATE, format="%Y-%m-%d")
    )
    last = forms.DateField(label=_("Au"), widget=forms.DateInput(attrs=ISO_DATE, format="%Y-%m-%d"))
    months = forms.TypedMultipleChoiceField(
        label=_("Mois"),
        choices=[(m, MONTHS[m]) for m in range(1, 13)],
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
    )
    exceptions = forms.CharField(
        label=_("Sauf les (dates séparées par des virgules, AAAA-MM-JJ)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    field_order = ["weekday", "first", "last", "months", "exceptions"]

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {}).setdefault("weekday", 4)
        kwargs["initial"].setdefault("months", SEASON_MONTHS)
        super().__init__(*args, club=club, **kwargs)

    def clean_exceptions(self) -> list[datetime.date]:
        dates = []
        for word in self.cleaned_data["exceptions"].replace(";", ",").split(","):
            if not word.strip():
                continue
            try:
                dates.append(datetime.date.fromisoformat(word.strip()))
            except ValueError:
                raise forms.ValidationError(
                    _("« %(word)s » n'est pas une date (AAAA-MM-JJ).") % {"word": word.strip()}
                ) from None
        return dates


class ClubCalendarForm(forms.ModelForm):
    class Meta:
        model = ClubCalendar
        fields = ["reminders", "reminder_days", "deadline_hours"]


class NightChangeForm(forms.ModelForm):
    """A planned night moved, or given another place or number of places."""

    class Meta:
        model = PlannedNight
        fields = ["date", "start", "place", "cap"]
        widgets = {
            "date": forms.DateInput(attrs=ISO_DATE, format="%Y-%m-%d"),
            "start": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }


GUESTS_TOO_MANY = ngettext_lazy(
    "Au plus %(limit_value)s invité par réponse.",
    "Au plus %(limit_value)s invités par réponse.",
    "limit_value",
)


class ReplyForm(forms.Form):
    """An answer with, if said, a word for the secretary and the guests a yes brings. A field
    the page did not send (``None`` in ``extras``) leaves what was said before."""

    answer = forms.ChoiceField(label=_("Réponse"), choices=Reply.Answer.choices)
    comment = forms.CharField(
        label=_("Un mot pour le club (facultatif)"),
        max_length=COMMENT_MAX_LENGTH,
        required=False,
    )
    guests = forms.IntegerField(
        label=_("Invités (avec un oui)"),
        min_value=0,
        max_value=MAX_GUESTS,
        required=False,
        error_messages={"max_value": GUESTS_TOO_MANY},
    )

    def extras(self) -> dict[str, object]:
        """``reply_set``'s comment and guests: None for a field the page did not send."""
        return {
            name: self.cleaned_data[name] if self.add_prefix(name) in self.data else None
            for name in ("comment", "guests")
        }


class ReplyRecordForm(ReplyForm):
    """The secretary records the answer a member gave her by phone or at the bar."""

    player = forms.ModelChoiceField(
        label=_("Membre"),
        queryset=Player.objects.none(),
        error_messages={"invalid_choice": _("Choisissez un membre du club.")},
    )
    field_order = ["player", "answer", "guests", "comment"]

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = current_members(club)


def current_members(club: Club) -> QuerySet[Player]:
    return (
        Player.objects.filter(
            Membership.objects.current_q("memberships"),
            memberships__club=club,
            memberships__status=Membership.Status.ACTIVE,
        )
        .distinct()
        .order_by(*by_name(club=club))
    )
