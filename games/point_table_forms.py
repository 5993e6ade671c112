"""What a club admin posts on a point table's page (games/views/point_tables.py), read by a
Django form: the version the page was opened on, the Belgian whist grid's cells or another
game's values, and a formula filling one row of the grid. The page draws its own inputs (a
grid of small fields); the form reads them back and says each wrong number where it is."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import point_tables
from .models import PointTable

# The formula's fields, in the order ``grid_with_formula`` takes them, each with its name.
FORMULA = {
    "formula_row": gettext_lazy("ligne"),
    "made": gettext_lazy("réussi"),
    "per_over": gettext_lazy("par pli en plus"),
    "failed": gettext_lazy("chuté"),
    "per_under": gettext_lazy("par pli en moins"),
}


class PointsField(forms.Field):
    """A whole number as a club types it (a sign, the typographic minus "−" or "+", spaces
    around), refused with where it was typed: « Solo, 9 plis : « x » n'est pas un nombre
    entier. ». ``kept_when_absent``: a field the page did not send keeps the table's value
    (None); otherwise it is read as typed empty."""

    default_error_messages = {
        "invalid": gettext_lazy("%(what)s : « %(value)s » n'est pas un nombre entier."),
    }

    def __init__(self, *, what: str, kept_when_absent: bool = True, **kwargs: Any) -> None:
        super().__init__(required=False, label=what, **kwargs)
        self.kept_when_absent = kept_when_absent

    def to_python(self, value: Any) -> int | None:
        if value is None and self.kept_when_absent:
            return None
        typed = "" if value is None else str(value)
        try:
            return int(typed.strip().replace("−", "-").replace("+", ""))
        except ValueError:
            raise ValidationError(
                self.error_messages["invalid"],
                code="invalid",
                params={"what": self.label, "value": typed},
            ) from None


class PointTableForm(forms.Form):
    """The club's current version of a table (``current``) as posted: ``table_data()`` gives
    the table as typed, or refuses it with every wrong number in the grid's order (one per
    cell: its declarer's before its defender's), the formula's after them."""

    # The version the form was opened on (posted back with it): a save over a version that
    # has changed since is refused (``opened_on``), not silently written over the other save.
    table = forms.CharField(required=False)
    checksum = forms.CharField(required=False)

    def __init__(self, data: Any = None, *, current: PointTable) -> None:
        super().__init__(data)
        self.current = current
        self.is_grid = current.game == point_tables.GRID_GAME
        # (row index, tricks, the cell's value now) → its declarer's and defender's fields
        self.cells: dict[tuple[int, int, tuple[int, int]], tuple[str, str]] = {}
        if self.is_grid:
            for row in point_tables.grid(current.data):
                for cell in row.cells:
                    where = _("%(row)s, %(tricks)s plis") % {
                        "row": row.label,
                        "tricks": cell.tricks,
                    }
                    names = (f"d-{row.index}-{cell.tricks}", f"f-{row.index}-{cell.tricks}")
                    for name in names:
                        self.fields[name] = PointsField(what=where)
                    self.cells[(row.index, cell.tricks, (cell.declarer, cell.defender))] = names
            if self.formula_asked:
                for name, what in FORMULA.items():
                    self.fields[name] = PointsField(what=str(what), kept_when_absent=False)
        else:
            for key in point_tables.table_values(current.data):
                self.fields[f"v-{key}"] = PointsField(what=key)

    @property
    def formula_asked(self) -> bool:
        return self.is_bound and "formula" in self.data

    def opened_on(self) -> tuple[str, str]:
        """The version the page was opened on: the table's pk and checksum as posted (the
        current version's for a page not posted)."""
        posted = self.data if self.is_bound else {}
        return (
            posted.get("table") or str(self.current.pk),
            posted.get("checksum") or self.current.checksum,
        )

    def _first_refusal(self, names: tuple[str, ...]) -> str | None:
        return next((self.errors[name][0] for name in names if name in self.errors), None)

    def table_data(self) -> dict[str, Any]:
        """The table as typed (a value not sent keeps the table's), the formula applied."""
        self.is_valid()
        if not self.is_grid:
            names = tuple(f"v-{key}" for key in point_tables.table_values(self.current.data))
            problems = [self.errors[name][0] for name in names if name in self.errors]
            if problems:
                raise ValidationError(problems)
            values = {
                name.removeprefix("v-"): self.cleaned_data[name]
                for name in names
                if self.cleaned_data[name] is not None
            }
            return point_tables.values_with(self.current.data, values)
        cells, problems = {}, []
        for (index, tricks, now), names in self.cells.items():
            refused = self._first_refusal(names)
            if refused is not None:
                problems.append(refused)
                continue
            typed = [self.cleaned_data[name] for name in names]
            if typed != [None, None]:
                cells[(index, tricks)] = tuple(
                    value if value is not None else before
                    for value, before in zip(typed, now, strict=True)
                )
        if problems:
            raise ValidationError(problems)
        data = point_tables.grid_with(self.current.data, cells)
        if self.formula_asked:
            refused = self._first_refusal(tuple(FORMULA))
            if refused is not None:
                raise ValidationError(refused)
            data = point_tables.grid_with_formula(
                data, *(self.cleaned_data[name] for name in FORMULA)
            )
        return data
