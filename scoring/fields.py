"""Exact tournament points in the database.

Shared places give fractions (two tied third → ½, three tied … → 4/3): they are stored exactly,
as text "n/d", and read back as ``Fraction``. Ordering never uses this column — standings are
ranked by the engine and stored with their rank.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models


@lru_cache(maxsize=1024)
def fraction_of(text: str) -> Fraction:
    """A stored fraction read from its text ("4/3"). A season's thousands of standings hold a
    handful of distinct values: each is parsed once."""
    return Fraction(text)


class FractionField(models.CharField):
    description = "An exact fraction"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 40)
        kwargs.setdefault("default", "0")
        super().__init__(*args, **kwargs)

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> Fraction | None:
        return None if value is None else Fraction(value)

    def to_python(self, value: Any) -> Fraction | None:
        if value is None or isinstance(value, Fraction):
            return value
        try:
            return Fraction(value)
        except (TypeError, ValueError, ZeroDivisionError):
            raise ValidationError(f"{value!r} is not a fraction such as 4/3") from None

    def get_prep_value(self, value: Any) -> str | None:
        value = self.to_python(value)
        return None if value is None else str(value)

    def value_to_string(self, obj: models.Model) -> str:
        return str(self.value_from_object(obj))


# Tournament points are shared by tied players (at most 7, hearts' largest table), so every
# stored value is a whole number of 1/420 points (420 = lcm(1 … 7)), and so is any sum.
POINT_UNITS = 420


class PointUnitsField(models.BigIntegerField):
    """A copy of a ``FractionField`` in whole 1/``POINT_UNITS`` points, written with every save
    (bulk ones too), so that the database can sum and compare tournament points exactly.
    Read-only for code: it follows the field it copies."""

    description = "Tournament points in whole units"

    def __init__(self, *args: Any, source: str = "tournament_points", **kwargs: Any) -> None:
        self.source = source
        kwargs.setdefault("default", 0)
        kwargs.setdefault("editable", False)
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        name, path, args, kwargs = super().deconstruct()
        if self.source != "tournament_points":
            kwargs["source"] = self.source
        kwargs.pop("editable", None)
        return name, path, args, kwargs

    def pre_save(self, model_instance: models.Model, add: bool) -> int:
        value = units_of(Fraction(getattr(model_instance, self.source)))
        setattr(model_instance, self.attname, value)
        return value


def units_of(points: Fraction) -> int:
    units = points * POINT_UNITS
    if units.denominator != 1:
        raise ValueError(f"{points} tournament points are not a whole number of 1/{POINT_UNITS}")
    return units.numerator
