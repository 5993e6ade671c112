"""The one text rule for every name the site stores: a player's, a club's (its name, short
name and town), a federation's, a season's, a night's, a point table's, an API key's, a
sign-up's and a join request's.

A name holds no character a page does not show (controls, right-to-left overrides and the
other bidirectional marks, zero-width characters, the soft hyphen…): « Club \\u202egnp.exe »
would read « Club exe.png » on every page and in the operator's e-mail, and « Bruno\\u200bLemaire »
would pass for « Bruno Lemaire » while being another name to a club's unique-name rule. Such a
name is refused in one set of words, naming the character, rather than silently cleaned: the
person who typed it retypes it. A name is stored composed (NFC: « é » one character, as most
keyboards type it), trimmed, its runs of spaces folded, and no longer than its field.

Every door reads it: ``NameField`` (a model field: ``full_clean()``, model forms and DRF's
model serializers apply it), ``NameFormField`` (a form that stores a name elsewhere, the
sign-up's answers) and ``name_checked`` (a service or an import that builds its rows itself)."""

from __future__ import annotations

import unicodedata
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

# Unicode's controls (NUL, tabs…), format characters (every bidirectional mark and override,
# the zero-width spaces and joiners, the word joiner, the byte-order mark, the soft hyphen…)
# and lone surrogates: no page shows them.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})
# Letters and marks that are drawn as nothing though Unicode does not class them as format
# characters: the Hangul fillers, the braille blank, the combining grapheme joiner.
BLANK_CHARACTERS = frozenset("\u034f\u115f\u1160\u2800\u3164\uffa0")

HIDDEN_REFUSAL = _("Ce nom contient un caractère invisible (%(codes)s) : retapez-le.")


def is_hidden(character: str) -> bool:
    return unicodedata.category(character) in HIDDEN_CATEGORIES or character in BLANK_CHARACTERS


def hidden_characters(text: str) -> list[str]:
    """The characters of ``text`` that no page shows, as "U+200B" (empty: none)."""
    return [f"U+{ord(c):04X}" for c in text if is_hidden(c)]


def hidden_codes(text: str) -> str:
    """The hidden characters of ``text`` named once each, "U+202E, U+200B" (empty: none)."""
    return ", ".join(dict.fromkeys(hidden_characters(text)))


def tidy_name(name: str) -> str:
    """A name as it is stored: composed accents (NFC), trimmed, single spaces."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def validate_name_text(value: Any) -> None:
    """The rule's refusal, as a validator: a name holding a character no page shows."""
    if isinstance(value, str) and (codes := hidden_codes(value)):
        raise ValidationError(HIDDEN_REFUSAL, code="hidden_character", params={"codes": codes})


def name_checked(value: str, max_length: int | None = None) -> str:
    """A name typed anywhere, as it is stored (``tidy_name``), or its refusal in the rule's
    words: a hidden character, or longer than ``max_length`` once tidied."""
    validate_name_text(value)
    value = tidy_name(value)
    if max_length is not None and len(value) > max_length:
        raise ValidationError(
            _("Ce nom est trop long (%(max)s caractères au plus).") % {"max": max_length},
            code="max_length",
        )
    return value


class NameFormField(forms.CharField):
    """A form's name: refused by the rule as typed, cleaned as stored."""

    default_validators = [validate_name_text]

    def to_python(self, value: Any) -> str:
        # The rule reads the name as typed: a tab or a newline inside is refused, not folded.
        validate_name_text(value)
        text = super().to_python(value)
        return tidy_name(text) if text else text


class NameField(models.CharField):
    """A model's name: ``full_clean()`` refuses a hidden character (in the rule's words) and
    stores the name tidied; a model form and a DRF model serializer read the same validator."""

    default_validators = [validate_name_text]

    def clean(self, value: Any, model_instance: models.Model | None) -> Any:
        # Checked as typed, before the spaces are folded: a tab inside is refused.
        validate_name_text(value)
        if isinstance(value, str):
            value = tidy_name(value)
        return super().clean(value, model_instance)

    def formfield(self, **kwargs: Any) -> forms.Field:
        if not self.choices:
            kwargs.setdefault("form_class", NameFormField)
        return super().formfield(**kwargs)
