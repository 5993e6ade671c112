"""``{{ value|or_unknown }}``: a figure the site does not know (what an imported ranking's
table did not give: game points, nights won …) is shown "—" with its reason, never as 0."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def or_unknown(value: Any) -> Any:
    if value is None:
        return format_html(
            '<abbr class="unknown" title="{}">—</abbr>',
            _("Inconnu : le classement importé ne le donne pas"),
        )
    return value
