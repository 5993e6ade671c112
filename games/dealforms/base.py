"""The deal form every game's form extends: seats, penalties, rendering; and the helpers the
games share."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.template.loader import render_to_string
from django.utils.choices import BaseChoiceIterator
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from scoring.engine.parsing import MAX_PENALTY

# Penalties are rare: two rows are enough on the phone (a deal being corrected gets more rows
# when it already has more penalties).
PENALTY_ROWS = 2
TRICKS = 13


class Choices(BaseChoiceIterator):
    """A field's choices as plain (value, label) pairs, taken by Django as they are: a list
    is normalised again, pair by pair, by each field and each widget of each form made, and
    that was most of making a deal form (one per deal recorded)."""

    def __init__(self, pairs: Iterable[tuple[Any, Any]]) -> None:
        self.pairs = list(pairs)

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        return iter(self.pairs)

    def __len__(self) -> int:
        return len(self.pairs)


TRICK_CHOICES = Choices([("", "—"), *((t, str(t)) for t in range(TRICKS + 1))])


def number_input(**attrs: Any) -> forms.NumberInput:
    return forms.NumberInput(attrs={"inputmode": "numeric", "class": "num", **attrs})


def tricks_words(count: int) -> str:
    return ngettext("%(count)d pli", "%(count)d plis", count) % {"count": count}


# Django's refusals of a number field, said again in the site's words (DealForm._say_bounds).
BOUND_CODES = frozenset({"min_value", "max_value", "invalid", "invalid_choice"})


def _bounds(field: forms.Field | None) -> tuple[int | None, int | None]:
    """The range of a number field, or of a list of numbers (the tricks: 0 … 13)."""
    if isinstance(field, forms.IntegerField):
        return field.min_value, field.max_value
    if isinstance(field, forms.TypedChoiceField) and field.coerce is int:
        values = [int(value) for value, _label in field.choices if str(value).isdigit()]
        if values:
            return min(values), max(values)
    return None, None


def one_name(value: Any) -> str:
    # The engine takes a name or a list of names; the form records one player.
    if isinstance(value, list):
        return str(value[0]) if value else ""
    return "" if value is None else str(value)


class DealForm(forms.Form):
    """One deal of a poule. Subclasses add their game's fields and build the deal JSON."""

    game = ""

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        *,
        seats: Sequence[tuple[int, str]],
        point_table: Any,
        initial_deal: dict[str, Any] | None = None,
        prefix: str | None = None,
    ) -> None:
        self.seats = [(str(number), name) for number, name in seats]
        self.names = dict(self.seats)
        self.point_table = point_table
        self.initial_deal = initial_deal or {}
        initial = self.initial_from(self.initial_deal) if initial_deal else {}
        penalties = self.initial_deal.get("penalties") or []
        for index, penalty in enumerate(penalties):
            initial[f"penalty_{index}_player"] = str(penalty.get("player", ""))
            initial[f"penalty_{index}_points"] = penalty.get("points")
        super().__init__(data, initial=initial, prefix=prefix)
        self.add_fields()
        self.penalty_count = max(PENALTY_ROWS, len(penalties))
        while data is not None and self.add_prefix(f"penalty_{self.penalty_count}_player") in data:
            self.penalty_count += 1
        for index in range(self.penalty_count):
            self.fields[f"penalty_{index}_player"] = forms.ChoiceField(
                label=_("Joueur"), choices=Choices([("", "—"), *self.seats]), required=False
            )
            self.fields[f"penalty_{index}_points"] = forms.IntegerField(
                label=_("Points"),
                min_value=0,
                max_value=MAX_PENALTY,
                required=False,
                widget=number_input(),
            )

    # -- what each game provides

    def add_fields(self) -> None:
        raise NotImplementedError

    def initial_from(self, deal: Mapping[str, Any]) -> dict[str, Any]:
        """The fields' initial values for a stored deal (penalties are the base class's)."""
        raise NotImplementedError

    def clean_deal(self) -> None:
        """The shape checks: add an error to each field the deal needs and lacks."""

    def unused_fields(self) -> set[str]:
        """The fields the deal as chosen does not read (a misère's tricks when the scorer
        picked a solo): whatever they hold is ignored, never refused."""
        return set()

    def contract_words(self) -> str:
        """The chosen contract as the club says it ("Petite misère"), for the refusals."""
        return ""

    def field_words(self, name: str) -> str:
        """Whose or what a field is, for the refusals: the player a number belongs to."""
        return str(self.fields[name].label or "")

    def build_deal(self) -> dict[str, Any]:
        raise NotImplementedError

    # -- shared

    def render(self, template_name=None, context=None, renderer=None) -> SafeString:
        """``{{ form }}`` renders the game's fragment. It lives in the project's templates/,
        which Django's default form renderer does not search, so the site's engine renders it."""
        if template_name is None and renderer is None:
            return mark_safe(render_to_string(self.template_name, context or self.get_context()))
        return super().render(template_name, context, renderer)

    __str__ = render
    __html__ = render

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        for name in self.unused_fields():
            self._errors.pop(name, None)
            cleaned.pop(name, None)
        self._say_bounds()
        self.clean_deal()
        for index in range(self.penalty_count):
            player_field, points_field = f"penalty_{index}_player", f"penalty_{index}_points"
            if points_field in self.errors:
                continue
            player, points = cleaned.get(player_field), cleaned.get(points_field)
            if player and points is None:
                self.add_error(points_field, gettext("Indiquez les points de la pénalité."))
            elif points is not None and not player:
                self.add_error(player_field, gettext("Choisissez le joueur pénalisé."))
        return cleaned

    def _say_bounds(self) -> None:
        """A number out of its range, or not a number, said in the site's words with the
        contract and the player it belongs to, not as Django's generic sentence."""
        for name, errors in list(self._errors.items()):
            field = self.fields.get(name)
            low, high = _bounds(field)
            if name == NON_FIELD_ERRORS or (
                low is None and not isinstance(field, forms.IntegerField)
            ):
                continue
            if not any(e.code in BOUND_CODES for e in errors.as_data()):
                continue
            got = str(self.data.get(self.add_prefix(name), ""))[:12]
            whose = ", ".join(
                part for part in (self.contract_words(), self.field_words(name)) if part
            )
            if low is not None and high is not None:
                text = gettext("%(whose)s : %(got)s ? C'est un nombre de %(low)s à %(high)s.")
            else:
                text = gettext("%(whose)s : %(got)s ? C'est un nombre entier.")
            self._errors[name] = self.error_class(
                [text % {"whose": whose, "got": got, "low": low, "high": high}],
                renderer=self.renderer,
            )

    def deal_data(self) -> dict[str, Any]:
        """The deal JSON; only after ``is_valid()``."""
        deal = self.build_deal()
        penalties = [
            {"player": player, "points": points}
            for player, points in (
                (
                    self.cleaned_data.get(f"penalty_{index}_player"),
                    self.cleaned_data.get(f"penalty_{index}_points"),
                )
                for index in range(self.penalty_count)
            )
            if player and points is not None
        ]
        if penalties:
            deal["penalties"] = penalties
        return deal

    @property
    def penalty_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [
            (self[f"penalty_{index}_player"], self[f"penalty_{index}_points"])
            for index in range(self.penalty_count)
        ]

    @property
    def has_penalties(self) -> bool:
        """Open the penalties on the page: the deal has some, or the scorer typed some."""
        return any(
            bound.value() not in (None, "") or bound.errors
            for row in self.penalty_rows
            for bound in row
        )

    def seat_fields(self, pattern: str) -> list[tuple[str, forms.BoundField]]:
        return [(seat, self[pattern.format(seat=seat)]) for seat, _name in self.seats]


def deal_post_data(form: DealForm) -> dict[str, str | list[str]]:
    """What the browser posts for an unbound form left as it opened (a stored deal's form
    saved untouched): for tests, benchmarks and scripts that drive the score sheet."""
    data: dict[str, str | list[str]] = {}
    for bound in form:
        value = bound.value()
        if value is None or value == "" or value is False or value == []:
            continue
        if value is True:
            data[bound.html_name] = "on"
        elif isinstance(value, list):
            data[bound.html_name] = [str(v) for v in value]
        else:
            data[bound.html_name] = str(value)
    return data
