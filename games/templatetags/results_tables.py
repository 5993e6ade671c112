"""``{% poule_tables rounds %}`` and ``{% night_standings standings slug %}``: the results page's
long tables (``games.presenters.results``), drawn by their Jinja2 templates
(``jinja2/games/``).

A 40-player night has hundreds of deals and thousands of numbers: drawn cell by cell by
Django's template language, they were most of the page's time; Jinja2 compiles a template to
Python and draws them in a fraction of it (``manage.py bench --only results``).
"""

from __future__ import annotations

from django import template
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

from infra.addresses import address_parts

from ..presenters.results import NightStandingLine, RoundResults

register = template.Library()


@register.simple_tag
def poule_tables(rounds: list[RoundResults]) -> SafeString:
    """Each round's section: its poules' articles, each with its players, sheet (deals and
    totals) and standings."""
    return mark_safe(
        get_template("games/poule_tables.html", using="jinja2").render({"rounds": rounds})
    )


@register.simple_tag
def night_standings(standings: list[NightStandingLine], slug: str) -> SafeString:
    """The night's standings as table rows, each player's name linked to his page (one
    address reversed for the whole list)."""
    context = {"standings": standings, "player_address": address_parts("player", slug)}
    return mark_safe(get_template("games/night_standings.html", using="jinja2").render(context))
