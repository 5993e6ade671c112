"""The Belgian whist deal form and its line on the score sheet."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from infra.typography import colon, named
from scoring.engine.errors import EngineError
from scoring.engine.games.belgian_whist import CONTRACTS, PASS, contract_made

from ..labels import CONTRACT_CODES, CONTRACT_LABELS, contract_code_lazy
from .base import TRICK_CHOICES, TRICKS, Choices, DealForm, tricks_words

# scoring-rules.md §1.1, FR column.
# Contracts whose name on the sheet carries the bid ("Emballage 9"); the others' bid is fixed
# by the contract itself (Solo chelem is 13).
BID_IN_NAME = {"emballage", "solo", "abondance", "trou"}


class BelgianWhistDealForm(DealForm):
    game = "belgian_whist"
    template_name = "games/dealform/belgian_whist.html"

    def add_fields(self) -> None:
        # What the table offers, per contract, in the order of §1.1.
        self.contracts: dict[str, dict[str, Any]] = {}
        for code in CONTRACTS:
            rows = [row for row in self.point_table.rows.values() if row.contract == code]
            if not rows:
                continue
            only = self.point_table.only_row.get(code)
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
            choices=Choices(
                [
                    *((code, CONTRACT_LABELS[code]) for code in self.contracts),
                    (PASS, CONTRACT_LABELS[PASS]),
                ]
            ),
            widget=forms.RadioSelect,
            error_messages={"required": _("Choisissez le contrat.")},
        )
        self.fields["bid"] = forms.TypedChoiceField(
            label=_("Enchère"),
            choices=Choices([("", "—"), *((bid, str(bid)) for bid in bids)]),
            coerce=int,
            empty_value=None,
            required=False,
        )
        # At a table of 5 every seat is offered: the engine knows who the mort is and says so.
        self.fields["declarers"] = forms.MultipleChoiceField(
            label=_("Déclarants"),
            choices=Choices(self.seats),
            widget=forms.CheckboxSelectMultiple,
            required=False,
        )
        self.fields["tricks"] = forms.TypedChoiceField(
            label=_("Plis des déclarants"),
            choices=TRICK_CHOICES,
            coerce=int,
            empty_value=None,
            required=False,
            # dealform.js shows the counts as one row of buttons: one tap.
            widget=forms.Select(attrs={"data-chips": "tricks"}),
        )
        for seat, name in self.seats:
            # A misère's tricks are buttons too (dealform.js): one tap per declarer.
            self.fields[f"tricks_{seat}"] = forms.IntegerField(
                label=name,
                min_value=0,
                max_value=TRICKS,
                required=False,
                widget=forms.Select(choices=TRICK_CHOICES, attrs={"data-chips": "tricks"}),
            )
        # Kept so that correcting a deal that names its dealer does not drop him.
        self.fields["dealer"] = forms.ChoiceField(
            choices=Choices([("", ""), *self.seats]), required=False, widget=forms.HiddenInput
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
                        named(gettext("Indiquez les plis de %(name)s."), name=self.names[seat]),
                    )
        elif data.get("tricks") is None and "tricks" not in self.errors:
            self.add_error("tricks", gettext("Choisissez le nombre de plis."))

    def unused_fields(self) -> set[str]:
        contract = self.cleaned_data.get("contract")
        if contract is None:
            return set()
        each = {f"tricks_{seat}" for seat, _name in self.seats}
        if contract == PASS:
            return {"bid", "declarers", "tricks", *each}
        info = self.contracts[contract]
        unused = set() if info["bids"] else {"bid"}
        if info["side"] == "each":
            ticked = set(self.cleaned_data.get("declarers") or ())
            return unused | {"tricks"} | {f"tricks_{seat}" for seat in ticked ^ set(self.names)}
        return unused | each

    def contract_words(self) -> str:
        contract = self.cleaned_data.get("contract")
        if contract is None:
            return ""
        title = str(CONTRACT_LABELS.get(contract, contract))
        bid = self.cleaned_data.get("bid")
        if contract in BID_IN_NAME and bid is not None:
            title = f"{title} {bid}"
        return title

    def field_words(self, name: str) -> str:
        if name.startswith("tricks_"):
            return named(gettext("plis de %(name)s"), name=self.names.get(name[7:], name[7:]))
        return super().field_words(name)

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
            code: {
                "side": info["side"],
                "bids": info["bids"],
                # The chips' names ("E8", "S6", "PM"): one tap picks contract and bid.
                "short": str(CONTRACT_SHORT.get(code, code)),
                "bidInName": code in BID_IN_NAME,
            }
            for code, info in self.contracts.items()
        }
        config[PASS] = {"side": None, "bids": [], "short": str(CONTRACT_SHORT[PASS])}
        return json.dumps(config)

    @property
    def each_tricks_fields(self) -> list[tuple[str, forms.BoundField]]:
        return self.seat_fields("tricks_{seat}")

    # Drawn by the server as dealform.js will show them (its one-tap buttons, the parts the
    # chosen contract does not use folded): nothing on the score sheet moves when it runs.

    @property
    def calls(self) -> list[tuple[str, str]]:
        """The buttons that pick contract and bid in one tap: ("E8", "emballage:8"), as
        dealform.js names them from ``contract_config``."""
        calls = []
        for code, info in json.loads(self.contract_config).items():
            bids = info["bids"]
            if len(bids) > 1:
                calls += [(f"{info['short']}{bid}", f"{code}:{bid}") for bid in bids]
                continue
            only = str(bids[0]) if len(bids) == 1 else ""
            calls.append(
                (info["short"] + (only if info.get("bidInName") else ""), f"{code}:{only}")
            )
        return calls

    @property
    def folded_parts(self) -> dict[str, bool]:
        """The parts dealform.js hides for the contract the form holds (none chosen: all but
        the buttons); the bid's list always (the buttons carry it)."""
        code = self["contract"].value()
        side = self.contracts[code]["side"] if code in self.contracts else None
        return {
            "bid": True,
            "declarers": not side,
            "tricks": side not in ("pair", "solo"),
            "each_tricks": side != "each",
        }

    @property
    def declared_seats(self) -> set[str]:
        """The seats ticked as declarers: only theirs of a misère's tricks rows show."""
        return {str(seat) for seat in self["declarers"].value() or ()}


def describe_belgian_whist(data: Mapping[str, Any], name: Callable[[Any], str]) -> str:
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
        return f"{title} — {who}{colon()} {tricks_words(tricks)}"
    return f"{title} — {who}"


# The contract's short code on the phone's grid ("E8 ✓9"), in the reader's language
# (``games.labels.CONTRACT_CODES``: "V8" on a Dutch page).
CONTRACT_SHORT = {contract: contract_code_lazy(contract) for contract in CONTRACT_CODES["fr"]}


def contract_short(contract: str, bid: Any) -> str:
    """ "E8", "S6", "PM": what a chip of the deal form and a row of the grid say."""
    code = str(CONTRACT_SHORT.get(contract, contract))
    if contract in BID_IN_NAME and bid is not None:
        return f"{code}{bid}"
    return code


def short_belgian_whist(data: Mapping[str, Any], point_table: Any) -> tuple[str, dict[str, str]]:
    """One grid row: "E8 ✓9", "S6 ✗5", "PM 2/2", and each declarer's cell marked."""
    contract = data.get("contract")
    if contract == PASS:
        return str(CONTRACT_SHORT[PASS]), {}
    declarers = [str(seat) for seat in data.get("declarers") or ()]
    marks = dict.fromkeys(declarers, "decl")
    code = contract_short(contract, data.get("bid"))
    tricks = data.get("tricks")
    try:
        made = [contract_made(point_table, data, seat) for seat in declarers]
    except EngineError:  # a deal the table, revised since, cannot read: no verdict
        return code, marks
    if isinstance(tricks, Mapping):
        return f"{code} {sum(made)}/{len(made)}", marks
    if isinstance(tricks, int) and made:
        return f"{code} {'✓' if made[0] else '✗'}{tricks}", marks
    return code, marks
