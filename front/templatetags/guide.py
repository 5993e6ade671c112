"""``{% ui "Ajouter un joueur" "members" %}``: a button's or a link's name as the guide quotes
it, taken from the page's own translation string (the same msgid, so the guide says what the
button says in every language), between the reader's quotation marks, marked with the page
that shows it. tests/front/test_guide.py renders each named page and fails when the name is
no longer there; the browser walk (tests/e2e/test_guide_walk.py) clicks through them."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext, pgettext

register = template.Library()

# Each language's quotation marks around a name quoted (French with no-break spaces inside).
QUOTES = {"fr": ("«\u00a0", "\u00a0»"), "nl": ("„", "”"), "en": ("“", "”")}


@register.simple_tag
def ui(name: str, page: str, context: str = "") -> SafeString:
    """The name ``name`` (a msgid of the page ``page``, a URL name), translated and quoted."""
    text = pgettext(context, name) if context else gettext(name)
    before, after = QUOTES.get((get_language() or "fr")[:2], QUOTES["fr"])
    return format_html(
        '<strong class="ui" data-page="{}">{}{}{}</strong>', page, before, text, after
    )
