"""The forms of an import's first two steps: the table (a file, or cells pasted), then which
column is which. Each import gives them its words (``club/views/member_import.py``,
``club/views/ranking_import.py``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .budget import TABLE_WORDS
from .files import MAX_BYTES, file_too_big, table_from_paste, table_read


class TableForm(forms.Form):
    """A table from a file or pasted; read whole when the form is cleaned (``rows``), or
    refused in words with nothing kept, naming the table as the import does
    (``table_words``: the places of ``budget.TABLE_WORDS``)."""

    table_words: dict[str, Any] = TABLE_WORDS

    file = forms.FileField(
        label=gettext_lazy("Fichier CSV ou Excel"),
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt,.xlsx,.html,.htm"}),
    )
    pasted = forms.CharField(
        label=gettext_lazy("Ou le tableau copié d'une page web"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload, pasted = data.get("file"), (data.get("pasted") or "").strip()
        try:
            if upload:
                if upload.size > MAX_BYTES:  # refused unread: the whole file would be in memory
                    raise file_too_big()
                data["rows"] = table_read(upload.name, upload.read())
            elif pasted:
                data["rows"] = table_from_paste(pasted)
            else:
                raise ValidationError(_("Choisissez un fichier ou collez le tableau."))
        except ValidationError as refused:
            # The reader's refusals in the import's words for its table.
            raise ValidationError(
                [
                    error.message % {**error.params, **self.table_words}
                    if error.params
                    else error.message
                    for error in refused.error_list
                ]
            ) from None
        return data


class ColumnsForm(forms.Form):
    """Whether the first row names the columns, and which column holds each of the import's
    data (``columns``: its key and label; ``required_columns``: those the import cannot do
    without). An import adds its own fields and checks."""

    columns: dict[str, Any] = {}
    required_columns: frozenset[str] = frozenset()

    header = forms.BooleanField(
        label=gettext_lazy("La première ligne nomme les colonnes"), required=False
    )

    def __init__(self, *args: Any, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for key, label in self.columns.items():
            self.fields[key] = forms.TypedChoiceField(
                label=label,
                choices=[("", "—"), *choices],
                coerce=int,
                empty_value=None,
                required=key in self.required_columns,
            )

    def chosen(self) -> dict[str, int | None]:
        """Each datum's column (None: not in the table)."""
        return {key: self.cleaned_data.get(key) for key in self.columns}
