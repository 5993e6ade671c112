"""The deal-entry forms of the score sheet: what a scorer taps on a phone ↔ the deal JSON.

One form per game turns the fields into the deal as the site stores it (night-format.md, players
named by seat number strings "1" … "5") and opens a stored deal for correction. A form checks
only the shape: what the chosen contract needs, integers. The rules (how many declarers, tricks
in range, the mort declaring, hearts adding up to 13) are the engine's: the view adds the
engine's message to the form when the service refuses the deal, so a rule is never written
twice.

Canonical output, so that a deal typed and re-opened gives back the same JSON: optional keys are
left out when empty; declarers keep the order of the deal being corrected, new ones follow in
seat order; whist teams are in seat order; hearts and brisques name every seat.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django import forms
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from scoring.engine.games.belgian_whist import CONTRACTS, PASS

# Penalties are rare: two rows are enough on the phone (a deal being corrected gets more rows
# when it already has more penalties).
PENALTY_ROWS = 2
# A whist deal has two teams, so at most two revoke entries.
REVOKE_ROWS = 2
TRICKS = 13
TRICK_CHOICES = [("", "—"), *((t, str(t)) for t in range(TRICKS + 1))]

# scoring-rules.md §1.1, FR column.
CONTRACT_LABELS = {
    "emballage": _("Emballage"),
    "solo": _("Solo"),
    "petite_misere": _("Petite misère"),
    "solo_sur_misere": _("Solo 8 sur petite misère"),
    "abondance": _("Abondance"),
    "trou": _("Trou"),
    "grande_misere": _("Grande misère"),
    "grande_misere_table": _("Grande misère sur table"),
    "petit_chelem": _("Petit solo chelem"),
    "chelem": _("Solo chelem"),
    "piccolo": _("Piccolo"),
    PASS: _("Tous passent"),
}
# Contracts whose name on the sheet carries the bid ("Emballage 9"); the others' bid is fixed
# by the contract itself (Solo chelem is 13).
BID_IN_NAME = {"emballage", "solo", "abondance", "trou"}

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


def _number(**attrs: Any) -> forms.NumberInput:
    return forms.NumberInput(attrs={"inputmode": "numeric", "class": "num", **attrs})


def _plis(count: int) -> str:
    return ngettext("%(count)d pli", "%(count)d plis", count) % {"count": count}


class DealForm(forms.Form):
    """One deal of a poule. Subclasses add their game's fields and build the deal JSON."""

    game = ""

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        *,
        seats: Sequence[tuple[int, str]],
        table: Any,
        initial_deal: dict[str, Any] | None = None,
        prefix: str | None = None,
    ) -> None:
        self.seats = [(str(number), name) for number, name in seats]
        self.names = dict(self.seats)
        self.table = table
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
                label=_("Joueur"), choices=[("", "—"), *self.seats], required=False
            )
            self.fields[f"penalty_{index}_points"] = forms.IntegerField(
                label=_("Points"), min_value=0, required=False, widget=_number()
            )

    # -- what each game provides

    def add_fields(self) -> None:
        raise NotImplementedError

    def initial_from(self, deal: Mapping[str, Any]) -> dict[str, Any]:
        """The fields' initial values for a stored deal (penalties are the base class's)."""
        raise NotImplementedError

    def clean_deal(self) -> None:
        """The shape checks: add an error to each field the deal needs and lacks."""

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


# --------------------------------------------------------------------------------------------
# Belgian whist


class BelgianWhistDealForm(DealForm):
    game = "belgian_whist"
    template_name = "games/dealform/belgian_whist.html"

    def add_fields(self) -> None:
        # What the table offers, per contract, in the order of §1.1.
        self.contracts: dict[str, dict[str, Any]] = {}
        for code in CONTRACTS:
            rows = [row for row in self.table.rows.values() if row.contract == code]
            if not rows:
                continue
            only = self.table.only_row.get(code)
            self.contracts[code] = {
                "side": rows[0].side,
                "bids": sorted(row.bid for row in rows if row.bid is not None),
                # A contract with one row needs no bid from the scorer: it is that row's.
                "bid_required": only is None,
                "default_bid": only.bid if only is not None else None,
            }
        bids = sorted({bid for info in self.contracts.values() for bid in info["bids"]})
        self.fields["contract"] = forms.ChoiceField(
            label=_("Contrat"),
            choices=[
                *((code, CONTRACT_LABELS[code]) for code in self.contracts),
                (PASS, CONTRACT_LABELS[PASS]),
            ],
            widget=forms.RadioSelect,
            error_messages={"required": _("Choisissez le contrat.")},
        )
        self.fields["bid"] = forms.TypedChoiceField(
            label=_("Enchère"),
            choices=[("", "—"), *((bid, str(bid)) for bid in bids)],
            coerce=int,
            empty_value=None,
            required=False,
        )
        # At a table of 5 every seat is offered: the engine knows who the mort is and says so.
        self.fields["declarers"] = forms.MultipleChoiceField(
            label=_("Déclarants"),
            choices=self.seats,
            widget=forms.CheckboxSelectMultiple,
            required=False,
        )
        self.fields["tricks"] = forms.TypedChoiceField(
            label=_("Plis des déclarants"),
            choices=TRICK_CHOICES,
            coerce=int,
            empty_value=None,
            required=False,
        )
        for seat, name in self.seats:
            self.fields[f"tricks_{seat}"] = forms.IntegerField(
                label=name, min_value=0, max_value=TRICKS, required=False, widget=_number()
            )
        # Kept so that correcting a deal that names its dealer does not drop him.
        self.fields["dealer"] = forms.ChoiceField(
            choices=[("", ""), *self.seats], required=False, widget=forms.HiddenInput
        )

    def initial_from(self, deal: Mapping[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "contract": deal.get("contract"),
            "bid": deal.get("bid"),
            "declarers": [str(seat) for seat in deal.get("declarers") or ()],
            "dealer": str(deal.get("dealer") or ""),
        }
        tricks = deal.get("tricks")
        if isinstance(tricks, Mapping):
            for seat, count in tricks.items():
                initial[f"tricks_{seat}"] = count
        else:
            initial["tricks"] = tricks
        return initial

    def clean_deal(self) -> None:
        data = self.cleaned_data
        contract = data.get("contract")
        if contract is None or contract == PASS:
            return
        info = self.contracts[contract]
        if info["bid_required"] and data.get("bid") is None and "bid" not in self.errors:
            self.add_error("bid", gettext("Choisissez l'enchère."))
        declarers = data.get("declarers") or []
        if not declarers and "declarers" not in self.errors:
            self.add_error("declarers", gettext("Cochez le ou les déclarants."))
        if info["side"] == "each":
            # Only the ticked declarers' counts are read: the others may hold leftovers.
            for seat in declarers:
                field = f"tricks_{seat}"
                if data.get(field) is None and field not in self.errors:
                    self.add_error(
                        field,
                        gettext("Indiquez les plis de %(name)s.") % {"name": self.names[seat]},
                    )
        elif data.get("tricks") is None and "tricks" not in self.errors:
            self.add_error("tricks", gettext("Choisissez le nombre de plis."))

    def _declarers(self) -> list[str]:
        before = [str(seat) for seat in self.initial_deal.get("declarers") or ()]
        seat_order = [seat for seat, _name in self.seats]
        ticked = self.cleaned_data.get("declarers") or []
        return sorted(
            ticked,
            key=lambda s: (before.index(s) if s in before else len(before), seat_order.index(s)),
        )

    def build_deal(self) -> dict[str, Any]:
        data = self.cleaned_data
        contract = data["contract"]
        deal: dict[str, Any] = {"contract": contract}
        if contract != PASS:
            info = self.contracts[contract]
            bid = data.get("bid") if info["bids"] else None
            if bid is None:
                bid = info["default_bid"]
            if bid is not None:
                deal["bid"] = bid
            declarers = self._declarers()
            deal["declarers"] = declarers
            if info["side"] == "each":
                deal["tricks"] = {seat: data[f"tricks_{seat}"] for seat in declarers}
            else:
                deal["tricks"] = data["tricks"]
        if data.get("dealer"):
            deal["dealer"] = data["dealer"]
        return deal

    @property
    def contract_config(self) -> str:
        """For dealform.js: per contract, its side and the bids the table has."""
        config = {
            code: {"side": info["side"], "bids": info["bids"]}
            for code, info in self.contracts.items()
        }
        config[PASS] = {"side": None, "bids": []}
        return json.dumps(config)

    @property
    def each_tricks_fields(self) -> list[tuple[str, forms.BoundField]]:
        return self.seat_fields("tricks_{seat}")


# --------------------------------------------------------------------------------------------
# Classic whist


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
            label=_("Plis"), choices=TRICK_CHOICES, coerce=int, empty_value=None, required=False
        )
        if self.table.honours is not None:
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
        if self.table.chante_at is not None:
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
                required=False,
                widget=_number(placeholder="1"),
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
    def has_revokes(self) -> bool:
        return any(
            bound.value() not in (None, "") or bound.errors
            for row in self.revoke_rows
            for bound in row
        )


# --------------------------------------------------------------------------------------------
# Hearts


def _one_name(value: Any) -> str:
    # The engine takes a name or a list of names; the form records one player.
    if isinstance(value, list):
        return str(value[0]) if value else ""
    return "" if value is None else str(value)


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


# --------------------------------------------------------------------------------------------
# Bésigue


class BesigueDealForm(DealForm):
    game = "besigue"
    template_name = "games/dealform/besigue.html"

    @property
    def counts_brisques(self) -> bool:
        return self.table.brisques != "ignored"

    def add_fields(self) -> None:
        for code in self.table.combinations:
            label = COMBINATION_LABELS.get(code, code)
            for seat, name in self.seats:
                self.fields[f"decl_{seat}_{code}"] = forms.IntegerField(
                    label=label,
                    min_value=0,
                    required=False,
                    widget=_number(placeholder="0", **{"aria-label": f"{label} — {name}"}),
                )
        if self.counts_brisques:
            for seat, name in self.seats:
                self.fields[f"brisques_{seat}"] = forms.IntegerField(
                    label=_("Brisques"),
                    min_value=0,
                    max_value=self.table.deck_brisques,
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
                for code in self.table.combinations
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
            for code in self.table.combinations
        ]

    @property
    def brisque_fields(self) -> list[forms.BoundField]:
        if not self.counts_brisques:
            return []
        return [self[f"brisques_{seat}"] for seat, _name in self.seats]


# --------------------------------------------------------------------------------------------

FORMS: dict[str, type[DealForm]] = {
    form.game: form
    for form in (BelgianWhistDealForm, WhistDealForm, HeartsDealForm, BesigueDealForm)
}


def deal_form_class(game: str) -> type[DealForm]:
    """The deal form of ``game``; ``KeyError`` for a game the site does not know."""
    return FORMS[game]


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


# --------------------------------------------------------------------------------------------
# One line per deal on the score sheet


def describe_deal(game: str, data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One short French line for the sheet: "Emballage 8 — Anne, Chloé : 9 plis"."""

    def name(seat: Any) -> str:
        return names.get(str(seat), str(seat))

    line = DESCRIBE[game](data, name)
    penalties = data.get("penalties") or []
    if penalties:
        listed = ", ".join(f"{name(p.get('player'))} {p.get('points')}" for p in penalties)
        label = ngettext("pénalité", "pénalités", len(penalties))
        line = f"{line} · {label} : {listed}"
    return line


def _describe_belgian_whist(data: Mapping[str, Any], name: Callable[[Any], str]) -> str:
    contract = data.get("contract")
    title = str(CONTRACT_LABELS.get(contract, contract))
    if contract == PASS:
        return title
    if contract in BID_IN_NAME and data.get("bid") is not None:
        title = f"{title} {data['bid']}"
    declarers = list(data.get("declarers") or ())
    tricks = data.get("tricks")
    if isinstance(tricks, Mapping):
        order = declarers + [seat for seat in tricks if seat not in declarers]
        each = ", ".join(f"{name(seat)} {tricks[seat]}" for seat in order if seat in tricks)
        return f"{title} — {each}"
    who = ", ".join(name(seat) for seat in declarers)
    if isinstance(tricks, int):
        return f"{title} — {who} : {_plis(tricks)}"
    return f"{title} — {who}"


def _describe_team(team: Any, name: Callable[[Any], str]) -> str:
    return " + ".join(name(seat) for seat in team or ())


def _describe_whist(data: Mapping[str, Any], name: Callable[[Any], str]) -> str:
    parts = []
    if data.get("not_played"):
        parts.append(gettext("Non jouée (je chante)"))
    tricks = data.get("tricks")
    if isinstance(tricks, Mapping):
        parts.append(f"{_describe_team(tricks.get('team'), name)} : {_plis(tricks.get('tricks'))}")
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


def _describe_hearts(data: Mapping[str, Any], name: Callable[[Any], str]) -> str:
    parts = []
    for key, label in (("revoke", gettext("Renonce")), ("mixed_tricks", gettext("Plis mélangés"))):
        value = data.get(key)
        if value:
            seats = value if isinstance(value, list) else [value]
            parts.append(f"{label} : {', '.join(name(seat) for seat in seats)}")
    if parts:
        return " · ".join(parts)
    hearts = data.get("hearts") or {}
    taken = ", ".join(f"{name(seat)} {count}" for seat, count in hearts.items() if count)
    queen = data.get("queen_of_spades")
    return f"{taken} · {gettext('dame de pique')} : {name(queen)}" if queen else taken


def _describe_besigue(data: Mapping[str, Any], name: Callable[[Any], str]) -> str:
    parts = []
    for seat, counts in (data.get("declarations") or {}).items():
        declared = ", ".join(
            str(COMBINATION_LABELS.get(code, code)) + (f" ×{count}" if count > 1 else "")
            for code, count in counts.items()
            if count
        )
        if declared:
            parts.append(f"{name(seat)} : {declared}")
    if not parts:
        parts.append(gettext("Aucune annonce"))
    brisques = data.get("brisques")
    if brisques:
        listed = ", ".join(f"{name(seat)} {count}" for seat, count in brisques.items())
        parts.append(f"{gettext('brisques')} {listed}")
    if data.get("last_trick"):
        parts.append(f"{gettext('dernier pli')} : {name(data['last_trick'])}")
    return " · ".join(parts)


DESCRIBE: dict[str, Callable[[Mapping[str, Any], Callable[[Any], str]], str]] = {
    "belgian_whist": _describe_belgian_whist,
    "whist": _describe_whist,
    "hearts": _describe_hearts,
    "besigue": _describe_besigue,
}
