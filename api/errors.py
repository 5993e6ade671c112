"""Errors as JSON: DRF's own, plus what the services refuse in words (Django's
``ValidationError``: 400, or 409 when the sheet changed meanwhile or the table is complete)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.http import Http404
from rest_framework.exceptions import NotFound
from rest_framework.exceptions import ValidationError as BodyRefused
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.views.problems import refusal_texts
from scoring.services import DealConflict

# A refusal that is about the state of the sheet, not about what was sent.
CONFLICT_CODES = {
    "poule_complete",
    "sheet_changed",
    "deal_changed",
    "deal_gone",
    "deal_removed",
    "not_last",
    "key_reused",
    "night_exists",
}


def _codes(error: ValidationError) -> list[str | None]:
    if hasattr(error, "error_list"):
        return [item.code for item in error.error_list]
    return [None]


def refusal(error: ValidationError, names: Mapping[str, str] | None = None) -> Response:
    """A service's refusal: each problem with its code, its place (for the engine's) and its
    words in the request's language, seats named as the sheet names them."""
    names = names or {}
    texts = refusal_texts(error, names)
    problems: list[dict[str, Any]] = []
    items = error.error_list if hasattr(error, "error_list") else []
    for index, text in enumerate(texts):
        item = items[index] if index < len(items) else None
        params = (item.params or {}) if item is not None else {}
        problems.append(
            {
                "code": (item.code if item is not None else None) or "refused",
                "place": params.get("place", ""),
                "message": text,
            }
        )
    conflict = isinstance(error, DealConflict) or any(c in CONFLICT_CODES for c in _codes(error))
    return Response(
        {"detail": " ".join(texts), "problems": problems}, status=409 if conflict else 400
    )


def _located(detail: Any, place: str = "") -> list[dict[str, Any]]:
    """DRF's errors of a request body, each with its place (``deal``, ``seen``, ``[0]``)."""
    if isinstance(detail, Mapping):
        found = []
        for key, value in detail.items():
            inner = key if key != "non_field_errors" else ""
            found += _located(value, f"{place}.{inner}" if place and inner else place or inner)
        return found
    if isinstance(detail, list):
        if all(not isinstance(item, (Mapping, list)) for item in detail):
            return [
                {"code": getattr(item, "code", "invalid"), "place": place, "message": str(item)}
                for item in detail
            ]
        found = []
        for index, item in enumerate(detail):
            found += _located(item, f"{place}[{index}]")
        return found
    return [{"code": getattr(detail, "code", "invalid"), "place": place, "message": str(detail)}]


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Every refusal of a body has one shape: ``detail`` and its located ``problems``. Every
    404 says the same words (DRF's, in the request's language): its reason (an unpublished
    night, a model's name) would tell an outsider what exists."""
    if isinstance(exc, Http404):
        exc = NotFound()
    if isinstance(exc, ValidationError):
        return refusal(exc)
    if isinstance(exc, BodyRefused):
        problems = _located(exc.detail)
        detail = " ".join(
            f"{p['place']}: {p['message']}" if p["place"] else p["message"] for p in problems
        )
        return Response({"detail": detail, "problems": problems}, status=exc.status_code)
    return drf_exception_handler(exc, context)
