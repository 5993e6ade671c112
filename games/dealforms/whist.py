"""The classic whist deal form and its line on the score sheet."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from infra.typography import colon
from scoring.engine.errors import DocumentRefused, EngineError
from scoring.engine.games.whist import poule_progress
from scoring.engine.night import parse_poule_deals
from scoring.engine.parsing import MAX_COUNT

from .base import TRICK_CHOICES, DealForm, number_input, tricks_words

# A whist deal has two teams, so at most two revoke entries.
REVOKE_ROWS = 2


def _team_code(team: Sequence[Any]) -> str:
    return "+".join(sorted((str(seat) for seat in team), key=lambda s: (len(s), s)))


class WhistDealForm(DealForm):
    game = "whist"
    template_name = "games/dealform/whist.html"

    def _teams(self) -> list[tuple[str, str]]:
        seat_codes = [seat for seat, _name in self.seats]
        if len(seat_codes) == 4:
            # The partie générale's pairings in turn (§2), each pairing's two teams side by side.
            pairs = [(0, 2), (1, 3), (0, 1), (2, 3), (0, 3), (1, 2)]
        else:  # the engine refuses the table; list every pair all the same
            count = len(seat_codes)
            pairs = [(a, b) for a in range(count) for b in range(a + 1, count)]
        return [
            (
                f"{seat_codes[a]}+{seat_codes[b]}",
                f"{self.names[seat_codes[a]]} + {self.names[seat_codes[b]]}",
            )
            for a, b in pairs
        ]

    def add_fields(self) -> None:
        teams = self._teams()
        self.team_labels = dict(teams)
        self.fields["team"] = forms.ChoiceField(
            label=_("Plis de l'équipe"), choices=teams, widget=forms.RadioSelect, required=False
        )
        self.fields["tricks"] = forms.TypedChoiceField(
            label=_("Plis"),
            choices=TRICK_CHOICES,
            coerce=int,
            empty_value=None,
            required=False,
            # dealform.js shows the counts as one row of buttons: one tap.
            widget=forms.Select(attrs={"data-chips": "tricks"}),
        )
        if self.point_table.honours is not None:
            choices = [("", gettext("Aucun"))]
            for code, label in teams:
                for count in (3, 4):
                    choices.append(
                        (
                            f"{code}:{count}",
                            gettext("%(team)s : %(count)d honneurs")
                            % {"team": label, "count": count},
                        )
                    )
            self.fields["honours"] = forms.ChoiceField(
                label=_("Honneurs"), choices=choices, required=False
            )
        if self.point_table.chante_at is not None:
            self.fields["not_played"] = forms.BooleanField(
                label=_("Non jouée (je chante)"), required=False
            )
        for index in range(REVOKE_ROWS):
            self.fields[f"revoke_{index}_team"] = forms.ChoiceField(
                label=_("Équipe"), choices=[("", "—"), *teams], required=False
            )
            self.fields[f"revoke_{index}_count"] = forms.IntegerField(
                label=_("Renonces"),
                min_value=1,
                max_value=MAX_COUNT,
                required=False,
                widget=number_input(placeholder="1"),
            )

    def initial_from(self, deal: Mapping[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {"not_played": bool(deal.get("not_played"))}
        tricks = deal.get("tricks")
        if isinstance(tricks, Mapping):
            initial["team"] = _team_code(tricks.get("team") or ())
            initial["tricks"] = tricks.get("tricks")
        honours = deal.get("honours")
        if isinstance(honours, Mapping):
            initial["honours"] = f"{_team_code(honours.get('team') or ())}:{honours.get('count')}"
        for index, revoke in enumerate((deal.get("revokes") or [])[:REVOKE_ROWS]):
            initial[f"revoke_{index}_team"] = _team_code(revoke.get("team") or ())
            initial[f"revoke_{index}_count"] = revoke.get("count")
        return initial

    def clean_deal(self) -> None:
        data = self.cleaned_data
        if data.get("not_played"):
            if not data.get("honours") and "honours" not in self.errors:
                self.add_error("honours", gettext("Indiquez l'équipe qui chante et ses honneurs."))
            return
        if not data.get("team") and "team" not in self.errors:
            self.add_error("team", gettext("Choisissez l'équipe dont vous comptez les plis."))
        if data.get("tricks") is None and "tricks" not in self.errors:
            self.add_error("tricks", gettext("Choisissez le nombre de plis."))
        for index in range(REVOKE_ROWS):
            team_field = f"revoke_{index}_team"
            if data.get(f"revoke_{index}_count") is not None and not data.get(team_field):
                self.add_error(team_field, gettext("Choisissez l'équipe qui a renoncé."))

    def build_deal(self) -> dict[str, Any]:
        data = self.cleaned_data
        not_played = bool(data.get("not_played"))
        deal: dict[str, Any] = {}
        if not not_played:
            deal["tricks"] = {"team": data["team"].split("+"), "tricks": data["tricks"]}
        if data.get("honours"):
            team, count = data["honours"].split(":")
            deal["honours"] = {"team": team.split("+"), "count": int(count)}
        revokes = [
            {
                "team": data[f"revoke_{index}_team"].split("+"),
                "count": data.get(f"revoke_{index}_count") or 1,
            }
            for index in range(REVOKE_ROWS)
            if data.get(f"revoke_{index}_team")
        ]
        # A deal not played records honours only: the engine refuses tricks and revokes there.
        if revokes and not not_played:
            deal["revokes"] = revokes
        if not_played:
            deal["not_played"] = True
        return deal

    @property
    def revoke_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [
            (self[f"revoke_{index}_team"], self[f"revoke_{index}_count"])
            for index in range(REVOKE_ROWS)
        ]

    @property
    def played_folded(self) -> bool:
        """A deal not played: dealform.js hides its tricks, and so does the server's page (it
        does not move when the script runs)."""
        return "not_played" in self.fields and bool(self["not_played"].value())

    @property
    def has_revokes(self) -> bool:
        return any(
            bound.value() not in (None, "") or bound.errors
            for row in self.revoke_rows
            for bound in row
        )


def _describe_team(team: Any, name: Callable[[Any], str]) -> str:
    return " + ".join(name(seat) for seat in team or ())


def describe_whist(data: Mapping[str, Any], name: Callable[[Any], str]) -> str:
    parts = []
    if data.get("not_played"):
        parts.append(gettext("Non jouée (je chante)"))
    tricks = data.get("tricks")
    if isinstance(tricks, Mapping):
        team = _describe_team(tricks.get("team"), name)
        parts.append(f"{team}{colon()} {tricks_words(tricks.get('tricks'))}")
    honours = data.get("honours")
    if isinstance(honours, Mapping):
        parts.append(
            gettext("honneurs %(team)s : %(count)s")
            % {"team": _describe_team(honours.get("team"), name), "count": honours.get("count")}
        )
    for revoke in data.get("revokes") or ():
        count = revoke.get("count", 1)
        parts.append(
            ngettext("%(count)d renonce %(team)s", "%(count)d renonces %(team)s", count)
            % {"count": count, "team": _describe_team(revoke.get("team"), name)}
        )
    return " · ".join(parts)


def short_whist(data: Mapping[str, Any], point_table: Any) -> tuple[str, dict[str, str]]:
    """One grid row: the counted team's tricks ("9"), honours ("H4"), revokes ("R2"); the
    counted team's cells marked. A deal not played: "♪ H4" (je chante)."""
    parts, marks = [], {}
    tricks = data.get("tricks")
    if data.get("not_played"):
        parts.append("♪")
    elif isinstance(tricks, Mapping):
        parts.append(str(tricks.get("tricks")))
        marks = {str(seat): "decl" for seat in tricks.get("team") or ()}
    honours = data.get("honours")
    if isinstance(honours, Mapping):
        parts.append(gettext("H%(count)s") % {"count": honours.get("count")})
    revokes = sum(int(revoke.get("count", 1)) for revoke in data.get("revokes") or ())
    if revokes:
        parts.append(gettext("R%(count)s") % {"count": revokes})
    return " ".join(parts), marks


def whist_progress(
    point_table: Any, deals: Sequence[Any], names: Mapping[str, str]
) -> dict[str, Any] | None:
    """Where the partie générale stands, for the sheet's header, as the engine plays it
    (``whist.poule_progress``): the partie being played (or the last one, once all three are
    finished), its two teams, the manches each has won and the current manche's score; with a
    robre table, the robres each team won and the manches of the robre being played; and the
    winners of the parties already finished. ``deals`` in playing order, with ``data``."""
    if not deals:
        return None
    seats = [str(number) for number in range(1, 5)]
    try:
        parsed = parse_poule_deals(point_table, seats, [deal.data for deal in deals])
        progress = poule_progress(point_table, parsed)
    except (DocumentRefused, EngineError):
        return None  # a sheet the table cannot read (revised since): no header rather than a 500
    partie = progress.parties[progress.current if progress.current is not None else -1]

    def label(team: Sequence[int]) -> str:
        return " + ".join(names.get(str(seat + 1), str(seat + 1)) for seat in team)

    return {
        "partie": partie.number,
        "teams": [label(partie.teams[0]), label(partie.teams[1])],
        "manches": list(partie.manches),
        "score": list(partie.score),
        "robres": list(partie.robres) if partie.robres is not None else None,
        "robre_manches": list(partie.robre_manches) if partie.robre_manches is not None else None,
        "target": point_table.target,
        "manches_to_win": point_table.manches,
        "over": progress.over,
        "finished": [
            {
                "number": done.number,
                "winner": label(done.teams[done.winner]) if done.winner is not None else None,
            }
            for done in progress.parties
            if done.finished and done is not partie
        ],
    }
