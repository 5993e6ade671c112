"""The ranking rules as a club admin or a federation admin sets them for a season: its name
and dates, the best N nights, the minimum, and the order of the criteria. A club's season form
and a federation's add what is theirs (guests, point table; game, nights counted)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.engine.ranking import SEASON_METRICS

METRIC_LABELS = {
    "tournament_points": gettext_lazy("Points de tournoi"),
    "game_points": gettext_lazy("Points de jeu"),
    "tournaments_won": gettext_lazy("Soirées gagnées"),
    "tournaments_played": gettext_lazy("Soirées jouées"),
}
DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class RankingRulesForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Nom"), max_length=40)
    start = forms.DateField(label=gettext_lazy("Début"), widget=DATE)
    end = forms.DateField(label=gettext_lazy("Fin"), widget=DATE)
    ranking_best_n = forms.IntegerField(
        label=gettext_lazy("Meilleures soirées retenues"),
        min_value=1,
        required=False,
        help_text=gettext_lazy("Vide : toutes les soirées comptent."),
    )
    ranking_min_tournaments = forms.IntegerField(
        label=gettext_lazy("Soirées minimum pour être classé"), min_value=0, required=False
    )
    precedence_1 = forms.ChoiceField(label=gettext_lazy("Classés d'abord par"))
    precedence_2 = forms.ChoiceField(label=gettext_lazy("puis, à égalité, par"), required=False)
    precedence_3 = forms.ChoiceField(label=gettext_lazy("puis par"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        metrics = [(m, METRIC_LABELS[m]) for m in SEASON_METRICS]
        self.fields["precedence_1"].choices = metrics
        for name in ("precedence_2", "precedence_3"):
            self.fields[name].choices = [("", "—"), *metrics]

    @staticmethod
    def precedence_initial(precedence: list[str] | tuple[str, ...]) -> dict[str, str]:
        """The three criteria's choices for a stored order (the unused ones empty)."""
        chosen = [*precedence, "", ""]
        return {f"precedence_{n}": chosen[n - 1] for n in (1, 2, 3)}

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen = [data.get(f"precedence_{n}") for n in (1, 2, 3)]
        chosen = [c for c in chosen if c]
        if len(set(chosen)) != len(chosen):
            raise ValidationError(_("Chaque critère ne compte qu'une fois."))
        data["ranking_precedence"] = chosen
        return data
