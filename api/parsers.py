"""The API's one reader of JSON bodies: strict before it parses, so that no body can cost the
site more than its kind is worth.

- **Size**: a body is refused with 413 before it is read past its kind's cap (a night file to
  import: ``API_IMPORT_MAX_BYTES``, 10 MB by default; any other body, a deal: 64 kB).
- **Nesting**: the brackets are counted before the JSON parser recurses (Python's parser
  would crash past ~1 000 levels); past ``MAX_DEPTH`` the body is refused with 400.
- **Text**: a NUL character or a lone UTF-16 surrogate (``"\\ud800"``), in a key or a value, is
  refused with 400 naming its place: no database stores them.

Every refusal has the API's error shape (``detail`` and located ``problems``)."""

from __future__ import annotations

import json
import re
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ErrorDetail, ParseError
from rest_framework.exceptions import ValidationError as BodyRefused
from rest_framework.parsers import JSONParser
from rest_framework.utils.json import strict_constant

# Any body but a night file: a deal is a few hundred bytes; a correction, a token's name,
# a season's rules, a few kB at most.
DEFAULT_MAX_BYTES = 64 * 1024
# The URL names whose bodies are night files (club-night/1 documents, or a list of them).
IMPORT_VIEWS = {"night-import"}
# Deeper than any document the API takes (a night file nests about 6 levels).
MAX_DEPTH = 32

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


class BodyTooLarge(BodyRefused):
    status_code = 413
    default_code = "too_large"


def max_bytes(parser_context: dict[str, Any] | None) -> int:
    request = (parser_context or {}).get("request")
    match = getattr(request, "resolver_match", None)
    if match is not None and match.url_name in IMPORT_VIEWS:
        return settings.API_IMPORT_MAX_BYTES
    return DEFAULT_MAX_BYTES


def _refused(code: str, place: str, message: str, kind: type[BodyRefused] = BodyRefused) -> Any:
    return kind({place or "body": [ErrorDetail(message, code)]})


def depth(text: str) -> int:
    """How deep the JSON text's arrays and objects nest (its strings skipped)."""
    deepest = level = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub('""', text)):
        level += 1 if bracket in "[{" else -1
        deepest = max(deepest, level)
    return deepest


def text_problem(value: Any) -> tuple[str, str] | None:
    """The first key or string of a parsed body that no database stores: (its place, why)."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, place = stack.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                inner_place = f"{place}.{key}" if place else str(key)
                if why := _unstorable(key):
                    return place or "body", why
                stack.append((inner, inner_place))
        elif isinstance(item, list):
            stack.extend((inner, f"{place}[{n}]") for n, inner in enumerate(item))
        elif isinstance(item, str) and (why := _unstorable(item)):
            return place or "body", why
    return None


def _unstorable(text: str) -> str | None:
    if "\x00" in text:
        return _("contient un caractère NUL")
    if any("\ud800" <= c <= "\udfff" for c in text):
        return _("contient un demi-caractère UTF-16 isolé (\\ud800–\\udfff)")
    return None


class StrictJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        cap = max_bytes(parser_context)
        raw = stream.read(cap + 1) if stream is not None else b""
        if len(raw) > cap:
            raise _refused(
                "too_large",
                "body",
                _("Corps de requête trop grand : au plus %(kb)s ko.") % {"kb": cap // 1024},
                BodyTooLarge,
            )
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError) as error:
            raise ParseError(
                _("Le corps n'est pas du texte %(encoding)s.") % {"encoding": encoding}
            ) from error
        if depth(text) > MAX_DEPTH:
            raise _refused(
                "too_deep",
                "body",
                _("Imbriqué trop profondément : au plus %(levels)s niveaux.")
                % {"levels": MAX_DEPTH},
            )
        try:
            data = json.loads(text, parse_constant=strict_constant if self.strict else None)
        except (ValueError, RecursionError) as error:
            raise ParseError(_("JSON illisible : %(error)s") % {"error": error}) from error
        if problem := text_problem(data):
            place, why = problem
            raise _refused("unstorable_text", place, why)
        return data
