"""The hearts deal form and its line on the score sheet."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from infra.typography import colon

from .base import TRICKS, DealForm, _number, _one_name


class HeartsDealForm(DealForm):
    game = "hearts"
    template_name = "games/dealform/hearts.html"

    def add_fields(self) -> None:
        for seat, name in self.seats:
            self.fields[f"hearts_{seat}"] = forms.IntegerField(
                label=name,
                min_value=0,
                max_value=TRICKS,
                required=False,
                widget=_number(placeholder="0"),
            )
        self.fields["queen_of_spades"] = forms.ChoiceField(
            label=_("Dame de pique ♠"), choices=self.seats, widget=forms.RadioSelect, required=False
        )
        self.fields["revoke"] = forms.ChoiceField(
            label=_("Renonce"), choices=[("", "—"), *self.seats], required=False
        )
        self.fields["mixed_tricks"] = forms.ChoiceField(
            label=_("Plis mélangés"), choices=[("", "—"), *self.seats], required=False
        )

    def initial_from(self, deal: Mapping[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "queen_of_spades": _one_name(deal.get("queen_of_spades")),
            "revoke": _one_name(deal.get("revoke")),
            "mixed_tricks": _one_name(deal.get("mixed_tricks")),
        }
        hearts = deal.get("hearts")
        if isinstance(hearts, Mapping):
            for seat, count in hearts.items():
                initial[f"hearts_{seat}"] = count
        return initial

    def _stopped(self) -> bool:
        # A revoke or mixed tricks stop the deal: no hearts nor queen are needed then.
        return bool(self.cleaned_data.get("revoke") or self.cleaned_data.get("mixed_tricks"))

    def clean_deal(self) -> None:
        if not self._stopped() and not self.cleaned_data.get("queen_of_spades"):
            self.add_error("queen_of_spades", gettext("Choisissez qui a pris la dame de pique."))

    def build_deal(self) -> dict[str, Any]:
        data = self.cleaned_data
        # A blank count is 0, as on the paper sheet.
        hearts = {seat: data.get(f"hearts_{seat}") or 0 for seat, _name in self.seats}
        deal: dict[str, Any] = {}
        if not self._stopped() or any(hearts.values()):
            deal["hearts"] = hearts
        for key in ("queen_of_spades", "revoke", "mixed_tricks"):
            if data.get(key):
                deal[key] = data[key]
        return deal

    @property
    def hearts_fields(self) -> list[tuple[str, forms.BoundField]]:
        return self.seat_fields("hearts_{seat}")

    @property
    def has_offenders(self) -> bool:
        return any(self[key].value() or self[key].errors for key in ("revoke", "mixed_tricks"))


def _describe_hearts(data: Mapping[str, Any], name: Callable[[Any], str]) -> str:
    parts = []
    for key, label in (("revoke", gettext("Renonce")), ("mixed_tricks", gettext("Plis mélangés"))):
        value = data.get(key)
        if value:
            seats = value if isinstance(value, list) else [value]
            parts.append(f"{label}{colon()} {', '.join(name(seat) for seat in seats)}")
    if parts:
        return " · ".join(parts)
    hearts = data.get("hearts") or {}
    taken = ", ".join(f"{name(seat)} {count}" for seat, count in hearts.items() if count)
    queen = data.get("queen_of_spades")
    if not queen:
        return taken
    return f"{taken} · " + gettext("dame de pique : %(player)s") % {"player": name(queen)}


def _short_hearts(data: Mapping[str, Any], point_table: Any) -> tuple[str, dict[str, str]]:
    """One grid row: "♥" and the queen of spades' taker marked in his cell ("♥ Q♠"); a revoke
    or mixed tricks say so, their offender marked."""
    marks: dict[str, str] = {}
    for key, code in (("revoke", gettext("Ren.")), ("mixed_tricks", gettext("Mél."))):
        value = data.get(key)
        if value:
            for seat in value if isinstance(value, list) else [value]:
                marks[str(seat)] = "decl"
            return f"♥ {code}", marks
    queen = data.get("queen_of_spades")
    if queen:
        marks[_one_name(queen)] = "queen"
    return "♥ Q♠" if queen else "♥", marks
