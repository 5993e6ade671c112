"""The bésigue deal form and its line on the score sheet."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from infra.typography import colon
from scoring.engine.parsing import MAX_COUNT

from .base import DealForm, _number, _one_name

# scoring-rules.md §4: the combination codes, as the scorer knows them.
COMBINATION_LABELS = {
    "marriage": _("Mariage"),
    "trump_marriage": _("Mariage d'atout"),
    "four_jacks": _("Quatre valets"),
    "four_queens": _("Quatre dames"),
    "four_kings": _("Quatre rois"),
    "four_aces": _("Quatre as"),
    "four_trump_jacks": _("Quatre valets d'atout"),
    "four_trump_queens": _("Quatre dames d'atout"),
    "four_trump_kings": _("Quatre rois d'atout"),
    "four_trump_tens": _("Quatre dix d'atout"),
    "four_trump_aces": _("Quatre as d'atout"),
    "five_trump_jacks": _("Cinq valets d'atout"),
    "five_trump_queens": _("Cinq dames d'atout"),
    "five_trump_kings": _("Cinq rois d'atout"),
    "five_trump_tens": _("Cinq dix d'atout"),
    "five_trump_aces": _("Cinq as d'atout"),
    "besigue": _("Bésigue"),
    "double_besigue": _("Double bésigue"),
    "triple_besigue": _("Triple bésigue"),
    "quadruple_besigue": _("Quadruple bésigue"),
    "quintuple_besigue": _("Quintuple bésigue"),
    "quinte_majeure": _("Quinte majeure d'atout"),
    "other_quinte": _("Quinte d'une autre couleur"),
    "seven_of_trump": _("Sept d'atout"),
    "carte_blanche": _("Carte blanche"),
    "cut_guess": _("Coupe devinée"),
    "cut_24": _("Coupe de 24 cartes"),
}


class BesigueDealForm(DealForm):
    game = "besigue"
    template_name = "games/dealform/besigue.html"

    @property
    def counts_brisques(self) -> bool:
        return self.point_table.brisques != "ignored"

    def add_fields(self) -> None:
        for code in self.point_table.combinations:
            label = COMBINATION_LABELS.get(code, code)
            for seat, name in self.seats:
                self.fields[f"decl_{seat}_{code}"] = forms.IntegerField(
                    label=label,
                    min_value=0,
                    max_value=MAX_COUNT,
                    required=False,
                    widget=_number(placeholder="0", **{"aria-label": f"{label} — {name}"}),
                )
        if self.counts_brisques:
            for seat, name in self.seats:
                self.fields[f"brisques_{seat}"] = forms.IntegerField(
                    label=_("Brisques"),
                    min_value=0,
                    max_value=self.point_table.deck_brisques,
                    required=False,
                    widget=_number(
                        placeholder="0",
                        **{"aria-label": gettext("Brisques — %(name)s") % {"name": name}},
                    ),
                )
        self.fields["last_trick"] = forms.ChoiceField(
            label=_("Dernier pli"),
            choices=self.seats,
            widget=forms.RadioSelect,
            error_messages={"required": _("Choisissez qui a fait le dernier pli.")},
        )

    def initial_from(self, deal: Mapping[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {"last_trick": _one_name(deal.get("last_trick"))}
        for seat, counts in (deal.get("declarations") or {}).items():
            for code, count in counts.items():
                initial[f"decl_{seat}_{code}"] = count
        for seat, count in (deal.get("brisques") or {}).items():
            initial[f"brisques_{seat}"] = count
        return initial

    def build_deal(self) -> dict[str, Any]:
        data = self.cleaned_data
        declarations = {}
        for seat, _name in self.seats:
            counts = {
                code: data[f"decl_{seat}_{code}"]
                for code in self.point_table.combinations
                if data.get(f"decl_{seat}_{code}")
            }
            if counts:
                declarations[seat] = counts
        deal: dict[str, Any] = {"declarations": declarations}
        if self.counts_brisques:
            deal["brisques"] = {
                seat: data.get(f"brisques_{seat}") or 0 for seat, _name in self.seats
            }
        deal["last_trick"] = data["last_trick"]
        return deal

    @property
    def player_names(self) -> list[str]:
        return [name for _seat, name in self.seats]

    @property
    def combination_rows(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [
            (
                COMBINATION_LABELS.get(code, code),
                [self[f"decl_{seat}_{code}"] for seat, _name in self.seats],
            )
            for code in self.point_table.combinations
        ]

    @property
    def brisque_fields(self) -> list[forms.BoundField]:
        if not self.counts_brisques:
            return []
        return [self[f"brisques_{seat}"] for seat, _name in self.seats]


def _describe_besigue(data: Mapping[str, Any], name: Callable[[Any], str]) -> str:
    parts = []
    for seat, counts in (data.get("declarations") or {}).items():
        declared = ", ".join(
            str(COMBINATION_LABELS.get(code, code)) + (f" ×{count}" if count > 1 else "")
            for code, count in counts.items()
            if count
        )
        if declared:
            parts.append(f"{name(seat)}{colon()} {declared}")
    if not parts:
        parts.append(gettext("Aucune annonce"))
    brisques = data.get("brisques")
    if brisques:
        listed = ", ".join(f"{name(seat)} {count}" for seat, count in brisques.items())
        parts.append(gettext("brisques %(players)s") % {"players": listed})
    if data.get("last_trick"):
        parts.append(gettext("dernier pli : %(player)s") % {"player": name(data["last_trick"])})
    return " · ".join(parts)


def _short_besigue(data: Mapping[str, Any], point_table: Any) -> tuple[str, dict[str, str]]:
    """One grid row: the coup (its points are the row's cells; the declarations are in the
    details), the last trick's winner marked."""
    marks = {}
    if data.get("last_trick"):
        marks[_one_name(data["last_trick"])] = "decl"
    return gettext("Coup"), marks
