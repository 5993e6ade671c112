"""The Jinja2 environment of the few long tables Django's template language draws too slowly
(``jinja2/``: the results page's poules and standings, Mes résultats' nights, a player's rating
history): the same filters as the Django templates (``points``, ``date``), ``url``, and
translations by Django's gettext. Escaping is on, as in every Django template.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import conditional_escape
from django.utils.translation import gettext, ngettext
from jinja2 import Environment
from markupsafe import Markup

from club.templatetags.figures import points


def url(name: str, *args: Any) -> str:
    """``{% url name arg … %}``."""
    return reverse(name, args=args)


def escaped(value: Any) -> Markup:
    """What ``{{ … }}`` writes, escaped as Django escapes it (an apostrophe as ``&#x27;``,
    where Jinja2 alone writes ``&#39;``): the pages read the same whichever engine drew
    them. What is already safe is written as it is."""
    return Markup(conditional_escape(value))


def environment(**options: Any) -> Environment:
    env = Environment(extensions=["jinja2.ext.i18n"], finalize=escaped, **options)
    # Plain gettext: what it returns is text like any other, escaped where it is written (as
    # ``{% translate %}`` writes it).
    env.install_gettext_callables(gettext, ngettext)
    env.globals["url"] = url
    env.filters["points"] = points
    env.filters["date"] = date_format
    return env
